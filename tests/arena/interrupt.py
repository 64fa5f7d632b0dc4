"""Ctrl-C to a real ``pocketarena arena`` run (a pseudo-terminal) once a game has finished."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path


def interrupt_arena(out: Path, *extra: str) -> str:
    """Start an arena of 12 games writing to ``out``, press Ctrl-C after the first finished
    game; check it stopped with 130, no traceback, and the finished games saved; the output."""
    import pexpect

    child = pexpect.spawn(
        sys.executable,
        ["-m", "pocketarena", "arena", "stack-a-cash", "--bots", "random,greedy,mcts:20000"]
        + ["--games", "4", "--jobs", "2", "--no-plots", "--out", str(out), *extra],
        env={**os.environ, "COLUMNS": "100"},
        encoding="utf-8",
        timeout=180,
        # SIGINT's default again in the child, should this run have been started ignoring it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    styles = r"(?:\x1b\[[0-9;?]*[A-Za-z])*"
    child.expect(rf"[1-9]\d*{styles}/{styles}12{styles} {styles}games")  # a game has finished
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    text = child.before or ""
    assert child.exitstatus == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert "Interrupted: " in text
    data = json.loads((out / "summary.json").read_text())
    assert 0 < data["games"] < 12
    return str(text)
