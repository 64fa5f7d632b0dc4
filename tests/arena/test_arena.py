"""The arena: scheduling, parallel play, the summary's schema, records, ratings and plots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pocketarena as pa
from pocketarena.arena import ArenaReport, check_specs, make_tasks, run_tasks
from pocketarena.arena.stats import wilson
from pocketarena.arena.tournament import plot
from pocketarena.records import load


def report_for(game: pa.Game, specs: list[str], games: int, jobs: int = 1) -> ArenaReport:
    tasks = make_tasks(game, specs, games, seed=7)
    return ArenaReport(
        game=game.ID,
        options=dict(game.options),
        bots=specs,
        games_per_pairing=games,
        seed=7,
        results=run_tasks(tasks, jobs=jobs),
        seconds=0.0,
        jobs=jobs,
    )


def test_every_pairing_plays_with_seats_swapped_and_shared_throws() -> None:
    game = pa.load("coin-age")
    tasks = make_tasks(game, ["random", "greedy", "easy"], games=4, seed=3)
    assert len(tasks) == 3 * 4
    pairs = [t for t in tasks if t.labels["pairing"] == [0, 1]]
    assert [t.specs for t in pairs] == [("random", "greedy"), ("greedy", "random")] * 2
    assert pairs[0].chance_seed == pairs[1].chance_seed != pairs[2].chance_seed
    assert len({t.index for t in tasks}) == len(tasks)
    with pytest.raises(ValueError, match="at least 1"):
        make_tasks(game, ["random", "greedy"], games=0, seed=1)


def test_specs_are_checked_before_anything_is_played() -> None:
    game = pa.load("stack-a-cash")
    assert check_specs(game, [" Random", "greedy ", ""]) == ["random", "greedy"]
    with pytest.raises(ValueError, match="at least two bots"):
        check_specs(game, ["random"])
    with pytest.raises(ValueError, match="'greedy' is listed twice"):
        check_specs(game, ["greedy", "random", "greedy"])
    with pytest.raises(ValueError, match="unknown bot 'wizard'"):
        check_specs(game, ["random", "wizard"])


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    game = pa.load("stack-a-cash")
    alone = report_for(game, ["random", "greedy", "mcts:20"], games=2, jobs=1)
    pooled = report_for(game, ["random", "greedy", "mcts:20"], games=2, jobs=2)
    assert [r.record["moves"] for r in alone.results] == [r.record["moves"] for r in pooled.results]


def test_summary_schema_tallies_and_ratings(tmp_path: Path) -> None:
    game = pa.load("stack-a-cash")
    report = report_for(game, ["random", "greedy"], games=4)
    path = report.save(tmp_path)
    data = json.loads(path.read_text())
    assert data["format"] == "pocketarena-arena" and data["version"] == 1
    assert data["game"] == "stack-a-cash" and data["options"] == {"protect": "touched"}
    assert data["games"] == 4 and data["games_per_pairing"] == 4
    (pairing,) = data["pairings"]
    assert pairing["bots"] == ["random", "greedy"]
    won, drawn, lost = pairing["wins"], pairing["draws"], pairing["losses"]
    assert won + drawn + lost == 4
    assert pairing["win_ci"] == [round(x, 4) for x in wilson(won, 4)]
    assert pairing["score"] == round((won + drawn / 2) / 4, 4)
    by_bot = {row["bot"]: row for row in data["standings"]}
    assert by_bot["greedy"]["wins"] == lost and by_bot["greedy"]["losses"] == won
    assert {"display", "deviation", "mu", "sigma", "games"} <= set(by_bot["random"]["rating"])
    assert by_bot["greedy"]["rating"]["games"] == 4
    if lost > won:  # the better bot is rated higher
        assert by_bot["greedy"]["rating"]["mu"] > by_bot["random"]["rating"]["mu"]
    assert data["score_matrix"][0][0] is None
    assert data["score_matrix"][0][1] + data["score_matrix"][1][0] == pytest.approx(1.0)
    assert len(data["records"]) == 4
    for name in data["records"]:
        record = load(tmp_path / name)
        record.replay()  # every saved game replays, throws and all
        assert {p.name for p in record.players} == {"random", "greedy"}


def test_plots_are_written_as_png_and_svg(tmp_path: Path) -> None:
    report = report_for(pa.load("stack-a-cash"), ["random", "greedy"], games=2)
    paths = plot(report, tmp_path)
    assert sorted(p.name for p in paths) == [
        "ratings.png",
        "ratings.svg",
        "scores.png",
        "scores.svg",
    ]
    assert (tmp_path / "scores.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (tmp_path / "scores.svg").read_text()
