"""Observation tensors: stable shapes, values in [0, 1], mirror-image views of the two seats,
what specific positions look like, and docs that match the layouts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import pocketarena as pa
from pocketarena.observe import (
    module_for,
    observation_layout,
    observation_shape,
    observation_tensor,
)
from tests.conftest import all_variants, variant_id
from tests.interop.conftest import playout

VARIANTS = all_variants()
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_shapes_values_and_mirror_over_playouts(variant: tuple[str, dict[str, Any]]) -> None:
    game_id, options = variant
    game = pa.load(game_id, **options)
    layout = observation_layout(game)
    shape = observation_shape(game)
    swap = layout.seat_permutation()
    out = layout.zeros()
    for seed in range(3):
        for state in playout(game, seed):
            views = [observation_tensor(state, seat) for seat in (0, 1)]
            for view in views:
                assert view.shape == shape and view.dtype == np.float32
                assert np.isfinite(view).all()
                assert view.min() >= 0.0 and view.max() <= 1.0
            # The other seat sees the same state with "own" and "opp" swapped.
            assert np.array_equal(views[0][swap], views[1])
            assert np.array_equal(observation_tensor(state, 1, out=out), views[1])


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_different_positions_look_different(variant: tuple[str, dict[str, Any]]) -> None:
    """Along a playout, two states whose positions differ never share a tensor (the tensor
    loses nothing a player needs)."""
    game_id, options = variant
    game = pa.load(game_id, **options)
    seen: dict[bytes, Any] = {}
    for state in playout(game, 11):
        key = observation_tensor(state, 0).tobytes()
        position = state.position()
        if key in seen:
            assert seen[key] == position
        seen[key] = position


def test_every_seat_is_checked() -> None:
    state = pa.load("stack-a-cash").new_initial_state()
    for seat in (2, -1, True):
        with pytest.raises(ValueError, match="seat must be 0 or 1"):
            observation_tensor(state, seat)
    with pytest.raises(ValueError, match="float32 array of shape"):
        observation_tensor(state, 0, out=np.zeros((16, 3, 3)))


def test_a_game_without_tensors_says_so(bare_race: pa.Game) -> None:
    with pytest.raises(ValueError, match="no observation tensor for 'bare-race'"):
        module_for("bare-race")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        module_for("chess")


# -- what positions look like ---------------------------------------------------------------------
def cell(name: str) -> tuple[int, int]:
    """[rank - 1, file] of a cell: the planes' indexing."""
    return int(name[1]) - 1, "abcde".index(name[0])


def stack_a_cash_scenario() -> None:
    game = pa.load("stack-a-cash")
    layout = observation_layout(game)
    state = game.new_initial_state()
    for move in ("place L b2", "place M a1", "place S b2"):
        state.apply(move)
    heads, tails = (layout.views(observation_tensor(state, seat)) for seat in (0, 1))
    # b2: Heads' L under Heads' S; a1: Tails' M.
    assert heads["own_coins"][0][cell("b2")] == 1 and heads["own_coins"][2][cell("b2")] == 1
    assert heads["opp_coins"][1][cell("a1")] == 1 and tails["own_coins"][1][cell("a1")] == 1
    assert heads["own_top"][0][cell("b2")] == 1 and tails["opp_top"][0][cell("b2")] == 1
    assert heads["own_top"].sum() == 1 and heads["opp_top"].sum() == 1
    assert heads["protected"][0][cell("b2")] == 1 and heads["protected"].sum() == 1
    assert heads["supply"][:, 0, 0].tolist() == [0.5, 0.5, 0.5]
    assert tails["own_turn"].all() and not tails["opp_turn"].any() and heads["opp_turn"].all()
    assert heads["ply"][0, 0, 0] == pytest.approx(3 / 200)
    # A flip turns the top coin over: Tails turns a1's M to Heads.
    state.apply("flip a1")
    heads = layout.views(observation_tensor(state, 0))
    assert heads["own_top"][0][cell("a1")] == 1 and heads["own_coins"][1][cell("a1")] == 1
    assert heads["opp_coins"].sum() == 0 and heads["protected"][0][cell("a1")] == 1


def test_stack_a_cash_repetition_count() -> None:
    game = pa.load("stack-a-cash", protect="placed")
    state = game.new_initial_state()
    for move in ["place L a1", "place L c3"] + ["flip a1", "flip c3"] * 3:
        state.apply(move)
    rows = observation_layout(game).views(observation_tensor(state, 0))
    assert state.position()["repetitions"] == 2
    assert rows["repetition"][0, 0, 0] == pytest.approx(2 / 3)


