"""Records written before an option existed replay as games were played then: a Wallet Battles
record without ``end`` was played with the ``occupied`` end (and the coins it names, or six of
each when it names none), whatever today's defaults are."""

from __future__ import annotations

import json

import pocketarena as pa
from pocketarena.records import Record
from tests.games.wallet_battles.reference import LOCATIONS

# Antietam: the Union holds six locations, the Confederacy takes one back and holds the
# seventh. By the "occupied" end the game goes on (north-woods is empty); by "used" it would be
# over, and the Union's last place would be refused.
MOVES = [
    *[m for loc in LOCATIONS["antietam"][:-1] for m in ("flip HH", f"place P {loc}")],
    "flip TT",
    "capture north-woods",
    "flip TT",
    "place Q sharpsburg",
    "flip HH",
    "place Q north-woods",
]

OLD_TEXT = (
    """[Game "wallet-battles"]
[Options "{\\"coins\\": {\\"D\\": 6, \\"N\\": 6, \\"P\\": 6, \\"Q\\": 6}, \\"map\\": \\"antietam\\"}"]
[Union "alice"]
[UnionKind "human"]
[Confederacy "bob"]
[ConfederacyKind "human"]
[Result "1-0"]
[Scores "35 27"]

"""
    + "\n".join(MOVES)
    + "\n1-0\n"
)


def test_an_old_text_record_without_end_replays_by_the_occupied_end() -> None:
    record = Record.from_text(OLD_TEXT)
    assert record.options["end"] == "occupied"
    assert record.options["coins"] == {"Q": 6, "N": 6, "P": 6, "D": 6}
    final = record.replay()
    assert final.is_terminal() and final.scores() == (35, 27)
    assert final.position()["ending"] == "occupied"
    # Saved again, it names the end it was played by.
    text = record.to_text()
    assert '\\"end\\": \\"occupied\\"' in text.splitlines()[1]
    assert Record.from_text(text).replay().to_json() == final.to_json()


def test_the_same_moves_are_refused_under_the_used_end() -> None:
    game = pa.load(
        "wallet-battles", map="antietam", end="used", coins={"Q": 6, "N": 6, "P": 6, "D": 6}
    )
    state = game.new_initial_state()
    for move in MOVES[:-2]:
        state.apply(move)
    assert state.is_terminal()  # every location has held a coin


def test_an_old_json_record_keeps_its_coins_and_one_naming_none_gets_six_of_each() -> None:
    data = Record.from_text(OLD_TEXT).to_json()
    data["options"] = {"map": "antietam", "coins": {"Q": 6, "N": 6, "P": 6, "D": 6}}
    assert Record.from_json(json.dumps(data)).replay().scores() == (35, 27)
    small = {"Q": 2, "N": 2, "P": 2, "D": 2}
    data["options"] = {"map": "antietam", "coins": small}
    data["moves"], data["result"], data["scores"] = ["flip HH"], "*", [8, 8]
    assert Record.from_json(json.dumps(data)).options == {
        "map": "antietam",
        "coins": small,
        "end": "occupied",
    }
    data["options"] = {"map": "antietam"}
    data["scores"] = [24, 24]
    record = Record.from_json(json.dumps(data))
    assert record.options["coins"] == {"Q": 6, "N": 6, "P": 6, "D": 6}
    assert record.replay().scores() == (24, 24)


def test_a_record_naming_end_keeps_it() -> None:
    data = Record.from_text(OLD_TEXT).to_json()
    data["options"]["end"] = "used"
    data["moves"], data["result"], data["scores"] = MOVES[:-2], "1-0", [33, 27]
    record = Record.from_json(json.dumps(data))
    assert record.options["end"] == "used"
    assert record.replay().position()["ending"] == "used"
