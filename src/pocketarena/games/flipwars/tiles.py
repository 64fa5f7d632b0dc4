"""FlipWars' tiles: the nine kinds with their attack patterns (read from ``patterns.json``), how
a pattern turns, and the words and letters that name them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

COLOURS = ("blue", "red")
ROTATION_WORDS = ("r0", "r90", "r180", "r270")
# Other names players use for two tiles (the printed text does not name them).
TILE_ALIASES = {"twin-rifle": "twin", "t-rex": "trex"}
# One letter per tile for the ASCII picture: upper case shows blue, lower case red.
TILE_LETTERS = {
    "tank": "T",
    "rocket": "R",
    "grenade": "G",
    "paratrooper": "P",
    "sniper": "S",
    "foxhole": "H",
    "twin": "W",
    "trex": "X",
    "flag": "F",
}

Offset = tuple[int, int]


def rotate(offset: Offset, quarter_turns: int) -> Offset:
    """Turn an attack offset clockwise: r90 turns an attack to the left into one upwards."""
    x, y = offset
    for _ in range(quarter_turns % 4):
        x, y = y, -x
    return (x, y)


@dataclass(frozen=True)
class TileKind:
    """One kind of tile with its attack pattern in the printed orientation (r0)."""

    index: int
    name: str
    pattern: tuple[Offset, ...]

    def offsets(self, quarter_turns: int) -> frozenset[Offset]:
        return frozenset(rotate(o, quarter_turns) for o in self.pattern)

    @property
    def canonical(self) -> tuple[int, int, int, int]:
        """For each quarter turn, the smallest quarter turn with the same attacked offsets."""
        out = []
        for q in range(4):
            out.append(next(p for p in range(4) if self.offsets(p) == self.offsets(q)))
        return (out[0], out[1], out[2], out[3])

    @property
    def rotations(self) -> tuple[int, ...]:
        """The quarter turns that differ in effect, each by its smallest angle."""
        return tuple(sorted(set(self.canonical)))


def _load_kinds() -> tuple[TileKind, ...]:
    text = resources.files(__package__).joinpath("patterns.json").read_text(encoding="utf-8")
    tiles = json.loads(text)["tiles"]
    return tuple(
        TileKind(i, name, tuple((int(x), int(y)) for x, y in offsets))
        for i, (name, offsets) in enumerate(tiles.items())
    )


KINDS: tuple[TileKind, ...] = _load_kinds()
KIND_BY_NAME = {k.name: k for k in KINDS}
FLAG = KIND_BY_NAME["flag"].index
SOLDIERS = tuple(k for k in KINDS if k.name != "flag")  # the eight kinds of every mode
