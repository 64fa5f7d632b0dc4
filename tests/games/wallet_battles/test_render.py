"""Drawing Wallet Battles: the SVG parses and carries every place, the terminal board shows
every location with its stack and value, labels never collide, flips say who acts."""

from __future__ import annotations

import itertools
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
