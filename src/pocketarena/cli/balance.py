"""``pocketarena balance GAME``: self-play of a strong bot on every mode or map of GAME (or the
ones the options pick), measuring first-seat advantage, draws, game length and score margins.
Games whose printed rules read more than one way are measured on every reading side by side;
``--against`` pits the bot against another instead of itself."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from pocketarena.arena import Interrupted
from pocketarena.arena.balance import (
    BalanceReport,
    make_tasks,
    option_names,
    variant_values,
    variants,
)
from pocketarena.bots import make_bot
from pocketarena.core import load, parse_option_pairs
from pocketarena.records import now_utc

from .arena import (
    JobsOpt,
    OutOpt,
    PlotsOpt,
    RayAddressOpt,
    RayOpt,
    SeedOpt,
    default_out,
    jobs_or_fail,
    ray_or_fail,
    run_or_fail,
    workers_for,
)
from .common import (
    MOST_GAMES,
    N_,
    GameArg,
    MapOpt,
    ModeOpt,
    OptionOpt,
    ProtectOpt,
    QuietOpt,
    VerboseOpt,
    _,
    at_least_one,
    cannot_write,
    console,
    fail,
    game_id_or_fail,
    interrupted,
    ngettext,
    reason,
    talk,
    writable_or_fail,
)

LABEL_WIDTH = 19  # what the first column has at 80 columns beside the figures


def wrapped_items(items: list[str], width: int = LABEL_WIDTH) -> str:
    """``gettysburg · used · 6 each``, broken onto lines only between items (never inside
    one, as a label folded mid-value reads badly) and kept within ``width`` where it can be."""
    lines: list[str] = []
    for i, item in enumerate(items):
        more = " ·" if i < len(items) - 1 else ""  # a line that goes on ends with the dot
        if lines and len(f"{lines[-1]} · {item}{more}") <= width:
            lines[-1] += f" · {item}"
        else:
            lines.append(item)
    return " ·\n".join(lines)


# The variants table's column headings (lines break where they do at 80 columns), worded when
# the table is drawn.
BALANCE = (
    N_("1st seat\nscore"),
    N_("95% CI"),
    N_("draws"),
    N_("plies\nmedian\n(IQR)"),
    N_("margin\nmean ± sd"),
    N_("win\nmargin\nmedian"),
)


def print_balance(data: dict[str, Any]) -> None:
    if data.get("against"):
        pairing = _("%(bot)s against %(other)s", bot=data["bot"], other=data["against"])
    else:
        pairing = _("self-play of %(bot)s", bot=data["bot"])
    # One space between columns, headers and the plies over lines, and compact labels (the
    # values under a heading that names the options) keep the table within 80 columns, nothing
    # cut short ("map=clas…") and no value folded ('coins={"Q": 6, "N":').
    rows = data["variants"]
    table = Table(
        title=escape(
            ngettext(
                "%(game)s: %(pairing)s (%(count)s game a variant)",
                "%(game)s: %(pairing)s (%(count)s games a variant)",
                data["games_per_variant"],
                game=data["game"],
                pairing=pairing,
                count=data["games_per_variant"],
            )
        ),
        box=box.SIMPLE_HEAD,
        padding=0,
        show_edge=False,
    )
    names = option_names([v["options"] for v in rows])
    table.add_column(escape(wrapped_items(names.split("·"))), no_wrap=True)
    for column in BALANCE:
        table.add_column(_(column), justify="right", no_wrap=True)
    for v in rows:
        first = v["first_seat"]
        plies = v["plies"]
        margin = v["margin"]
        table.add_row(
            escape(wrapped_items(variant_values(v["options"]).split("·"))),
            f"{first['score']:.3f}",
            f"{first['score_ci'][0]:.2f}–{first['score_ci'][1]:.2f}",
            f"{v['draw_rate']:.2f}",
            f"{plies['median']:.3g}\n({plies['q1']:.3g}–{plies['q3']:.3g})",
            f"{margin['mean']:+.3g} ± {margin['sd']:.3g}",
            "-" if v["winning_margin"]["median"] is None else f"{v['winning_margin']['median']:g}",
        )
    console.print(table)
    if any(v.get("measures") or v.get("categories") for v in data["variants"]):
        print_facts(data)


def _median_text(summary: dict[str, Any]) -> str:
    low, high = summary["median_ci"]
    return f"{summary['median']:g} ({low:g}–{high:g})"


def print_facts(data: dict[str, Any]) -> None:
    """The game's own measures of length (median, 95% CI), how its games ended (shares) and,
    against another bot, the tested bot's score: narrow, so readings compare at 80 columns."""
    variants = data["variants"]
    measures = list(dict.fromkeys(k for v in variants for k in v.get("measures", {})))
    categories = list(dict.fromkeys(k for v in variants for k in v.get("categories", {})))
    against = any(v.get("bot_side") for v in variants)
    if against:
        title = _(
            "length (median, 95%% CI) and how games ended; score: %(bot)s's against %(other)s",
            bot=data["bot"],
            other=data["against"],
        )
    else:
        title = _("length (median, 95% CI) and how games ended")
    table = Table(
        title=escape(title),
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
    )
    table.add_column(escape(option_names([v["options"] for v in variants])), no_wrap=True)
    table.add_column(_("decisions"), justify="right")
    for name in measures:
        table.add_column(name, justify="right", no_wrap=True)
    for name in categories:
        table.add_column(name)
    if against:
        table.add_column(_("score"), justify="right", no_wrap=True)
    for v in variants:
        cells = [escape(variant_values(v["options"])), f"{v['decisions']['median']:g}"]
        cells += [_median_text(v["measures"][m]) if m in v["measures"] else "-" for m in measures]
        for name in categories:
            found = v["categories"].get(name, {})
            cells.append(" ".join(f"{w} {x['share']:.0%}" for w, x in found.items()))
        if against:
            cells.append(f"{v['bot_side']['score']:.2f}" if v.get("bot_side") else "-")
        table.add_row(*cells)
    console.print(table)


