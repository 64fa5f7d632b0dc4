"""``pocketarena replay FILE``: step through a game record, or check it with ``--check``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

import pocketarena as pa
from pocketarena.core import message
from pocketarena.messages import speak
from pocketarena.records import Record, load, termination_message

from . import drawing
from .common import (
    FAILED,
    N_,
    _,
    console,
    err_console,
    fail,
    ngettext,
    quiet_flag,
    say,
    scores_line,
    seat_word,
    talk,
    verbose_flag,
)


def help_text() -> str:
    return _("n or Enter: next · b: back · j N: jump to move N · s: start · e: end · q: quit")


COMMANDS = ("next", "back", "jump", "start", "end", "quit")


def termination_word(termination: str | None) -> str:
    """How a game ended (a record's termination, or none) in the reader's words."""
    return speak(termination_message(termination))


def _summary(record: Record, state: pa.State) -> str:
    a, b = (f"{s:g}" for s in state.scores())
    ended = record.termination
    how = f" ({termination_word(ended)})" if ended and ended != "normal" else ""
    n = len(record.moves)
    moves = ngettext("%(count)s move", "%(count)s moves", n, count=n)
    return _(
        "%(game)s: %(moves)s, result %(result)s%(how)s, scores %(a)s-%(b)s",
        game=record.game,
        moves=moves,
        result=record.result,
        how=how,
        a=a,
        b=b,
    )


def move_heading(game: pa.Game, state: pa.State, before: pa.State, total: int) -> str:
    """The line naming a position's last move: "Move 3/17: place L b2  (the game's sentence)"."""
    last = state.history[-1]
    sentence = drawing.describe(game, last, before)
    said = f"  [dim]{escape(sentence)}[/]" if sentence else ""
    heading = _(
        "Move %(number)s/%(total)s: %(move)s",
        number=len(state.history),
        total=total,
        move=f"[bold]{escape(last.text)}[/]",
    )
    return heading + said


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
            self.problem = speak(e.message)
        # Every move is legal; does the record also hold up as a whole (the result and scores
        # it states, seeded throws)? If not, the end says so rather than the stated result.
        self.doubt: str | None = None
        if self.problem is None:
            try:
                record.replay()
            except pa.RecordError as e:
                self.doubt = speak(e.message)
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
            heading = _("Start (0/%(total)s)", total=total)
        else:
            heading = move_heading(self.game, state, self.states[self.position - 1], total)
        say(heading)
        for comment in self.comments.get(self.position, []):
            say(f"[italic]# {escape(comment)}[/]")
        console.print(drawing.board(state, last=last))
        say(scores_line(state))
        if self.position == self.end:
            if self.problem:
                said = _("The record stops here: %(why)s", why=escape(self.problem))
                say(f"[red]{said}[/]")
            elif self.doubt:
                said = _(
                    "End of the moves; the record does not hold up: %(why)s", why=escape(self.doubt)
                )
                say(f"[red]{said}[/]")
            elif self.record.result == "*":
                how = termination_word(self.record.termination)
                said = _(
                    "End of the record: the game stopped unfinished (%(how)s)", how=escape(how)
                )
                say(f"[bold]{said}[/]")
            else:
                said = _("End of the record: %(result)s", result=escape(self.record.result))
                say(f"[bold]{said}[/]")

    def no_move(self, target: int) -> None:
        said = _(
            "There is no move %(number)s; the record goes to move %(last)s.",
            number=target,
            last=self.end,
        )
        say(f"[red]{said}[/]")

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
                self.no_move(target)
                return True
        elif command.isdigit() and len(words) == 1:
            target = int(command)
            if target > self.end:
                self.no_move(target)
                return True
        else:
            say(help_text())
            return True
        if target < 0:
            say(_("Already at the start."))
        elif target > self.end:
            say(_("Already at the end."))
        else:
            self.position = target
            self.show()
        return True


def replay(
    file: Annotated[
        Path,
        typer.Argument(metavar="FILE", help=N_("A record (JSON or text)."), show_default=False),
    ],
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help=N_("Validate the record and print its result, or the illegal move and why."),
        ),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help=N_(
                "With --check: print the verdict as JSON (ok, game, moves, result, "
                "termination, scores, problem)."
            ),
        ),
    ] = False,
    quiet: Annotated[
        bool, quiet_flag(N_("With --check: only the verdict (the result or the error)."))
    ] = False,
    verbose: Annotated[
        bool, verbose_flag(N_("With --check: a line for each move before the verdict."))
    ] = False,
) -> None:
    """Step through a game record, or check it with --check."""
    talking = talk(quiet, verbose)
    try:
        record = load(file)
    except pa.RecordError as e:
        fail(speak(e.message))
    if as_json and not check:
        fail(_("--json goes with --check (the replay itself is interactive)"))
    if talking and not check:
        fail(_("--quiet and --verbose go with --check (the replay itself is interactive)"))
    if check:
        if talking > 0:
            say_moves(record, as_json)
        try:
            state = record.replay()
        except pa.RecordError as e:
            if as_json:
                console.print_json(
                    json.dumps({"ok": False, "game": record.game, "problem": str(e)})
                )
                raise typer.Exit(FAILED) from None
            fail(speak(message("record.in-file", path=file, problem=e.message)), FAILED)
        if as_json:
            verdict = {
                "ok": True,
                "game": record.game,
                "moves": len(record.moves),
                "result": record.result,
                "termination": record.termination,
                "scores": list(state.scores()),
            }
            console.print_json(json.dumps(verdict))
            return
        say(f"ok: {escape(_summary(record, state))}")
        return
    viewer = Viewer(record)
    first, second = (
        _("%(seat)s (%(name)s)", seat=seat_word(viewer.game, i), name=escape(speak(p.said())))
        for i, p in enumerate(record.players)
    )
    players = _("%(first)s vs %(second)s", first=first, second=second)
    say(f"[bold]{escape(viewer.game.TITLE)}[/]  {players}")
    say(f"[dim]{help_text()}[/]")
    if viewer.doubt:
        warning = _("Warning: %(why)s", why=escape(viewer.doubt))
        say(f"[red]{warning}[/]")
    viewer.show()
    from .prompt import LineReader  # prompt_toolkit only for the commands that ask

    reader = LineReader("replay", lambda: COMMANDS)
    while True:
        try:
            line = reader.read(_("replay"))
        except (EOFError, KeyboardInterrupt):
            say()
            return
        if not viewer.handle(line):
            return


def say_moves(record: Record, as_json: bool) -> None:
    """``--check -v``: a line for each move that can be played, before the verdict (on
    standard error when standard output is for JSON)."""
    game = record.load_game()
    total = len(record.moves)
    before: pa.State | None = None
    try:
        for state in record.walk():
            if before is not None:
                line = move_heading(game, state, before, total)
                (err_console if as_json else console).print(line, soft_wrap=True)
            before = state
    except pa.RecordError:
        return  # the verdict says why


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
