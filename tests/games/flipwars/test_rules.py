"""Scenario tests: one per FlipWars rule and SPEC ruling, played in notation from the start."""

from __future__ import annotations

import json
import random

import pytest

import pocketarena as pa
from pocketarena.core import message
from tests.games.flipwars.helpers import (
    LAST_FIRST_WINS,
    LAST_QUIET,
    LAST_SECOND_WINS,
    QUIET_23,
    colours,
    new,
    play,
)

EIGHT = ["tank", "rocket", "grenade", "paratrooper", "sniper", "foxhole", "twin", "trex"]


def test_rulebook_example() -> None:
    """Seed 004's example, move by move. The printed example shows a 2x2 area (then a 4x2 one)
    but not where it lies on the board; we put the 2x2 area on b2 c2 / b3 c3 and the 4x2 area
    on b2-e3, which keeps every attack on the board. Those cells are our choice; each stated
    flip pins the rest: the rocket goes above the twin, the grenade to the twin's right (r0,
    its left column covering the twin and the rocket), the paratrooper on the last cell of the
    square turned r270 (the only rotation that reaches all three), the foxhole on e3 (one
    space away from the square, in the top row) unturned, and the sniper in the gap, d3."""
    state = new(mode="standard")
    state.apply("place twin b2 r0")  # Blue starts with the twin-rifle soldier, bottom-left
    assert colours(state) == {"b2": "blue"}

    state.apply("place rocket b3 r0")  # Red's rocket above it flips the blue tile
    assert colours(state) == {"b2": "red", "b3": "red"}

    state.apply("place grenade c2 r0")  # Blue's grenade to the right flips both red tiles
    assert colours(state) == {"b2": "blue", "b3": "blue", "c2": "blue"}

    # Red rotates the paratrooper: only r270 attacks all three other cells of the square.
    for unturned in ("r0", "r90", "r180"):
        other = state.child(f"place paratrooper c3 {unturned}")
        assert sum(c == "red" for c in colours(other).values()) < 4
    state.apply("place paratrooper c3 r270")
    assert colours(state) == {"b2": "red", "b3": "red", "c2": "red", "c3": "red"}

    state.apply("place foxhole e3 r0")  # one space away; flips the top two red tiles
    assert colours(state) == {"b2": "red", "b3": "blue", "c2": "red", "c3": "blue", "e3": "blue"}

    state.apply("place sniper d3 r0")  # in the gap; flips only the blue rocket two cells left
    assert colours(state) == {
        "b2": "red",
        "b3": "red",
        "c2": "red",
        "c3": "blue",
        "d3": "red",
        "e3": "blue",
    }
    assert state.round_scores() == (2, 4)


# Attacked cells from c3 in each rotation, written from the printed patterns (cut at the edge).
ATTACKS_FROM_C3 = {
    ("tank", "r0"): {"a3", "b3", "d3", "e3"},
    ("tank", "r90"): {"c1", "c2", "c4", "c5"},
    ("tank", "r180"): {"a3", "b3", "d3", "e3"},
    ("tank", "r270"): {"c1", "c2", "c4", "c5"},
    ("rocket", "r0"): {"c4", "c2", "b3", "d3"},
    ("rocket", "r90"): {"c4", "c2", "b3", "d3"},
    ("grenade", "r0"): {"b2", "b3", "b4"},
    ("grenade", "r90"): {"b4", "c4", "d4"},
    ("grenade", "r180"): {"d2", "d3", "d4"},
    ("grenade", "r270"): {"b2", "c2", "d2"},
    ("paratrooper", "r0"): {"b4", "c4", "b3"},
    ("paratrooper", "r90"): {"c4", "d4", "d3"},
    ("paratrooper", "r180"): {"d3", "d2", "c2"},
    ("paratrooper", "r270"): {"c2", "b2", "b3"},
    ("sniper", "r0"): {"a3"},
    ("sniper", "r90"): {"c5"},
    ("sniper", "r180"): {"e3"},
    ("sniper", "r270"): {"c1"},
    ("foxhole", "r0"): {"b3", "a3"},  # the third cell is off the board
    ("foxhole", "r90"): {"c4", "c5"},
    ("foxhole", "r180"): {"d3", "e3"},
    ("foxhole", "r270"): {"c2", "c1"},
    ("twin", "r0"): {"b4", "d4", "b2", "d2"},
    ("twin", "r270"): {"b4", "d4", "b2", "d2"},
    ("trex", "r0"): {"b4", "c4", "d4", "b3", "d3", "b2", "c2", "d2"},
    ("trex", "r180"): {"b4", "c4", "d4", "b3", "d3", "b2", "c2", "d2"},
}


