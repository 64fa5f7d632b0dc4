"""What the commands share: the consoles, clean one-line errors, and reading a game from flags."""

from __future__ import annotations

from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

import pocketarena as pa
from pocketarena.core import fresh_seed, game_class, parse_option_pairs, with_seed

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

# Exit codes: 2 for a mistake in what the user asked (as click does for bad usage), 1 for a
# request that was understood but failed (an invalid record under --check).
USAGE = 2
FAILED = 1


def say(text: str = "") -> None:
    """One line of text (markup allowed), never wrapped mid-message: a long engine message
    stays one line that the terminal folds, and scripts can grep it."""
    console.print(text, soft_wrap=True)


def fail(message: str, code: int = USAGE) -> NoReturn:
    """Print one clear line to stderr and stop the command with ``code``."""
    err_console.print(f"[bold red]error:[/] {message}", markup=True, soft_wrap=True)
    raise typer.Exit(code)


GameArg = Annotated[
    str,
    typer.Argument(
        metavar="GAME", help="Game id: " + ", ".join(sorted(pa.GAMES)) + ".", show_default=False
    ),
]
ModeOpt = Annotated[
    str | None,
    typer.Option("--mode", help="Game mode (FlipWars: standard, enclosed, flag, tactical)."),
]
MapOpt = Annotated[
    str | None, typer.Option("--map", help="Map or battlefield (Coin Age, Wallet Battles).")
]
ProtectOpt = Annotated[
    str | None, typer.Option("--protect", help="Stack-a-Cash protection: touched or placed.")
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", help="Any game option as name=value (repeatable), e.g. -o series=false."
    ),
]


def game_id_or_fail(game_id: str) -> str:
    try:
        return game_class(game_id).ID
    except ValueError as e:
        fail(str(e))


def load_game(
    game_id: str,
    *,
    mode: str | None = None,
    map: str | None = None,
    protect: str | None = None,
    option: list[str] | None = None,
    seed: int | None = None,
) -> pa.Game:
    """The game named on the command line, with its options; a bad one stops with one line.
    A set-up left to chance (``--map random``) is drawn from ``seed`` (a fresh one if None)."""
    key = game_id_or_fail(game_id)
    try:
        options: dict[str, Any] = parse_option_pairs(list(option or []))
    except ValueError as e:
        fail(str(e))
    for name, value in (("mode", mode), ("map", map), ("protect", protect)):
        if value is not None:
            options[name] = value
    try:
        return pa.load(key, **with_seed(key, options, fresh_seed() if seed is None else seed))
    except ValueError as e:
        fail(str(e))


def seat_label(game: pa.Game, seat: int) -> str:
    return game.SEATS[seat] if 0 <= seat < len(game.SEATS) else "chance"


def scores_line(state: pa.State) -> str:
    a, b = state.scores()
    seats = state.game.SEATS
    return f"Score  {seats[0]} {_num(a)} · {seats[1]} {_num(b)}"


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
