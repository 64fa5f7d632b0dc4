"""Measure every game's balance with ``pocketarena balance`` and write docs/balance.md with
its plots (docs/img/balance/).

    python scripts/balance_report.py                  # every game, the budgets below (~25 min on 2 cores)
    python scripts/balance_report.py --games stack-a-cash,flipwars --scale 0.5

Each game runs ``pocketarena balance GAME --bot BOT --games N --seed 0 --no-records``; the page
quotes the exact command, so any row can be reproduced or measured again with more games.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "balance.md"
IMAGES = ROOT / "docs" / "img" / "balance"

# (bot, games per variant): the strongest self-play that fits the run in about half an hour on
# two cores. Stack-a-Cash is solved, so its perfect player measures the game itself; the others
# play their hard level with a shorter thinking time (FlipWars keeps its exact endgame solver).
BUDGETS: dict[str, tuple[str, int]] = {
    "stack-a-cash": ("perfect", 100),
    "coin-age": ("hard:0.1s", 50),
    "wallet-battles": ("hard:0.1s", 50),
    "flipwars": ("hard:0.2s", 40),
}
NOTES = {
    "stack-a-cash": "Stack-a-Cash is solved, so perfect self-play is the solution played out "
    "rather than a sample: with `protect=touched` Heads (the first seat) wins every game in 15 "
    "plies; with the printed `protect=placed` every game is drawn (by repetition, however the "
    "perfect players choose among their equal moves). The interval only reflects how few "
    "games were played.",
    "coin-age": "All four maps were played with the same bot and the same seeds, so their rows "
    "compare directly.",
    "wallet-battles": "Lengths count plies, throws included: SPEC's guard ends a game once 500 "
    "flips have been made, at about 750 plies.",
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


def measure(game: str, bot: str, games: int, jobs: int) -> tuple[dict[str, Any], str, float]:
    """Run the balance command; its JSON report, the command line and the wall time."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / game
        args = [game, "--bot", bot, "--games", str(games), "--seed", "0", "--no-records"]
        command = "pocketarena balance " + " ".join(args)
        print(command, flush=True)
        start = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pocketarena",
                "balance",
                *args,
                "--jobs",
                str(jobs),
                "--out",
                str(out),
            ],
            check=True,
        )
        seconds = time.perf_counter() - start
        data = json.loads((out / "balance.json").read_text())
        IMAGES.mkdir(parents=True, exist_ok=True)
        for figure in ("first-seat", "length", "margin"):
            shutil.copy(out / f"{figure}.png", IMAGES / f"{game}-{figure}.png")
    return data, command, seconds


def verdict(v: dict[str, Any]) -> str:
    low, high = v["first_seat"]["score_ci"]
    if low > 0.5:
        return "first seat favoured"
    if high < 0.5:
        return "second seat favoured"
    return "no significant edge"


def section(game: str, data: dict[str, Any], command: str, seconds: float) -> list[str]:
    lines = [
        f"## {TITLES[game]}",
        "",
        f"`{command}` — self-play of `{data['bot']}`, {data['games_per_variant']} games a "
        f"variant, {seconds / 60:.0f} minutes on 2 cores.",
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
        f"![{TITLES[game]}: first seat's score per variant](img/balance/{game}-first-seat.png)",
        f"![{TITLES[game]}: game length](img/balance/{game}-length.png)",
        f"![{TITLES[game]}: score margin](img/balance/{game}-margin.png)",
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(BUDGETS), help="games to measure")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the game counts")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    chosen = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in chosen if g not in BUDGETS]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}; choose from {', '.join(BUDGETS)}")
    body: list[str] = []
    glance: list[str] = []
    for game in chosen:
        bot, games = BUDGETS[game]
        data, command, seconds = measure(game, bot, max(2, round(games * args.scale)), args.jobs)
        body += section(game, data, command, seconds)
        for v in data["variants"]:
            first = v["first_seat"]
            glance.append(
                f"| {TITLES[game]} | {v['label']} | {first['score']:.2f} "
                f"({first['score_ci'][0]:.2f}–{first['score_ci'][1]:.2f}) | "
                f"{v['draw_rate']:.0%} | {verdict(v)} |"
            )
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
        *glance,
        "",
    ]
    PAGE.write_text("\n".join(head + body).rstrip("\n") + "\n", encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
