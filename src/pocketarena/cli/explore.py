"""``pocketarena explore GAME``: every legal move of a position with its exact value.

Stack-a-Cash from the shipped solution (win, draw or loss and in how many plies); FlipWars
rounds near their end from the exact endgame solver (with the final margin). The position is
the game's opening, or what ``--moves "MOVE; MOVE; …"`` reaches from it.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

import pocketarena as pa
from pocketarena.core.errors import message
from pocketarena.explore import EXPLORABLE, ExplorerError, MoveValue, explore, rank
from pocketarena.messages import speak

from .common import (
    N_,
    ModeOpt,
    OptionOpt,
    ProtectOpt,
    _,
    console,
    fail,
    game_options,
    load_or_fail,
    plural,
)

STYLE = {1: "green", 0: "", -1: "red"}


def explore_command(
    game: Annotated[
        str,
        typer.Argument(
            metavar="GAME", help=N_("The game: stack-a-cash or flipwars."), show_default=False
        ),
    ],
    protect: ProtectOpt = None,
    mode: ModeOpt = None,
    option: OptionOpt = None,
    moves: Annotated[
        str,
        typer.Option(
            "--moves",
            metavar='"MOVE; MOVE; …"',
            help=N_('Moves from the opening, separated by semicolons, e.g. "place L b2; flip b2".'),
        ),
    ] = "",
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help=N_(
                'Print [{"move": TEXT, "value": 1|0|-1, "plies": N|null}, …] for the side to '
                "move (FlipWars adds the round's final margin)."
            ),
        ),
    ] = False,
) -> None:
    """Show every legal move with its exact value, best first.

    A value is a win in N plies, a draw, or a loss in N plies."""
    key, options = game_options(game, mode=mode, protect=protect, option=option)
    if key not in EXPLORABLE:
        fail(
            _(
                "%(game)r has no exact explorer; explorable: %(games)s (FlipWars near the end "
                "of a round)",
                game=game,
                games=", ".join(EXPLORABLE),
            )
        )
    state = load_or_fail(key, options, seed=0).new_initial_state()
    for n, text in enumerate(split_moves(moves), 1):
        try:
            state.apply(text)
        except ValueError as e:
            why = speak(e.message) if isinstance(e, pa.ActionError) else str(e)
            fail(speak(message("study.move-illegal", number=n, text=text, why=why)))
    try:
        values = explore(state)
    except ExplorerError as e:
        fail(speak(e.said))
    if json_out:
        print(json.dumps([m.to_json() for m in values]))
        return
    print_table(state, values)


def split_moves(text: str) -> list[str]:
    """``"place L b2; flip b2"`` as its moves (empty pieces, e.g. a trailing ``;``, skipped)."""
    return [part.strip() for part in text.split(";") if part.strip()]


def print_table(state: pa.State, values: list[MoveValue]) -> None:
    game = state.game
    mover = game.SEATS[state.current_player]
    flipwars = any(m.margin is not None for m in values)
    title = f"{game.TITLE}: {mover} to move after {plural(state.ply, 'ply', 'plies')}, exact values for {mover}"
    table = Table()
    table.add_column("move")
    table.add_column("result")
    table.add_column("plies", justify="right")
    if flipwars:
        table.add_column("margin", justify="right")
    for m in values:
        row = [
            escape(m.move),
            {1: "win", 0: "draw", -1: "loss"}[m.value],
            "" if m.plies is None else str(m.plies),
        ]
        if flipwars:
            row.append(f"{m.margin:+d}")
        table.add_row(*row, style=STYLE[m.value])
    console.print(str(state), markup=False, highlight=False)
    console.print(title, markup=False, soft_wrap=True)
    console.print(table)
    best = values[0]
    summary = {1: "wins", 0: "draws", -1: "loses"}[best.value]
    count = sum(1 for m in values if rank(m) == rank(best))
    length = f" in {plural(best.plies, 'ply', 'plies')}" if best.plies is not None else ""
    console.print(
        f"With best play {mover} {summary}{length} ({count} of {len(values)} moves do).",
        markup=False,
    )
    if flipwars and game.options.get("series"):
        console.print("Values are for this round of the series.", markup=False)


def register(app: typer.Typer) -> None:
    app.command("explore")(explore_command)
