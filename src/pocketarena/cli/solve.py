"""``pocketarena solve GAME``: solve a game exactly (Stack-a-Cash) and print the opening's value.

``solve_command`` is written for typer; the program registers it as ``solve`` (``register``).
"""

from __future__ import annotations

import json
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from pocketarena.core import normalize_game_id

SOLVABLE = ("stack-a-cash",)
USAGE = 2  # the exit code for a mistake in what was asked, as click uses

_out = Console(highlight=False, soft_wrap=True)
_err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str) -> NoReturn:
    _err.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(USAGE)


def solve_command(
    game: Annotated[
        str, typer.Argument(help="The game to solve: stack-a-cash.", show_default=False)
    ],
    protect: Annotated[
        str, typer.Option("--protect", help="Stack-a-Cash protection rule: touched or placed.")
    ] = "touched",
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help='Print {"value": 1|0|-1, "plies": N, "positions": N} for the opening, '
            "from the first player's view (plies 0 for a draw).",
        ),
    ] = False,
    rebuild: Annotated[
        bool,
        typer.Option(
            "--rebuild", help="Solve from scratch (a minute or two) and refresh the cache."
        ),
    ] = False,
) -> None:
    """Solve GAME: the value of every reachable position with best play, and the opening's."""
    key = normalize_game_id(game)
    if key not in SOLVABLE:
        _fail(f"{game!r} cannot be solved here; solvable games: {', '.join(SOLVABLE)}")
    choice = protect.strip().lower()
    from pocketarena.solve.stack_a_cash import PROTECT_OPTIONS, progress_bar, save, solve

    if choice not in PROTECT_OPTIONS:
        _fail(f"--protect {protect!r} is not valid; choose one of: {', '.join(PROTECT_OPTIONS)}")
    if rebuild:
        from pocketarena.solve.stack_a_cash import build, cache_dir

        with progress_bar(choice) as update:
            solution = build(choice, update)
        try:
            save(solution, cache_dir())
        except OSError as e:
            _err.print(f"[yellow]warning:[/] the solution could not be cached: {e}")
    else:
        solution = solve(choice)
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
    _out.print(f"[bold]Stack-a-Cash, protect={choice}[/]: with best play {verdict}{length}.")
    _out.print(
        f"{solution.positions:,} reachable positions ({solution.classes:,} up to symmetry): "
        f"{summary['won']:,} won, {summary['drawn']:,} drawn, {summary['lost']:,} lost for the "
        f"side to move; the longest forced win takes {summary['longest']} plies."
    )
    _out.print(
        f"Solved in {summary['seconds']} s (peak memory {summary['peak_mb']} MB)"
        + (" just now." if rebuild else " when the stored solution was built.")
    )


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)