def coin_age_scenario() -> None:
    game = pa.load("coin-age")
    layout = observation_layout(game)
    ids = game.map.space_ids
    state = game.new_initial_state()
    start = layout.views(observation_tensor(state, 0))
    assert start["phase"].tolist() == [1, 0, 0] and start["own_mover"][0] == 1
    assert start["own_bank"].tolist() == pytest.approx([0.5, 0.5, 0.5, 0.5])
    assert start["adjacent"].sum() == 2 * len(game.map.adjacent)
    assert start["region"].sum(axis=1).tolist() == [1] * len(ids)
    state.apply("slap Q:H N:H P:T D:T")
    state.apply("place Q stone-rock")
    rows = layout.views(observation_tensor(state, 0))
    s = ids.index("stone-rock")
    assert rows["own_stack"][s].tolist() == [0, 0, 0, 1] and rows["own_top"][s, 3] == 1
    assert rows["thrown"].tolist() == [1, 1, 1, 1] and rows["matched"].tolist() == [0, 0, 1, 1]
    assert rows["unused"].tolist() == [0, 0, 1, 0]
    assert rows["allowance"][0] == pytest.approx(1 / 3)  # one place of two left
    assert rows["own_bank"][3] == 0 and rows["opp_bank"][3] == 0.5
    tails = layout.views(observation_tensor(state, 1))
    assert tails["opp_stack"][s].tolist() == [0, 0, 0, 1] and tails["opp_mover"][0] == 1


def wallet_battles_scenario() -> None:
    game = pa.load("wallet-battles", map="antietam", coins={"Q": 2, "N": 2, "P": 2, "D": 2})
    layout = observation_layout(game)
    assert observation_shape(game) == (8 * 7 + 20,)
    state = game.new_initial_state()
    state.apply("flip odd")
    rows = layout.views(observation_tensor(state, 1))
    assert rows["odd"].tolist() == [0, 1, 0] and rows["phase"].tolist() == [1, 0, 0, 0]
    assert rows["opp_union"][0] == 1 and rows["own_union"][0] == 0
    state.apply("flip TT")
    state.apply("place Q cornfield")
    rows = layout.views(observation_tensor(state, 1))
    loc = game.location_ids.index("cornfield")
    assert rows["own_stack"][loc].tolist() == [1, 0, 0, 0]
    assert rows["own_pile"].tolist() == pytest.approx([0.25, 0.5, 0.5, 0.5])
    assert rows["flips"][0] == pytest.approx(2 / 500)
    union = layout.views(observation_tensor(state, 0))
    assert union["opp_stack"][loc].tolist() == [1, 0, 0, 0]


def flipwars_scenario() -> None:
    game = pa.load("flipwars", mode="enclosed")
    layout = observation_layout(game)
    assert observation_shape(game) == (46, 4, 4)
    state = game.new_initial_state()
    state.apply("place grenade b2 r90")  # Blue
    state.apply("place tank c2 r0")  # Red: the tank attacks b2 and flips it to red
    blue, red = (layout.views(observation_tensor(state, seat)) for seat in (0, 1))
    assert not blue["own_tiles"].any() and red["own_tiles"][0][cell("b2")] == 1
    assert blue["opp_tiles"][0][cell("b2")] == 1 and blue["opp_tiles"][0][cell("c2")] == 1
    assert blue["kind"][2][cell("b2")] == 1 and blue["kind"][0][cell("c2")] == 1  # grenade, tank
    assert blue["rotation"][1][cell("b2")] == 1 and blue["rotation"][0][cell("c2")] == 1
    assert blue["empty"].sum() == 14 and not blue["block"].any()
    assert blue["own_supply"][:, 0, 0].tolist() == [0.5, 0.5, 0, 0.5, 0.5, 0.5, 0.5, 0.5, 0]
    assert red["own_supply"][0, 0, 0] == 0 and red["opp_supply"][2, 0, 0] == 0
    assert blue["own_turn"].all() and blue["own_first"].all() and red["opp_first"].all()
    assert blue["phase"][:, 0, 0].tolist() == [1, 0, 0, 0]
    assert blue["round"][0, 0, 0] == pytest.approx(1 / 9) and not blue["own_wins"].any()
    tactical = pa.load("flipwars", mode="tactical")
    rows = observation_layout(tactical).views(observation_tensor(tactical.new_initial_state(), 1))
    assert rows["block"][0][cell("c3")] == 1 and rows["empty"].sum() == 24


SCENARIOS = {
    "stack-a-cash": stack_a_cash_scenario,
    "coin-age": coin_age_scenario,
    "wallet-battles": wallet_battles_scenario,
    "flipwars": flipwars_scenario,
}


@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_what_a_position_looks_like(game_id: str) -> None:
    """A few positions of each game, block by block (a new game needs a scenario here)."""
    SCENARIOS[game_id]()


# -- the docs say what the code does -----------------------------------------------------------
@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_module_docstring_lists_every_block(game_id: str) -> None:
    layout = observation_layout(pa.load(game_id))
    module = module_for(game_id)
    doc = module.__doc__ or ""
    assert str(observation_shape(pa.load(game_id))) in doc
    for rows, name, size, _ in layout.describe():
        assert re.search(rf"^{re.escape(rows)}\s+{name}\s+{re.escape(size)}\s", doc, re.M), name


@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_research_docs_show_each_layout(game_id: str) -> None:
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    assert observation_layout(pa.load(game_id)).markdown() in text
