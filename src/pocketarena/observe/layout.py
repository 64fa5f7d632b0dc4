"""Observation layouts: a tensor described as named blocks, so every tensor documents itself.

A layout is a list of blocks along the first axis of the tensor. On a board game each block is
a stack of planes (``(channels, ranks, files)``, indexed ``[c, rank - 1, file]`` so a plane read
row by row follows the engine's cell numbering); elsewhere the tensor is a flat vector and a
block is a run of features (with its own shape, e.g. ``(spaces, 4)``).

Blocks about one seat come in pairs: ``own_…`` (the observing seat) and ``opp_…`` (its
opponent), each naming the other as ``partner``. Everything else is the same for both seats.
So the other seat's view of the same state is this view with each pair swapped:
``tensor[layout.seat_permutation()]`` — the tests check exactly that.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Block", "Layout"]


@dataclass(frozen=True)
class Block:
    """One named part of an observation: ``shape`` rows along the tensor's first axis."""

    name: str
    shape: tuple[int, ...]
    doc: str
    partner: str | None = None  # the block holding the same thing for the other seat

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class Layout:
    """Where each block lies in a game's observation tensor, and the tensor's shape."""

    def __init__(self, blocks: Sequence[Block], board: tuple[int, int] | None = None) -> None:
        self.blocks = tuple(blocks)
        self.board = board  # (ranks, files) for planes; None for a flat vector
        self._slices: dict[str, slice] = {}
        start = 0
        for block in self.blocks:
            if block.name in self._slices:
                raise ValueError(f"block {block.name!r} appears twice")
            self._slices[block.name] = slice(start, start + block.size)
            start += block.size
        self.rows = start
        by_name = {b.name: b for b in self.blocks}
        for block in self.blocks:
            if block.partner is None:
                continue
            other = by_name.get(block.partner)
            if other is None or other.partner != block.name or other.shape != block.shape:
                raise ValueError(f"block {block.name!r} and its partner {block.partner!r} differ")

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.rows, *self.board) if self.board else (self.rows,)

    def zeros(self) -> np.ndarray:
        return np.zeros(self.shape, dtype=np.float32)

    def start(self, name: str) -> int:
        """The first row of block ``name``."""
        return int(self._slices[name].start)

    def view(self, tensor: np.ndarray, name: str) -> np.ndarray:
        """The block ``name`` of ``tensor`` in its own shape (a view: writing to it fills
        the tensor)."""
        rows = tensor[self._slices[name]]
        return rows.reshape(self._block(name).shape + (self.board or ()))

    def views(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        return {b.name: self.view(tensor, b.name) for b in self.blocks}

    def seat_permutation(self) -> np.ndarray:
        """Row indices that turn one seat's view into the other seat's (``own`` <-> ``opp``)."""
        order = np.arange(self.rows)
        for block in self.blocks:
            if block.partner is not None:
                order[self._slices[block.name]] = np.arange(self.rows)[self._slices[block.partner]]
        return order

    def _block(self, name: str) -> Block:
        for block in self.blocks:
            if block.name == name:
                return block
        raise KeyError(name)

    def __iter__(self) -> Iterator[Block]:
        return iter(self.blocks)

    def describe(self) -> list[tuple[str, str, str, str]]:
        """(rows, block name, size, meaning) per block, in tensor order."""
        out = []
        for block in self.blocks:
            sl = self._slices[block.name]
            rows = str(sl.start) if block.size == 1 else f"{sl.start}-{sl.stop - 1}"
            if self.board:
                size = f"{block.size} plane" + ("s" if block.size > 1 else "")
            else:
                size = " x ".join(str(n) for n in block.shape)
            out.append((rows, block.name, size, block.doc))
        return out

    def markdown(self) -> str:
        """The layout as a Markdown table (docs/research.md shows these)."""
        lines = ["| rows | block | size | meaning |", "|---|---|---|---|"]
        lines += [f"| {r} | `{n}` | {s} | {d} |" for r, n, s, d in self.describe()]
        return "\n".join(lines)
