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
from tests.interop.conftest import assert_worded_in_every_language

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
    wallet = pyspiel.load_game(
        "pocketarena_wallet_battles(map=antietam,coins=Q:1;N:0;P:2;D:0,end=used)"
    )
    assert wallet.pocketarena.options == {
        "map": "antietam",
        "coins": {"Q": 1, "N": 0, "P": 2, "D": 0},
        "end": "used",
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
        ("pocketarena_wallet_battles(end=full)", "choose one of: occupied, used"),
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


# -- merge_chance: runs of chance as one node, for OpenSpiel's expectiminimax ------------------
CHANCE_GAMES = [g for g in sorted(pa.GAMES) if pa.GAMES[g].CHANCE]


def test_merged_chance_passes_the_conformance_test() -> None:
    """(Coin Age's merged nodes are checked below; its runs of slaps make a conformance run of
    it take a minute.)"""
    game = pyspiel.load_game("pocketarena_wallet_battles(merge_chance=true)")
    assert game.get_parameters()["merge_chance"] is True
    assert str(pyspiel.load_game(str(game))) == str(game)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", CHANCE_GAMES)
def test_merged_outcomes_cover_every_run_once(game_id: str) -> None:
    """From each chance node of a random game: the merged outcomes' probabilities sum to 1,
    each leads to a position that is no chance node, and no two lead to the same position (the
    guard counters left out); the engine's history holds the whole run played."""
    game = pyspiel.load_game(f"{spiel_name(game_id)}(merge_chance=true)")
    guards = game.pocketarena.GUARD_COUNTERS
    rng = random.Random(3)
    state = game.new_initial_state()
    checked = 0
    nodes = 3 if game_id == "wallet-battles" else 1  # Coin Age's runs of slaps: 3,001 at once
    while not state.is_terminal() and checked < nodes:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            seen = set()
            for i, _ in outcomes:
                child = state.clone()
                child.apply_action(i)
                assert not child.is_chance_node()
                position = child.pocketarena.position()
                seen.add(json.dumps({k: v for k, v in position.items() if k not in guards}))
            assert len(seen) == len(outcomes)
            checked += 1
            before = len(state.pocketarena.history)
            pick = rng.choices([i for i, _ in outcomes], [p for _, p in outcomes])[0]
            said = state.action_to_string(pyspiel.PlayerId.CHANCE, pick)
            state.apply_action(pick)
            played = state.pocketarena.history[before:]
            assert "; ".join(a.text for a in played) == said
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked == nodes


def test_expectiminimax_returns_on_wallet_battles_with_merged_chance() -> None:
    """OpenSpiel's expectiminimax spends no depth on chance nodes, so on the engine's own nodes
    it walks every chain of odd flips (from the first position, up to 500 of them, at every
    level). Merged, it returns from the first position at depth 2; and where the engine's
    chains are short (once coins are on the map, three odd flips make a recall) both give the
    same value, two decisions deep."""
    from open_spiel.python.algorithms.minimax import expectiminimax

    from pocketarena.games.wallet_battles.heuristics import evaluate

    def value(state: Any) -> float:
        return evaluate(state.pocketarena, 0)

    plain = pyspiel.load_game("pocketarena_wallet_battles")
    merged = pyspiel.load_game("pocketarena_wallet_battles(merge_chance=true)")
    first, _ = expectiminimax(merged.new_initial_state(), 2, value, 0)
    assert -1.0 <= first <= 1.0

    rng = random.Random(5)
    states = [plain.new_initial_state(), merged.new_initial_state()]
    for _ in range(3):  # HH/TT then a placement, three times: both seats hold coins
        plain_hh = states[0].chance_outcomes()[0][0]  # the engine's id of flip HH
        states[0].apply_action(plain_hh)
        states[1].apply_action(0)  # the first merged outcome: flip HH
        assert states[0].pocketarena.position() == states[1].pocketarena.position()
        action = rng.choice(states[0].legal_actions())
        for state in states:
            state.apply_action(action)
    assert states[0].is_chance_node() and states[1].is_chance_node()
    exact, _ = expectiminimax(states[0], 2, value, 0)
    fast, _ = expectiminimax(states[1], 2, value, 0)
    assert fast == pytest.approx(exact, abs=1e-9)


def test_merge_chance_is_refused_where_it_means_nothing() -> None:
    with pytest.raises(pyspiel.SpielError, match="merge_chance"):
        pyspiel.load_game("pocketarena_stack_a_cash(merge_chance=true)")


def test_the_interop_benchmark_runs(tmp_path: Any) -> None:
    """``benchmarks/interop.py --quick`` (a smoke run; speed is the benchmark's business): a
    row per game and anchor, with the C++ MCTS bot's figures beside the Python one's."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "interop.py"
    done = subprocess.run(
        [sys.executable, str(script), "--quick"], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert "C++ MCTS speed-up" in rows[0]
    shipped = subprocess.run(  # the games a fresh process has (tests here register more)
        [sys.executable, "-c", "import pocketarena as pa; print(*sorted(pa.GAMES))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    names = [*shipped, "tic_tac_toe (C++)", "python_tic_tac_toe"]
    assert [row.split(" | ")[0][2:] for row in rows[1:]] == names
    assert all(row.count(" | ") == 7 and row.rstrip(" |").endswith("x") for row in rows[1:])


def _merged_chance_state() -> Any:
    game = pyspiel.load_game("pocketarena_wallet_battles(merge_chance=true)")
    state = game.new_initial_state()
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


def _built(game_id: str, params: dict[str, Any], **changed: Any) -> Any:
    """The adapter's game built straight from parameters (``pyspiel.load_game`` checks their
    names and types in C++ before the adapter sees them)."""
    from pocketarena.core import game_class
    from pocketarena.interop.openspiel import PocketArenaSpielGame

    cls = game_class(game_id)
    return PocketArenaSpielGame(type(cls.__name__, (cls,), changed) if changed else cls, params)


OPENSPIEL_REFUSALS = {
    "written like": lambda: pyspiel.load_game("pocketarena_wallet_battles(coins=Q1)"),
    "unknown parameter": lambda: _built("stack-a-cash", {"side": "heads"}),
    "no parameters": lambda: _built("stack-a-cash", {"side": "heads"}, OPTIONS=()),
    "32 bits": lambda: _built("coin-age", {"seed": 2**40}),
    "merge_chance": lambda: _built("wallet-battles", {"merge_chance": 3}),
    "initial state": lambda: pyspiel.load_game("pocketarena_flipwars").new_initial_state(1),
    "observer": lambda: pyspiel.load_game("pocketarena_flipwars").make_py_observer(None, {"a": 1}),
    "chance outcome": lambda: _merged_chance_state()._run(10**6),
}


@pytest.mark.parametrize("case", OPENSPIEL_REFUSALS)
def test_a_refusal_is_a_message_worded_in_every_language(case: str) -> None:
    """The adapter refuses as the engine and the other adapters do (``Refusal``: a message id
    and parameters, the English in ``str``), so each language's catalog words it."""
    with pytest.raises(ValueError) as caught:
        OPENSPIEL_REFUSALS[case]()
    assert_worded_in_every_language(caught.value)
