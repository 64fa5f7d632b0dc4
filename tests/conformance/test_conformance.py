"""One generic suite run over every registered game and option set, and over the example game
Coin Race (OpenSpiel's random_sim_test, and more): the engine contract, checked by random
playouts."""

from __future__ import annotations

import json
import random

import pytest

import pocketarena as pa
from tests.coin_race import CoinRace
from tests.conftest import all_variants, variant_id
from tests.example_games import coin_race  # noqa: F401  (registered for each test here)

VARIANTS = all_variants() + [(CoinRace.ID, dict(options)) for options in CoinRace.VARIANTS]
PLAYOUTS = 12


def _playout_states(game: pa.Game, seed: int, every: int = 1) -> list[pa.State]:
    """States along one seeded random playout (including the final one)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen = [state.clone()]
    steps = 0
    while not state.is_terminal():
        state.apply_random(rng)
        steps += 1
        assert steps <= game.info.max_game_length, "game ran past its declared bound"
        if steps % every == 0 or state.is_terminal():
            seen.append(state.clone())
    return seen


@pytest.fixture(params=VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def game(request: pytest.FixtureRequest) -> pa.Game:
    game_id, options = request.param
    return pa.load(game_id, **options)


def test_registered_with_metadata(game: pa.Game) -> None:
    info = game.info
    assert info.id == game.ID in pa.GAMES
    assert len(info.seats) == 2
    assert info.num_distinct_actions == len(game.decisions) > 0
    assert info.chance == (info.max_chance_outcomes > 0)
    assert info.max_game_length > 0
    assert game == pa.load(game.ID, **game.options)


def test_random_playouts_reach_the_end(game: pa.Game) -> None:
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.current_player == pa.CHANCE:
                outcomes = state.chance_outcomes()
                assert outcomes, "a chance node without outcomes"
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                assert all(p > 0 for _, p in outcomes)
                assert len({a.text for a, _ in outcomes}) == len(outcomes)
                assert state.legal_actions() == () or list(state.legal_actions()) == []
            else:
                assert state.current_player in (0, 1)
                legal = list(state.legal_actions())
                assert legal, f"no legal action at a decision node after {state.history}"
                assert len({a.text for a in legal}) == len(legal), "duplicate legal actions"
                assert state.chance_outcomes() == []
            state.apply_random(rng)
            steps += 1
            assert steps <= game.info.max_game_length
        assert state.legal_actions() == () or list(state.legal_actions()) == []
        assert state.chance_outcomes() == []
        w = state.winner()
        assert w in (0, 1, None)
        r = state.returns()
        assert r in ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))
        assert (w is None) == (r == (0.0, 0.0))


def test_every_action_applies_iff_legal(game: pa.Game) -> None:
    """Each table action applies exactly when it is listed; refused ones change nothing."""
    for seed in range(3):
        for state in _playout_states(game, seed, every=3):
            if state.is_terminal():
                candidates = list(game.actions[:40])
                legal_texts: set[str] = set()
            elif state.current_player == pa.CHANCE:
                legal_texts = {a.text for a, _ in state.chance_outcomes()}
                candidates = list(game.actions)
            else:
                legal_texts = {a.text for a in state.legal_actions()}
                candidates = list(game.actions)
            before = json.dumps(state.to_json(), sort_keys=True)
            for action in candidates:
                if action.text in legal_texts:
                    child = state.child(action)
                    assert child.history[-1] == action
                else:
                    with pytest.raises(pa.IllegalActionError):
                        state.apply(action)
                    assert json.dumps(state.to_json(), sort_keys=True) == before, (
                        f"refused {action} changed the state"
                    )
            assert json.dumps(state.to_json(), sort_keys=True) == before


def test_unreadable_text_raises_and_changes_nothing(game: pa.Game) -> None:
    state = game.new_initial_state()
    before = state.to_json()
    for text in ["", "   ", "xyzzy", "place", "place Z z9", "42", "move a1"]:
        with pytest.raises(pa.IllegalActionError) as info:
            state.apply(text)
        assert str(info.value), "the error must say why"
        assert isinstance(info.value, ValueError)
    assert state.to_json() == before


def test_wrong_node_kind_is_refused(game: pa.Game) -> None:
    rng = random.Random(7)
    state = game.new_initial_state()
    seen_chance = seen_decision = False
    while not state.is_terminal() and not (seen_chance and (seen_decision or not game.info.chance)):
        before = state.to_json()
        if state.current_player == pa.CHANCE:
            seen_chance = True
            with pytest.raises(pa.IllegalActionError):
                state.apply(game.decisions[0])
        else:
            seen_decision = True
            if game.chance_actions:
                with pytest.raises(pa.IllegalActionError):
                    state.apply(game.chance_actions[0])
        assert state.to_json() == before
        state.apply_random(rng)
    assert seen_decision


def test_child_and_clone_leave_the_original_alone(game: pa.Game) -> None:
    for state in _playout_states(game, 11, every=2):
        if state.is_terminal():
            continue
        before = json.dumps(state.to_json(), sort_keys=True)
        rng = random.Random(3)
        if state.current_player == pa.CHANCE:
            action = state.chance_outcomes()[0][0]
        else:
            action = rng.choice(list(state.legal_actions()))
        child = state.child(action)
        assert json.dumps(state.to_json(), sort_keys=True) == before
        assert len(child.history) == len(state.history) + 1
        twin = state.clone()
        assert twin == state
        twin.apply(action)
        assert json.dumps(state.to_json(), sort_keys=True) == before
        assert twin == child
        assert twin.to_json() == child.to_json()


def test_the_trusted_path_plays_as_apply_does(game: pa.Game) -> None:
    """``push``/``pushed`` (bots, playouts, perft) skip the check that ``apply``/``child`` make
    and reach the very same states."""
    rng = random.Random(7)
    state = game.new_initial_state()
    pushed = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player == pa.CHANCE:
            action = rng.choice([a for a, _ in state.chance_outcomes()])
        else:
            action = rng.choice(list(state.legal_actions()))
        assert state.pushed(action).to_json() == state.child(action).to_json()
        state.apply(action)
        pushed.push(action)
        assert pushed == state and pushed.to_json() == state.to_json()


def test_the_list_a_caller_was_given_is_the_callers(game: pa.Game) -> None:
    """``apply`` checks against the legal actions it last listed; a caller that empties or
    reorders the list it was given changes nothing of that."""
    rng = random.Random(9)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player == pa.CHANCE:
            outcomes = state.chance_outcomes()
            action = outcomes[-1][0]
            outcomes.clear()
        else:
            legal = state.legal_actions()
            action = rng.choice(list(legal))
            if isinstance(legal, list):
                legal.clear()
        state.apply(action)
    assert state.is_terminal()


def test_a_state_is_no_key_but_its_position_key_is(game: pa.Game) -> None:
    """A state changes as it is played, so it cannot be hashed; ``position_key()`` can, and
    it follows the position, not the object: a clone has the same key, the next one another."""
    for state in _playout_states(game, 5, every=3):
        with pytest.raises(TypeError):
            hash(state)
        key = state.position_key()
        assert (
            hash(key) == hash(state.clone().position_key()) and key == state.clone().position_key()
        )
        if not state.is_terminal():
            before = json.dumps(state.to_json(), sort_keys=True)
            if state.current_player == pa.CHANCE:
                action = state.chance_outcomes()[0][0]
            else:
                action = state.legal_actions()[0]
            assert state.child(action).position_key() != key
            assert json.dumps(state.to_json(), sort_keys=True) == before


def test_json_round_trip(game: pa.Game) -> None:
    for seed in range(3):
        for state in _playout_states(game, seed, every=4):
            data = json.loads(json.dumps(state.to_json()))
            again = game.state_from_json(data)
            assert again == state
            assert again.to_json() == data
            assert again.current_player == state.current_player
            assert list(again.legal_actions()) == list(state.legal_actions())
            assert again.chance_outcomes() == state.chance_outcomes()
            assert again.scores() == state.scores()


def test_json_with_a_wrong_position_is_refused(game: pa.Game) -> None:
    state = _playout_states(game, 5)[-1]
    data = state.to_json()
    data["history"] = data["history"][:-1]
    with pytest.raises(ValueError):
        game.state_from_json(data)


def test_notation_round_trips(game: pa.Game) -> None:
    for action in game.actions:
        assert str(action) == action.text
        assert game.parse_action(action.text) is action
        assert game.parse_action("  " + action.text.swapcase().replace(" ", "   ") + " ") is action
        assert game.action(action.id) is action
        assert action.text == " ".join(action.text.split()), "canonical notation has single spaces"


def test_actions_in_the_legal_list_are_the_games_own(game: pa.Game) -> None:
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(30):
        if state.is_terminal():
            break
        for a in state.legal_actions():
            assert game.actions[a.id] is a
        for a, _ in state.chance_outcomes():
            assert game.actions[a.id] is a
        state.apply_random(rng)


def test_scores_any_time(game: pa.Game) -> None:
    for state in _playout_states(game, 2, every=1):
        s = state.scores()
        assert len(s) == 2
        assert all(isinstance(x, int | float) for x in s)
        if not state.is_terminal():
            assert state.winner() is None


def test_seeded_playouts_are_reproducible(game: pa.Game) -> None:
    a = _playout_states(game, 99)[-1]
    b = _playout_states(game, 99)[-1]
    assert [x.text for x in a.history] == [x.text for x in b.history]
