"""``pocketarena play GAME``: play in the terminal against a bot or a friend on the same screen."""

from __future__ import annotations

import random
import secrets
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import platformdirs
import typer
from rich.columns import Columns
from rich.markup import escape

import pocketarena as pa
from pocketarena.bots import bot_names, make_bot
from pocketarena.bots.base import Bot
from pocketarena.match import Match, SeededChance
from pocketarena.records import Player

from . import drawing
from .common import (
    FAILED,
    GameArg,
    MapOpt,
    ModeOpt,
    OptionOpt,
    ProtectOpt,
    console,
    fail,
    load_game,
    say,
    scores_line,
)

HELP = """\
Type a move in notation (e.g. the first listed by `moves`), or its number from the list.
  moves   list the legal moves, numbered (moves grenade c3: only those with these words)
  board   draw the board again
  undo    take back your last move (and the bot's reply)
  resign  give up the game
  quit    stop without finishing (the game is still saved)
  help    this text
At a throw, press Enter to throw the coins."""


class SeatChoice(StrEnum):
    first = "first"
    second = "second"
    random = "random"


def default_record_path(game: pa.Game) -> Path:
    """Where a finished game is kept unless ``--save`` says otherwise: the user's data dir."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return platformdirs.user_data_path("pocketarena") / "games" / f"{game.ID}-{stamp}.txt"


class TerminalGame:
    """The conversation with the person at the keyboard around one Match."""

    def __init__(self, match: Match, humans: list[int]) -> None:
        self.match = match
        self.game = match.game
        self.humans = humans
        self.drawn_at = -1  # the ply the board was last drawn at

    # -- what the screen shows --------------------------------------------------------
    def who(self, seat: int) -> str:
        player = self.match.players[seat]
        name = "you" if player.kind == "human" and len(self.humans) == 1 else player.name
        return f"{self.game.SEATS[seat]} ({escape(name)})"

    def draw(self, force: bool = False) -> None:
        state = self.match.state
        if self.drawn_at == state.ply and not force:
            return
        self.drawn_at = state.ply
        console.print(drawing.board(state, last=self.match.last))
        say(scores_line(state))

    def announce(self, mover: int, action: pa.Action) -> None:
        sentence = escape(drawing.describe(self.game, action))
        said = f"  [dim]{sentence}[/]" if sentence else ""
        if action.chance:
            say(f"[bold]Throw:[/] {escape(action.text)}{said}")
        else:
            say(f"{self.who(mover)} plays [bold]{escape(action.text)}[/]{said}")

    def list_moves(self, words: str = "") -> None:
        """The legal moves, numbered; ``words`` keeps those whose notation contains them all
        (``moves grenade c3``), numbers unchanged. Long lists are laid out in columns."""
        legal = self.match.state.legal_actions()
        wanted = words.lower().split()
        width = len(str(len(legal)))
        entries = [
            f"{number:>{width}}. {escape(action.text)}"
            for number, action in enumerate(legal, start=1)
            if all(w in action.text.lower() for w in wanted)
        ]
        if not entries:
            say(f"No legal move contains {words!r}.")
        elif len(entries) <= 20:
            for entry in entries:
                say(f"  {entry}")
        else:
            console.print(Columns(entries, padding=(0, 3)))

    # -- the loop -----------------------------------------------------------------------
    def run(self) -> None:
        """Play until the game ends, someone resigns or the person leaves (quit, Ctrl-C, or
        the end of their input)."""
        match = self.match
        try:
            while not match.over:
                if not match.human_to_act():
                    mover = match.state.current_player
                    action = match.step()
                    self.announce(mover, action)
                    continue
                self.draw()
                self.handle(self.ask())
        except (EOFError, KeyboardInterrupt):
            say()
            match.abandon()

    def ask(self) -> str:
        state = self.match.state
        if state.is_chance_node():
            prompt = "Press Enter to throw the coins"
        else:
            prompt = f"{self.who(state.current_player)} to move"
        return console.input(f"[bold cyan]{prompt}>[/] ")

    def handle(self, line: str) -> None:
        match = self.match
        text = line.strip()
        command = text.lower()
        if command in ("help", "?", "h"):
            say(escape(HELP))
        elif command.split()[:1] in (["moves"], ["m"]):
            if match.state.is_chance_node():
                say("The coins must be thrown first: press Enter.")
            else:
                self.list_moves(text.partition(" ")[2])
        elif command == "board":
            self.draw(force=True)
        elif command == "undo":
            self.undo()
        elif command == "resign":
            self.resign()
        elif command in ("quit", "exit", "q"):
            match.abandon()
        elif match.state.is_chance_node():
            if text:
                say("Press Enter to throw the coins (or type help).")
                return
            action = match.throw()
            self.announce(-1, action)
        elif not text:
            say("Type a move, its number from `moves`, or help.")
        else:
            self.move(text)

    def move(self, text: str) -> None:
        mover = self.match.state.current_player
        try:
            action = self.match.play(int(text) if text.isdigit() else text)
        except pa.IllegalActionError as e:
            say(f"[red]{escape(str(e))}[/]")
            return
        self.announce(mover, action)

    def undo(self) -> None:
        seat = self.humans[0] if len(self.humans) == 1 else None
        try:
            taken = self.match.undo(seat)
        except pa.IllegalActionError as e:
            say(f"[red]{escape(str(e))}[/]")
            return
        say(f"Took back {taken} move{'s' if taken != 1 else ''}.")
        self.drawn_at = -1

    def resign(self) -> None:
        state = self.match.state
        if len(self.humans) == 1:
            seat = self.humans[0]
        elif state.current_player >= 0:
            seat = state.current_player
        else:
            # Both seats are people and the coins are in the air: the last to decide resigns.
            deciders = [m for m in self.match.movers if m >= 0]
            seat = deciders[-1] if deciders else 0
        self.match.resign(seat)

    def finish(self) -> str:
        """Show how it ended; return the one-line result."""
        match = self.match
        self.draw()
        if match.resigned is not None:
            winner = 1 - match.resigned
            line = f"{self.who(match.resigned)} resigns: {self.who(winner)} wins, {match.result}."
        elif match.state.is_terminal():
            winner_seat = match.state.winner()
            if winner_seat is None:
                line = f"Draw, {match.result}."
            else:
                line = f"{self.who(winner_seat)} wins, {match.result}."
        else:
            line = "Game stopped unfinished."
        say(f"[bold]{line}[/]")
        return line


def play(
    game_id: GameArg,
    mode: ModeOpt = None,
    map: MapOpt = None,
    protect: ProtectOpt = None,
    option: OptionOpt = None,
    vs: Annotated[
        str,
        typer.Option(
            "--vs",
            help="Opponent: human (both seats here) or a bot: " + ", ".join(bot_names()) + ".",
        ),
    ] = "greedy",
    seat: Annotated[
        SeatChoice, typer.Option("--seat", help="Your seat against a bot.")
    ] = SeatChoice.first,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed for the coins and the bot (random if not given)."),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Where to save the record (.json for JSON, else text)."),
    ] = None,
    name: Annotated[str, typer.Option("--name", help="Your name in the record.")] = "human",
) -> None:
    """Play GAME in the terminal against a bot, or against a friend with --vs human."""
    if seed is None:
        seed = secrets.randbelow(2**31)
    # One seed drives everything random: the coins, the bot, a random map too.
    game = load_game(game_id, mode=mode, map=map, protect=protect, option=option, seed=seed)
    seats: list[Bot | None] = [None, None]
    players = [Player(name=name, kind="human"), Player(name=name, kind="human")]
    if vs.strip().lower() == "human":
        humans = [0, 1]
        players = [Player(name=f"{name} ({game.SEATS[i]})", kind="human") for i in (0, 1)]
    else:
        if seat is SeatChoice.random:
            human = random.Random(f"{seed}:seat").randrange(2)
        else:
            human = 0 if seat is SeatChoice.first else 1
        try:
            bot = make_bot(vs, game, seed=seed)
        except ValueError as e:
            fail(f"{e} (or human)")
        seats[1 - human] = bot
        players[1 - human] = Player(name=vs.strip().lower(), kind="bot")
        humans = [human]
    match = Match(
        game,
        seats,
        SeededChance(seed),
        players=players,
        seed=seed,
        headers={"Event": "Terminal play"},
    )
    options = ", ".join(f"{k}={v}" for k, v in game.options.items())
    say(f"[bold]{escape(game.TITLE)}[/] {escape(options)}  (seed {seed}; type help for commands)")
    terminal = TerminalGame(match, humans)
    say(" vs ".join(terminal.who(s) for s in (0, 1)))
    terminal.run()
    terminal.finish()
    if not match.state.history:
        say("No moves were played; nothing saved.")
        return
    path = save if save is not None else default_record_path(game)
    try:
        written = match.record().save(path)
    except OSError as e:
        fail(f"could not save the record to {path}: {e.strerror}", FAILED)
    say(f"Saved the game record to {escape(str(written))}")


def register(app: typer.Typer) -> None:
    app.command("play")(play)
