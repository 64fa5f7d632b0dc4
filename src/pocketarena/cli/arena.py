"""``pocketarena arena GAME --bots a,b,c --games N``: every pairing of bots plays N games, seats
swapped, in parallel; prints and saves the results with confidence intervals and ratings."""

from __future__ import annotations

import importlib.util
import io
import json
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

import pocketarena as pa
from pocketarena.arena import (
    ArenaReport,
    GameResult,
    GameTask,
    Interrupted,
    check_specs,
    default_jobs,
    make_tasks,
    run_with_progress,
)
from pocketarena.arena.rounds import KINDS as ROUND_KINDS
from pocketarena.arena.rounds import RoundsReport, run_rounds, schedule_size
from pocketarena.arena.runner import LOCAL_RAY, RAY_MISSING, RayUnavailable, read_address
from pocketarena.arena.tournament import plot
from pocketarena.core import Game, message, seat_name
from pocketarena.messages import speak
from pocketarena.records import now_utc

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
    _num,
    at_least_one,
    cannot_write,
    console,
    err_console,
    fail,
    interrupted,
    load_game,
    ngettext,
    path_typed,
    reason,
    talk,
    writable_or_fail,
)

BotsOpt = Annotated[
    str,
    typer.Option(
        "--bots",
        help=N_(
            "Comma-separated bot specs, e.g. random,greedy,mcts:2000,mcts:0.5s,expectimax:2,hard. "
            "Bots: %(bots)s."
        ),
    ),
]
GamesOpt = Annotated[
    int | None,
    typer.Option("--games", "-n", help=N_("Games per pairing (seats alternate; default 20).")),
]
KindOpt = Annotated[
    str,
    typer.Option(
        "--kind",
        help=N_(
            "all-pairs: every pairing plays --games games; swiss: --rounds rounds, each "
            "paired by points; round-robin: groups of up to 10, everyone meets once. Swiss and "
            "round robin play one game a pairing and rank by points, Buchholz, Sonneborn-Berger."
        ),
    ),
]
RoundsOpt = Annotated[
    int | None, typer.Option("--rounds", help=N_("Rounds of a Swiss (--kind swiss)."))
]
JobsOpt = Annotated[
    int | None, typer.Option("--jobs", "-j", help=N_("Games played at once (default: every core)."))
]
SeedOpt = Annotated[int, typer.Option("--seed", help=N_("Seed for the throws and the bots."))]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help=N_("Folder for summary.json, the records and the plots."),
        parser=path_typed("--out"),
        metavar="<path>",
    ),
]
JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json",
        help=N_(
            "Print the summary it saves (summary.json) as JSON instead of the tables; the "
            "line saying where it was saved goes to standard error."
        ),
    ),
]
PlotsOpt = Annotated[bool, typer.Option("--plots/--no-plots", help=N_("Draw PNG and SVG figures."))]
RayOpt = Annotated[
    bool,
    typer.Option(
        "--ray",
        help=N_(
            "Play the games as Ray tasks on a Ray instance started on this machine "
            "(needs the ray extra)."
        ),
    ),
]
RayAddressOpt = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        metavar="ADDRESS",
        help=N_(
            "Play the games as Ray tasks on the Ray cluster at ADDRESS (host:port, or auto); "
            "every machine needs pocketarena installed. Same seeds, same results as without Ray."
        ),
    ),
]


def jobs_or_fail(jobs: int | None) -> int:
    if jobs is None:
        return default_jobs()
    at_least_one("--jobs", jobs)
    return jobs


def ray_or_fail(ray: bool, address: str | None) -> str | None:
    """Where the games run: None for the local pool, else the Ray address (``local``: a Ray
    instance started here). Refuses early, before any game, when Ray is not installed."""
    if address is not None and not address.strip():
        fail(_("--ray-address needs an address, e.g. 10.0.0.5:6379 or auto"))
    if not ray and address is None:
        return None
    if importlib.util.find_spec("ray") is None:
        fail(speak(message(RAY_MISSING)))
    if address is None:
        return LOCAL_RAY
    address = address.strip()
    if address not in ("auto", LOCAL_RAY):
        try:
            read_address(address)  # a typo is a usage error, found before any game
        except RayUnavailable as e:
            fail(reason(e))
    return address


