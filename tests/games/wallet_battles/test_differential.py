"""The engine against the plain reference model (reference.py) over thousands of seeded random
positions: same node kind, legal actions, chance outcomes and probabilities, board, piles,
scores, end and winner. Several playing styles reach the rarer rules: recalls on crowded maps,
emptied piles (small coins) and the 500-flip guard (a player who mostly passes)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

import pocketarena as pa
from pocketarena.core import sample_outcome

from .reference import LOCATIONS, Reference, reference_perft

ANTIETAM = LOCATIONS["antietam"]

Policy = Callable[[Sequence[pa.Action], random.Random], pa.Action]


def uniform(actions: Sequence[pa.Action], rng: random.Random) -> pa.Action:
    return rng.choice(list(actions))


def mostly_pass(actions: Sequence[pa.Action], rng: random.Random) -> pa.Action:
    """Reaches the flip guard: a player who seldom does anything."""
    texts = [a.text for a in actions]
    if "pass" in texts and rng.random() < 0.97:
        return actions[texts.index("pass")]
    return rng.choice(list(actions))


def aggressive(actions: Sequence[pa.Action], rng: random.Random) -> pa.Action:
    """Captures and stacks whenever it can: long games with many recalls and refilled piles."""
    captures = [a for a in actions if a.verb == "capture"]
    if captures and rng.random() < 0.6:
        return rng.choice(captures)
    return rng.choice(list(actions))


def compare(state: pa.State, ref: Reference, where: str) -> None:
    who = ref.to_move()
    expected_player = {"chance": pa.CHANCE, "over": pa.TERMINAL}.get(str(who), who)
    assert state.current_player == expected_player, where
    assert {a.text for a in state.legal_actions()} == ref.legal(), where
    outcomes = {a.text: p for a, p in state.chance_outcomes()}
    assert outcomes == {t: float(p) for t, p in ref.chance_outcomes().items()}, where
    assert state.scores() == ref.scores(), where
    assert state.is_terminal() == ref.over, where
    assert state.winner() == ref.winner(), where
    pos = state.position()
    for loc in pos["locations"]:
        cell = ref.board[loc["id"]]
        assert loc["stack"] == ([] if cell is None else cell["coins"]), where
        assert loc["holder"] == (None if cell is None else cell["owner"]), where
    assert pos["piles"] == ref.piles, where


def play_both(options: dict[str, Any], seed: int, policy: Policy) -> tuple[int, set[str]]:
    """One seeded game on the engine and the reference together: positions compared, and which
    of the rarer rules it met (recall, and how it ended)."""
    rng = random.Random(seed)
    game = pa.load("wallet-battles", **options)
    state = game.new_initial_state()
    ref = Reference(game.options["map"], game.options["coins"], game.options["end"])
    compared = 0
    events: set[str] = set()
    while True:
        where = f"{options} seed {seed} after {[a.text for a in state.history][-12:]}"
        compare(state, ref, where)
        compared += 1
        if state.is_terminal():
            if ref.end == "used" and set(ref.locations) <= ref.ever_held:
                events.add("end: all used")
                if any(cell is None for cell in ref.board.values()):
                    events.add("end: all used, some empty")
            elif all(cell is not None for cell in ref.board.values()):
                events.add("end: map full")
            elif 0 in (sum(ref.piles[0].values()), sum(ref.piles[1].values())):
                events.add("end: pile empty")
            else:
                events.add("end: flip guard")
            return compared, events
        if state.current_player == pa.CHANCE:
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            action = policy(state.legal_actions(), rng)
        if action.verb in ("recall", "capture"):
            events.add(action.verb)
        state.apply(action)
        ref.apply(action.text)


SMALL = {"Q": 2, "N": 2, "P": 2, "D": 2}
OCC = "occupied"


@pytest.mark.parametrize(
    ("options", "games", "policy", "must_meet"),
    [
        ({"map": "gettysburg", "end": OCC}, 400, uniform, {"recall", "capture", "end: map full"}),
        ({"map": "antietam", "end": OCC}, 400, uniform, {"recall", "capture", "end: map full"}),
        (
            {"map": "antietam", "coins": SMALL, "end": OCC},
            400,
            uniform,
            {"end: pile empty", "end: map full"},
        ),
        (
            {"map": "gettysburg", "coins": {"Q": 1, "N": 0, "P": 3, "D": 2}, "end": OCC},
            200,
            aggressive,
            {"recall", "capture", "end: pile empty"},
        ),
        ({"map": "gettysburg", "end": OCC}, 50, aggressive, {"recall", "capture", "end: map full"}),
        ({"map": "antietam", "end": OCC}, 8, mostly_pass, {"recall", "end: flip guard"}),
        (
            {"map": "gettysburg", "end": "used"},
            120,
            aggressive,
            {"recall", "capture", "end: all used, some empty"},
        ),
        (
            {"map": "antietam", "end": "used", "coins": SMALL},
            400,
            uniform,
            {"capture", "end: all used, some empty", "end: pile empty"},
        ),
        ({"map": "antietam", "end": "used"}, 8, mostly_pass, {"recall", "end: flip guard"}),
    ],
    ids=[
        "gettysburg",
        "antietam",
        "antietam-small",
        "odd-coins-aggressive",
        "aggressive",
        "passive",
        "used-aggressive",
        "used-antietam-small",
        "used-passive",
    ],
)
def test_engine_matches_the_reference(
    options: dict[str, Any], games: int, policy: Policy, must_meet: set[str]
) -> None:
    compared = 0
    met: set[str] = set()
    for seed in range(games):
        n, events = play_both(options, seed, policy)
        compared += n
        met |= events
    assert compared >= 3000
    assert must_meet <= met, f"these playouts never met {must_meet - met}"


# Antietam with every location but sharpsburg used and north-woods empty again: where the two
# end rules part (perft data "from" this position).
MIDGAME = [
    *[m for loc in ANTIETAM[:-1] for m in ("flip HH", f"place P {loc}")],
    "flip TT",
    "capture north-woods",
]
SIX = {"Q": 6, "N": 6, "P": 6, "D": 6}


@pytest.mark.parametrize(
    ("options", "start", "depth"),
    [
        ({"map": "gettysburg"}, [], 5),
        ({"map": "antietam", "coins": SMALL}, [], 5),
        ({"map": "antietam", "coins": SIX, "end": "occupied"}, MIDGAME, 5),
        ({"map": "antietam", "coins": SIX, "end": "used"}, MIDGAME, 5),
    ],
    ids=["gettysburg", "antietam-small", "midgame-occupied", "midgame-used"],
)
def test_reference_confirms_the_perft_data(
    options: dict[str, Any], start: list[str], depth: int
) -> None:
    import json
    from pathlib import Path

    data = json.loads(
        (Path(__file__).parents[2] / "data" / "perft" / "wallet-battles.json").read_text()
    )
    entry = next(
        v for v in data["variants"] if v["options"] == options and v.get("from", []) == start
    )
    resolved = pa.load("wallet-battles", **options).options  # the defaults filled in
    for d in range(1, depth + 1):
        ref = Reference(resolved["map"], resolved["coins"], resolved["end"])
        for move in start:
            ref.apply(move)
        assert reference_perft(ref, d) == entry["counts"][d - 1]
