"""The maps of Coin Age, read from the JSON files in ``maps/``.

A map file holds the map's id, title, a line of flavour, an optional note, its regions (id, name,
colour for drawing), its ten spaces in notation order (id, name, region, x/y on a 100 x 100 card
with y growing southwards) and its adjacent pairs. ``load_map`` checks the file before the rules
rely on it, so a broken file is one clear error rather than a strange game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

# Concrete maps, classic first (the printed card); ``map="random"`` picks among these.
MAP_NAMES: tuple[str, ...] = ("classic", "mint-isle", "sterling-strait", "five-fiefs")


@dataclass(frozen=True)
class Space:
    id: str
    name: str
    region: str
    x: float
    y: float


@dataclass(frozen=True)
class Region:
    id: str
    name: str
    colour: str
    spaces: tuple[str, ...]  # in the map's space order


@dataclass(frozen=True)
class CoinAgeMap:
    id: str
    title: str
    flavour: str
    note: str
    spaces: tuple[Space, ...]
    regions: tuple[Region, ...]
    adjacent: tuple[tuple[str, str], ...]  # each pair once, as written in the file

    @property
    def space_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.spaces)

    def index(self, space_id: str) -> int:
        return self.space_ids.index(space_id)

    def neighbours(self, space_id: str) -> tuple[str, ...]:
        """Spaces adjacent to ``space_id``, in the map's space order."""
        linked = {b for a, b in self.adjacent if a == space_id}
        linked |= {a for a, b in self.adjacent if b == space_id}
        return tuple(s for s in self.space_ids if s in linked)

    def region_of(self, space_id: str) -> Region:
        for region in self.regions:
            if space_id in region.spaces:
                return region
        raise KeyError(space_id)


class MapFileError(ValueError):
    """A map file that does not describe a playable Coin Age map."""


def _text(entry: dict[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value:
        raise MapFileError(f"{where}: {key!r} must be a non-empty string")
    return value


def parse_map(data: Any, where: str = "map") -> CoinAgeMap:
    """Build and check a map from its JSON data."""
    if not isinstance(data, dict):
        raise MapFileError(f"{where}: a map must be a JSON object")
    map_id = _text(data, "id", where)
    regions_data = data.get("regions")
    spaces_data = data.get("spaces")
    pairs_data = data.get("adjacent")
    if not isinstance(regions_data, list) or not isinstance(spaces_data, list):
        raise MapFileError(f"{where}: 'regions' and 'spaces' must be lists")
    if not isinstance(pairs_data, list):
        raise MapFileError(f"{where}: 'adjacent' must be a list of pairs")
    region_ids = [_text(r, "id", f"{where} region") for r in regions_data]
    spaces: list[Space] = []
    for entry in spaces_data:
        if not isinstance(entry, dict):
            raise MapFileError(f"{where}: each space must be an object")
        space = Space(
            id=_text(entry, "id", f"{where} space"),
            name=_text(entry, "name", f"{where} space"),
            region=_text(entry, "region", f"{where} space"),
            x=float(entry.get("x", -1)),
            y=float(entry.get("y", -1)),
        )
        if space.region not in region_ids:
            raise MapFileError(f"{where}: space {space.id!r} is in unknown region {space.region!r}")
        if not (0 <= space.x <= 100 and 0 <= space.y <= 100):
            raise MapFileError(f"{where}: space {space.id!r} needs x and y within 0..100")
        spaces.append(space)
    ids = [s.id for s in spaces]
    if len(set(ids)) != len(ids) or len(set(region_ids)) != len(region_ids):
        raise MapFileError(f"{where}: space ids and region ids must be unique")
    for space_id in ids:
        if space_id != space_id.lower() or " " in space_id:
            raise MapFileError(f"{where}: space id {space_id!r} must be lower case without spaces")
    pairs: list[tuple[str, str]] = []
    for pair in pairs_data:
        if not (isinstance(pair, list) and len(pair) == 2 and all(p in ids for p in pair)):
            raise MapFileError(f"{where}: {pair!r} is not a pair of this map's spaces")
        a, b = pair
        if a == b or (a, b) in pairs or (b, a) in pairs:
            raise MapFileError(f"{where}: the pair {pair!r} is a loop or written twice")
        pairs.append((a, b))
    regions = tuple(
        Region(
            id=rid,
            name=_text(r, "name", f"{where} region"),
            colour=_text(r, "colour", f"{where} region"),
            spaces=tuple(s.id for s in spaces if s.region == rid),
        )
        for rid, r in zip(region_ids, regions_data, strict=True)
    )
    if any(not r.spaces for r in regions):
        raise MapFileError(f"{where}: every region needs at least one space")
    return CoinAgeMap(
        id=map_id,
        title=_text(data, "title", where),
        flavour=_text(data, "flavour", where),
        note=str(data.get("note", "")),
        spaces=tuple(spaces),
        regions=regions,
        adjacent=tuple(pairs),
    )


@cache
def load_map(name: str) -> CoinAgeMap:
    """The map ``name`` (one of ``MAP_NAMES``) from the package's data files."""
    if name not in MAP_NAMES:
        raise ValueError(f"unknown Coin Age map {name!r}; maps: {', '.join(MAP_NAMES)}")
    text = resources.files(__package__).joinpath("maps", f"{name}.json").read_text("utf-8")
    game_map = parse_map(json.loads(text), where=f"maps/{name}.json")
    if game_map.id != name:
        raise MapFileError(f"maps/{name}.json says its id is {game_map.id!r}")
    return game_map
