"""Drawing Wallet Battles: the SVG parses and carries every place, the terminal board shows
every location with its stack and value, labels never collide, flips say who acts."""

from __future__ import annotations

import itertools
import random
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

import pocketarena as pa
from pocketarena.games.wallet_battles import MAPS, WalletBattlesState
from pocketarena.games.wallet_battles.render import label_boxes
from pocketarena.render import describe, rich_board, svg_board

SVG = "{http://www.w3.org/2000/svg}"


def crowded(map_name: str) -> WalletBattlesState:
    """Every location holding the tallest stack (Q N P D), sides alternating: the widest labels."""
    state = pa.load("wallet-battles", map=map_name).new_initial_state()
    assert isinstance(state, WalletBattlesState)
    n = len(state.stacks)
    state.stacks = [(0, 1, 2, 3)] * n
    state.holder = [i % 2 for i in range(n)]
    return state


def text_of(renderable: object) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def played(*moves: str, **options: object) -> pa.State:
    state = pa.load("wallet-battles", **options).new_initial_state()
    for move in moves:
        state.apply(move)
    return state


@pytest.mark.parametrize("map_name", MAPS)
def test_svg_parses_and_has_every_place(map_name: str) -> None:
    state = crowded(map_name)
    root = ET.fromstring(svg_board(state))
    assert root.tag == SVG + "svg"
    assert root.get("viewBox") and not root.get("width"), "scales to any screen"
    places = [g.get("data-place") for g in root.iter(SVG + "g") if g.get("data-place")]
    assert places == list(state.game.location_ids)
    coins = {
        (g.get("data-seat"), g.get("data-coin")) for g in root.iter(SVG + "g") if g.get("data-coin")
    }
    assert coins == {(str(s), c) for s in (0, 1) for c in "QNPD"}


def test_svg_marks_the_last_move_on_its_location() -> None:
    state = played("flip HH", "place Q cemetery-hill", "flip TT", "place N wheatfield")
    root = ET.fromstring(svg_board(state, last=state.history[-1]))
    marked = [
        g.get("data-place")
        for g in root.iter(SVG + "g")
        if any(c.get("class") == "last-move" for c in g)
    ]
    assert marked == ["wheatfield"]
    assert "last-move" not in svg_board(state)


def test_svg_shows_the_flip_and_who_acts() -> None:
    state = played("flip TT")
    svg = svg_board(state, last=state.history[-1])
    assert "flip TT" in svg and "The Confederacy acts" in svg


def test_svg_draws_a_stack_bottom_to_top_and_its_value() -> None:
    state = played("flip HH", "place Q culps-hill", "flip HH", "place N culps-hill", "flip HH")
    state.apply("place D culps-hill")
    root = ET.fromstring(svg_board(state))
    hill = next(g for g in root.iter(SVG + "g") if g.get("data-place") == "culps-hill")
    letters = [t.text for t in hill.iter(SVG + "text")]
    assert "D" in letters  # the top coin carries its letter
    assert "U · D N Q · 8 pts ×2" in letters  # holder, top first, 2 + 3 coins doubled


def test_terminal_board_shows_each_location_stack_holder_and_value() -> None:
    state = played(
        "flip HH", "place Q cemetery-hill", "flip HH", "place P cemetery-hill", "flip TT"
    )
    text = text_of(rich_board(state, last=state.history[-1]))
    for loc in state.game.battle_map.locations:
        assert loc.name in text
    assert "U: P Q =4" in text  # top coin first; 2 + 2 coins
    assert "The Confederacy acts" in text
    assert "Union (Heads)" in text and "Confederacy (Tails) ◀" in text
    assert "Last: Both coins land tails: the Confederacy may act." in text


def test_terminal_board_of_a_finished_game_names_the_winner() -> None:
    state = played("flip TT", "place Q wheatfield", coins={"Q": 1, "N": 0, "P": 0, "D": 0})
    assert "the Confederacy wins, 1 to 3" in text_of(rich_board(state))


