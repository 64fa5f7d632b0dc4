"""The renderer (SVG card, rich grid, sentences) and the heuristic."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

import pocketarena as pa
from pocketarena.games.flipwars.heuristics import evaluate, exposure_masks, features
from pocketarena.games.flipwars.render import describe, rich_board, svg_board
from tests.games.flipwars.helpers import LAST_FIRST_WINS, QUIET_23, new, play

SVG = "{http://www.w3.org/2000/svg}"


def _random_state(
    options: dict[str, object], plies: int, seed: int = 1
) -> tuple[pa.State, pa.Action | None]:
    state = pa.load("flipwars", **options).new_initial_state()
    rng = random.Random(seed)
    last = None
    for _ in range(plies):
        if state.is_terminal():
            break
        last = state.apply_random(rng)
    return state, last


@pytest.mark.parametrize("options", pa.GAMES["flipwars"].VARIANTS, ids=lambda o: o["mode"])
def test_svg_is_xml_with_every_cell(options: dict[str, object]) -> None:
    for plies in (0, 9, 60):
        state, last = _random_state(options, plies)
        root = ET.fromstring(svg_board(state, last))
        assert root.tag == SVG + "svg"
        assert root.get("viewBox") and root.get("width") is None  # scales to any screen
        places = [g.get("data-place") for g in root.iter(SVG + "g") if g.get("data-place")]
        assert places == list(state.game.cell_names)
        tiles = {g.get("data-tile") for g in root.iter(SVG + "g") if g.get("data-tile")}
        assert tiles == {k.name for k in state.game.kinds}


def test_svg_marks_the_last_move_and_its_flips() -> None:
    state = play(new(), ["place twin b2 r0", "place twin d2 r0"])
    last = state.game.parse_action("place trex c2 r0")
    state.apply(last)
    root = ET.fromstring(svg_board(state, last))
    classes = {
        g.get("data-place"): g.get("class") for g in root.iter(SVG + "g") if g.get("data-place")
    }
    assert classes["c2"] == "cell last"
    assert classes["b2"] == classes["d2"] == "cell flipped"
    assert classes["a1"] == "cell"
    labels = {t.text for t in root.iter(SVG + "text")}
    assert "T-rex" in labels and "trex" not in labels  # names are drawn as players know them


def test_rich_board_draws_tiles_block_and_status() -> None:
    state = play(new(mode="tactical"), ["place grenade b2 r90", "place tank d4 r90"])
    console = Console(record=True, width=100)
    console.print(rich_board(state, state.history[-1]))
    text = console.export_text()
    assert "GRN↑" in text and "TNK↕*" in text and "▓▓▓▓" in text
    assert "Blue to place" in text
    assert "Last: place tank d4 r90" in text


def test_ownership_is_written_not_only_coloured() -> None:
    """Without colour (NO_COLOR, colour-blind eyes) each tile still says whose it is."""
    state = play(new(mode="tactical"), ["place grenade b2 r90", "place tank d4 r90"])
    console = Console(record=True, width=80, no_color=True)
    console.print(rich_board(state, state.history[-1]))
    text = console.export_text(styles=False)
    assert "B GRN↑" in text and "R TNK↕*" in text
    assert "B Blue's tile, R Red's, ▓▓ the block" in text


def test_rich_board_between_rounds_and_at_the_end() -> None:
    state = play(new(mode="tactical"), QUIET_23 + [LAST_FIRST_WINS])
    console = Console(record=True, width=100)
    console.print(rich_board(state))
    assert "Red chooses where the block goes" in console.export_text()
    state = play(new(mode="tactical", series=False), QUIET_23 + [LAST_FIRST_WINS])
    console = Console(record=True, width=100)
    console.print(rich_board(state))
    assert "Blue 13 - Red 11: Blue wins" in console.export_text()


def test_describe() -> None:
    game = pa.load("flipwars", mode="tactical")
    assert describe(game.parse_action("place grenade c3 r90")) == (
        "places a grenade on c3, turned 90° clockwise (attacking up-left, up, up-right)"
    )
    assert (
        describe(game.parse_action("place sniper a1")) == "places a sniper on a1 (attacking 2 left)"
    )
    assert describe(game.parse_action("block d4")) == "puts the block on d4 for the next round"
    assert describe(game.parse_action("first red")) == "Red starts the next round"
    state = play(new(), ["place twin b2 r0", "place twin d2 r0"])
    assert describe(state.game.parse_action("place trex c2"), state).endswith("; flips b2, d2")
    assert describe(state.game.parse_action("place trex c2"), state).startswith(
        "Blue places a T-rex"
    )
    flag = pa.load("flipwars", mode="flag")
    assert (
        describe(flag.parse_action("place flag c3")) == "places a flag on c3 (it attacks nothing)"
    )


# -- the heuristic --------------------------------------------------------------------------


@pytest.mark.parametrize("options", pa.GAMES["flipwars"].VARIANTS, ids=lambda o: o["mode"])
def test_heuristic_is_bounded_and_antisymmetric(options: dict[str, object]) -> None:
    for seed in range(4):
        for plies in (0, 5, 13, 22, 40):
            state, _ = _random_state(options, plies, seed)
            a, b = evaluate(state, 0), evaluate(state, 1)
            assert -1.0 <= a <= 1.0
            assert a == pytest.approx(-b)


def test_heuristic_knows_a_finished_game() -> None:
    state = play(new(mode="tactical", series=False), QUIET_23 + [LAST_FIRST_WINS])
    assert evaluate(state, 0) == 1.0 and evaluate(state, 1) == -1.0


def test_heuristic_prefers_flipping_the_opponent() -> None:
    state = play(new(), ["place twin b2 r0", "place twin d2 r0", "place twin b4 r0"])
    # Red to move: flipping Blue's b2 and b4 beats flipping its own d2 and nothing else.
    good = state.child("place grenade c3 r180")  # attacks d2 d3 d4: Red's own d2
    better = state.child("place grenade c3 r0")  # attacks b2 b3 b4: Blue's two twins
    assert evaluate(better, 1) > evaluate(good, 1)


def test_heuristic_values_a_flag_double() -> None:
    state = play(new(mode="flag"), ["place flag a1", "place flag e5", "place twin c3 r0"])
    # Red: flip Blue's flag on a1 (2 points) or Blue's twin on c3 (1 point).
    flag_taken = state.child("place rocket a2 r0")  # a1 below it, b2 and a3 empty
    twin_taken = state.child("place rocket c4 r0")  # c3 below it
    assert evaluate(flag_taken, 1) > evaluate(twin_taken, 1)


def test_settled_tiles_count_more_than_exposed_ones() -> None:
    state = play(new(mode="enclosed"), ["place trex a1 r0"])
    assert features(state, 0)["exposed"] == 1 and features(state, 0)["settled"] == 0
    # On the 4x4 board a tile on a1 can be attacked from these cells only (foxhole three in a
    # line, tank and sniper two, the others next to it): fill them and a1 is settled.
    reach = exposure_masks(state.game, (1 << 9) - 1)[0]
    names = {state.game.cell_names[c] for c in range(16) if reach >> c & 1}
    assert names == {"a2", "a3", "a4", "b1", "c1", "d1", "b2"}
    play(state, ["place sniper a2 r90", "place sniper a3 r90", "place tank a4 r0"])
    play(state, ["place foxhole b1 r180", "place foxhole c1 r180", "place grenade d1 r270"])
    play(state, ["place paratrooper b2 r180"])
    colour_a1 = state.position()["cells"]["a1"]["colour"]
    # a1 is the only tile no empty cell can reach any more.
    assert features(state, 0)["settled"] == (1 if colour_a1 == "blue" else -1)


def plain_features(state: pa.State, seat: int) -> dict[str, float]:
    """``features`` as its docstring words it, cell by cell and the mover's kinds from the
    combos it may place (the heuristic counts bits instead: the MCTS bots call it at every leaf)."""
    game = state.game
    empty = set(state.empty)  # type: ignore[attr-defined]
    stock = state.stock  # type: ignore[attr-defined]
    everything = 0
    for supply in stock:
        everything |= sum(1 << k for k in range(9) if supply >> (2 * k) & 3)
    any_reach = exposure_masks(game, everything)  # type: ignore[arg-type]
    to_move = state.current_player
    mover_kinds = 0
    if to_move >= 0:
        for combo in game.combos_for(stock[to_move]):  # type: ignore[attr-defined]
            mover_kinds |= 1 << game.combos[combo][0]  # type: ignore[attr-defined]
    mover_reach = exposure_masks(game, mover_kinds)  # type: ignore[arg-type]
    settled = exposed = 0.0
    targets = 0
    for name, cell in state.position()["cells"].items():
        if cell is None or "colour" not in cell:
            continue
        c = game.cell_names.index(name)  # type: ignore[attr-defined]
        value = 2.0 if cell["tile"] == "flag" else 1.0
        mine = cell["colour"] == ("blue" if seat == 0 else "red")
        if not any(any_reach[c] >> e & 1 for e in empty):
            settled += value if mine else -value
            continue
        exposed += value if mine else -value
        if any(mover_reach[c] >> e & 1 for e in empty) and mine != (to_move == seat):
            targets += 1
    tempo = min(targets, 3) if to_move >= 0 else 0
    last = 0.0
    if to_move >= 0 and empty:
        last_placer = to_move if len(empty) % 2 else 1 - to_move
        last = 1.0 if last_placer == seat else -1.0
    return {
        "settled": settled,
        "exposed": exposed,
        "tempo": float(tempo if to_move == seat else -tempo),
        "last": last,
    }


@pytest.mark.parametrize("mode", ["standard", "enclosed", "flag", "tactical"])
def test_the_heuristics_terms_are_counted_right(mode: str) -> None:
    rng = random.Random(7)
    game = pa.load("flipwars", mode=mode)
    seen = 0
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.phase == 0:  # type: ignore[attr-defined]
                for seat in (0, 1):
                    assert features(state, seat) == plain_features(state, seat), state
                seen += 1
            state.apply_random(rng)
    assert seen > 100


def test_heuristic_in_a_series_counts_round_wins() -> None:
    state = play(new(mode="tactical"), QUIET_23 + [LAST_FIRST_WINS])
    assert evaluate(state, 0) > 0.2  # one round won of the three needed