def _fill_all_but(state: pa.State, last: str, keep: str) -> None:
    """Fill every cell except ``last``, never using ``keep`` for Blue (who places last)."""
    cells = [f + r for r in "12345" for f in "abcde" if f + r != last]
    pools = [[k for k in EIGHT if k != keep] * 2, EIGHT * 2]
    for i, cell in enumerate(cells):
        kind = pools[i % 2].pop(0)
        state.apply(f"place {kind} {cell} r0")


def _flips(kind: str, cell: str, rotation: str) -> set[str]:
    state = new(mode="standard")
    _fill_all_but(state, cell, kind)
    before = colours(state)
    state.apply(f"place {kind} {cell} {rotation}")
    after = colours(state)
    assert after[cell] == "blue"
    return {c for c in before if before[c] != after[c]}


@pytest.mark.parametrize(("kind", "rotation"), sorted(ATTACKS_FROM_C3))
def test_attack_patterns_turn_clockwise(kind: str, rotation: str) -> None:
    assert _flips(kind, "c3", rotation) == ATTACKS_FROM_C3[(kind, rotation)]


@pytest.mark.parametrize(
    ("cell", "rotation", "expected"),
    [
        ("e3", "r0", {"d3", "c3", "b3"}),
        ("c1", "r90", {"c2", "c3", "c4"}),
        ("a3", "r180", {"b3", "c3", "d3"}),
        ("c5", "r270", {"c4", "c3", "c2"}),
    ],
)
def test_foxhole_reaches_three_cells(cell: str, rotation: str, expected: set[str]) -> None:
    assert _flips("foxhole", cell, rotation) == expected


def test_placing_flips_tiles_of_either_colour_even_your_own() -> None:
    state = play(new(), ["place twin b2 r0", "place twin d2 r0"])  # no flips yet
    state.apply("place trex c2 r0")  # Blue's trex attacks its own b2 and Red's d2
    assert colours(state) == {"b2": "red", "c2": "blue", "d2": "blue"}


def test_empty_and_off_board_cells_are_not_flipped() -> None:
    state = play(new(), ["place trex a1 r0"])  # all of its attacks are empty or off the board
    assert colours(state) == {"a1": "blue"}
    assert state.round_scores() == (1, 0)
    state.apply("place rocket a3 r0")  # a2 and a4 empty, b3 empty, left of a3 off the board
    assert colours(state) == {"a1": "blue", "a3": "red"}


def test_the_block_is_never_flipped_and_attacks_pass_over_it() -> None:
    state = new(mode="tactical", series=False)
    state.apply("place twin b3 r0")
    state.apply("place twin d3 r0")
    state.apply("place foxhole e3 r0")  # d3, the block on c3, then b3
    assert colours(state) == {"b3": "red", "d3": "blue", "e3": "blue"}
    assert state.position()["block"] == "c3"
    assert state.position()["cells"]["c3"] is None
    state.apply("place sniper c4 r90")  # two cells up is off the board: nothing flips
    state.apply("place tank c2 r90")  # c1 is empty, c3 the block, c4 beyond it flips
    assert colours(state) == {"b3": "red", "c2": "blue", "c4": "blue", "d3": "blue", "e3": "blue"}


