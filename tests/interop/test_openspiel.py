"""The OpenSpiel adapter: every game and VARIANT passes OpenSpiel's own conformance test, takes
its options as parameters, wraps engine states faithfully, and OpenSpiel's MCTS plays it."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import pocketarena as pa
from pocketarena.interop.openspiel import encode_mapping, registered_names, spiel_name
from pocketarena.observe import observation_tensor
from tests.conftest import all_variants, variant_id

VARIANTS = all_variants()


def spiel_params(options: dict[str, Any]) -> dict[str, Any]:
    return {k: encode_mapping(v) if isinstance(v, dict) else v for k, v in options.items()}


def load(game_id: str, options: dict[str, Any]) -> Any:
    return pyspiel.load_game(spiel_name(game_id), spiel_params(options))


def test_every_game_is_registered() -> None:
    assert registered_names() == [spiel_name(g) for g in sorted(pa.GAMES)]
    assert set(registered_names()) <= set(pyspiel.registered_names())
    assert spiel_name("stack-a-cash") == "pocketarena_stack_a_cash"


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_random_sim_test(variant: tuple[str, dict[str, Any]]) -> None:
    game = load(*variant)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_game_string_round_trip(variant: tuple[str, dict[str, Any]]) -> None:
    game_id, options = variant
    game = load(game_id, options)
    engine = pa.load(game_id, **options)
    assert game.pocketarena == engine
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.pocketarena == engine
    info = engine.info
    assert game.num_distinct_actions() == info.num_distinct_actions
    assert game.max_game_length() == info.max_game_length
    assert game.get_type().chance_mode == (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if engine.CHANCE
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )


def test_parameters_by_string() -> None:
    game = pyspiel.load_game("pocketarena_stack_a_cash(protect=placed)")
    assert game.pocketarena.options == {"protect": "placed"}
    assert pyspiel.load_game("pocketarena_stack_a_cash").pocketarena.options["protect"] == "touched"
    wallet = pyspiel.load_game("pocketarena_wallet_battles(map=antietam,coins=Q:1;N:0;P:2;D:0)")
    assert wallet.pocketarena.options == {
        "map": "antietam",
        "coins": {"Q": 1, "N": 0, "P": 2, "D": 0},
    }
    as_json = pyspiel.load_game(
        "pocketarena_wallet_battles", {"coins": json.dumps({"Q": 1, "N": 0, "P": 2, "D": 0})}
    )
    assert as_json.pocketarena.options["coins"] == {"Q": 1, "N": 0, "P": 2, "D": 0}
    assert "coins=Q:1;N:0;P:2;D:0" in str(as_json)


def test_random_map_is_recorded_in_the_game_string() -> None:
    game = pyspiel.load_game("pocketarena_coin_age(map=random)")
    options = game.pocketarena.options
    assert options["map"] != "random" and 0 <= options["seed"] < 2**31
    assert f"map={options['map']}" in str(game) and f"seed={options['seed']}" in str(game)
    seeded = pyspiel.load_game("pocketarena_coin_age(map=random,seed=5)")
    assert seeded.pocketarena == pa.load("coin-age", map="random", seed=5)
    assert pyspiel.load_game("pocketarena_coin_age").pocketarena.options["seed"] is None


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("pocketarena_stack_a_cash(protect=nope)", "choose one of: touched, placed"),
        ("pocketarena_wallet_battles(coins=Q:1)", "needs exactly the keys Q, N, P, D"),
        ("pocketarena_wallet_battles(coins=Q1)", "must be written like Q:6;N:6;P:6;D:6"),
        ("pocketarena_stack_a_cash(side=heads)", "Unknown parameter 'side'"),
    ],
)
def test_bad_parameters_say_what_is_wrong(name: str, message: str) -> None:
    with pytest.raises((ValueError, pyspiel.SpielError), match=message):
        pyspiel.load_game(name)


@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_states_mirror_the_engine(game_id: str) -> None:
    """Along a random game: ids, outcomes, strings, tensors and returns are the engine's."""
    game = pyspiel.load_game(spiel_name(game_id))
    engine_game = game.pocketarena
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        engine = state.pocketarena
        assert state.current_player() == engine.current_player
        assert str(state) == str(engine)
        assert state.information_state_string(0) == "; ".join(a.text for a in engine.history)
        for seat in (0, 1):
            expected = observation_tensor(engine, seat).ravel()
            assert np.array_equal(np.asarray(state.observation_tensor(seat)), expected)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes == sorted((a.id, p) for a, p in engine.chance_outcomes())
            assert all(engine_game.actions[i].chance for i, _ in outcomes)
            action = rng.choices([i for i, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = state.legal_actions()
            assert legal == sorted(a.id for a in engine.legal_actions())
            assert legal and max(legal) < game.num_distinct_actions()
            action = rng.choice(legal)
        text = state.action_to_string(state.current_player(), action)
        assert text == engine_game.actions[action].text
        clone = state.clone()
        state.apply_action(action)
        assert clone.history() == state.history()[:-1]  # the clone did not move
        assert clone.pocketarena.history == engine.history[:-1]
    assert state.returns() == list(state.pocketarena.returns())


def test_serialize_replays_the_history() -> None:
    game = pyspiel.load_game("pocketarena_coin_age(map=five-fiefs)")
    state = game.new_initial_state()
    rng = random.Random(8)
    for _ in range(25):
        state.pocketarena.apply_random(rng)  # engine moves, then the same through OpenSpiel:
    replay = game.new_initial_state()
    for action in state.pocketarena.history:
        replay.apply_action(action.id)
    again_game, again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, replay)
    )
    assert str(again_game) == str(game)
    assert again.history() == replay.history()
    assert again.pocketarena == replay.pocketarena
    assert str(again) == str(replay)


