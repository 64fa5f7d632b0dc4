"""``pocketarena play GAME``: play in the terminal against a bot or a friend on the same screen."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.cells import cell_len
from rich.columns import Columns
from rich.console import RenderableType
from rich.markup import escape
from rich.pager import Pager
from rich.text import Text

import pocketarena as pa
from pocketarena.bots import make_bot
from pocketarena.bots.base import Bot
from pocketarena.core import format_options, fresh_seed
from pocketarena.match import Match, SeededChance
from pocketarena.messages import speak
from pocketarena.records import Player, Record, load

from . import drawing
from .common import (
    FAILED,
    N_,
    MapOpt,
    ModeOpt,
    OptionOpt,
    ProtectOpt,
    _,
    console,
    data_folder,
    fail,
    game_id_or_fail,
    game_options,
    load_or_fail,
    ngettext,
    path_typed,
    reason,
    say,
    scores_line,
    seat_word,
    writable_or_fail,
)


def help_text() -> str:
    """The play loop's help, in the reader's language (the command words stay as typed)."""
    return _(
        "Type a move in notation (e.g. the first listed by `moves`), or its number from the list.\n"
        "Where the board numbers its places (Coin Age's map), a move may use them: place Q 3.\n"
        "  moves   list the legal moves, numbered (moves grenade c3: only those with these words)\n"
        "  board   draw the board again\n"
        "  undo    take back your last move (and the bot's reply)\n"
        "  resign  give up the game\n"
        "  quit    stop without finishing (the game is saved; play --resume FILE goes on)\n"
        "  help    this text\n"
        "At a throw, press Enter to throw the coins. In a terminal, Tab completes moves and\n"
        "commands word by word, Up and Down recall earlier lines, Ctrl-R searches them."
    )


COMMANDS = ("moves", "board", "undo", "resign", "quit", "help")


def help_layout(text: str, width: int) -> Text:
    """The help for a terminal ``width`` columns wide: its prose folded between words (the
    lines of one sentence joined first), the command list's descriptions folded under
    themselves, not under their command; in cells, so in any script."""
    paragraphs: list[tuple[str, str]] = []  # (the command's column, or "", the words)
    for line in text.splitlines():
        command = re.fullmatch(r"(  \S+ +)(.*)", line)
        if command is not None:
            paragraphs.append((command[1], command[2]))
        elif paragraphs and not paragraphs[-1][0] and paragraphs[-1][1][-1:] not in ".!?。！？":
            paragraphs[-1] = ("", f"{paragraphs[-1][1]} {line}")  # a sentence goes on
        else:
            paragraphs.append(("", line))
    out = Text()
    for n, (lead, words) in enumerate(paragraphs):
        room = max(20, width - cell_len(lead))
        for i, folded in enumerate(Text(words).wrap(console, room)):
            folded.rstrip()
            out.append("\n" if n or i else "")
            out.append(lead if i == 0 else " " * cell_len(lead))
            out.append_text(folded)
    return out


# The pager a list too tall for the terminal goes through (rich's: $PAGER, else less/more).
PAGER: Pager | None = None


def show(listing: RenderableType) -> None:
    """``listing`` on the screen; on a terminal too short for it, through the pager (the list
    of a FlipWars opening holds some 700 moves), so its start does not scroll away."""
    lines = console.render_lines(listing, console.options, pad=False)
    if console.is_terminal and len(lines) > console.height - 2:
        with console.pager(pager=PAGER):  # plain text: less shows no colour codes unless -R
            console.print(listing)
    else:
        console.print(listing)


class SeatChoice(StrEnum):
    first = "first"
    second = "second"
    random = "random"


def default_record_path(game: pa.Game) -> Path:
    """Where a finished game is kept unless ``--save`` says otherwise: the user's data dir."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return data_folder() / "games" / f"{game.ID}-{stamp}.txt"


