"""Stack-a-Cash: tic-tac-toe with six shared coins that stack, slide and turn over.

The rules, as docs/rules/stack-a-cash.md gives them with their reasons:

- 3x3 board a1-c3; a shared supply of two large (L), two medium (M) and two small (S) coins.
  Heads (seat 0) moves first.
- A turn is one of ``place L b2`` (a supply coin, the mover's side up, on an empty cell or on a
  strictly larger top coin), ``flip b2`` (turn a top coin over), ``move b2 c3`` (a top coin to an
  empty cell or onto a strictly larger top coin, face unchanged) or ``move b2 c3 flip`` (both).
  Anyone's top coin may be moved or flipped.
- Protection: the coin the opponent touched on their last turn (``protect="touched"``, the
  default) or only the coin they just placed (``protect="placed"``, as printed) cannot be moved
  or flipped this turn; it can still be covered.
- After each action a line of three of the opponent's side on the top layer wins for the
  opponent, even if the mover made a line too; otherwise a line of the mover's side wins.
- Draw on the third occurrence of a position (board, side to move, protected coin) or after
  200 plies.

>>> import pocketarena as pa
>>> state = pa.load("stack-a-cash").new_initial_state()
>>> for move in ["place L b2", "place M a1", "place S b2"]:
...     state.apply(move)
>>> print(state)
3 | .        .        .
2 | .        LH SH    .
1 | MT       .        .
    a        b        c
Tails to move; supply L1 M1 S1; protected b2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pocketarena.core import (
    TERMINAL,
    Action,
    Game,
    Message,
    Option,
    State,
    message,
    normalize_notation,
    seat_name,
)

from .board import (
    CELL_BITS,
    CELL_INDEX,
    CELLS,
    COINS_PER_SIZE,
    FACES,
    HAS_LINE,
    LINE_MASKS,
    LINES,
    NO_CELL,
    NUM_CELLS,
    POP,
    SIZE_NAMES,
    SIZES,
    TOP_FACE,
    TOP_SIZE,
    TURN_TOP,
    push,
    stack_of,
)

# Action kinds, in the order of the action table.
PLACE, FLIP, MOVE, MOVE_FLIP = 0, 1, 2, 3
MAX_PLIES = 200
REPETITIONS_FOR_DRAW = 3
# The legal-action cache keeps at most this many layouts of top coins before starting afresh.
LEGAL_CACHE_LIMIT = 200_000
FULL_SUPPLY = sum(COINS_PER_SIZE << (2 * s) for s in range(3))
# AVAILABLE[left]: bit s set when a coin of size s is still in the supply.
AVAILABLE = tuple(sum(1 << s for s in range(3) if left >> (2 * s) & 3) for left in range(64))


def size_word(size: int) -> Message:
    """ "large", "medium" or "small", to be worded in the reader's language."""
    return message(f"stack-a-cash.size.{SIZE_NAMES[size]}")


def _protect_help() -> str:
    # Said in the choices' own words (the form shows those, not the values 'touched'/'placed').
    return (
        "which coin the opponent cannot move or flip on their turn: the coin touched last turn "
        "(placed, moved or flipped; this stops endless flip-backs), or a just-placed coin only, "
        "as printed"
    )