def test_illegal_action_is_refused() -> None:
    state = pyspiel.load_game("pocketarena_stack_a_cash").new_initial_state()
    state.apply_action(4)  # place L b2
    with pytest.raises(Exception, match="protected|not legal|illegal"):
        state.apply_action_with_legality_check(27 + 4)  # flip b2, protected


@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_mcts_bot_plays_a_game(game_id: str) -> None:
    game = pyspiel.load_game(spiel_name(game_id))
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 1.4, 12, evaluator, random_state=rng) for _ in range(2)]
    state = game.new_initial_state()
    returns = pyspiel.evaluate_bots(state, bots, 5)
    assert returns[0] in (-1.0, 0.0, 1.0) and returns[0] + returns[1] == 0.0


def test_mcts_bot_finds_a_win_in_one() -> None:
    """Heads to move with two Heads coins in a row and c1 empty: MCTS takes the win."""
    game = pyspiel.load_game("pocketarena_stack_a_cash")
    state = game.new_initial_state()
    for text in ("place L a1", "place L a3", "place M b1", "place M b3"):
        state.apply_action(game.pocketarena.parse_action(text).id)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 1.4, 300, evaluator, random_state=np.random.RandomState(0))
    action = bot.step(state)
    state.apply_action(action)
    assert state.is_terminal() and state.returns() == [1.0, -1.0], state.action_to_string(0, action)


@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_games_and_states_pickle(game_id: str) -> None:
    game = pyspiel.load_game(spiel_name(game_id))
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(6):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert again.history() == state.history() and str(again) == str(state)
    assert again.pocketarena == state.pocketarena


def test_openspiel_mcts_is_found_by_name_and_reseeds() -> None:
    from pocketarena.bots import bot_names, make_bot

    assert "openspiel-mcts" in bot_names()
    game = pa.load("flipwars")
    state = game.new_initial_state()
    kept = make_bot("openspiel-mcts:40", game, seed=1)
    kept.choose(state)
    kept.reseed(9)
    assert kept.choose(state) == make_bot("openspiel-mcts:40", game, seed=9).choose(state)
