"""``pocketarena analyze RECORD``: judge every decision of a game where it was made, mark
inaccuracies (?!), mistakes (?) and blunders (??), name the better move with its own value;
optionally save an annotated record. The judgements are the web analyses' (same function,
same seeds): the default analyst is the deep one (exact where solved, else the hard bot)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import pocketarena as pa
from pocketarena.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Judgement,
    analyze,
    annotated,
    check_thresholds,
    decision_count,
    outcome_message,
    summary,
)
from pocketarena.bots import make_bot
from pocketarena.messages import speak
from pocketarena.records import load
from pocketarena.study import analyst_name

from .common import (
    FAILED,
    N_,
    QuietOpt,
    VerboseOpt,
    _,
    console,
    fail,
    interrupted,
    path_typed,
    reason,
    seat_word,
    talk,
    writable_or_fail,
)

STYLE = {"??": "bold red", "?": "red", "?!": "yellow", "": ""}

# The table's columns (worded where they are shown).
COLUMNS = (
    N_("ply"),
    N_("seat"),
    N_("move"),
    "",
    N_("before"),
    N_("after"),
    N_("gave away"),
    N_("better"),
    N_("its value"),
)
RIGHT = ("ply", "before", "after", "gave away")


def default_analyst(game: pa.Game) -> str:
    """The web's deep analyst: perfect where solved, else the hard bot."""
    return analyst_name(game.ID, 2)