def test_no_tile_can_be_placed_on_the_block() -> None:
    state = new(mode="tactical")
    assert not any(a.args[1] == "c3" for a in state.legal_actions())
    with pytest.raises(pa.IllegalActionError, match="c3 holds the block"):
        state.apply("place tank c3 r0")


def test_placing_on_a_taken_cell_is_refused() -> None:
    state = play(new(), ["place grenade b2 r90"])
    before = state.to_json()
    with pytest.raises(pa.IllegalActionError) as info:
        state.apply("place tank b2 r0")
    assert info.value.reason == "flipwars.taken-blue"
    assert info.value.params["place"] == "b2" and info.value.params["tile"] == "grenade"
    assert info.value.params["name"] == message("flipwars.tile.grenade")  # as the board says
    assert str(info.value) == "b2 is already taken (by a blue grenade)"
    assert state.to_json() == before


def test_players_alternate_blue_first() -> None:
    state = new()
    assert state.current_player == 0
    state.apply("place tank a1 r0")
    assert state.current_player == 1
    assert colours(state) == {"a1": "blue"}
    state.apply("place tank e5 r0")
    assert state.current_player == 0
    assert colours(state) == {"a1": "blue", "e5": "red"}


def test_legal_actions_list_only_rotations_that_differ() -> None:
    state = new(mode="flag")
    state.apply("place flag a1")
    rotations: dict[str, set[str]] = {}
    for action in state.legal_actions():
        rotations.setdefault(action.args[0], set()).add(action.text.split()[-1])
    assert rotations == {
        "flag": {"r0"},
    }
    state.apply("place flag e5")
    rotations = {}
    for action in state.legal_actions():
        rotations.setdefault(action.args[0], set()).add(action.text.split()[-1])
    assert rotations == {
        "tank": {"r0", "r90"},
        "rocket": {"r0"},
        "grenade": {"r0", "r90", "r180", "r270"},
        "paratrooper": {"r0", "r90", "r180", "r270"},
        "sniper": {"r0", "r90", "r180", "r270"},
        "foxhole": {"r0", "r90", "r180", "r270"},
        "twin": {"r0"},
        "trex": {"r0"},
    }


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("place tank c3 r180", "place tank c3 r0"),
        ("place tank c3 r270", "place tank c3 r90"),
        ("place rocket c3 r90", "place rocket c3 r0"),
        ("place twin c3 r180", "place twin c3 r0"),
        ("place trex c3 r270", "place trex c3 r0"),
        ("place grenade c3 r270", "place grenade c3 r270"),
        ("place rocket c3", "place rocket c3 r0"),
        ("place sniper c3", "place sniper c3 r0"),
        ("  PLACE   Grenade C3  R90 ", "place grenade c3 r90"),
        ("place t-rex b2", "place trex b2 r0"),
        ("place twin-rifle b2 r90", "place twin b2 r0"),
    ],
)
def test_parser_normalises_rotations(typed: str, canonical: str) -> None:
    game = pa.load("flipwars")
    assert game.parse_action(typed).text == canonical
    state = game.new_initial_state()
    state.apply(typed)
    assert state.history[-1].text == canonical


def test_flag_rotation_is_always_r0() -> None:
    game = pa.load("flipwars", mode="flag")
    assert game.parse_action("place flag c3 r270").text == "place flag c3 r0"


def test_canonical_notation_always_names_the_rotation() -> None:
    for options in pa.GAMES["flipwars"].VARIANTS:
        for action in pa.load("flipwars", **options).decisions:
            if action.verb == "place":
                assert action.text.split()[-1] in ("r0", "r90", "r180", "r270")


def test_the_round_ends_when_every_cell_is_filled() -> None:
    state = play(new(mode="tactical", series=False), QUIET_23)
    assert not state.is_terminal()
    assert len(state.legal_actions()) > 0
    state.apply(LAST_QUIET)
    assert state.is_terminal()
    assert state.position()["phase"] == "over"
    assert state.legal_actions() == ()


