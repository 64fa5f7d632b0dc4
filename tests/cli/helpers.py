"""Driving the ``pocketarena`` program in-process with scripted keyboard input."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

import pocketarena as pa
from pocketarena.cli.main import app


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=input)


def play_vs_random(game_id: str, save: Path, seed: int, input: str, *extra: str) -> Result:
    """``play GAME --vs random --seed N --save FILE`` with scripted keys."""
    args = ["play", game_id, *extra, "--vs", "random", "--seed", str(seed), "--save", str(save)]
    return run(*args, input=input)


def assert_clean_error(result: Result, code: int, *fragments: str) -> None:
    """Failed with ``code``, one line on the screen, no traceback, saying each fragment."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def keep_pressing(game: pa.Game) -> str:
    """Input that plays a whole game: Enter to throw, 1 to play the first listed move (each line
    is refused harmlessly where the other is expected), enough of them for the longest game."""
    return "\n1\n" * (game.info.max_game_length + 5)


def saved_path(output: str) -> Path:
    for line in output.splitlines():
        if line.startswith("Saved the game record to "):
            return Path(line.removeprefix("Saved the game record to ").strip())
    raise AssertionError(f"no record was saved:\n{output}")
