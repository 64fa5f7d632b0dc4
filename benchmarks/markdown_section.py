"""The one piece every benchmark script shares: replacing its own section of
docs/benchmarks.md (between its start and end markers) and keeping what the others wrote."""

from __future__ import annotations

from pathlib import Path


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
