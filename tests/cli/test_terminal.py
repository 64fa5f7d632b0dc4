"""The prompt in a real (pseudo-)terminal, 80 columns wide: line editing, history kept between
sessions and Tab completion of the legal moves, as a person types them."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from pocketarena.records import load

UP, LEFT, BACKSPACE, TAB = "\x1b[A", "\x1b[D", "\x7f", "\t"
ESCAPES = r"(?:\x1b\[[0-9;?]*[A-Za-z])*"


def shown(text: str) -> str:
    """A pattern for ``text`` as the terminal receives it: styles and cursor moves may come
    between any two characters."""
    return ESCAPES.join(re.escape(ch) for ch in text)


def spawn(home: Path, *args: str) -> pexpect.spawn:
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_DATA_HOME": str(home / "data"),
        "TERM": "xterm",
        "NO_COLOR": "1",
        "COLUMNS": "80",
        "LINES": "40",
        # No terminal emulator answers the cursor-position query here; do not wait for one.
        "PROMPT_TOOLKIT_NO_CPR": "1",
    }
    child = pexpect.spawn(
        sys.executable,
        ["-m", "pocketarena", *args],
        env=env,
        dimensions=(40, 80),
        encoding="utf-8",
        timeout=60,
    )
    return child


def finish(child: pexpect.spawn) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before


def test_editing_history_and_completion_at_the_play_prompt(tmp_path: Path) -> None:
    save = tmp_path / "game.txt"
    child = spawn(tmp_path, "play", "stack-a-cash", "--vs", "human", "--save", str(save))
    child.expect(shown("Heads to move> "))
    # Tab completes a word: "pl" becomes "place ".
    child.send("pl" + TAB)
    child.expect(shown("place"))
    child.send("L b2\r")
    child.expect(shown("Heads plays place L b2"))
    child.expect(shown("Tails to move> "))
    # Up recalls the last line; two backspaces and new text edit its end.
    child.send(UP)
    child.expect(shown("place L b2"))
    child.send(BACKSPACE * 2 + "a1\r")
    child.expect(shown("Tails plays place L a1"))
    child.expect(shown("Heads to move> "))
    # Left moves into the line: "place M 3", one left, "c" makes "place M c3".
    child.send("place M 3" + LEFT + "c\r")
    child.expect(shown("Heads plays place M c3"))
    child.expect(shown("Tails to move> "))
    # With several completions Tab opens a menu ("mo": "move", "moves") and steps through
    # it; Enter takes the one picked, and a second Enter sends the line. The list then shows
    # only legal moves (both large coins are down).
    child.send("mo" + TAB)
    child.expect(shown("moves"))
    child.send(TAB + TAB + "\r" + "\r")
    child.expect(shown("1. place"))
    child.expect(shown("Tails to move> "))
    listing = "1. place" + re.sub(ESCAPES, "", child.before)
    assert "1. place M" in listing and "place S" in listing and "place L" not in listing
    child.send("quit\r")
    child.expect(shown("Saved the game record to"))
    finish(child)
    assert load(save).moves == ["place L b2", "place L a1", "place M c3"]

    # History is kept between sessions: Up at a new prompt brings back "quit".
    child = spawn(tmp_path, "play", "--resume", str(save))
    child.expect(shown("Resumed after 3 moves."))
    child.expect(shown("Tails to move> "))
    child.send(UP)
    child.expect(shown("quit"))
    child.send("\r")
    child.expect(shown("Go on later with: pocketarena play --resume"))
    finish(child)


def test_completion_offers_the_next_word_of_legal_moves(tmp_path: Path) -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from pocketarena.cli.prompt import WordCompleter

    candidates = ["place tank a1 r0", "place trex a1 r0", "place twin b2 r0", "moves", "quit"]
    completer = WordCompleter(lambda: candidates)

    def offered(typed: str) -> list[tuple[str, str]]:
        document = Document(typed, len(typed))
        return [
            (c.text, c.display_text) for c in completer.get_completions(document, CompleteEvent())
        ]

    assert offered("") == [("place ", "place"), ("moves", "moves"), ("quit", "quit")]
    assert offered("place t") == [("tank ", "tank"), ("trex ", "trex"), ("twin ", "twin")]
    assert offered("PLACE TW") == [("twin ", "twin")]
    assert offered("place twin b2 ") == [("r0", "r0")]
    assert offered("place knight ") == []


def test_replay_prompt_in_a_terminal(tmp_path: Path) -> None:
    record = tmp_path / "g.txt"
    record.write_text('[Game "stack-a-cash"]\n\nplace L b2\nplace M a1\n*\n')
    child = spawn(tmp_path, "replay", str(record))
    child.expect(shown("replay> "))
    child.send("e" + TAB)
    child.expect(shown("end"))
    child.send("\r")
    child.expect(shown("Move 2/2: place M a1"))
    child.expect(shown("replay> "))
    child.send("q\r")
    finish(child)


@pytest.mark.parametrize("keys", ["\x03", "\x04"], ids=["ctrl-c", "ctrl-d"])
def test_ctrl_c_and_ctrl_d_stop_cleanly(tmp_path: Path, keys: str) -> None:
    save = tmp_path / "g.txt"
    child = spawn(tmp_path, "play", "stack-a-cash", "--vs", "random", "--save", str(save))
    child.expect(shown("Heads (you) to move> "))
    child.send("place L b2\r")
    child.expect(shown("Tails (random) plays"))
    child.expect(shown("Heads (you) to move> "))
    child.send(keys)
    child.expect(shown("Game stopped unfinished."))
    child.expect(shown("Go on later with"))
    finish(child)
    assert "Traceback" not in (child.before or "")
    assert load(save).termination == "abandoned"