def workers_for(jobs: int | None, ray: str | None, tasks: int) -> int:
    """Games at once: --jobs, else every core here, or on a Ray cluster as many as it runs."""
    if jobs is None and ray not in (None, LOCAL_RAY):
        return max(1, tasks)  # the cluster's scheduler spreads them over its CPUs
    return jobs_or_fail(jobs)


def run_or_fail(
    tasks: list[GameTask],
    workers: int,
    ray: str | None,
    description: str,
    quiet: bool = False,
    talking: int = 0,
) -> list[GameResult]:
    """``run_with_progress``, with an unreachable Ray cluster reported in one line; the bar
    on standard error when standard output is for JSON (``quiet``). ``talking`` (``talk``):
    -1 draws no bar, 1 says each game as it ends, above the bar."""
    screen = err_console if quiet else console
    if talking < 0:
        screen = Console(file=io.StringIO())  # the bar drawn nowhere
    done = 0

    def each(result: GameResult) -> None:
        nonlocal done
        done += 1
        screen.print(game_line(result, done, len(tasks)), soft_wrap=True, markup=False)

    try:
        return run_with_progress(
            tasks,
            jobs=workers,
            description=description,
            console=screen,
            ray=ray,
            on_result=each if talking > 0 else None,
            # "12/40 games 0:00:03 eta 0:00:07"
            words=(_("games"), _("eta")),
        )
    except RayUnavailable as e:
        fail(reason(e), 1)


def game_line(result: GameResult, number: int, total: int) -> str:
    """One finished game for --verbose: "game 3 of 20: greedy vs random, Heads wins 5-2 in
    17 moves"."""
    seats = pa.GAMES[result.task.game].SEATS
    scores = "-".join(_num(s) for s in result.scores)
    if result.winner is None:
        outcome = _("a draw %(scores)s", scores=scores)
    else:
        seat = speak(seat_name(seats[result.winner]))
        outcome = _("%(seat)s wins %(scores)s", seat=seat, scores=scores)
    return _(
        "game %(number)s of %(total)s: %(first)s vs %(second)s, %(outcome)s in %(moves)s",
        number=number,
        total=total,
        first=result.task.specs[0],
        second=result.task.specs[1],
        outcome=outcome,
        moves=ngettext("%(count)s move", "%(count)s moves", result.plies, count=result.plies),
    )


def default_out(kind: str, game_id: str) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path(f"{kind}-{game_id}-{stamp}")


def _interval(ci: list[float]) -> str:
    return f"{ci[0]:.2f}–{ci[1]:.2f}"


# The tables' column headings, worded when a table is drawn (W, D, L: wins, draws, losses).
STANDINGS = (
    N_("bot"),
    N_("rating"),
    N_("score"),
    N_("95% CI"),
    N_("W"),
    N_("D"),
    N_("L"),
    N_("s/move"),
)
PAIRINGS = (
    N_("bot"),
    N_("opponent"),
    N_("score"),
    N_("95% CI"),
    N_("W"),
    N_("D"),
    N_("L"),
    N_("wins 95%"),
    N_("1st seat"),
)
ROUNDS = (
    "#",  # a rank, the same in every language
    N_("bot"),
    N_("points"),
    N_("Buchholz"),
    N_("SB"),
    N_("W"),
    N_("D"),
    N_("L"),
    N_("byes"),
)