class TerminalGame:
    """The conversation with the person at the keyboard around one Match."""

    def __init__(self, match: Match, humans: list[int]) -> None:
        self.match = match
        self.game = match.game
        self.humans = humans
        self.drawn_at = -1  # the ply the board was last drawn at
        from .prompt import LineReader  # prompt_toolkit only for the commands that ask

        self.reader = LineReader(f"play-{self.game.ID}", self.completions)

    # -- what the screen shows --------------------------------------------------------
    def who(self, seat: int) -> str:
        """``Heads (you)``, ``Tails (greedy)``; on one screen for two people, the seat alone."""
        seat_name = seat_word(self.game, seat)
        if len(self.humans) == 2:
            return seat_name
        player = self.match.players[seat]
        name = _("you") if self.match.is_human(seat) else speak(player.said())
        return _("%(seat)s (%(name)s)", seat=seat_name, name=escape(name))

    def draw(self, force: bool = False) -> None:
        state = self.match.state
        if self.drawn_at == state.ply and not force:
            return
        self.drawn_at = state.ply
        console.print(drawing.board(state, last=self.match.last))
        say(scores_line(state))

    def announce(self, mover: int, action: pa.Action, before: pa.State) -> None:
        sentence = escape(drawing.describe(self.game, action, before))
        said = f"  [dim]{sentence}[/]" if sentence else ""
        # Wrapped between words: a sentence is read, not grepped, and must not be folded
        # mid-word ("up\n-left") by an 80-column terminal.
        if action.chance:
            throw = _("Throw:")
            console.print(f"[bold]{throw}[/] {escape(action.text)}{said}")
        else:
            console.print(
                _(
                    "%(who)s plays %(move)s",
                    who=self.who(mover),
                    move=f"[bold]{escape(action.text)}[/]",
                )
                + said
            )

    def completions(self) -> list[str]:
        """What Tab may complete now: the legal moves (at a decision) and the commands."""
        state = self.match.state
        moves = [] if state.current_player < 0 else [a.text for a in state.legal_actions()]
        return moves + list(COMMANDS)

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
            say(_("No legal move contains %(words)r.", words=words))
        elif len(entries) <= 20:
            for entry in entries:
                say(f"  {entry}")
        else:
            show(Columns(entries, padding=(0, 3)))

    # -- the loop -----------------------------------------------------------------------
    def run(self) -> None:
        """Play until the game ends, someone resigns or the person leaves (quit, Ctrl-C, or
        the end of their input)."""
        match = self.match
        try:
            while not match.over:
                if not match.human_to_act():
                    mover = match.state.current_player
                    before = match.state.clone()
                    action = match.step()
                    self.announce(mover, action, before)
                    continue
                self.draw()
                self.handle(self.ask())
        except (EOFError, KeyboardInterrupt):
            say()
            match.abandon()

    def ask(self) -> str:
        state = self.match.state
        if state.is_chance_node():
            prompt = _("Press Enter to throw the coins")
        else:
            prompt = _("%(who)s to move", who=self.who(state.current_player))
        return self.reader.read(prompt)

    def handle(self, line: str) -> None:
        match = self.match
        text = line.strip()
        command = text.lower()
        if command in ("help", "?", "h"):
            console.print(help_layout(help_text(), console.width))
        elif command.split()[:1] in (["moves"], ["m"]):
            if match.state.is_chance_node():
                say(_("The coins must be thrown first: press Enter."))
            else:
                self.list_moves(text.partition(" ")[2])
        elif command == "board":
            self.draw(force=True)
        elif command == "undo":
            self.undo()
        elif command == "resign":
            if self.confirm_resign():
                self.resign()
            else:
                say(_("Not resigned; the game goes on."))
        elif command in ("quit", "exit", "q"):
            match.abandon()
        elif match.state.is_chance_node():
            if text:
                say(_("Press Enter to throw the coins (or type help)."))
                return
            before = match.state.clone()
            action = match.throw()
            self.announce(-1, action, before)
        elif not text:
            say(_("Type a move, its number from `moves`, or help."))
        else:
            self.move(text)

    def move(self, text: str) -> None:
        before = self.match.state.clone()
        mover = before.current_player
        try:
            if text.isdigit():
                action = self.match.play(int(text))
            else:
                action = self.match.play(drawing.read_move(before, text))
        except pa.ActionError as e:
            say(f"[red]{escape(speak(e.message))}[/]")
            return
        self.announce(mover, action, before)

    def undo(self) -> None:
        seat = self.humans[0] if len(self.humans) == 1 else None
        try:
            taken = self.match.undo(seat)
        except pa.IllegalActionError as e:
            say(f"[red]{escape(speak(e.message))}[/]")
            return
        say(ngettext("Took back %(count)s move.", "Took back %(count)s moves.", taken, count=taken))
        self.drawn_at = -1

    def confirm_resign(self) -> bool:
        """Ask before giving the game up: only a yes resigns (y or yes, or the reader's own
        words for them); anything else goes on. The end of input (EOFError) is left to the
        loop, which stops the game unfinished, as it does at any prompt."""
        answer = self.reader.read(_("Resign the game? (y/N)")).strip().lower()
        # TRANSLATORS: the answers that mean yes to "Resign the game? (y/N)", comma-separated,
        # in lower case; y and yes are always understood too.
        yes = {word.strip().lower() for word in _("y, yes").split(",")} | {"y", "yes"}
        return answer in yes - {""}

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
            line = _(
                "%(loser)s resigns: %(winner)s wins, %(result)s.",
                loser=self.who(match.resigned),
                winner=self.who(winner),
                result=match.result,
            )
        elif match.state.is_terminal():
            winner_seat = match.state.winner()
            if winner_seat is None:
                line = _("Draw, %(result)s.", result=match.result)
            else:
                line = _(
                    "%(winner)s wins, %(result)s.",
                    winner=self.who(winner_seat),
                    result=match.result,
                )
        else:
            line = _("Game stopped unfinished.")
        say(f"[bold]{line}[/]")
        return line