def test_standard_round_has_25_placements_blue_places_13() -> None:
    state = new()
    moves = 0
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_random(rng)
        moves += 1
    assert moves == 25
    assert sum(state.supply(0).values()) == 16 - 13
    assert sum(state.supply(1).values()) == 16 - 12


def test_score_counts_tiles_showing_your_colour() -> None:
    state = play(new(mode="tactical", series=False), QUIET_23 + [LAST_SECOND_WINS])
    # The rocket on e1 flips Blue's d1 and e2: Red shows 14 tiles, Blue 10.
    assert state.scores() == (10, 14)
    assert state.winner() == 1
    assert state.returns() == (-1.0, 1.0)


def test_equal_tiles_is_a_draw() -> None:
    state = play(new(mode="tactical", series=False), QUIET_23 + [LAST_QUIET])
    assert state.scores() == (12, 12)
    assert state.winner() is None
    assert state.returns() == (0.0, 0.0)


def test_quiet_round_never_flips() -> None:
    """The scripted quiet round really flips nothing: every tile keeps its placer's colour."""
    state = new(mode="tactical", series=False)
    for i, move in enumerate(QUIET_23 + [LAST_QUIET]):
        state.apply(move)
        placed = move.split()[2]
        shown = colours(state)
        assert shown[placed] == ("blue" if i % 2 == 0 else "red")
        assert sum(c == "blue" for c in shown.values()) == (i + 2) // 2


def test_first_mover_wins_when_the_last_tile_flips_its_own_side() -> None:
    state = play(new(mode="tactical", series=False), QUIET_23 + [LAST_FIRST_WINS])
    assert state.scores() == (13, 11)
    assert state.winner() == 0


def test_scores_can_be_asked_any_time() -> None:
    state = new()
    assert state.scores() == (0, 0)
    state.apply("place rocket c3 r0")
    assert state.scores() == (1, 0)


# -- Capture the Flag -----------------------------------------------------------------------


def test_flag_first_placement_must_be_the_flag() -> None:
    state = new(mode="flag")
    assert {a.args[0] for a in state.legal_actions()} == {"flag"}
    assert len(state.legal_actions()) == 25
    with pytest.raises(pa.IllegalActionError, match="Blue must place the flag first"):
        state.apply("place tank a1 r0")
    state.apply("place flag c3 r0")
    assert {a.args[0] for a in state.legal_actions()} == {"flag"}
    with pytest.raises(pa.IllegalActionError) as info:
        state.apply("place tank a1 r0")
    assert info.value.reason == "flipwars.flag-first"
    assert info.value.to_json()["params"] == {"seat": {"id": "seat.red", "params": {}}}
    state.apply("place flag a1")
    assert "flag" not in {a.args[0] for a in state.legal_actions()}
    with pytest.raises(pa.IllegalActionError, match="Blue has already placed the flag"):
        state.apply("place flag e5 r0")


def test_flag_counts_two_and_flips_like_a_tile() -> None:
    state = play(new(mode="flag"), ["place flag c3", "place flag a1"])
    assert state.scores() == (2, 2)
    state.apply("place rocket c2 r0")  # Blue's rocket: c3 above it is Blue's own flag
    assert colours(state)["c3"] == "red"
    assert state.scores() == (1, 4)
    state.apply("place rocket b1 r0")  # Red's rocket flips the red flag on a1 to blue
    assert state.scores() == (3, 3)
    assert state.position()["cells"]["a1"] == {"tile": "flag", "rotation": "r0", "colour": "blue"}


def test_flag_mode_round_has_the_flags_on_the_board() -> None:
    state = new(mode="flag")
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_random(rng)
    tiles = [t for t in state.position()["cells"].values() if t is not None]
    assert sum(t["tile"] == "flag" for t in tiles) == 2
    blue, red = state.scores()
    assert blue + red == 25 + 2


