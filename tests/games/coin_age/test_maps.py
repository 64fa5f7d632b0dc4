"""The maps' invariants: ten spaces, connected, symmetric adjacency, contiguous regions, region
sizes different from each other's, drawable; and classic exactly as SPEC.md gives it."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from importlib import resources

import pytest

import pocketarena as pa
from pocketarena.core import with_seed
from pocketarena.games.coin_age import MAP_NAMES, CoinAgeMap, load_map
from pocketarena.games.coin_age.atlas import MapFileError, parse_map

SPEC_CLASSIC_ORDER = [
    "mount-cragro", "hellag-dum", "stone-rock", "treewood", "grey-hills", "cedarville",
    "townsville", "goldfarme", "gentle-wood", "silver-city",
]  # fmt: skip
SPEC_CLASSIC_REGIONS = {
    "Copper Peaks": {"mount-cragro", "hellag-dum", "stone-rock"},
    "Forests of Coindor": {"treewood", "grey-hills", "cedarville"},
    "Plains of Kashe": {"townsville", "goldfarme"},
    "the fourth region": {"gentle-wood", "silver-city"},
}
SPEC_CLASSIC_PAIRS = (
    "hellag-dum–stone-rock, hellag-dum–grey-hills, hellag-dum–treewood, stone-rock–mount-cragro, "
    "stone-rock–treewood, stone-rock–cedarville, mount-cragro–cedarville, mount-cragro–townsville, "
    "grey-hills–treewood, treewood–cedarville, cedarville–townsville, gentle-wood–silver-city, "
    "gentle-wood–grey-hills, gentle-wood–treewood, silver-city–goldfarme, silver-city–treewood, "
    "silver-city–cedarville, goldfarme–cedarville, goldfarme–townsville"
)

MAPS = [load_map(name) for name in MAP_NAMES]


def _reachable(game_map: CoinAgeMap, start: str, within: set[str]) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        for t in game_map.neighbours(todo.pop()):
            if t in within and t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def test_every_map_file_is_listed_and_loads() -> None:
    files = {
        p.name for p in resources.files("pocketarena.games.coin_age").joinpath("maps").iterdir()
    }
    assert files == {f"{name}.json" for name in MAP_NAMES}
    assert MAP_NAMES[0] == "classic"


@pytest.mark.parametrize("game_map", MAPS, ids=MAP_NAMES)
def test_ten_spaces_connected_with_symmetric_adjacency(game_map: CoinAgeMap) -> None:
    ids = game_map.space_ids
    assert len(ids) == len(set(ids)) == 10
    assert _reachable(game_map, ids[0], set(ids)) == set(ids)
    for a in ids:
        for b in game_map.neighbours(a):
            assert a in game_map.neighbours(b)
            assert a != b
    assert sum(len(game_map.neighbours(s)) for s in ids) == 2 * len(game_map.adjacent)


@pytest.mark.parametrize("game_map", MAPS, ids=MAP_NAMES)
def test_regions_partition_the_map_and_are_contiguous(game_map: CoinAgeMap) -> None:
    spaces = [s for region in game_map.regions for s in region.spaces]
    assert sorted(spaces) == sorted(game_map.space_ids)
    for region in game_map.regions:
        members = set(region.spaces)
        assert _reachable(game_map, region.spaces[0], members) == members, region.name


def test_region_sizes_differ_between_maps() -> None:
    shapes = [tuple(sorted((len(r.spaces) for r in m.regions), reverse=True)) for m in MAPS]
    assert shapes[0] == (3, 3, 2, 2)
    assert len(set(shapes)) == len(shapes), shapes


@pytest.mark.parametrize("game_map", MAPS, ids=MAP_NAMES)
def test_names_flavour_and_drawing_data(game_map: CoinAgeMap) -> None:
    assert game_map.title and len(game_map.flavour) > 30
    assert all(s.name and r.name for s in game_map.spaces for r in game_map.regions)
    assert len({r.colour for r in game_map.regions}) == len(game_map.regions)
    points = {s.id: (s.x, s.y) for s in game_map.spaces}
    for (a, pa_), (b, pb) in itertools.combinations(points.items(), 2):
        assert (pa_[0] - pb[0]) ** 2 + (pa_[1] - pb[1]) ** 2 >= 15**2, f"{a} and {b} overlap"


def _cross(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


@pytest.mark.parametrize("game_map", MAPS, ids=MAP_NAMES)
def test_adjacency_lines_do_not_cross_when_drawn(game_map: CoinAgeMap) -> None:
    point = {s.id: (s.x, s.y) for s in game_map.spaces}
    for (a, b), (c, d) in itertools.combinations(game_map.adjacent, 2):
        if {a, b} & {c, d}:
            continue
        p, q, r, s = point[a], point[b], point[c], point[d]
        crossing = _cross(p, q, r) * _cross(p, q, s) < 0 and _cross(r, s, p) * _cross(r, s, q) < 0
        assert not crossing, f"{a}-{b} crosses {c}-{d}"


def test_classic_is_exactly_specs_map() -> None:
    classic = load_map("classic")
    assert list(classic.space_ids) == SPEC_CLASSIC_ORDER
    regions = {r.name: set(r.spaces) for r in classic.regions}
    assert regions.pop("Silver Vale") == SPEC_CLASSIC_REGIONS.pop("the fourth region")
    assert regions == SPEC_CLASSIC_REGIONS
    spec_pairs = {frozenset(p.strip().split("–")) for p in SPEC_CLASSIC_PAIRS.split(",")}
    assert len(spec_pairs) == 19
    assert {frozenset(p) for p in classic.adjacent} == spec_pairs
    assert "unnamed" in classic.note


@pytest.mark.parametrize("name", MAP_NAMES)
def test_move_actions_are_the_adjacent_pairs(name: str) -> None:
    game = pa.load("coin-age", map=name)
    moves = Counter(frozenset(a.args) for a in game.decisions if a.verb == "move")
    assert set(moves) == {frozenset(p) for p in game.map.adjacent}
    assert set(moves.values()) == {2}  # both directions


def test_a_broken_map_file_is_refused_with_a_reason() -> None:
    good = json.loads(
        resources.files("pocketarena.games.coin_age").joinpath("maps", "classic.json").read_text()
    )
    broken = json.loads(json.dumps(good))
    broken["adjacent"].append(["treewood", "atlantis"])
    with pytest.raises(MapFileError, match="atlantis"):
        parse_map(broken)
    broken = json.loads(json.dumps(good))
    broken["spaces"][0]["region"] = "nowhere"
    with pytest.raises(MapFileError, match="unknown region"):
        parse_map(broken)
    assert parse_map(good) == load_map("classic")


def test_map_options() -> None:
    with pytest.raises(ValueError, match="classic, mint-isle"):
        pa.load("coin-age", map="atlantis")
    with pytest.raises(ValueError, match="integer"):
        pa.load("coin-age", map="random", seed="abc")
    assert pa.load("coin-age").options == {"map": "classic", "seed": None}
    assert pa.load("coin-age", map="Five-Fiefs").options["map"] == "five-fiefs"


def test_random_map_comes_from_the_seed_and_is_recorded() -> None:
    picked = {
        seed: pa.load("coin-age", map="random", seed=seed).options["map"] for seed in range(40)
    }
    assert set(picked.values()) == set(MAP_NAMES)
    for seed, name in picked.items():
        game = pa.load("coin-age", map="random", seed=str(seed))
        assert game.options == {"map": name, "seed": seed}
        assert game == pa.load("coin-age", **game.options)
    # The engine draws nothing: without a seed the random map is refused, and whoever sets the
    # game up adds the seed it drew (only where the options need one).
    with pytest.raises(ValueError, match="give seed=N"):
        pa.load("coin-age", map="random")
    assert with_seed("coin-age", {"map": "classic"}, 99) == {"map": "classic"}
    assert with_seed("coin-age", {"map": "random", "seed": 3}, 99) == {"map": "random", "seed": 3}
    drawn = pa.load("coin-age", **with_seed("coin-age", {"map": "random"}, 2024))
    assert drawn.options["seed"] == 2024 and drawn.options["map"] in MAP_NAMES
    again = pa.load("coin-age", map="random", seed=drawn.options["seed"])
    assert again.options == drawn.options
    # A record made on a random map replays on the map it names.
    state = drawn.new_initial_state()
    state.apply(state.chance_outcomes()[0][0])
    data = json.loads(json.dumps(state.to_json()))
    assert pa.load("coin-age", **data["options"]).state_from_json(data) == state
