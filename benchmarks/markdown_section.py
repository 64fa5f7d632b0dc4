"""What every benchmark script shares: replacing its own section of docs/benchmarks.md
(between its start and end markers) and keeping what the others wrote, and stopping on Ctrl-C
as the ``pocketarena`` commands do."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

INTERRUPTED = 130  # 128 + SIGINT, as shells report it and as the pocketarena commands exit


def run(main: Callable[[], int | None]) -> None:
    """Run a script's ``main`` and exit with its code; Ctrl-C prints one line saying what was
    kept (nothing: each script writes its figures only once every one is measured) and exits
    130, not a traceback."""
    try:
        print("Measuring; Ctrl-C stops without writing anything.", file=sys.stderr, flush=True)
        code = main()
    except KeyboardInterrupt:
        print("Interrupted: nothing was written (figures are written once all are measured).")
        sys.stdout.flush()
        raise SystemExit(INTERRUPTED) from None
    raise SystemExit(code or 0)


def write_section(path: Path, section: str, start: str, end: str) -> None:
    """Put ``section`` (which begins with ``start`` and ends with ``end``) in place of the old
    one in ``path``, or after everything else when the file has none yet."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    if start in text and end in text:
        before, rest = text.split(start, 1)
        text = before + section + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
