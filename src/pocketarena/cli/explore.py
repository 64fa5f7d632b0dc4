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

from . import drawing
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
    ngettext,
    seat_word,
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
    mover = seat_word(game, state.current_player)
    flipwars = any(m.margin is not None for m in values)
    title = ngettext(
        "%(game)s: %(seat)s to move after %(count)s ply, exact values for %(seat)s",
        "%(game)s: %(seat)s to move after %(count)s plies, exact values for %(seat)s",
        state.ply,
        game=game.TITLE,
        seat=mover,
        count=state.ply,
    )
    table = Table()
    table.add_column(_("move"))
    table.add_column(_("result"))
    table.add_column(_("plies"), justify="right")
    if flipwars:
        table.add_column(_("margin"), justify="right")
    results = {1: _("win"), 0: _("draw"), -1: _("loss")}
    for m in values:
        row = [escape(m.move), results[m.value], "" if m.plies is None else str(m.plies)]
        if flipwars:
            row.append(f"{m.margin:+d}")
        table.add_row(*row, style=STYLE[m.value])
    console.print(drawing.board(state))
    console.print(title, markup=False, soft_wrap=True)
    console.print(table)
    console.print(summary(mover, values), markup=False)
    if flipwars and game.options.get("series"):
        console.print(_("Values are for this round of the series."), markup=False)


def summary(mover: str, values: list[MoveValue]) -> str:
    """ "With best play Heads wins in 13 plies (1 of 39 moves do)." in the reader's words."""
    best = values[0]
    count = sum(1 for m in values if rank(m) == rank(best))
    total = len(values)
    how_many = ngettext(
        "%(count)s of %(total)s move does", "%(count)s of %(total)s moves do", total,
        count=count, total=total,
    )  # fmt: skip
    if best.plies is None:
        return _("With best play %(seat)s draws (%(best)s).", seat=mover, best=how_many)
    plies = ngettext("%(count)s ply", "%(count)s plies", best.plies, count=best.plies)
    if best.value > 0:
        return _(
            "With best play %(seat)s wins in %(plies)s (%(best)s).",
            seat=mover,
            plies=plies,
            best=how_many,
        )
    return _(
        "With best play %(seat)s loses in %(plies)s (%(best)s).",
        seat=mover,
        plies=plies,
        best=how_many,
    )


def register(app: typer.Typer) -> None:
    app.command("explore")(explore_command)
