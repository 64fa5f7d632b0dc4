"""``pocketarena solve GAME``: solve a game exactly (Stack-a-Cash) and print the opening's value.

``solve_command`` is written for typer; the program registers it as ``solve`` (``register``).
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

import pocketarena as pa
from pocketarena import i18n
from pocketarena.core import game_class, normalize_game_id, seat_name
from pocketarena.core.words import comma_list
from pocketarena.messages import speak

from .common import (
    N_,
    _,
    console,
    err_console,
    fail,
    ngettext,
    quiet_flag,
    say,
    talk,
    verbose_flag,
)

if TYPE_CHECKING:
    from pocketarena.solve.stack_a_cash import Solution

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
    quiet: Annotated[
        bool, quiet_flag(N_("Only the verdict and errors: no progress bar, no counts."))
    ] = False,
    verbose: Annotated[
        bool, verbose_flag(N_("More detail: what each first move leads to with best play."))
    ] = False,
) -> None:
    """Solve GAME: the value of every position with best play.

    Every reachable position is solved, and the opening's value printed."""
    talking = talk(quiet, verbose)
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

        if talking < 0:  # -q: no bar
            solution = build(choice)
        else:
            with progress_bar(choice) as update:
                solution = build(choice, update)
        try:
            save(solution, cache_dir())
        except OSError as e:
            warning = escape(_("warning:"))
            why = escape(_("the solution could not be cached: %(why)s", why=str(e)))
            err_console.print(f"[yellow]{warning}[/] {why}", soft_wrap=True)
    else:
        solution = solve(choice, progress=talking >= 0)
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
        if talking > 0:
            first_moves(solution, key, err_console)
        return
    number = i18n.format_number
    value, plies = int(summary["value"]), int(summary["plies"])
    title = f"[bold]Stack-a-Cash, protect={choice}[/]"
    verdict = best_play(key, value, plies)
    say(_("%(title)s: %(verdict)s", title=title, verdict=escape(verdict)))
    if talking < 0:
        return
    line = _(
        "%(positions)s reachable positions (%(classes)s up to symmetry): %(won)s won, "
        "%(drawn)s drawn, %(lost)s lost for the side to move; the longest forced win takes "
        "%(longest)s plies.",
        positions=number(solution.positions),
        classes=number(solution.classes),
        won=number(float(summary["won"])),
        drawn=number(float(summary["drawn"])),
        lost=number(float(summary["lost"])),
        longest=number(float(summary["longest"])),
    )
    say(escape(line))
    seconds = number(elapsed, "0.0")
    megabytes = number(float(summary["peak_mb"]), "0")
    if rebuild:
        line = _(
            "Solved just now in %(seconds)s s (peak memory %(megabytes)s MB).",
            seconds=seconds,
            megabytes=megabytes,
        )
    else:
        line = _(
            "Read the stored solution in %(seconds)s s (building it took %(built)s s and "
            "%(megabytes)s MB; --rebuild solves afresh).",
            seconds=seconds,
            built=number(float(summary["seconds"]), "0.0"),
            megabytes=megabytes,
        )
    say(escape(line))
    if talking > 0:
        first_moves(solution, key, console)


def best_play(key: str, value: int, plies: int) -> str:
    """ "with best play Heads (the first player) wins in 15 plies.": ``value`` and ``plies``
    from the first player's view (1 a win, 0 a draw, -1 a loss)."""
    if not value:
        return _("with best play it is a draw.")
    seats = [speak(seat_name(seat)) for seat in game_class(key).SEATS]
    # The winner is named with the seat it plays (the first player) only when it moves first.
    winner = seats[0] if value == 1 else seats[1]
    if value == 1:
        winner = _("%(seat)s (the first player)", seat=winner)
    return ngettext(
        "with best play %(seat)s wins in %(count)s ply.",
        "with best play %(seat)s wins in %(count)s plies.",
        plies,
        seat=winner,
        count=i18n.format_number(plies),
    )


def first_moves(solution: Solution, key: str, screen: Console) -> None:
    """-v: each first move and what it leads to with best play, the first moves that lead to
    the same grouped on one line, the best first."""
    opening = pa.load(key, protect=solution.protect).new_initial_state()
    groups: dict[tuple[int, int], list[str]] = {}
    for action, value, plies in solution.outcomes(opening):
        groups.setdefault((value, plies), []).append(action.text)
    # The fastest wins first, then draws, then the slowest losses.
    for (value, plies), moves in sorted(
        groups.items(), key=lambda g: (-g[0][0], g[0][0] * g[0][1])
    ):
        line = _(
            "After any of %(moves)s: %(verdict)s",
            moves=speak(comma_list(moves)),
            verdict=best_play(key, value, plies),
        )
        screen.print(escape(line), soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)