def print_report(data: dict[str, Any]) -> None:
    """The standings and the pairings as rich tables."""
    games = ngettext(
        "%(game)s: standings (%(count)s game)",
        "%(game)s: standings (%(count)s games)",
        data["games"],
        game=data["game"],
        count=data["games"],
    )
    standings = Table(title=escape(games))
    for column in STANDINGS:
        if column == STANDINGS[0]:
            standings.add_column(_(column), overflow="fold")
        else:
            standings.add_column(_(column), justify="right", no_wrap=True)
    for row in data["standings"]:
        rating = row["rating"]
        standings.add_row(
            escape(row["bot"]),
            f"{rating['display']} ± {rating['deviation']}",
            f"{row['score']:.3f}",
            _interval(row["score_ci"]),
            str(row["wins"]),
            str(row["draws"]),
            str(row["losses"]),
            "-" if row["seconds_per_move"] is None else f"{row['seconds_per_move']:.3f}",
        )
    console.print(standings)
    pairings = Table(title=escape(_("pairings (first bot's view)")))
    for column in PAIRINGS:
        if column in PAIRINGS[:2]:
            pairings.add_column(_(column), overflow="fold")
        else:
            pairings.add_column(_(column), justify="right", no_wrap=True)
    for row in data["pairings"]:
        pairings.add_row(
            escape(row["bots"][0]),
            escape(row["bots"][1]),
            f"{row['score']:.3f}",
            _interval(row["score_ci"]),
            str(row["wins"]),
            str(row["draws"]),
            str(row["losses"]),
            _interval(row["win_ci"]),
            f"{row['first_seat_score']:.2f}",
        )
    console.print(pairings)


def print_rounds(data: dict[str, Any]) -> None:
    """A tournament in rounds: its standings with the tie-breaks."""
    rounds = ngettext(
        "%(count)s round", "%(count)s rounds", len(data["rounds"]), count=len(data["rounds"])
    )
    games = ngettext("%(count)s game", "%(count)s games", data["games"], count=data["games"])
    title = _(
        "%(game)s: %(kind)s, %(rounds)s (%(games)s)",
        game=data["game"],
        kind=data["kind"],
        rounds=rounds,
        games=games,
    )
    table = Table(title=escape(title))
    for column in ROUNDS:
        if column == ROUNDS[1]:
            table.add_column(_(column), overflow="fold")
        else:
            table.add_column(_(column), justify="right", no_wrap=True)
    for row in data["standings"]:
        table.add_row(
            str(row["rank"]),
            escape(row["bot"]),
            f"{row['points']:g}",
            f"{row['buchholz']:g}",
            f"{row['sonneborn_berger']:g}",
            str(row["wins"]),
            str(row["draws"]),
            str(row["losses"]),
            str(row["byes"]),
        )
    console.print(table)


def show_summary(
    path: Path,
    tables: Callable[[dict[str, Any]], None],
    saved: str,
    as_json: bool,
    talking: int = 0,
) -> None:
    """The saved summary at ``path``: as tables and a line saying where it went (not with
    --quiet), or (--json) as JSON alone on standard output, that line on standard error."""
    text = path.read_text(encoding="utf-8")
    if as_json:
        console.print_json(text)
        if talking >= 0:
            err_console.print(saved, soft_wrap=True)
        return
    tables(json.loads(text))
    if talking >= 0:
        console.print(saved)


def saved_line(path: Path, records: int, figures: list[Path] | None = None) -> str:
    """Where the results went: "Saved runs/x/summary.json and 12 records, plots a.png"."""
    saved = _(
        "Saved %(path)s and %(records)s",
        path=path,
        records=ngettext("%(count)s record", "%(count)s records", records, count=records),
    )
    if figures:
        saved += _(", plots %(names)s", names=", ".join(p.name for p in figures))
    return saved