class StackACash(Game):
    ID = "stack-a-cash"
    TITLE = "Stack-a-Cash"
    SEATS = ("Heads", "Tails")
    OPTIONS = (
        Option(
            "protect",
            str,
            "touched",
            _protect_help(),
            choices=("touched", "placed"),
            label="Protected coin",
            choice_labels=(
                ("touched", "the coin touched last turn"),
                ("placed", "a just-placed coin only (as printed)"),
            ),
        ),
    )
    VARIANTS = ({"protect": "touched"}, {"protect": "placed"})
    PITCH = "Tic-tac-toe with six shared coins that stack, slide and flip: no coin stays yours."

    # Per-action side tables (by action id), filled in _build_actions.
    kind: list[int]
    size: list[int]
    src: list[int]
    dst: list[int]

    def _build_actions(self) -> tuple[list[Action], list[Action]]:
        actions: list[Action] = []
        self.kind, self.size, self.src, self.dst = [], [], [], []

        def add(
            text: str, verb: str, args: tuple[Any, ...], k: int, s: int, a: int, b: int
        ) -> None:
            actions.append(Action(len(actions), text, verb, args))
            self.kind.append(k)
            self.size.append(s)
            self.src.append(a)
            self.dst.append(b)

        for s, size in enumerate(SIZES):
            for c, cell in enumerate(CELLS):
                add(f"place {size} {cell}", "place", (size, cell), PLACE, s, NO_CELL, c)
        for c, cell in enumerate(CELLS):
            add(f"flip {cell}", "flip", (cell,), FLIP, -1, c, c)
        for k, suffix in ((MOVE, ""), (MOVE_FLIP, " flip")):
            for a, src in enumerate(CELLS):
                for b, dst in enumerate(CELLS):
                    if a != b:
                        add(
                            f"move {src} {dst}{suffix}",
                            "move",
                            (src, dst, k == MOVE_FLIP),
                            k,
                            -1,
                            a,
                            b,
                        )
        return actions, []

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.protect_touched: bool = self.options["protect"] == "touched"
        self._legal_cache: dict[int, tuple[Action, ...]] = {}
        self._pieces: dict[int, tuple[Action, ...]] = {}

    def _max_game_length(self) -> int:
        return MAX_PLIES

    def new_initial_state(self) -> StackACashState:
        return StackACashState(self)

    # -- notation help ----------------------------------------------------------------
    def _shape(self, action: Action) -> str:
        return {"place": "place L b2", "flip": "flip b2", "move": "move b2 c3 or move b2 c3 flip"}[
            action.verb
        ]

    def _example(self) -> str:
        return "'place L b2'"

    def explain_unreadable(self, text: str) -> Message:
        words = normalize_notation(text).split()
        shown = text.strip()
        if not words:
            return message("stack-a-cash.empty")
        verb = words[0]
        if verb not in ("place", "flip", "move"):
            return message("stack-a-cash.unknown-verb", text=shown, word=verb)

        def bad_cell(word: str) -> Message | None:
            if word not in CELL_INDEX:
                return message("stack-a-cash.not-a-cell", word=word)
            return None

        unreadable = message("core.foreign-action", action=shown, game=self.TITLE)
        if verb == "place":
            if len(words) != 3:
                return message("stack-a-cash.write-place", text=shown)
            if words[1].upper() not in SIZES:
                return message("stack-a-cash.not-a-size", word=words[1])
            return bad_cell(words[2]) or unreadable
        if verb == "flip":
            if len(words) != 2:
                return message("stack-a-cash.write-flip", text=shown)
            return bad_cell(words[1]) or unreadable
        if len(words) not in (3, 4):
            return message("stack-a-cash.write-move", text=shown)
        problem = bad_cell(words[1]) or bad_cell(words[2])
        if problem:
            return problem
        if len(words) == 4 and words[3] != "flip":
            return message("stack-a-cash.after-move", word=words[3])
        if words[1] == words[2]:
            return message("stack-a-cash.move-in-place", place=words[1])
        return unreadable

    # -- legal actions ------------------------------------------------------------------
    # Legal actions depend only on which size of coin is on top of each cell (three 9-bit
    # masks, packed as ``tops``), which sizes are left in the supply and the protected cell.
    # Whole lists are cached per such key; a miss is assembled from memoised pieces (the
    # placements of one size onto a set of cells, the moves of one coin onto a set of cells).

    def legal_for(self, tops: int, supply: int, protected: int) -> tuple[Action, ...]:
        """Legal actions for ``tops`` (cells topped by L, M, S: bits 0-8, 9-17, 18-26),
        ``supply`` (bit s: a coin of size s is left) and the protected cell (-1 none)."""
        key = tops | supply << 27 | (protected + 1) << 30
        legal = self._legal_cache.get(key)
        if legal is None:
            if len(self._legal_cache) >= LEGAL_CACHE_LIMIT:
                self._legal_cache.clear()
            legal = self._legal_cache[key] = self._assemble(tops, supply, protected)
        return legal

    def _assemble(self, tops: int, supply: int, protected: int) -> tuple[Action, ...]:
        large, medium, small = tops & 511, tops >> 9 & 511, tops >> 18
        empty = 511 & ~(large | medium | small)
        # Where a coin of each size may go: empty cells or strictly larger top coins.
        onto = (empty, empty | large, empty | large | medium)
        out: list[Action] = []
        for size in range(3):
            if supply >> size & 1:
                out += self._piece(PLACE, size, onto[size])
        movable = (large | medium | small) & ~(1 << protected if protected >= 0 else 0)
        out += self._piece(FLIP, 0, movable)
        sources = [
            (c, 0 if large >> c & 1 else 1 if medium >> c & 1 else 2) for c in _bits(movable)
        ]
        for kind in (MOVE, MOVE_FLIP):
            for c, size in sources:
                out += self._piece(kind, c, onto[size])
        return tuple(out)

    def _piece(self, kind: int, which: int, cells: int) -> tuple[Action, ...]:
        """Placements of size ``which``, flips, or moves from cell ``which``, onto ``cells``."""
        key = (kind << 4 | which) << 9 | cells
        piece = self._pieces.get(key)
        if piece is None:
            if kind == PLACE:
                ids = [which * NUM_CELLS + c for c in _bits(cells)]
            elif kind == FLIP:
                ids = [3 * NUM_CELLS + c for c in _bits(cells)]
            else:
                base = _move_id(which, 0 if which else 1) + (72 if kind == MOVE_FLIP else 0)
                ids = [base + (b if b < which else b - 1) for b in _bits(cells) if b != which]
            piece = self._pieces[key] = tuple(self.actions[i] for i in ids)
        return piece