@pytest.mark.parametrize("map_name", MAPS)
def test_terminal_labels_never_overlap(map_name: str) -> None:
    for state in (crowded(map_name), pa.load("wallet-battles", map=map_name).new_initial_state()):
        assert isinstance(state, WalletBattlesState)
        boxes = label_boxes(state)
        for (r1, c1, w1), (r2, c2, w2) in itertools.combinations(boxes, 2):
            rows_meet = abs(r1 - r2) < 2  # each label is two rows tall
            cols_meet = c1 < c2 + w2 and c2 < c1 + w1
            assert not (rows_meet and cols_meet), (map_name, (r1, c1, w1), (r2, c2, w2))
        text = text_of(rich_board(state))
        for loc in state.game.battle_map.locations:
            assert loc.name in text


def test_describe_says_who_may_act() -> None:
    game = pa.load("wallet-battles")
    assert "the Union may act" in describe("wallet-battles", game.action("flip HH"))
    assert "the Confederacy may act" in describe("wallet-battles", game.action("flip TT"))
    odd = describe("wallet-battles", game.action("flip odd"))
    assert "nobody acts" in odd and "recall" in odd
    assert describe("wallet-battles", game.action("place N cemetery-hill")) == (
        "Place a nickel (N) on Cemetery Hill."
    )
    assert "Culp's Hill" in describe("wallet-battles", game.action("capture culps-hill"))
    assert "Recall" in describe("wallet-battles", game.action("recall devils-den"))
    assert describe("wallet-battles", game.action("pass")).startswith("Pass")


def test_by_the_used_end_the_board_tells_used_locations_from_never_used_ones() -> None:
    moves = ("flip HH", "place Q culps-hill", "flip TT", "capture culps-hill", "flip odd")
    used = played(*moves, end="used")
    svg = svg_board(used)
    culps = next(
        g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("data-place") == "culps-hill"
    )
    words = " ".join(t.text or "" for t in culps.iter(f"{SVG}text"))
    assert "used, empty" in words
    outline = next(culps.iter(f"{SVG}circle"))
    assert outline.get("stroke-dasharray") is None  # solid: it no longer counts to the end
    assert "9 never used" not in svg and "8 never used" in svg
    assert "(used, empty)" in text_of(rich_board(used))
    # By the occupied end an empty location is just empty, whatever it held before.
    occupied = played(*moves, end="occupied")
    assert "used" not in svg_board(occupied) and "(empty)" in text_of(rich_board(occupied))


def test_a_finished_game_says_why_it_ended() -> None:
    state = played("flip HH", "place Q wheatfield", coins={"Q": 1, "N": 0, "P": 0, "D": 0})
    assert "Game over after 1 flip, a pile empty: the Union wins, 3 to 1." in svg_board(state)


@pytest.mark.parametrize("seed", [2, 5])
def test_the_end_marks_the_stacks_that_scored_per_side(seed: int) -> None:
    state = pa.load("wallet-battles").new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_random(rng)
    assert isinstance(state, WalletBattlesState)
    names = {p.id: p.name for p in state.game.battle_map.locations}
    root = ET.fromstring(svg_board(state))
    scored = {
        g.attrib["data-place"]: (int(g.attrib["data-scorer"]), g.attrib["data-label"])
        for g in root.iter(f"{SVG}g")
        if g.attrib.get("class") == "location scored"
    }
    expected = {
        lid: state.holder[i]
        for i, lid in enumerate(state.game.location_ids)
        if state.holder[i] >= 0 and state.stacks[i]
    }
    assert expected and {k: v[0] for k, v in scored.items()} == expected
    sides = ("Union", "Confederacy")
    for lid, (side, label) in scored.items():
        n = len(state.stacks[state.game.location_ids.index(lid)])
        points = 2 + (2 * n if n >= 3 else n)
        assert label.endswith(f"scored {points} for the {sides[side]}")
        assert f"{names[lid]} {points}" in root.attrib["aria-label"]
    rings = [c for c in root.iter(f"{SVG}circle") if c.attrib.get("class") == "score-ring"]
    assert len(rings) == len(expected)
    # Location scores plus the coins left in the piles are the scores the game reports.
    assert sum(
        2 + (2 * len(s) if len(s) >= 3 else len(s))
        for i, s in enumerate(state.stacks)
        if state.holder[i] >= 0 and s
    ) + sum(state.pile_total) == sum(state.scores())


def test_nothing_is_marked_as_scored_while_the_game_goes_on() -> None:
    state = played("flip HH")
    assert "scored" not in svg_board(state)
