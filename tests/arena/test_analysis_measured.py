"""docs/study.md's measurements of the analysis, on a smaller sample (scripts/measure_analysis.py
runs the full ones): the random side gets more ? and ?? than the hard bot; hard-vs-hard graphs
change little between decisions; beyond the exact reach the best move keeps the exact value."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import pocketarena as pa

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import measure_analysis as measure  # noqa: E402

pytestmark = pytest.mark.slow

# The quick analyst judges (the web's quick analysis), as in the script; the seeds are the
# script's, so these are the first games of its samples.
ANALYST = "hard:0.3s"


@pytest.mark.parametrize(
    "game_id, options, player, games",
    [
        ("flipwars", {"mode": "standard"}, "hard", 2),
        # Coin Age's hard bot thinks 12,000 simulations a move: its quick budget here.
        ("coin-age", {}, "hard:0.3s", 1),
    ],
)
def test_the_random_side_gets_more_mistakes(
    game_id: str, options: dict[str, str], player: str, games: int
) -> None:
    game = pa.load(game_id, **options)
    result = measure.vs_random(game, games, player, ANALYST, seed=1)
    assert result["share"] == 1.0, result["per_game"]


def test_hard_against_hard_the_graph_is_smooth() -> None:
    game = pa.load("flipwars", mode="standard")
    result = measure.smooth(game, 2, "hard", ANALYST, seed=1)
    assert result["mean_change"] < 0.05, result
    assert result["steps"] > 0  # what another run's mean is weighed by when they are added


def test_beyond_the_solvers_reach_the_best_move_keeps_the_exact_value() -> None:
    game = pa.load("flipwars", mode="enclosed")  # 9 empty cells: one beyond the analysis's 8
    result = measure.endgame(game, 2, "hard", ANALYST, seed=1, max_empty=9)
    assert result["positions"] >= 1
    assert result["kept_exact_value"] == result["positions"], result["misses"]