def play_in_rounds(
    game: Game,
    specs: list[str],
    kind: str,
    rounds: int | None,
    jobs: int | None,
    where: str | None,
    seed: int,
    folder: Path,
    as_json: bool = False,
    talking: int = 0,
) -> None:
    """``arena --kind swiss|round-robin``: pair, play and rank, round by round."""
    try:
        total = schedule_size(kind, len(specs), rounds)
    except ValueError as e:
        fail(reason(e))
    workers = workers_for(jobs, where, len(specs) // 2)
    report = RoundsReport(
        kind=kind,
        game=game.ID,
        options=dict(game.options),
        bots=specs,
        seed=seed,
        jobs=workers,
        started=now_utc(),
    )
    start = time.perf_counter()

    def play(tasks: list[GameTask]) -> list[GameResult]:
        number = len(report.rounds)
        said = _("%(game)s: round %(round)s of %(total)s", game=game.ID, round=number, total=total)
        return run_or_fail(tasks, workers, where, said, as_json, talking)

    stopped = False
    try:
        run_rounds(report, game, total, play)
    except Interrupted:
        stopped = True
    report.seconds = time.perf_counter() - start
    try:
        path = report.save(folder)
    except OSError as e:
        cannot_write(folder, e)
    show_summary(path, print_rounds, saved_line(path, len(report.record_files)), as_json, talking)
    if stopped:
        interrupted(
            N_(
                "in round %(round)s of %(total)s; the games that finished were saved and the "
                "table covers those."
            ),
            round=len(report.rounds),
            total=total,
        )


def arena(
    game_id: GameArg,
    bots: BotsOpt = "random,greedy,medium,hard",
    games: GamesOpt = None,
    jobs: JobsOpt = None,
    seed: SeedOpt = 0,
    out: OutOpt = None,
    plots: PlotsOpt = True,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    mode: ModeOpt = None,
    map: MapOpt = None,
    protect: ProtectOpt = None,
    option: OptionOpt = None,
    kind: KindOpt = "all-pairs",
    rounds: RoundsOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Play a tournament of --bots at GAME, at once or in rounds.

    Every pairing with seats swapped, or a Swiss or a round robin (--kind).
    Saves the records, a summary and plots."""
    talking = talk(quiet, verbose)
    game = load_game(game_id, mode=mode, map=map, protect=protect, option=option)
    kind = kind.strip().lower()
    if kind not in ("all-pairs", *ROUND_KINDS):
        kinds = ", ".join(("all-pairs", *ROUND_KINDS))
        fail(_("unknown --kind %(kind)r; kinds: %(kinds)s", kind=kind, kinds=kinds))
    if kind != "all-pairs" and games is not None:
        fail(_("a %(kind)s plays one game a pairing; drop --games", kind=kind))
    if kind == "all-pairs" and rounds is not None:
        fail(_("--rounds is for --kind swiss"))
    games = 20 if games is None else games
    at_least_one("--games", games, MOST_GAMES)
    jobs_or_fail(jobs)
    where = ray_or_fail(ray, ray_address)
    try:
        specs = check_specs(game, bots.split(","))
    except ValueError as e:
        fail(reason(e))
    folder = writable_or_fail(
        out if out is not None else default_out("arena", game.ID), "--out", folder=True
    )
    if kind != "all-pairs":
        play_in_rounds(game, specs, kind, rounds, jobs, where, seed, folder, as_json, talking)
        return
    tasks = make_tasks(game, specs, games, seed)
    workers = workers_for(jobs, where, len(tasks))
    started = now_utc()
    start = time.perf_counter()
    stopped: Interrupted | None = None
    try:
        said = _("%(game)s: %(count)s bots", game=game.ID, count=len(specs))
        results = run_or_fail(tasks, workers, where, said, as_json, talking)
    except Interrupted as stop:
        # Ctrl-C: the games that finished are kept, saved and reported.
        stopped, results = stop, stop.results
        if not results:
            interrupted(N_("0 of %(total)s games finished; nothing was saved."), total=stop.total)
    report = ArenaReport(
        game=game.ID,
        options=dict(game.options),
        bots=specs,
        games_per_pairing=games,
        seed=seed,
        results=results,
        seconds=time.perf_counter() - start,
        jobs=workers,
        started=started,
    )
    try:
        path = report.save(folder)
        figures = plot(report, folder) if plots else []
    except OSError as e:
        cannot_write(folder, e)
    show_summary(path, print_report, saved_line(path, len(results), figures), as_json, talking)
    if stopped is not None:
        interrupted(
            N_(
                "%(done)s of %(total)s games finished and were saved; the tables and plots "
                "cover those."
            ),
            done=len(results),
            total=stopped.total,
        )


def register(app: typer.Typer) -> None:
    app.command("arena")(arena)
