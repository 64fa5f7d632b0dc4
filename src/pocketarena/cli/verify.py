"""``pocketarena verify RECORD``: recompute every chance outcome of a record played with fair coins."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.cells import cell_len
from rich.markup import escape

from pocketarena.core import RecordError
from pocketarena.fair import verify_record
from pocketarena.messages import speak
from pocketarena.records import load

from .common import FAILED, N_, _, console, fail


def verify(
    record: Annotated[
        Path,
        typer.Argument(
            help=N_("A record file (JSON or text form), e.g. from the replay page."),
            show_default=False,
        ),
    ],
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help=N_("Print only the verdict."))
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help=N_("Print the report as JSON (exit status as without)."))
    ] = False,
) -> None:
    """Check that each coin throw in RECORD follows from its seed.

    The seed is the one the server committed to (web games), or the one a
    terminal game states."""
    try:
        report = verify_record(load(record))
    except RecordError as e:
        fail(speak(e.message))
    if as_json:
        checks = [
            {"move": c.move_number + 1, "recorded": c.recorded, "expected": c.expected, "ok": c.ok}
            for c in report.checks
        ]
        data = {
            "ok": report.ok,
            "verdict": report.verdict,
            "game": report.game,
            "scheme": report.scheme,
            "seed": report.seed,
            "commitment": report.commitment,
            "commitment_ok": report.commitment_ok,
            "checks": checks,
        }
        console.print_json(json.dumps(data))
        if not report.ok:
            raise typer.Exit(FAILED)
        return
    if not quiet and report.nothing is None:
        facts = [(_("scheme"), report.scheme or "-")]
        if not report.seeded:
            facts += [
                (_("game id"), report.game_id or "-"),
                (_("commitment"), report.commitment or "-"),
            ]
        facts.append((_("seed"), report.seed or _("not revealed")))
        # The labels in a column as wide as the longest (in cells: the reader's script).
        column = max(12, *(cell_len(label) + 2 for label, _value in facts))
        for label, value in facts:
            console.print(f"{escape(label)}{' ' * (column - cell_len(label))}{escape(value)}")
        if report.seed and report.commitment:
            mark = "[green]✓[/]" if report.commitment_ok else "[red]✗[/]"
            if report.commitment_ok:
                said = _("SHA-256(seed) matches the commitment")
            else:
                said = _("SHA-256(seed) does not match the commitment")
            console.print(f"{mark} {escape(said)}")
        for check in report.checks:
            mark = "[green]✓[/]" if check.ok else "[red]✗[/]"
            move = _("move %(number)s", number=f"{check.move_number + 1:>4}")
            line = f"{mark} {escape(move)}  {escape(check.recorded)}"
            if not check.ok:
                gives = _("(the seed gives %(throw)s)", throw=check.expected)
                line += f"  [red]{escape(gives)}[/]"
            console.print(line)
    style = "bold green" if report.ok else "bold red"
    console.print(f"[{style}]{escape(speak(report.verdict_message))}[/]")
    if not report.ok:
        raise typer.Exit(FAILED)


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