# -- Enclosed Battle --------------------------------------------------------------------------


def test_enclosed_is_4x4_with_one_of_each_tile() -> None:
    state = new(mode="enclosed")
    assert len(state.position()["cells"]) == 16
    assert state.supply(0) == dict.fromkeys(EIGHT, 1)
    assert len(state.legal_actions()) == 16 * 21
    with pytest.raises(pa.IllegalActionError, match="not a cell"):
        state.apply("place tank e5 r0")
    state.apply("place tank a1 r0")
    state.apply("place tank d4 r0")
    with pytest.raises(pa.IllegalActionError, match="Blue has no tank left to place"):
        state.apply("place tank b2 r90")


def test_enclosed_uses_every_tile() -> None:
    state = new(mode="enclosed")
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_random(rng)
    assert state.supply(0) == dict.fromkeys(EIGHT, 0)
    assert state.supply(1) == dict.fromkeys(EIGHT, 0)
    assert sum(state.scores()) == 16


def test_running_out_of_a_tile_removes_it_from_the_list() -> None:
    state = play(
        new(), ["place tank a1 r0", "place rocket e5 r0", "place tank a2 r90", "place rocket e4 r0"]
    )
    assert "tank" not in {a.args[0] for a in state.legal_actions()}
    with pytest.raises(
        pa.IllegalActionError, match=r"no tank left to place \(both are on the board\)"
    ):
        state.apply("place tank b3 r0")


# -- options ---------------------------------------------------------------------------------


def test_unknown_mode_names_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="standard, enclosed, flag, tactical"):
        pa.load("flipwars", mode="huge")


def test_series_applies_to_tactical_only() -> None:
    assert pa.load("flipwars").options == {"mode": "standard", "series": False}
    assert pa.load("flipwars", mode="enclosed", series=True).options["series"] is False
    assert pa.load("flipwars", mode="tactical").options["series"] is True
    assert pa.load("flipwars", mode="tactical", series="false").options["series"] is False
    assert pa.load("flipwars", mode="flag", series=True) == pa.load("flipwars", mode="flag")
    with pytest.raises(ValueError, match="must be true or false"):
        pa.load("flipwars", mode="tactical", series="maybe")


def test_max_game_length_is_a_true_bound() -> None:
    assert pa.load("flipwars").info.max_game_length == 25
    assert pa.load("flipwars", mode="enclosed").info.max_game_length == 16
    assert pa.load("flipwars", mode="tactical", series=False).info.max_game_length == 24
    # Nine rounds of 24 placements, with a block and a first choice between rounds.
    assert pa.load("flipwars", mode="tactical").info.max_game_length == 9 * 24 + 8 * 2


def test_position_is_json_and_complete() -> None:
    state = play(new(mode="flag"), ["place flag c3", "place flag a1", "place grenade e2 r90"])
    view = state.position()
    assert json.loads(json.dumps(view)) == view
    assert view["cells"]["e2"] == {"tile": "grenade", "rotation": "r90", "colour": "blue"}
    assert view["cells"]["a1"]["colour"] == "red"
    assert view["supply"]["blue"]["grenade"] == 1 and view["supply"]["blue"]["flag"] == 0
    assert view["supply"]["red"]["grenade"] == 2
    assert view["to_move"] == "red"
    assert view["phase"] == "place"
    assert view["must_place_flag"] is False
    assert view["score"] == {"blue": 3, "red": 2}
    assert view["series"] is None


def test_ascii_picture() -> None:
    state = play(new(mode="tactical", series=False), ["place grenade b2 r90", "place trex a1 r0"])
    assert str(state) == "\n".join(
        [
            "5 . . . . .",
            "4 . . . . .",
            "3 . . # . .",
            "2 . g . . .",
            "1 x . . . .",
            "  a b c d e",
            "blue 0 red 2; Blue to place",
        ]
    )
