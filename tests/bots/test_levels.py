"""Levels and search-bot specs in the registry."""

from __future__ import annotations

import json
import random

import pytest

import pocketarena as pa
from pocketarena.bots import make_bot
from pocketarena.bots.expectimax import ExpectimaxBot
from pocketarena.bots.levels import LEVELS, Level, levels_for, make_level
from pocketarena.bots.mcts import MCTSBot
from pocketarena.bots.simple import GreedyBot
from pocketarena.match import SeededChance, play_match

REAL_GAMES = sorted(g for g in pa.GAMES if g != "coin-race")


def test_every_game_has_easy_medium_and_hard() -> None:
    for game_id in REAL_GAMES:
        assert {"easy", "medium", "hard"} <= set(LEVELS[game_id]), game_id


@pytest.mark.parametrize(
    "spec, cls, budget",
    [
        ("mcts", MCTSBot, {}),
        ("mcts:250", MCTSBot, {"iterations": 250}),
        ("MCTS:0.5s", MCTSBot, {"seconds": 0.5}),
        ("expectimax", ExpectimaxBot, {}),
        ("expectimax:3", ExpectimaxBot, {"depth": 3}),
        ("expectimax:2s", ExpectimaxBot, {"seconds": 2.0}),
    ],
)
def test_search_specs(spec: str, cls: type, budget: dict[str, float]) -> None:
    bot = make_bot(spec, pa.load("wallet-battles"), seed=1)
    assert isinstance(bot, cls)
    assert bot.budget == budget


def test_mcts_spec_uses_the_games_tuning() -> None:
    bot = make_bot("mcts:10", pa.load("flipwars"), seed=1)
    assert isinstance(bot, MCTSBot) and bot.widen > 0
    plain = make_bot("mcts:10", pa.load("stack-a-cash"), seed=1)
    assert isinstance(plain, MCTSBot) and plain.widen == 0


@pytest.mark.parametrize(
    "spec, message",
    [
        (
            "mcts:abc",
            r"bot 'mcts:abc': after 'mcts:' give a positive whole number \(iterations, "
            r"e.g. mcts:2000\) or seconds up to 3600 \(e.g. mcts:1.5s\)",
        ),
        ("mcts:0", "positive whole number"),
        ("mcts:-2s", "or seconds"),
        ("expectimax:1.5", r"\(turns deep, e.g. expectimax:2\)"),
        ("hard:3", "a level takes only a thinking time"),
        (
            "perfect",
            "coin-age is not solved, so it has no perfect level; its levels: easy, medium, hard",
        ),
        ("genius", "unknown bot 'genius'; valid bots: .*hard.*mcts"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec, pa.load("coin-age"))


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_level_bots_name_themselves_and_play(game_id: str) -> None:
    game = pa.load(game_id)
    for level in ("easy", "medium"):
        bot = make_level(game, level, seed=1)
        assert bot.name == level
    bot = make_bot("easy", game, seed=2)
    rng = random.Random(1)
    state = game.new_initial_state()
    while state.current_player < 0 or state.ply < 4:
        state.apply_random(rng)
    before = json.dumps(state.to_json(), sort_keys=True)
    assert bot.choose(state) in state.legal_actions()
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_levels_of_a_game_without_its_own_table(coin_race: pa.Game) -> None:
    assert set(levels_for(coin_race)) == {"easy", "medium", "hard"}
    record = play_match(
        coin_race,
        [make_bot("easy", coin_race, seed=1), make_bot("random", coin_race, seed=2)],
        SeededChance(3),
    )
    assert record.players[0].name == "easy" and record.result in ("1-0", "0-1")


def test_level_recipes_describe_themselves() -> None:
    assert Level("mcts", {"seconds": 1.5}).describe() == "mcts(seconds=1.5)"
    recipe = Level("mcts", {}, endgame={"enclosed": 8, "*": 6})
    assert recipe.describe(pa.load("flipwars", mode="enclosed")).endswith("from 8 empty cells")
    assert recipe.describe(pa.load("flipwars", mode="flag")).endswith("from 6 empty cells")
    assert isinstance(
        make_level(pa.load("coin-age"), "medium", seed=1), GreedyBot | MCTSBot | ExpectimaxBot
    )


def test_a_level_with_its_thinking_time_changed() -> None:
    game = pa.load("wallet-battles")
    bot = make_bot("hard:0.25s", game, seed=1)
    assert isinstance(bot, ExpectimaxBot) and bot.seconds == 0.25 and bot.name == "hard:0.25s"
    with pytest.raises(
        ValueError, match=r"level easy \(mcts\(iterations=60\)\) has no thinking time"
    ):
        make_bot("easy:1s", game)
    with pytest.raises(
        ValueError, match="a level takes only a thinking time in seconds, e.g. hard:0.5s"
    ):
        make_bot("hard:3", game)


def test_openspiel_mcts_plays_through_the_adapter() -> None:
    game = pa.load("coin-age")
    bot = make_bot("openspiel-mcts:30", game, seed=2)
    state = game.new_initial_state()
    state.apply(state.chance_outcomes()[3][0])
    before = json.dumps(state.to_json(), sort_keys=True)
    assert bot.choose(state) in state.legal_actions()
    assert json.dumps(state.to_json(), sort_keys=True) == before
    assert bot.last_iterations == 30  # type: ignore[attr-defined]
    timed = make_bot("openspiel-mcts:0.05s", game, seed=2)
    timed.choose(state)
    assert timed.last_iterations >= 1  # type: ignore[attr-defined]
    assert timed.last_seconds < 1.0  # type: ignore[attr-defined]