def _bits(mask: int) -> list[int]:
    return [c for c in range(NUM_CELLS) if mask >> c & 1]


def _move_id(a: int, b: int) -> int:
    """Id of ``move a b`` in the action table (move-flip is 72 further on)."""
    return 36 + a * 8 + (b if b < a else b - 1)


class StackACashState(State):
    __slots__ = (
        "board",
        "cells",
        "tops",
        "left",
        "protected",
        "heads",
        "tails",
        "winner_seat",
        "draw",
        "seen",
        "repeats",
        "plies",
        "_game",
    )

    game: StackACash
    board: int  # the nine stack codes packed side by side (see board.py)
    cells: list[int]  # stack code per cell
    tops: int  # cells topped by an L, M, S coin: three 9-bit masks (bits 0-8, 9-17, 18-26)
    left: int  # supply: coins left of each size, two bits each (L, M, S)
    protected: int  # cell of the coin the mover may not touch, or NO_CELL
    heads: int  # 9-bit set of cells whose top coin shows Heads
    tails: int
    winner_seat: int  # -1 while nobody has won
    draw: str | None  # why the game was drawn, once it is
    seen: dict[int, int]  # position key -> occurrences since the last placement
    repeats: int  # how often the current position has occurred
    plies: int

    def __init__(self, game: StackACash) -> None:
        super().__init__(game)
        self._game = game
        self.board = 0
        self.cells = [0] * NUM_CELLS
        self.tops = 0
        self.left = FULL_SUPPLY
        self.protected = NO_CELL
        self.heads = 0
        self.tails = 0
        self.winner_seat = -1
        self.draw = None
        self.plies = 0
        self.seen = {self.key(0): 1}
        self.repeats = 1

    # -- reading the position ------------------------------------------------------------
    def key(self, to_move: int) -> int:
        """The position for repetition: board (faces too), side to move, protected cell."""
        return self.board | to_move << 54 | (self.protected + 1) << 55

    def supply(self) -> list[int]:
        """Coins of each size (L, M, S) still off the board."""
        return [self.left >> (2 * s) & 3 for s in range(3)]

    def lines(self, face: int) -> list[tuple[str, str, str]]:
        """Lines of three top coins showing ``face`` (0 Heads, 1 Tails)."""
        shown = self.heads if face == 0 else self.tails
        return [
            (CELLS[a], CELLS[b], CELLS[c])
            for (a, b, c), m in zip(LINES, LINE_MASKS, strict=True)
            if shown & m == m
        ]

    # -- engine hooks ---------------------------------------------------------------------
    def _legal_actions(self) -> Sequence[Action]:
        return self._game.legal_for(self.tops, AVAILABLE[self.left], self.protected)

    def _apply(self, action: Action) -> None:
        game = self._game
        i = action.id
        kind = game.kind[i]
        cells = self.cells
        mover = self.current_player
        if kind == PLACE:
            s, c = game.size[i], game.dst[i]
            self._set(c, push(cells[c], s, mover))
            self.left -= 1 << (2 * s)
            touched = c
        elif kind == FLIP:
            a = game.src[i]
            self._set(a, TURN_TOP[cells[a]])
            touched = a
        else:
            a, b = game.src[i], game.dst[i]
            s = TOP_SIZE[cells[a]]
            face = TOP_FACE[cells[a]] ^ (kind == MOVE_FLIP)
            self._set(a, POP[cells[a]])
            self._set(b, push(cells[b], s, face))
            touched = b
        self.plies += 1
        if kind == PLACE:
            # A placement can never be undone, so earlier positions cannot come back.
            self.seen.clear()
            self.protected = touched
        else:
            self.protected = touched if game.protect_touched else NO_CELL
        opponent = 1 - mover
        key = self.board | opponent << 54 | (self.protected + 1) << 55
        count = self.seen.get(key, 0) + 1
        self.seen[key] = count
        self.repeats = count
        if HAS_LINE[self.tails if opponent else self.heads]:
            self._finish(opponent)
        elif HAS_LINE[self.tails if mover else self.heads]:
            self._finish(mover)
        else:
            self.current_player = opponent
            if count >= REPETITIONS_FOR_DRAW:
                self.draw = "the same position came up a third time"
                self.current_player = TERMINAL
            elif self.plies >= MAX_PLIES:
                self.draw = f"{MAX_PLIES} plies were played"
                self.current_player = TERMINAL

    def _why_illegal(self, action: Action) -> Message:
        """The first rule the action breaks, in the order a player checks them: the supply
        (for a place) or the coin to move (empty cell, protected), and last what the coin
        would land on (``_assemble`` holds "strictly larger")."""
        game = self._game
        i = action.id
        kind = game.kind[i]
        cells = self.cells
        if kind == PLACE:
            s, c = game.size[i], game.dst[i]
            if not self.left >> (2 * s) & 3:
                return message(
                    "stack-a-cash.none-left" if self.left else "stack-a-cash.supply-empty",
                    size=size_word(s),
                    letter=SIZES[s],
                )
            top = TOP_SIZE[cells[c]]
            return message(
                "stack-a-cash.topped", place=CELLS[c], top=size_word(top), size=size_word(s)
            )
        a = game.src[i]
        if cells[a] == 0:
            return message(f"stack-a-cash.empty-{action.verb}", place=CELLS[a])
        if a == self.protected:
            return message(
                "stack-a-cash.protected-touched"
                if game.protect_touched
                else "stack-a-cash.protected",
                place=CELLS[a],
                seat=seat_name(game.SEATS[1 - self.current_player]),
            )
        b = game.dst[i]
        return message(
            "stack-a-cash.not-onto",
            size=size_word(TOP_SIZE[cells[a]]),
            place=CELLS[a],
            onto=CELLS[b],
            top=size_word(TOP_SIZE[cells[b]]),
        )

    def _set(self, c: int, code: int) -> None:
        self.board += (code - self.cells[c]) << (CELL_BITS * c)
        self.cells[c] = code
        bit = 1 << c
        size = TOP_SIZE[code]
        self.tops &= ~(bit | bit << 9 | bit << 18)
        if size >= 0:
            self.tops |= bit << (9 * size)
        face = TOP_FACE[code]
        self.heads = self.heads | bit if face == 0 else self.heads & ~bit
        self.tails = self.tails | bit if face == 1 else self.tails & ~bit

    def _finish(self, seat: int) -> None:
        self.winner_seat = seat
        self.current_player = TERMINAL

    def _copy(self) -> StackACashState:
        c = StackACashState.__new__(StackACashState)
        c.game, c._game, c.current_player = self.game, self._game, self.current_player
        c.board, c.cells, c.protected = self.board, self.cells.copy(), self.protected
        c.tops, c.left = self.tops, self.left
        c.heads, c.tails = self.heads, self.tails
        c.winner_seat, c.draw, c.plies = self.winner_seat, self.draw, self.plies
        c.seen, c.repeats = self.seen.copy(), self.repeats
        return c

    def scores(self) -> tuple[float, float]:
        if self.winner_seat == 0:
            return (1.0, 0.0)
        if self.winner_seat == 1:
            return (0.0, 1.0)
        return (0.0, 0.0)

    def winner(self) -> int | None:
        return None if self.winner_seat < 0 else self.winner_seat

    def position(self) -> dict[str, Any]:
        stacks = {
            CELLS[c]: [{"size": SIZES[s], "face": FACES[f]} for s, f in stack_of(code)]
            for c, code in enumerate(self.cells)
        }
        supply = self.supply()
        over = self.current_player == TERMINAL
        return {
            "stacks": stacks,
            "supply": {SIZES[s]: supply[s] for s in range(3)},
            "to_move": None if over else self.game.SEATS[self.current_player],
            "protected": None if self.protected == NO_CELL else CELLS[self.protected],
            "ply": self.plies,
            "repetitions": self.repeats,
            "winner": None if self.winner_seat < 0 else self.game.SEATS[self.winner_seat],
            "lines": [list(line) for line in self.lines(self.winner_seat)]
            if self.winner_seat >= 0
            else [],
            "draw": self.draw,
        }

    def __str__(self) -> str:
        rows = []
        for r in (2, 1, 0):
            names = []
            for f in range(3):
                coins = stack_of(self.cells[r * 3 + f])
                names.append(" ".join(SIZES[s] + FACES[face] for s, face in coins) or ".")
            rows.append(f"{r + 1} | " + "".join(f"{n:<9}" for n in names).rstrip())
        rows.append("    a        b        c")
        supply = self.supply()
        stock = " ".join(f"{SIZES[s]}{supply[s]}" for s in range(3))
        if self.current_player == TERMINAL:
            status = (
                f"{self.game.SEATS[self.winner_seat]} won"
                if self.winner_seat >= 0
                else f"draw: {self.draw}"
            )
        else:
            status = f"{self.game.SEATS[self.current_player]} to move"
        prot = "" if self.protected == NO_CELL else f"; protected {CELLS[self.protected]}"
        rows.append(f"{status}; supply {stock}{prot}")
        return "\n".join(rows)
