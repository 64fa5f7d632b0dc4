"""The renderer (rich and SVG) and the heuristic of Stack-a-Cash."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

import pocketarena as pa
from pocketarena.games.stack_a_cash import heuristics as heuristic
from pocketarena.render import describe, rich_board, svg_board

SVG = "{http://www.w3.org/2000/svg}"


def play(*moves: str) -> pa.State:
    state = pa.load("stack-a-cash").new_initial_state()
    for move in moves:
        state.apply(move)
    return state


def test_svg_parses_and_has_every_cell_as_a_place() -> None:
    state = play(
        "place L b2", "place M a1", "place S b2", "place L c3", "flip a1", "move c3 a3 flip"
    )
    root = ET.fromstring(svg_board(state, last=state.history[-1]))
    assert root.tag == SVG + "svg" and "viewBox" in root.attrib and "width" not in root.attrib
    places = [g.attrib["data-place"] for g in root.iter(SVG + "g") if "data-place" in g.attrib]
    assert sorted(places) == sorted(f + r for f in "abc" for r in "123")
    marked = {
        g.attrib["data-place"] for g in root.iter(SVG + "g") if "last" in g.attrib.get("class", "")
    }
    assert marked == {"c3", "a3"}
    # b2 holds two coins (two discs each), the supply shows what is left: L0 M1 S1.
    b2 = next(g for g in root.iter(SVG + "g") if g.attrib.get("data-place") == "b2")
    assert len(b2.findall(SVG + "circle")) == 4
    supply = [c.attrib["data-size"] for c in root.iter(SVG + "circle") if "data-size" in c.attrib]
    assert supply == ["M", "S"]


def test_svg_of_random_positions_is_valid_xml() -> None:
    rng = random.Random(4)
    state = pa.load("stack-a-cash", protect="placed").new_initial_state()
    while not state.is_terminal():
        action = state.apply_random(rng)
        ET.fromstring(svg_board(state, last=action))
    assert "wins" in svg_board(state) or "Draw" in svg_board(state)


def test_rich_board_shows_stacks_status_and_last_move() -> None:
    state = play("place L b2", "place M a1", "place S b2")
    console = Console(width=80, record=True)
    console.print(rich_board(state, last=state.history[-1]))
    text = console.export_text()
    assert "S H" in text and "l h" in text and "M T" in text
    assert "Tails to move" in text and "b2 protected" in text
    # The board says "protected" as the rules do, and explains the lower-case covered coins.
    assert "│ protected │" in text and "locked" not in text
    assert "lower case: the coins covered by the top one" in text
    assert "Last: place S b2" in text


def test_describe_says_what_happened() -> None:
    game = pa.load("stack-a-cash")
    assert describe(game.ID, game.action("place M b2")) == "places a medium coin on b2"
    assert describe(game.ID, game.action("flip a1")) == "flips the coin on a1"
    assert describe(game.ID, game.action("move b2 c3 flip")) == (
        "moves the top coin from b2 to c3 and flips it"
    )
    # Given the state it is played in, the sentence names the mover, as the other games do.
    state = game.new_initial_state()
    assert describe(game.ID, game.action("place M a1"), state) == "Heads places a medium coin on a1"
    state.apply("place M a1")
    assert describe(game.ID, game.action("flip a1"), state) == "Tails flips the coin on a1"


def test_heuristic_is_bounded_and_exact_at_the_end() -> None:
    rng = random.Random(2)
    for _ in range(30):
        state = pa.load("stack-a-cash").new_initial_state()
        while not state.is_terminal():
            for seat in (0, 1):
                assert -1.0 <= heuristic.evaluate(state, seat) <= 1.0
            state.apply_random(rng)
        w = state.winner()
        expected = 0.0 if w is None else 1.0
        assert heuristic.evaluate(state, 0) == (expected if w in (0, None) else -1.0)


def test_heuristic_prefers_a_win_in_one_and_open_threats() -> None:
    # Heads has a1 b1 on row 1 and c1 empty, and it is Heads' turn: a win in one.
    threat = play("place L a1", "place L a3", "place M b1", "place M c3")
    assert heuristic.evaluate(threat, 0) == pytest.approx(0.9)
    assert heuristic.evaluate(threat, 1) == pytest.approx(-0.9)
    # Tails just blocked c1 with a small coin: it cannot be covered, and it is protected.
    blocked = play("place L a1", "place L a3", "place M b1", "place S c1")
    assert heuristic.evaluate(blocked, 0) < heuristic.evaluate(threat, 0)
    # Tails to move facing Heads' open threat looks better for Heads than a quiet board.
    quiet = play("place L a1", "place L c3", "place M b3")
    pressed = play("place L a1", "place L c3", "place M b1")
    assert heuristic.evaluate(pressed, 0) > heuristic.evaluate(quiet, 0)


def test_a_long_status_is_drawn_on_two_lines_inside_the_card() -> None:
    state = pa.load("stack-a-cash").new_initial_state()
    for move in ("place L b2", "place M b2", "place S a1"):
        state.apply(move)
    rows = re.findall(
        r'<text x="180" y="(4\d\d)"[^>]*font-size="(\d+)"[^>]*>([^<]*)</text>', svg_board(state)
    )
    assert [r[2] for r in rows] == [
        "Tails to move",
        "a1 protected (cannot be moved or flipped now)",
    ]
    # 0.6 em a character at most: each row fits the 360-unit card with its margins.
    assert all(len(text) * 0.6 * int(size) < 340 and int(y) <= 434 for y, size, text in rows)