def balance(
    game_id: GameArg,
    bot: Annotated[str, typer.Option("--bot", help=N_("The bot that plays itself."))] = "medium",
    against: Annotated[
        str | None,
        typer.Option(
            "--against", help=N_("Play --bot against this bot instead, swapping seats each game.")
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", help=N_("Games per variant."))] = 100,
    jobs: JobsOpt = None,
    seed: SeedOpt = 0,
    out: OutOpt = None,
    plots: PlotsOpt = True,
    records: Annotated[
        bool, typer.Option("--records/--no-records", help=N_("Save every game record too."))
    ] = True,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    mode: ModeOpt = None,
    map: MapOpt = None,
    protect: ProtectOpt = None,
    option: OptionOpt = None,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Measure GAME's balance by self-play on each mode and map.

    All of them, unless options narrow it."""
    talking = talk(quiet, verbose)
    key = game_id_or_fail(game_id)
    try:
        narrowed: dict[str, Any] = parse_option_pairs(list(option or []))
    except ValueError as e:
        fail(reason(e))
    for name, value in (("mode", mode), ("map", map), ("protect", protect)):
        if value is not None:
            narrowed[name] = value
    at_least_one("--games", games, MOST_GAMES)
    jobs_or_fail(jobs)
    where = ray_or_fail(ray, ray_address)
    try:
        option_sets = variants(key, narrowed)
        for options in option_sets:
            for spec in (bot, against) if against is not None else (bot,):
                make_bot(spec, load(key, **options), seed=0)
    except ValueError as e:
        fail(reason(e))
    spec = bot.strip().lower()
    other = against.strip().lower() if against is not None else None
    folder = writable_or_fail(
        out if out is not None else default_out("balance", key), "--out", folder=True
    )
    tasks = make_tasks(key, option_sets, spec, games, seed, against=other)
    workers = workers_for(jobs, where, len(tasks))
    started = now_utc()
    start = time.perf_counter()
    try:
        said = _("%(game)s: %(count)s variants", game=key, count=len(option_sets))
        results = run_or_fail(tasks, workers, where, said, talking=talking)
    except Interrupted as stop:
        interrupted(
            N_(
                "%(done)s of %(total)s games finished; nothing was saved (a balance report "
                "needs every game of every variant)."
            ),
            done=len(stop.results),
            total=stop.total,
        )
    report = BalanceReport.from_results(
        key,
        spec,
        option_sets,
        results,
        games=games,
        seed=seed,
        seconds=time.perf_counter() - start,
        jobs=workers,
        started=started,
        against=other,
    )
    try:
        path = report.save(folder, records=records)
        figures = report.plot(folder) if plots else []
    except OSError as e:
        cannot_write(folder, e)
    print_balance(report.to_json())
    if talking >= 0:
        saved = _("Saved %(path)s", path=path)
        if figures:
            saved += _(" and plots %(names)s", names=", ".join(p.name for p in figures))
        console.print(saved)


def register(app: typer.Typer) -> None:
    app.command("balance")(balance)
