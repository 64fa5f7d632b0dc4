"""Stack-a-Cash's board as plain tables: cells, coin sizes, stacks packed into small ints.

The 3x3 board is numbered rank by rank, the way python-chess numbers squares::

    3 | 6 7 8      a3 b3 c3
    2 | 3 4 5      a2 b2 c2
    1 | 0 1 2      a1 b1 c1
        a b c

A cell's stack fits in six bits: for each size ``s`` (0 = L, 1 = M, 2 = S) bit ``2s`` says the
coin is there and bit ``2s + 1`` that it shows Tails. Sizes can only stack smaller on larger, so
the top coin is the smallest present. The whole board is the nine cells side by side (54 bits).
Everything the engine and the solver need about a stack is precomputed here over the 64 codes.
"""

from __future__ import annotations

CELLS: tuple[str, ...] = tuple(f + r for r in "123" for f in "abc")
CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELLS)}
SIZES: tuple[str, ...] = ("L", "M", "S")  # largest first: index 0 is the large coin
SIZE_NAMES: tuple[str, ...] = ("large", "medium", "small")
FACES: tuple[str, ...] = ("H", "T")  # face 0 = Heads (seat 0's side), 1 = Tails
COINS_PER_SIZE = 2
NUM_CELLS = 9
CELL_BITS = 6
NO_CELL = -1  # no protected coin

# Rows, columns and both diagonals, as cell indices.
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
LINE_MASKS: tuple[int, ...] = tuple(sum(1 << c for c in line) for line in LINES)

# HAS_LINE[mask]: does a 9-bit set of cells contain a whole line?
HAS_LINE: tuple[bool, ...] = tuple(any(m & lm == lm for lm in LINE_MASKS) for m in range(512))


def _top(code: int) -> int:
    for s in (2, 1, 0):
        if code >> (2 * s) & 1:
            return s
    return -1


def _valid(code: int) -> bool:
    # A face bit without its coin is meaningless.
    return all(code >> (2 * s) & 1 or not code >> (2 * s + 1) & 1 for s in range(3))


VALID_CODE: tuple[bool, ...] = tuple(_valid(c) for c in range(64))
# Size index of the top coin (-1 for an empty cell) and its face (-1 for an empty cell).
TOP_SIZE: tuple[int, ...] = tuple(_top(c) for c in range(64))
TOP_FACE: tuple[int, ...] = tuple(
    -1 if _top(c) < 0 else c >> (2 * _top(c) + 1) & 1 for c in range(64)
)
# The stack without its top coin, and with its top coin turned over.
POP: tuple[int, ...] = tuple(c if _top(c) < 0 else c & ~(3 << (2 * _top(c))) for c in range(64))
TURN_TOP: tuple[int, ...] = tuple(c if _top(c) < 0 else c ^ (2 << (2 * _top(c))) for c in range(64))
# Every coin's face turned over (Heads <-> Tails): the solver's colour swap.
SWAP_FACES: tuple[int, ...] = tuple(c ^ ((c & 0b010101) << 1) for c in range(64))


def push(code: int, size: int, face: int) -> int:
    """The stack with a coin of ``size`` showing ``face`` put on top (caller checks it fits)."""
    return code | (1 | face << 1) << (2 * size)


def stack_of(code: int) -> list[tuple[int, int]]:
    """The coins of a stack, bottom to top, as (size, face) pairs."""
    return [(s, code >> (2 * s + 1) & 1) for s in range(3) if code >> (2 * s) & 1]


# Presence bits of the whole board: masking a board with this forgets the faces.
PRESENCE_MASK = sum(0b010101 << (CELL_BITS * i) for i in range(NUM_CELLS))


# The board's eight symmetries (rotations and reflections) as cell permutations:
# SYMMETRIES[k][i] is where cell i goes. They keep lines as lines.
def _symmetries() -> tuple[tuple[int, ...], ...]:
    def cell(f: int, r: int) -> int:
        return r * 3 + f

    maps = []
    for k in range(8):
        perm = []
        for i in range(NUM_CELLS):
            f, r = i % 3, i // 3
            for _ in range(k % 4):  # quarter turns
                f, r = r, 2 - f
            if k >= 4:  # then a mirror
                f = 2 - f
            perm.append(cell(f, r))
        maps.append(tuple(perm))
    return tuple(maps)


SYMMETRIES: tuple[tuple[int, ...], ...] = _symmetries()
