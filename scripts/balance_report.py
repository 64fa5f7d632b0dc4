"""Measure every game's balance with ``pocketarena balance`` and write docs/balance.md with
its plots (docs/img/balance/).

    python scripts/balance_report.py                  # every game, the budgets below (hours on 2 cores)
    python scripts/balance_report.py --games stack-a-cash,flipwars --scale 0.5
    python scripts/balance_report.py --games wallet-battles --from study/   # page from saved runs

Each game runs ``pocketarena balance GAME --bot BOT --games N --seed 0 --no-records``; the page
quotes the exact command, so any row can be reproduced or measured again with more games. A game
with readings of its printed rules (Wallet Battles) is measured on every reading, by self-play
and against a weaker bot, and gets a comparison table and figure. Games not measured this time
keep their sections and rows of the page as they were.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pocketarena.arena import plots
from pocketarena.arena.balance import readings_figure, variant_values

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "balance.md"
IMAGES = ROOT / "docs" / "img" / "balance"

# (bot, games per variant): the strongest self-play that fits the run in about half an hour on
# two cores. Stack-a-Cash is solved, so its perfect player measures the game itself; the others
# play their hard level with a shorter thinking time (FlipWars keeps its exact endgame solver).
BUDGETS: dict[str, tuple[str, int]] = {
    "stack-a-cash": ("perfect", 100),
    "coin-age": ("hard:0.1s", 50),
    # Expectimax two turns deep (the search of the medium level; hard deepens further with
    # time): a fixed depth plays the same games on any machine, busy or not.
    "wallet-battles": ("expectimax:2", 40),
    "flipwars": ("hard:0.2s", 40),
}
# Games whose readings are also measured with the bot against this weaker one (seats swap).
AGAINST: dict[str, str] = {"wallet-battles": "greedy"}
NOTES = {
    "stack-a-cash": "Stack-a-Cash is solved, so perfect self-play is the solution played out "
    "rather than a sample: with `protect=touched` Heads (the first seat) wins every game in 15 "
    "plies; with the printed `protect=placed` every game is drawn (by repetition, however the "
    "perfect players choose among their equal moves). The interval only reflects how few "
    "games were played.",
    "coin-age": "All four maps were played with the same bot and the same seeds, so their rows "
    "compare directly.",
    "wallet-battles": "Flips are what a person sits through (the server flips for both "
    "players); the flip guard ends a game once 500 have been made. Intervals: medians between "
    "two order statistics, shares by Wilson, the first seat's score by a percentile bootstrap, "
    "margins by the normal approximation.",
    "flipwars": "The `hard` level's exact endgame solver plays the last 6 placements (8 in "
    "`enclosed`) perfectly, so the ends of these games are exact; a tactical series is scored "
    "by rounds won.",
}
READING_START = "<!-- reading:start -->"
READING_END = "<!-- reading:end -->"
TITLES = {
    "stack-a-cash": "Stack-a-Cash",
    "coin-age": "Coin Age",
    "wallet-battles": "Wallet Battles",
    "flipwars": "FlipWars",
}


# The figures a plain section shows (copied from its run).
FIGURES = ("first-seat", "length", "margin")


def set_page(page: Path) -> None:
    """Write ``page`` (and its figures beside it, under img/balance/) instead of the docs'."""
    global PAGE, IMAGES
    PAGE = page
    IMAGES = page.parent / "img" / "balance"


def run_name(game: str, against: str | None) -> str:
    """The folder of one run under the runs folder: ``wallet-battles`` or
    ``wallet-battles-against-greedy``."""
    return game if against is None else f"{game}-against-{against}"


def measure(
    game: str, bot: str, games: int, jobs: int, runs: Path, against: str | None, reuse: bool
) -> tuple[dict[str, Any], str, Path]:
    """Run the balance command into ``runs`` (or read the run saved there): its JSON report,
    the command line and the folder with its plots."""
    out = runs / run_name(game, against)
    args = [game, "--bot", bot, "--games", str(games), "--seed", "0", "--no-records"]
    if game in AGAINST:
        args.append("--no-plots")  # the page draws its comparison figures from the JSON
    if against is not None:
        args[3:3] = ["--against", against]
    command = "pocketarena balance " + " ".join(args)
    if not (reuse and (out / "balance.json").is_file()):
        print(command, flush=True)
        runs.mkdir(parents=True, exist_ok=True)  # balance makes only the last folder of --out
        subprocess.run(
            [sys.executable, "-m", "pocketarena", "balance", *args, "--jobs", str(jobs)]
            + ["--out", str(out)],
            check=True,
        )
    data = json.loads((out / "balance.json").read_text())
    if data["games_per_variant"] != games or data["bot"] != bot or data.get("against") != against:
        raise SystemExit(f"{out} holds another run ({data['pairing']}); measure it again")
    return data, command, out


