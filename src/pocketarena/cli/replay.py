"""``pocketarena replay FILE``: step through a game record, or check it with ``--check``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

import pocketarena as pa
from pocketarena.records import Record, load

from . import drawing
from .common import FAILED, console, fail, plural, say, scores_line

HELP = "n or Enter: next · b: back · j N: jump to move N · s: start · e: end · q: quit"
COMMANDS = ("next", "back", "jump", "start", "end", "quit")


def _summary(record: Record, state: pa.State) -> str:
    a, b = (f"{s:g}" for s in state.scores())
    how = (
        f" ({record.termination})" if record.termination and record.termination != "normal" else ""
    )
    moves = plural(len(record.moves), "move")
    return f"{record.game}: {moves}, result {record.result}{how}, scores {a}-{b}"


class Viewer:
    """A record's positions, one at a time."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.game = record.load_game()
        self.states: list[pa.State] = []
        self.problem: str | None = None
        try:
            for state in record.walk():
                self.states.append(state)
        except pa.RecordError as e:
            self.problem = str(e)
        # Every move is legal; does the record also hold up as a whole (the result and scores
        # it states, seeded throws)? If not, the end says so rather than the stated result.
        self.doubt: str | None = None
        if self.problem is None:
            try:
                record.replay()
            except pa.RecordError as e:
                self.doubt = str(e)
        self.comments: dict[int, list[str]] = {}
        for before, text in record.comments:
            self.comments.setdefault(before, []).append(text)
        self.position = 0

    @property
    def end(self) -> int:
        return len(self.states) - 1

    def show(self) -> None:
        state = self.states[self.position]
        last = state.history[-1] if state.history else None
        total = len(self.record.moves)
        if last is None:
            heading = f"Start (0/{total})"
        else:
            sentence = drawing.describe(self.game, last, self.states[self.position - 1])
            said = f"  [dim]{escape(sentence)}[/]" if sentence else ""
            heading = f"Move {self.position}/{total}: [bold]{escape(last.text)}[/]{said}"
        say(heading)
        for comment in self.comments.get(self.position, []):
            say(f"[italic]# {escape(comment)}[/]")
        console.print(drawing.board(state, last=last))
        say(scores_line(state))
        if self.position == self.end:
            if self.problem:
                say(f"[red]The record stops here: {escape(self.problem)}[/]")
            elif self.doubt:
                say(f"[red]End of the moves; the record does not hold up: {escape(self.doubt)}[/]")
            elif self.record.result == "*":
                how = self.record.termination or "unfinished"
                say(f"[bold]End of the record: the game stopped unfinished ({escape(how)})[/]")
            else:
                say(f"[bold]End of the record: {escape(self.record.result)}[/]")

    def handle(self, line: str) -> bool:
        """Act on one command; False to quit."""
        words = line.strip().lower().split()
        command = words[0] if words else "n"
        if command in ("q", "quit", "exit"):
            return False
        target = self.position
        if command in ("n", "next"):
            target = self.position + 1
        elif command in ("b", "back", "p"):
            target = self.position - 1
        elif command in ("s", "start"):
            target = 0
        elif command in ("e", "end"):
            target = self.end
        elif command in ("j", "jump") and len(words) == 2 and words[1].isdigit():
            target = int(words[1])
            if target > self.end:
                say(f"[red]There is no move {target}; the record goes to move {self.end}.[/]")
                return True
        elif command.isdigit() and len(words) == 1:
            target = int(command)
            if target > self.end:
                say(f"[red]There is no move {target}; the record goes to move {self.end}.[/]")
                return True
        else:
            say(HELP)
            return True
        if target < 0:
            say("Already at the start.")
        elif target > self.end:
            say("Already at the end.")
        else:
            self.position = target
            self.show()
        return True


def replay(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="A record (JSON or text).", show_default=False)
    ],
    check: Annotated[
        bool,
        typer.Option(
            "--check", help="Validate the record and print its result, or the illegal move and why."
        ),
    ] = False,
) -> None:
    """Step through a game record, or check it with --check."""
    try:
        record = load(file)
    except pa.RecordError as e:
        fail(str(e), FAILED if check and file.is_file() else 2)
    if check:
        try:
            state = record.replay()
        except pa.RecordError as e:
            fail(f"{file}: {e}", FAILED)
        say(f"ok: {escape(_summary(record, state))}")
        return
    viewer = Viewer(record)
    players = " vs ".join(
        f"{seat} ({escape(p.name)})"
        for seat, p in zip(viewer.game.SEATS, record.players, strict=True)
    )
    say(f"[bold]{escape(viewer.game.TITLE)}[/]  {players}")
    say(f"[dim]{HELP}[/]")
    if viewer.doubt:
        say(f"[red]Warning: {escape(viewer.doubt)}[/]")
    viewer.show()
    from .prompt import LineReader  # prompt_toolkit only for the commands that ask

    reader = LineReader("replay", lambda: COMMANDS)
    while True:
        try:
            line = reader.read("replay")
        except (EOFError, KeyboardInterrupt):
            say()
            return
        if not viewer.handle(line):
            return


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
