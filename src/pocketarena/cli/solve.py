"""``pocketarena solve GAME``: solve a game exactly (Stack-a-Cash) and print the opening's value.

``solve_command`` is written for typer; the program registers it as ``solve`` (``register``).
"""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer
from rich.markup import escape

from pocketarena.core import normalize_game_id

from .common import N_, _, err_console, fail, say

SOLVABLE = ("stack-a-cash",)


def solve_command(
    game: Annotated[
        str, typer.Argument(help=N_("The game to solve: stack-a-cash."), show_default=False)
    ],
    protect: Annotated[
        str, typer.Option("--protect", help=N_("Stack-a-Cash protection rule: touched or placed."))
    ] = "touched",
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help=N_(
                'Print {"value": 1|0|-1, "plies": N, "positions": N} for the opening, '
                "from the first player's view (plies 0 for a draw)."
            ),
        ),
    ] = False,
    rebuild: Annotated[
        bool,
        typer.Option(
            "--rebuild", help=N_("Solve from scratch (a minute or two) and refresh the cache.")
        ),
    ] = False,
) -> None:
    """Solve GAME: the value of every position with best play.

    Every reachable position is solved, and the opening's value printed."""
    key = normalize_game_id(game)
    if key not in SOLVABLE:
        fail(
            _(
                "%(game)r cannot be solved here; solvable games: %(games)s",
                game=game,
                games=", ".join(SOLVABLE),
            )
        )
    choice = protect.strip().lower()
    from pocketarena.solve.stack_a_cash import PROTECT_OPTIONS, progress_bar, save, solve

    if choice not in PROTECT_OPTIONS:
        choices = ", ".join(PROTECT_OPTIONS)
        fail(
            _(
                "--protect %(protect)r is not valid; choose one of: %(choices)s",
                protect=protect,
                choices=choices,
            )
        )
    start = time.perf_counter()
    if rebuild:
        from pocketarena.solve.stack_a_cash import build, cache_dir

        with progress_bar(choice) as update:
            solution = build(choice, update)
        try:
            save(solution, cache_dir())
        except OSError as e:
            err_console.print(
                f"[yellow]warning:[/] the solution could not be cached: {escape(str(e))}"
            )
    else:
        solution = solve(choice)
    elapsed = time.perf_counter() - start
    summary = solution.summary()
    if json_out:
        print(
            json.dumps(
                {
                    "value": summary["value"],
                    "plies": summary["plies"],
                    "positions": solution.positions,
                }
            )
        )
        return
    verdict = {1: "Heads (the first player) wins", 0: "it is a draw", -1: "Tails wins"}[
        int(summary["value"])
    ]
    length = f" in {summary['plies']} plies" if summary["value"] else ""
    say(f"[bold]Stack-a-Cash, protect={choice}[/]: with best play {verdict}{length}.")
    say(
        f"{solution.positions:,} reachable positions ({solution.classes:,} up to symmetry): "
        f"{summary['won']:,} won, {summary['drawn']:,} drawn, {summary['lost']:,} lost for the "
        f"side to move; the longest forced win takes {summary['longest']} plies."
    )
    if rebuild:
        say(f"Solved just now in {elapsed:.1f} s (peak memory {summary['peak_mb']} MB).")
    else:
        say(
            f"Read the stored solution in {elapsed:.1f} s (building it took "
            f"{summary['seconds']} s and {summary['peak_mb']} MB; --rebuild solves afresh)."
        )


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)
