"""The Coin Age drawings: SVG that parses and carries every space, the last move marked, a
terminal picture with the map, adjacency and scores, and sentences for every action."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

import pocketarena as pa
from pocketarena.games.coin_age import MAP_NAMES, CoinAgeState, coin_text, render
from pocketarena.games.coin_age.render import _compact_map
from pocketarena.render import describe, rich_board, svg_board

SVG = "{http://www.w3.org/2000/svg}"


def _midgame(map_name: str, seed: int = 4, steps: int = 25) -> tuple[CoinAgeState, pa.Action]:
    state = pa.load("coin-age", map=map_name).new_initial_state()
    rng = random.Random(seed)
    last = state.apply_random(rng)
    for _ in range(steps):
        if state.is_terminal():
            break
        last = state.apply_random(rng)
    assert isinstance(state, CoinAgeState)
    return state, last


def _text(renderable: object) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_svg_parses_and_has_every_space(map_name: str) -> None:
    state, last = _midgame(map_name)
    root = ET.fromstring(svg_board(state, last))
    assert root.tag == f"{SVG}svg"
    assert "viewBox" in root.attrib and root.attrib.get("width") == "100%"
    places = [g.attrib["data-place"] for g in root.iter(f"{SVG}g") if "data-place" in g.attrib]
    assert sorted(places) == sorted(state.game.map.space_ids)
    roads = [ln for ln in root.iter(f"{SVG}line") if "data-adjacent" in ln.attrib]
    assert len(roads) == len(state.game.map.adjacent)


def test_svg_draws_each_stack_with_its_coins() -> None:
    state = pa.load("coin-age").new_initial_state()
    for move in (
        "slap Q:H N:H P:T D:T",
        "place Q stone-rock",
        "place N treewood",
        "slap Q:T N:T P:H D:H",
        "place N stone-rock",
    ):
        state.apply(move)
    root = ET.fromstring(svg_board(state))
    space = next(g for g in root.iter(f"{SVG}g") if g.attrib.get("data-place") == "stone-rock")
    letters = [
        t.text
        for g in space.iter(f"{SVG}g")
        if g.attrib.get("class") == "coin"
        for t in g.iter(f"{SVG}text")
    ]
    assert letters == ["Q", "N"]  # the covered quarter drawn first, the nickel on top
    stack_caption = [t.text for t in space.iter(f"{SVG}text") if t.attrib.get("class") == "stack"]
    assert stack_caption == ["N:T Q:H"]  # top coin first
    assert "Stone Rock" in ET.tostring(space, encoding="unicode")


def test_svg_marks_the_last_move() -> None:
    state = pa.load("coin-age").new_initial_state()
    for move in ("slap Q:H N:T P:T D:T", "place Q stone-rock"):
        state.apply(move)
    state.apply("move stone-rock treewood")
    svg = svg_board(state, state.history[-1])
    root = ET.fromstring(svg)
    marked = [g.attrib["data-place"] for g in root.iter(f"{SVG}g") if "data-place" in g.attrib
              and any(c.attrib.get("class") == "last" for c in g)]  # fmt: skip
    assert sorted(marked) == ["stone-rock", "treewood"]
    assert any(ln.attrib.get("class") == "last" for ln in root.iter(f"{SVG}line"))  # the arrow
    unmarked = ET.fromstring(svg_board(state))
    assert not any(c.attrib.get("class") == "last" for c in unmarked.iter())


def test_names_with_apostrophes_are_escaped() -> None:
    state = pa.load("coin-age", map="mint-isle").new_initial_state()
    svg = svg_board(state)
    ET.fromstring(svg)
    assert "Ha&apos;penny Hollow" in svg or "Ha'penny Hollow" in svg


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_terminal_picture_has_map_adjacency_and_scores(map_name: str) -> None:
    state, last = _midgame(map_name)
    text = _text(rich_board(state, last))
    heads, tails = state.scores()
    assert f"Heads {heads}" in text and f"Tails {tails}" in text
    for i, space_id in enumerate(state.game.map.space_ids):
        assert space_id in text
        neighbours = " ".join(
            str(state.game.map.index(t) + 1) for t in state.game.map.neighbours(space_id)
        )
        assert neighbours in text
        assert f"[{i + 1}" in text  # on the compact map
    for region in state.game.map.regions:
        assert region.name in text
    assert render.status_line(state) in text


def test_terminal_picture_lists_stacks_top_first() -> None:
    state = pa.load("coin-age").new_initial_state()
    for move in ("slap Q:H N:H P:T D:T", "place Q stone-rock", "place N stone-rock"):
        state.apply(move)
    assert "N:H Q:H" in _text(rich_board(state))


def test_describe_a_slap_says_what_landed_and_what_it_allows() -> None:
    game = pa.load("coin-age")
    state = game.new_initial_state()
    slap = game.action("slap Q:H N:T P:T D:H")
    text = describe("coin-age", slap)
    assert "quarter and dime landed heads" in text and "nickel and penny landed tails" in text
    assert "2 matches for Heads" in text
    said = render.describe(slap, state)
    assert said.startswith("Heads slaps 4 coins") and "place up to 2 with Q or D" in said
    four = render.describe(game.action("slap Q:H N:H P:H D:H"), state)
    assert "pay 1 to place a third" in four
    state.apply("slap Q:T N:T P:T D:T")  # no match for Heads: the turn passes
    tails = render.describe(game.action("slap Q:H N:H P:H D:H"), state)
    assert tails.startswith("Tails") and "0 matches: capture 1 and move 1" in tails


def test_describe_every_action() -> None:
    game = pa.load("coin-age")
    state = game.new_initial_state()
    for action in game.actions:
        assert render.describe(action)
    for move in (
        "slap Q:H N:H P:T D:T",
        "place Q stone-rock",
        "place N treewood",
        "slap Q:T N:T P:H D:H",
    ):
        state.apply(move)
    assert render.describe(game.action("place P stone-rock"), state) == (
        "Tails places a penny on Stone Rock, covering Heads' quarter"
    )
    assert render.describe(game.action("move treewood grey-hills"), state) == (
        "Tails moves the stack on Treewood to Grey Hills"
    )
    assert "captures the top coin of Treewood" in render.describe(
        game.action("capture treewood"), state
    )


def test_status_line_says_the_result() -> None:
    state = pa.load("coin-age").new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_random(rng)
    assert isinstance(state, CoinAgeState)
    line = render.status_line(state)
    assert line.startswith(f"game over ({state.end_reason()})")
    winner = state.winner()
    assert ("draw" in line) if winner is None else (state.game.SEATS[winner] + " wins" in line)


@pytest.mark.parametrize("seed", [1, 3, 8])
def test_the_end_marks_the_regions_each_player_rules(seed: int) -> None:
    state, last = _midgame("classic", seed=seed, steps=10_000)
    assert state.is_terminal()
    game_map = state.game.map
    expected = {}
    for region in game_map.regions:
        tops = [state.tops[game_map.index(s)] for s in region.spaces]
        heads = sum(1 for t in tops if t >= 0 and t >> 2 == 0)
        tails = sum(1 for t in tops if t >= 0 and t >> 2 == 1)
        if heads != tails:
            expected[region.id] = (region.name, "Heads" if heads > tails else "Tails")
    root = ET.fromstring(svg_board(state, last))
    ruled = {
        g.attrib["data-region"]: state.game.SEATS[int(g.attrib["data-ruler"])]
        for g in root.iter(f"{SVG}g")
        if "region" in g.attrib.get("class", "").split() and "ruled" in g.attrib["class"]
    }
    assert ruled == {rid: seat for rid, (_, seat) in expected.items()}
    legend = {
        g.attrib["data-region"]: "".join(g.itertext())
        for g in root.iter(f"{SVG}g")
        if g.attrib.get("class") == "legend ruled"
    }
    notes = [f"{name}: ruled by {seat}" for name, seat in expected.values()]
    assert sorted(legend) == sorted(expected)
    for rid, (name, seat) in expected.items():
        assert legend[rid].startswith(f"{name}: ruled by {seat}")
    # The note is the picture's accessible name (a replay's image, the live page's group).
    assert all(n in root.attrib["aria-label"] for n in notes)


def test_no_region_is_marked_while_the_game_goes_on() -> None:
    state, last = _midgame("classic")
    assert not state.is_terminal()
    svg = svg_board(state, last)
    assert "ruled" not in svg and render.ruled_regions(state) == {}


@pytest.mark.parametrize("width", [40, 60, 80])
@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_the_terminal_map_keeps_every_label_whole_and_apart(map_name: str, width: int) -> None:
    """The compact map puts each space's label ([10D:T]) where the card has it, but never on
    or against another one: a blank between any two on a row (Five Fiefs at 40 columns drew
    '[10D:T][2D:T]')."""
    game = pa.load("coin-age", map=map_name)
    rng = random.Random(1)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_random(rng)
        assert isinstance(state, CoinAgeState)
        drawn = _compact_map(state, width=min(width, 60)).plain
        labels = re.findall(r"\[[^\[\]]*\]", drawn)
        tops = [coin_text(t) if t >= 0 else "" for t in state.tops]
        assert sorted(labels) == sorted(f"[{i + 1}{top}]" for i, top in enumerate(tops)), drawn
        assert "][" not in drawn, drawn
        assert all(len(line) <= width for line in drawn.splitlines())