def _refuse_with_resume(given: dict[str, object]) -> None:
    named = [flag for flag, value in given.items() if value not in (None, [], False)]
    if named:
        fail(
            _(
                "--resume continues the saved game as it was set up; %(named)s cannot change it "
                "(only --save may be given)",
                named=", ".join(named),
            )
        )


def _resumed(file: Path) -> tuple[Record, pa.Game]:
    """The unfinished record at ``file`` and its game; anything else stops with one line."""
    try:
        record = load(file)
        record.replay()
    except pa.RecordError as e:
        fail(speak(e.message))
    if record.result != "*":
        fail(
            _(
                "the game in %(file)s is over (%(result)s); watch it with: %(command)s",
                file=file,
                result=record.result,
                command=f"pocketarena replay {file}",
            )
        )
    if record.headers.get("Chance") != "seeded" and pa.GAMES[record.game].CHANCE:
        fail(
            _(
                "%(file)s was not played with seeded coins, so its throws cannot go on here "
                "(games from the web platform go on there)",
                file=file,
            )
        )
    return record, record.load_game()


def play(
    game_id: Annotated[
        str | None,
        typer.Argument(
            metavar="[GAME]",
            help=N_("Game id: %(games)s (not with --resume)."),
            show_default=False,
        ),
    ] = None,
    mode: ModeOpt = None,
    map: MapOpt = None,
    protect: ProtectOpt = None,
    option: OptionOpt = None,
    vs: Annotated[
        str | None,
        typer.Option(
            "--vs",
            help=N_("Opponent: human (both seats here) or a bot: %(bots)s."),
            show_default="greedy",
        ),
    ] = None,
    seat: Annotated[
        SeatChoice | None,
        typer.Option("--seat", help=N_("Your seat against a bot."), show_default="first"),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help=N_("Seed for the coins and the bot (random if not given).")),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            parser=path_typed("--save"),
            metavar="<path>",
            help=N_(
                "Where to save the record (.json for JSON, else text); with --resume, "
                "the resumed file unless given."
            ),
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option("--name", help=N_("Your name in the record."), show_default="human"),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            metavar="FILE",
            parser=path_typed("--resume"),
            help=N_(
                "Go on with an unfinished game saved in FILE: same players, same seed, the "
                "coins falling as they would have."
            ),
        ),
    ] = None,
) -> None:
    """Play GAME in the terminal against a bot or a friend.

    A bot by default (--vs picks which); with --vs human two people take
    turns at this screen. --resume FILE goes on with an unfinished game."""
    if resume is not None:
        _refuse_with_resume(
            {
                "--mode": mode,
                "--map": map,
                "--protect": protect,
                "--option": option or [],
                "--vs": vs,
                "--seat": seat,
                "--seed": seed,
                "--name": name,
            }
        )
        record, game = _resumed(resume)
        if game_id is not None and game_id_or_fail(game_id) != game.ID:
            fail(
                _(
                    "%(file)s is a game of %(game)s, not %(asked)s",
                    file=resume,
                    game=game.ID,
                    asked=game_id_or_fail(game_id),
                )
            )
        path = writable_or_fail(save if save is not None else resume, "--save")
        match, humans = _resumed_match(record, game)
    else:
        if game_id is None:
            fail(
                _(
                    "name a GAME (e.g. %(example)s) or give --resume FILE",
                    example="pocketarena play stack-a-cash",
                )
            )
        match, humans = _new_match(game_id, mode, map, protect, option, vs, seat, seed, name)
        game = match.game
        path = writable_or_fail(save if save is not None else default_record_path(game), "--save")
    title, *options = header(game, match.seed, console.width)
    say(f"[bold]{escape(game.TITLE)}[/]{escape(title.removeprefix(game.TITLE))}")
    for line in options:
        say(escape(line))
    terminal = TerminalGame(match, humans)
    if len(humans) == 2:
        say(
            _(
                "%(first)s vs %(second)s, both played on this screen",
                first=terminal.who(0),
                second=terminal.who(1),
            )
        )
    else:
        say(_("%(first)s vs %(second)s", first=terminal.who(0), second=terminal.who(1)))
    if resume is not None:
        played = len(match.state.history)
        say(
            ngettext(
                "Resumed after %(count)s move.",
                "Resumed after %(count)s moves.",
                played,
                count=played,
            )
        )
    terminal.run()
    terminal.finish()
    if not match.state.history:
        say(_("No moves were played; nothing saved."))
        return
    try:
        written = match.record().save(path)
    except OSError as e:
        fail(_("could not save the record to %(path)s: %(why)s", path=path, why=e.strerror), FAILED)
    say(_("Saved the game record to %(path)s", path=escape(str(written))))
    if not match.over or match.abandoned:
        say(
            _(
                "Go on later with: %(command)s",
                command=f"pocketarena play --resume {escape(str(written))}",
            )
        )