def analyze_command(
    file: Annotated[
        Path, typer.Argument(help=N_("A finished game record (JSON or text)."), show_default=False)
    ],
    bot: Annotated[
        str | None,
        typer.Option(
            "--bot",
            help=N_(
                "The analyst (default: the web's deep analysis: exact where solved, else hard; "
                "hard:0.3s is its quick one)."
            ),
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=N_("Write the record with the judgements as comments (.json or text)."),
            parser=path_typed("--out"),
            metavar="<path>",
        ),
    ] = None,
    inaccuracy: Annotated[
        float, typer.Option("--inaccuracy", help=N_("Expected score given away that marks ?!"))
    ] = INACCURACY,
    mistake: Annotated[
        float, typer.Option("--mistake", help=N_("Expected score given away that marks ?"))
    ] = MISTAKE,
    blunder: Annotated[
        float, typer.Option("--blunder", help=N_("Expected score given away that marks ??"))
    ] = BLUNDER,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help=N_("Seed for the analyst (default: the web analyses' seeds).")),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help=N_(
                "Print a JSON list, one object per decision: ply, seat, move, value_before, "
                "value_after, best, best_value, loss, mark (values: the first seat's expected score)."
            ),
        ),
    ] = False,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Judge each move of a finished game and name better ones.

    The played move and the best move are valued at the same position
    (exact where a solver reaches); every value is the first seat's
    expected score; ?! marks an inaccuracy, ? a mistake, ?? a blunder."""
    try:
        record = load(file)
        record.replay()
    except pa.RecordError as e:
        fail(speak(e.message))
    try:
        check_thresholds(inaccuracy, mistake, blunder)
    except ValueError:
        fail(
            _(
                "--inaccuracy, --mistake and --blunder must satisfy 0 < inaccuracy <= mistake <= "
                "blunder <= 1, got %(inaccuracy)s, %(mistake)s and %(blunder)s",
                inaccuracy=inaccuracy,
                mistake=mistake,
                blunder=blunder,
            )
        )
    if out is not None:
        writable_or_fail(out, "--out")  # before the analysis, not after minutes of it
    game = record.load_game()
    spec = (bot or default_analyst(game)).strip().lower()
    try:
        # Counted budgets, not thinking times: the same record and seed get the same verdicts.
        probe = make_bot(spec, game, seed=0, reproducible=True)
    except ValueError as e:
        fail(reason(e))
    if not hasattr(probe, "action_values"):
        fail(
            _(
                "bot %(spec)r cannot explain its moves; analyse with mcts, expectimax or a level "
                "(easy, medium, hard, perfect)",
                spec=spec,
            )
        )
    talking = talk(quiet, verbose)
    total = decision_count(record)
    done: list[Judgement] = []
    screen = Console(file=io.StringIO()) if talking < 0 else console  # -q: no bar
    try:
        with Progress(
            TextColumn("[bold]" + escape(_("Analysing"))),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=screen,
            transient=True,
        ) as bar:
            task = bar.add_task("analyse", total=total)

            def judged(judgement: Judgement) -> None:
                done.append(judgement)
                bar.advance(task)
                if talking > 0:  # -v: each decision as it is judged, above the bar
                    bar.console.print(escape(decision_line(game, judgement)), soft_wrap=True)

            judgements = analyze(
                record,
                spec,
                inaccuracy=inaccuracy,
                mistake=mistake,
                blunder=blunder,
                seed=seed,
                on_decision=judged,
            )
    except KeyboardInterrupt:
        interrupted(
            N_("%(done)s of %(total)s decisions judged; nothing was saved."),
            done=len(done),
            total=total,
        )
    if as_json:
        console.print_json(json.dumps([j.to_json() for j in judgements]))
    else:
        print_judgements(game, judgements, spec, (inaccuracy, mistake, blunder), talking >= 0)
    if out is not None:
        try:
            written = annotated(record, judgements, spec).save(out)
        except OSError as e:
            fail(_("could not write %(path)s: %(why)s", path=out, why=e.strerror), FAILED)
        if talking >= 0:
            console.print(_("Saved the annotated record to %(path)s", path=escape(str(written))))


def decision_line(game: pa.Game, j: Judgement) -> str:
    """One judged decision for --verbose: "7. Heads place L b2: 0.50 -> 0.00 ??"."""
    return _(
        "%(ply)s. %(seat)s %(move)s: %(before)s -> %(after)s %(mark)s",
        ply=j.ply,
        seat=seat_word(game, j.seat),
        move=j.move,
        before=f"{j.value_before:.2f}",
        after=f"{j.value_after:.2f}",
        mark=j.mark,
    ).rstrip()


def print_judgements(
    game: pa.Game,
    judgements: list[Judgement],
    analyst: str,
    thresholds: tuple[float, float, float] = (INACCURACY, MISTAKE, BLUNDER),
    notes: bool = True,
) -> None:
    seats = list(game.SEATS)
    table = Table(title=_("%(game)s: analysis by %(analyst)s", game=game.TITLE, analyst=analyst))
    for column in COLUMNS:
        table.add_column(
            _(column) if column else "", justify="right" if column in RIGHT else "left"
        )
    for j in judgements:
        lost = j.loss > 0.005
        table.add_row(
            str(j.ply),
            seat_word(game, j.seat),
            escape(j.move),
            j.mark,
            f"{j.value_before:.2f}",
            f"{j.value_after:.2f}",
            f"{j.loss:.2f}" if lost else "",
            escape(j.best) if lost else "",
            escape(speak(outcome_message(j, seats))) if lost else "",
            style=STYLE[j.mark],
        )
    console.print(table)
    if notes:  # the scale and where values are exact; not with --quiet
        print_notes(game, judgements, thresholds)
    for seat, row in enumerate(summary(judgements, seats)):
        console.print(
            _(
                "%(name)s: decisions %(decisions)s · inaccuracies (?!) %(inaccuracies)s · "
                "mistakes (?) %(mistakes)s · blunders (??) %(blunders)s · average given away "
                "%(average_loss)s",
                **{
                    **row,
                    "name": seat_word(game, seat),
                    "average_loss": f"{row['average_loss']:.3f}",
                },
            )
        )


def print_notes(
    game: pa.Game, judgements: list[Judgement], thresholds: tuple[float, float, float]
) -> None:
    """What the values mean and the marks' thresholds; where they are exact."""
    inaccuracy, mistake, blunder = thresholds
    console.print(
        _(
            "Every value is the expected score of %(first)s (1 a win, 1/2 a draw, 0 a loss); "
            "'gave away' is what the move cost the side that played it. ?! gave away "
            "%(inaccuracy)s or more, ? %(mistake)s, ?? %(blunder)s.",
            first=seat_word(game, 0),
            inaccuracy=f"{inaccuracy:.2f}",
            mistake=f"{mistake:.2f}",
            blunder=f"{blunder:.2f}",
        )
    )
    if judgements and any(j.exact for j in judgements):
        console.print(_("Exact values from the solved game where it reaches."))


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_command)
