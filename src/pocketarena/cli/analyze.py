"""``pocketarena analyze RECORD``: judge every decision of a game with a strong bot, mark
inaccuracies (?!) and blunders (?), name the better move; optionally save an annotated record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import pocketarena as pa
from pocketarena.analysis import BLUNDER, INACCURACY, Annotation, analyze, annotated, decision_count
from pocketarena.bots import make_bot
from pocketarena.bots.levels import levels_for
from pocketarena.records import load

from .common import FAILED, console, fail, plural, writable_or_fail

STYLE = {"?": "bold red", "?!": "yellow", "": ""}


def default_analyst(game: pa.Game) -> str:
    """The strongest bot for the game: perfect where solved, else hard."""
    return "perfect" if "perfect" in levels_for(game) else "hard"


def analyze_command(
    file: Annotated[
        Path, typer.Argument(help="A finished game record (JSON or text).", show_default=False)
    ],
    bot: Annotated[
        str | None,
        typer.Option("--bot", help="The analyst (default: perfect where solved, else hard)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Write the record with the judgements as comments (.json or text)."
        ),
    ] = None,
    inaccuracy: Annotated[
        float, typer.Option("--inaccuracy", help="Expected score lost that marks ?!")
    ] = INACCURACY,
    blunder: Annotated[
        float, typer.Option("--blunder", help="Expected score lost that marks ?")
    ] = BLUNDER,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the analyst's own randomness.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the judgements as JSON.")] = False,
) -> None:
    """Judge each decision of a finished game and name the better moves.

    Each decision gets its value before and after, ?! for an inaccuracy and
    ? for a blunder."""
    try:
        record = load(file)
        record.replay()
    except pa.RecordError as e:
        fail(str(e), FAILED if file.is_file() else 2)
    if not 0 < inaccuracy <= blunder <= 1:
        fail(
            f"--inaccuracy and --blunder must satisfy 0 < inaccuracy <= blunder <= 1, got {inaccuracy} and {blunder}"
        )
    if out is not None:
        writable_or_fail(out, "--out")  # before the analysis, not after minutes of it
    game = record.load_game()
    spec = (bot or default_analyst(game)).strip().lower()
    try:
        # Counted budgets, not thinking times: the same record and seed get the same verdicts.
        analyst = make_bot(spec, game, seed=seed, reproducible=True)
    except ValueError as e:
        fail(str(e))
    if not hasattr(analyst, "action_values"):
        fail(
            f"bot {spec!r} cannot explain its moves; analyse with mcts, expectimax or a level (easy, medium, hard, perfect)"
        )
    total = decision_count(record)
    with Progress(
        TextColumn("[bold]Analysing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("analyse", total=total)
        annotations = analyze(
            record,
            analyst,
            inaccuracy=inaccuracy,
            blunder=blunder,
            on_decision=lambda _a: bar.advance(task),
        )
    if as_json:
        console.print_json(
            json.dumps({"analyst": spec, "decisions": [a.to_json() for a in annotations]})
        )
    else:
        print_annotations(game, annotations, spec)
    if out is not None:
        try:
            written = annotated(record, annotations, spec).save(out)
        except OSError as e:
            fail(f"could not write {out}: {e.strerror}", FAILED)
        console.print(f"Saved the annotated record to {escape(str(written))}")


def print_annotations(game: pa.Game, annotations: list[Annotation], analyst: str) -> None:
    table = Table(title=f"{game.TITLE}: analysis by {analyst} (values for the mover, -1..1)")
    for column in ("ply", "seat", "move", "", "before", "after", "lost", "better"):
        table.add_column(
            column, justify="right" if column in ("ply", "before", "after", "lost") else "left"
        )
    for a in annotations:
        style = STYLE[a.mark]
        table.add_row(
            str(a.ply),
            game.SEATS[a.seat],
            escape(a.move),
            a.mark,
            f"{a.before:+.2f}",
            f"{a.after:+.2f}",
            f"{a.loss:.2f}" if a.loss > 0.005 else "",
            escape(a.best) if a.mark else "",
            style=style,
        )
    console.print(table)
    for seat, name in enumerate(game.SEATS):
        mine = [a for a in annotations if a.seat == seat]
        marks = sum(a.mark == "?!" for a in mine), sum(a.mark == "?" for a in mine)
        lost = sum(a.loss for a in mine) / len(mine) if mine else 0.0
        console.print(
            f"{name}: {plural(len(mine), 'decision')}, "
            f"{plural(marks[0], 'inaccuracy', 'inaccuracies')}, "
            f"{plural(marks[1], 'blunder')}, average expected score lost {lost:.3f}"
        )


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_command)