def header(game: pa.Game, seed: object, width: int = 80) -> list[str]:
    """The lines a game opens with: its title and seed, then its options as they are typed
    after ``-o`` (one left unset, such as Coin Age's seed on a fixed map, left out), wrapped
    between options so that no line passes ``width``."""
    lines = [game.TITLE + "  " + _("(seed %(seed)s; type help for commands)", seed=seed)]
    items = [format_options({k: v}) for k, v in game.options.items() if v is not None]
    line = _("Options:")
    for i, item in enumerate(items):
        item += "," if i < len(items) - 1 else ""
        if len(line) + 1 + len(item) > width and line.strip() != _("Options:"):
            lines.append(line)
            line = "  " + item
        else:
            line += " " + item
    if items:
        lines.append(line)
    return lines


def _new_match(
    game_id: str,
    mode: str | None,
    map: str | None,
    protect: str | None,
    option: list[str] | None,
    vs: str | None,
    seat: SeatChoice | None,
    seed: int | None,
    name: str | None,
) -> tuple[Match, list[int]]:
    key, options = game_options(game_id, mode=mode, map=map, protect=protect, option=option)
    typed = options.get("seed")
    if seed is not None and typed is not None and str(typed).strip() != str(seed):
        fail(
            _(
                "%(flag)s and %(option)s disagree; give the %(name)s once",
                flag=f"--seed {seed}",
                option=f"-o seed={typed}",
                name="seed",
            )
        )
    if seed is None:
        seed = fresh_seed()
    # One seed drives everything random: the coins, the bot, a random map too.
    game = load_or_fail(key, options, seed)
    opponent = (vs or "greedy").strip().lower()
    name = name or "human"
    seats: list[Bot | None] = [None, None]
    players = [Player(name=name, kind="human"), Player(name=name, kind="human")]
    if opponent == "human":
        if seat is not None:
            fail(_("--seat picks your seat against a bot; with --vs human both seats are here"))
        humans = [0, 1]
    else:
        seat = seat or SeatChoice.first
        if seat is SeatChoice.random:
            human = random.Random(f"{seed}:seat").randrange(2)
        else:
            human = 0 if seat is SeatChoice.first else 1
        try:
            bot = make_bot(opponent, game, seed=seed)
        except ValueError as e:
            fail(_("%(why)s (or human)", why=reason(e)))
        seats[1 - human] = bot
        players[1 - human] = Player(name=opponent, kind="bot", bot=opponent)
        humans = [human]
    match = Match(
        game,
        seats,
        SeededChance(seed),
        players=players,
        seed=seed,
        headers={"Event": "Terminal play"},
        reseed_bots=True,
    )
    return match, humans


def _resumed_match(record: Record, game: pa.Game) -> tuple[Match, list[int]]:
    seats: list[Bot | None] = [None, None]
    for seat, player in enumerate(record.players):
        spec = player.bot_spec  # the spec, not the name people read ("Randy (random)")
        if spec is None:
            continue
        try:
            seats[seat] = make_bot(spec, game, seed=record.seed)
        except ValueError as e:
            fail(
                _(
                    "in the saved game %(seat)s is the bot %(bot)r: %(why)s",
                    seat=seat_word(game, seat),
                    bot=spec,
                    why=reason(e),
                )
            )
    humans = [seat for seat in (0, 1) if seats[seat] is None]
    if not humans:
        fail(_("the saved game is between two bots; nobody would play here"))
    seed = record.seed if record.seed is not None else fresh_seed()
    match = Match(
        game,
        seats,
        SeededChance(seed),
        players=record.players,
        seed=seed,
        headers=record.headers,
        reseed_bots=True,
    )
    if record.started is not None:
        match.started = record.started
    match.resume(record.moves)
    return match, humans


def register(app: typer.Typer) -> None:
    app.command("play")(play)