def copy_figures(game: str, folder: Path, names: tuple[str, ...]) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    for figure in names:
        shutil.copy(folder / f"{figure}.png", IMAGES / f"{game}-{figure}.png")


def verdict(v: dict[str, Any]) -> str:
    low, high = v["first_seat"]["score_ci"]
    if low > 0.5:
        return "first seat favoured"
    if high < 0.5:
        return "second seat favoured"
    return "no significant edge"


def minutes(data: dict[str, Any]) -> str:
    return f"{data['seconds'] / 60:.0f} minutes on 2 cores"


def section(game: str, data: dict[str, Any], command: str) -> list[str]:
    lines = [
        f"## {TITLES[game]}",
        "",
        f"`{command}` — self-play of `{data['bot']}`, {data['games_per_variant']} games a "
        f"variant, {minutes(data)}.",
        "",
        "| variant | first seat's score | 95% CI | W / D / L (first seat) | draws | decisions "
        "(median, IQR) | margin (mean ± sd) | winner's margin (median) | reading |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for v in data["variants"]:
        first = v["first_seat"]
        d, m = v["decisions"], v["margin"]
        win = v["winning_margin"]["median"]
        lines.append(
            f"| {v['label']} | {first['score']:.3f} | {first['score_ci'][0]:.2f}–"
            f"{first['score_ci'][1]:.2f} | {first['wins']} / {first['draws']} / {first['losses']} "
            f"| {v['draw_rate']:.0%} | {d['median']:g} ({d['q1']:g}–{d['q3']:g}) | "
            f"{m['mean']:+.2f} ± {m['sd']:.2f} | {'-' if win is None else f'{win:g}'} | "
            f"{verdict(v)} |"
        )
    lines += ["", NOTES[game], ""] if game in NOTES else [""]
    lines += [
        f"![{TITLES[game]}: {alt}](img/balance/{game}-{figure}.png)"
        for figure, alt in zip(
            FIGURES, ("first seat's score per variant", "game length", "score margin"), strict=True
        )
    ]
    return [*lines, ""]


def _ci(low: float, high: float, digits: int = 2) -> str:
    return f"{low:.{digits}f}–{high:.{digits}f}"


def _median(summary: dict[str, Any]) -> str:
    low, high = summary["median_ci"]
    return f"{summary['median']:g} ({low:g}–{high:g})"


def _share(v: dict[str, Any], category: str, word: str) -> str:
    found = v["categories"].get(category, {}).get(word)
    if found is None:
        from pocketarena.arena.stats import wilson

        return f"0% ({_percents(*wilson(0, v['games']))})"
    return f"{found['share']:.0%} ({_percents(*found['ci'])})"


def _percents(low: float, high: float) -> str:
    return f"{low * 100:.0f}–{high:.0%}"


def heading(data: dict[str, Any]) -> str:
    if data.get("against"):
        return f"`{data['bot']}` against `{data['against']}`, seats swapping"
    return f"Self-play of `{data['bot']}`"


def pooled_table(reports: list[dict[str, Any]]) -> list[str]:
    """Each reading (the options but the map) over every map and every run together: the
    figures a default is chosen by, each with its 95% interval."""
    from pocketarena.arena.stats import Tally, median_interval, score_bootstrap, wilson

    groups: dict[str, list[tuple[dict[str, Any], int, dict[str, Any]]]] = {}
    for data in reports:
        for v in data["variants"]:
            reading = {k: x for k, x in v["options"].items() if k != "map"}
            for k, game in enumerate(v["per_game"]):
                groups.setdefault(variant_values(reading), []).append((data, k, game))
    names = " · ".join(k for k in reports[0]["variants"][0]["options"] if k != "map")
    bot = reports[0]["bot"]
    against = next((d["against"] for d in reports if d.get("against")), None)
    head = (
        f"| {names} | games | flips (median, 95% CI) | decisions (median) | ended by the guard "
        "| first seat's score | draws |"
    )
    rule = "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    if against:
        head += f" `{bot}`'s score against `{against}` |"
        rule += " ---: |"
    lines = [head, rule]
    for label, games in groups.items():
        first, side = Tally(), Tally()
        for data, k, game in games:
            w = game["winner"]
            first = first.add(0.5 if w is None else float(w == 0))
            if data.get("against"):
                seat = k % 2  # the tested bot sits first in even games
                side = side.add(0.5 if w is None else float(w == seat))
        n = len(games)
        flips = sorted(float(g["flips"]) for _, _, g in games)
        decisions = sorted(g["decisions"] for _, _, g in games)
        guard = sum(g["ending"] == "guard" for _, _, g in games)
        low, high = median_interval(flips)
        f_low, f_high = score_bootstrap(*first.counts())
        row = (
            f"| {label.replace('·', ' · ')} | {n} | {_middle(flips):g} ({low:g}–{high:g}) "
            f"| {_middle(decisions):g} | {guard / n:.0%} ({_percents(*wilson(guard, n))}) "
            f"| {first.score:.2f} ({f_low:.2f}–{f_high:.2f}) "
            f"| {first.draws / n:.0%} ({_percents(*wilson(first.draws, n))}) |"
        )
        if against:
            s_low, s_high = score_bootstrap(*side.counts())
            row += f" {side.score:.2f} ({s_low:.2f}–{s_high:.2f}) |"
        lines.append(row)
    return lines


def _middle(values: list[float] | list[int]) -> float:
    import statistics

    return float(statistics.median(values))


def readings_table(data: dict[str, Any]) -> list[str]:
    """One row a reading: length, the guard, fairness and margin, each with its interval."""
    against = data.get("against")
    names = " · ".join(data["variants"][0]["options"])
    head = (
        f"| {names} | flips (median, 95% CI) | decisions (median, 95% CI) | ended by the "
        "guard | first seat's score | draws | margin (mean, 95% CI) |"
    )
    rule = "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    if against:
        head += f" {data['bot']}'s score |"
        rule += " ---: |"
    lines = [head, rule]
    for v in data["variants"]:
        first, m = v["first_seat"], v["margin"]
        row = (
            f"| {variant_values(v['options']).replace('·', ' · ')} "
            f"| {_median(v['measures']['flips'])} | {_median(v['decisions'])} "
            f"| {_share(v, 'ending', 'guard')} "
            f"| {first['score']:.2f} ({_ci(*first['score_ci'])}) "
            f"| {v['draw_rate']:.0%} ({_percents(*v['draw_ci'])}) "
            f"| {m['mean']:+.1f} ({m['mean_ci'][0]:+.1f} to {m['mean_ci'][1]:+.1f}) |"
        )
        if against:
            side = v["bot_side"]
            row += f" {side['score']:.2f} ({_ci(*side['score_ci'])}) |"
        lines.append(row)
    return lines


def save_png(figure: Any, stem: str) -> None:
    """A figure as ``IMAGES/stem.png`` (the page shows PNGs; SVGs of many games are large)."""
    IMAGES.mkdir(parents=True, exist_ok=True)
    figure.savefig(IMAGES / f"{stem}.png", dpi=130)


def readings_section(game: str, runs: list[tuple[dict[str, Any], str]]) -> list[str]:
    """A game measured on every reading: a table per pairing, the comparison figure, and the
    self-play run's length histograms and endings."""
    own = runs[0][0]
    lines = [f"## {TITLES[game]}", ""]
    for data, command in runs:
        lines.append(
            f"- `{command}` — {data['pairing']}"
            + (", seats swapping every game" if data.get("against") else "")
            + f", {data['games_per_variant']} games a reading, {minutes(data)}."
        )
    lines.append("")
    lines += [
        "### Each reading over both maps and both pairings",
        "",
        *pooled_table([data for data, _ in runs]),
        "",
    ]
    for data, _ in runs:
        lines += [f"### {heading(data)}", "", *readings_table(data), ""]
    lines += [NOTES[game], ""] if game in NOTES else []
    figure = readings_figure(
        [data for data, _ in runs],
        "flips",
        "ending",
        "guard",
        f"{TITLES[game]}: the readings side by side ({own['games_per_variant']} games each, "
        "95% intervals)",
    )
    save_png(figure, f"{game}-readings")
    labels = [variant_values(v["options"]) for v in own["variants"]]
    games = [v["per_game"] for v in own["variants"]]
    figure = plots.histograms(
        labels,
        [[float(g["flips"]) for g in per] for per in games],
        "flips (the guard ends a game at 500)",
        f"{TITLES[game]}: flips per game\n{own['pairing']}",
    )
    save_png(figure, f"{game}-flips")
    figure = plots.shares(
        labels,
        [[str(g["ending"]) for g in per] for per in games],
        f"{TITLES[game]}: how games ended\n{own['pairing']}",
    )
    save_png(figure, f"{game}-ending")
    lines += [
        f"![{TITLES[game]}: the readings side by side](img/balance/{game}-readings.png)",
        f"![{TITLES[game]}: flips per game, {own['pairing']}](img/balance/{game}-flips.png)",
        f"![{TITLES[game]}: how games ended, {own['pairing']}](img/balance/{game}-ending.png)",
        "",
    ]
    return lines


def reading() -> list[str]:
    """The hand-written reading of the figures, kept from the page as it was (between its
    markers), since only a person can say what the numbers mean."""
    if not PAGE.exists():
        return []
    text = PAGE.read_text(encoding="utf-8")
    if READING_START not in text or READING_END not in text:
        return []
    kept = text[text.index(READING_START) : text.index(READING_END) + len(READING_END)]
    return [kept, ""]


def kept_parts() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The page as it is: each game's section and its rows of the glance table, by game, so a
    game not measured this time keeps them."""
    sections: dict[str, list[str]] = {}
    glance: dict[str, list[str]] = {}
    if not PAGE.exists():
        return sections, glance
    by_title = {title: game for game, title in TITLES.items()}
    current: str | None = None
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current = by_title.get(line[3:].strip())
            if current is not None:
                sections[current] = []
        if current is not None:
            sections[current].append(line)
        cells = [c.strip() for c in line.split("|")]
        if line.startswith("| ") and len(cells) > 2 and cells[1] in by_title:
            glance.setdefault(by_title[cells[1]], []).append(line)
    return sections, glance


def glance_rows(game: str, data: dict[str, Any]) -> list[str]:
    rows = []
    for v in data["variants"]:
        first = v["first_seat"]
        rows.append(
            f"| {TITLES[game]} | {v['label']} | {first['score']:.2f} "
            f"({first['score_ci'][0]:.2f}–{first['score_ci'][1]:.2f}) | "
            f"{v['draw_rate']:.0%} | {verdict(v)} |"
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(BUDGETS), help="games to measure")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the game counts")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--runs", type=Path, help="keep each run's output here (default: a temporary folder)"
    )
    parser.add_argument(
        "--reuse", action="store_true", help="read runs already saved in --runs instead"
    )
    parser.add_argument("--bot", help="play every game with this bot instead (a quick check)")
    parser.add_argument("--page", type=Path, default=PAGE, help="the page to write")
    args = parser.parse_args()
    set_page(args.page)
    chosen = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in chosen if g not in BUDGETS]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}; choose from {', '.join(BUDGETS)}")
    if args.reuse and args.runs is None:
        parser.error("--reuse needs --runs, the folder the runs were saved in")
    sections, glance = kept_parts()
    with tempfile.TemporaryDirectory() as tmp:
        runs_folder = args.runs or Path(tmp)
        for game in chosen:
            bot, games = BUDGETS[game]
            bot = args.bot or bot
            games = max(2, round(games * args.scale))
            pairings = [None] + ([AGAINST[game]] if game in AGAINST else [])
            runs = []
            for against in pairings:
                data, command, folder = measure(
                    game, bot, games, args.jobs, runs_folder, against, args.reuse
                )
                runs.append((data, command, folder))
            own, command, folder = runs[0]
            if game in AGAINST:
                sections[game] = readings_section(game, [(d, c) for d, c, _ in runs])
            else:
                copy_figures(game, folder, FIGURES)
                sections[game] = section(game, own, command)
            glance[game] = glance_rows(game, own)
    stamp = datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    head = [
        "# Balance: how fair is each mode and map?",
        "",
        "Measured by self-play: one bot plays both seats, so any difference between the seats "
        "is the game's, not the players'. The first seat's *score* counts a win 1 and a draw "
        "½ (0.5 is perfectly fair); its 95% interval is a percentile bootstrap. *Decisions* "
        "count both players' moves (throws not included); the *margin* is the first seat's "
        "points minus the second's at the end (Stack-a-Cash has no points: 1 for a win). "
        'A reading of "no significant edge" means the interval contains 0.5 at this number '
        "of games, not that the game is proven fair. "
        f"Written by `python scripts/balance_report.py` on {stamp}.",
        "",
    ]
    head += [
        *reading(),
        "## At a glance",
        "",
        "| game | variant | first seat's score (95% CI) | draws | reading |",
        "| --- | --- | ---: | ---: | --- |",
        *[row for game in BUDGETS for row in glance.get(game, [])],
        "",
    ]
    body = [line for game in BUDGETS for line in sections.get(game, [])]
    PAGE.write_text("\n".join(head + body).rstrip("\n") + "\n", encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
