"""Wallet Battles options (map, coins), the maps' data, and notation with its error messages."""

from __future__ import annotations

import pytest

import pocketarena as pa
from pocketarena.games.wallet_battles import MAPS, load_map

from .reference import LOCATIONS as SPEC_LOCATIONS  # typed in from SPEC.md


def error(**options: object) -> str:
    with pytest.raises(ValueError) as info:
        pa.load("wallet-battles", **options)
    return str(info.value)


# -- maps --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", MAPS)
def test_maps_have_specs_locations_in_specs_order(name: str) -> None:
    battle_map = load_map(name)
    assert list(battle_map.location_ids) == SPEC_LOCATIONS[name]
    game = pa.load("wallet-battles", map=name)
    positions = [
        (loc["id"], loc["name"]) for loc in game.new_initial_state().position()["locations"]
    ]
    assert [i for i, _ in positions] == SPEC_LOCATIONS[name]
    for loc in battle_map.locations:
        assert loc.name and 0 <= loc.x <= 100 and 0 <= loc.y <= 100
    points = {(loc.x, loc.y) for loc in battle_map.locations}
    assert len(points) == len(battle_map.locations), "two locations drawn on the same spot"


def test_gettysburg_is_the_default_map() -> None:
    assert pa.load("wallet-battles").options["map"] == "gettysburg"


def test_unknown_map_names_the_valid_ones() -> None:
    message = error(map="shiloh")
    assert "gettysburg" in message and "antietam" in message


# -- coins -------------------------------------------------------------------------------
def test_default_coins_are_six_of_each() -> None:
    game = pa.load("wallet-battles")
    assert game.options["coins"] == {"Q": 6, "N": 6, "P": 6, "D": 6}
    state = game.new_initial_state()
    assert state.position()["piles"] == [{"Q": 6, "N": 6, "P": 6, "D": 6}] * 2


def test_the_default_end_is_used_and_records_before_the_option_meant_occupied() -> None:
    game = pa.load("wallet-battles")
    assert game.options["end"] == "used"
    assert pa.GAMES["wallet-battles"].recorded_options({"map": "antietam"}) == {
        "map": "antietam",
        "coins": {"Q": 6, "N": 6, "P": 6, "D": 6},
        "end": "occupied",
    }
    named = {"map": "antietam", "end": "used", "coins": {"Q": 3, "N": 3, "P": 3, "D": 3}}
    assert pa.GAMES["wallet-battles"].recorded_options(named) == named


def test_coins_set_both_piles() -> None:
    game = pa.load("wallet-battles", coins={"D": 1, "P": 2, "N": 3, "Q": 4})
    assert list(game.options["coins"].items()) == [("Q", 4), ("N", 3), ("P", 2), ("D", 1)]
    assert game.new_initial_state().scores() == (10, 10)


def test_coins_may_be_given_as_json_text() -> None:
    game = pa.load("wallet-battles", coins='{"Q": 1, "N": 0, "P": 0, "D": 0}')
    assert game.options["coins"] == {"Q": 1, "N": 0, "P": 0, "D": 0}


def test_coins_option_is_not_shared_with_the_default() -> None:
    game = pa.load("wallet-battles")
    game.options["coins"]["Q"] = 0
    assert pa.load("wallet-battles").options["coins"]["Q"] == 6


@pytest.mark.parametrize(
    ("coins", "words"),
    [
        ({"Q": 6, "N": 6, "P": 6}, ["exactly the keys Q, N, P, D", "missing D"]),
        ({"Q": 6, "N": 6, "P": 6, "D": 6, "H": 1}, ["unknown 'H'"]),
        ({"q": 6, "N": 6, "P": 6, "D": 6}, ["missing Q", "unknown 'q'"]),
        ({"Q": 21, "N": 6, "P": 6, "D": 6}, ["Q must be a whole number from 0 to 20", "21"]),
        ({"Q": -1, "N": 6, "P": 6, "D": 6}, ["from 0 to 20"]),
        ({"Q": 2.5, "N": 6, "P": 6, "D": 6}, ["whole number"]),
        ({"Q": True, "N": 6, "P": 6, "D": 6}, ["whole number"]),
        ({"Q": "6", "N": 6, "P": 6, "D": 6}, ["whole number"]),
        ({"Q": 0, "N": 0, "P": 0, "D": 0}, ["at least one coin"]),
        ([6, 6, 6, 6], ["dict"]),
        ("six of each", ["JSON"]),
    ],
)
def test_bad_coins_get_one_clear_message(coins: object, words: list[str]) -> None:
    message = error(coins=coins)
    assert "coins" in message
    for word in words:
        assert word in message, message


def test_unknown_option_names_the_valid_ones() -> None:
    message = error(coin={"Q": 1})
    assert "map" in message and "coins" in message


# -- notation ----------------------------------------------------------------------------
def test_action_table_has_every_place_capture_recall_pass_and_flip() -> None:
    game = pa.load("wallet-battles", map="antietam")
    texts = [a.text for a in game.actions]
    assert len(game.decisions) == 7 * 4 + 7 + 7 + 1
    assert [a.text for a in game.chance_actions] == ["flip HH", "flip TT", "flip odd"]
    assert "place Q sunken-road" in texts and "place D sharpsburg" in texts
    assert "capture cornfield" in texts and "recall cornfield" in texts and "pass" in texts


def test_notation_forgives_case_and_spacing() -> None:
    game = pa.load("wallet-battles")
    assert game.parse_action("  PLACE q   Cemetery-Hill ").text == "place Q cemetery-hill"
    assert game.parse_action("Flip hh").text == "flip HH"
    assert game.parse_action("FLIP ODD").text == "flip odd"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ["empty action"]),
        ("attack cemetery-hill", ["unknown word 'attack'", "place, capture, recall, pass, flip"]),
        ("place X cemetery-hill", ["'X' is not a coin", "Q (quarter)", "D (dime)"]),
        ("place cemetery-hill", ["say which coin", "place Q cemetery-hill"]),
        ("place Q", ["missing the location"]),
        ("place", ["missing the coin and location"]),
        ("place Q cemetery-hill now", ["too many words"]),
        ("place Q cornfield", ["'cornfield' is on the Antietam map", "Gettysburg"]),
        ("capture round-top", ["'round-top' is not a location of Gettysburg", "little-round-top"]),
        ("recall", ["missing the location", "recall <location>"]),
        ("pass turn", ["too many words", "write pass"]),
        ("flip HX", ["'HX' is not a flip", "flip odd"]),
        ("flip HT TH", ["too many words", "flip HH, flip TT or flip odd"]),
        ("flip", ["flip HH, flip TT or flip odd"]),
    ],
)
def test_unreadable_notation_says_exactly_what_is_wrong(text: str, words: list[str]) -> None:
    state = pa.load("wallet-battles").new_initial_state()
    with pytest.raises(pa.NotationError) as info:
        state.apply(text)
    for word in words:
        assert word in str(info.value), str(info.value)
    assert state.history == []
