"""FlipWars rules: place a tile, flip every tile it attacks (even your own), most tiles wins.

The board is a grid of cells ``a1``… (files left to right, ranks bottom to top). Cell ``i`` is
file ``i % size``, rank ``i // size``; a 5x5 board is numbered::

    5 | 20 21 22 23 24
    4 | 15 16 17 18 19
    3 | 10 11 12 13 14
    2 |  5  6  7  8  9
    1 |  0  1  2  3  4
        a  b  c  d  e

A position keeps the colours as two bit masks (``blue`` and ``red``: the cells whose tile shows
that colour), so a placement flips its attacked tiles with two XORs. Every placement's attacked
cells are precomputed per Game as a mask; the block and empty cells are never in ``blue | red``,
which is why they are never flipped while attacks still reach past them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pocketarena.core import (
    TERMINAL,
    Action,
    Game,
    Message,
    Option,
    Placements,
    State,
)

from .modes import (
    CHOOSE_BLOCK,
    CHOOSE_FIRST,
    MODES,
    OVER,
    PLACING,
    SERIES_MAX_ROUNDS,
    SERIES_TARGET,
    Mode,
)
from .notation import EXAMPLE, SHAPES, aliases, explain_unreadable, why_refused
from .tiles import COLOURS, FLAG, KINDS, ROTATION_WORDS, SOLDIERS, TileKind
from .views import ascii_picture, position_json


def popcount(mask: int) -> int:
    return mask.bit_count()


# -- the game ---------------------------------------------------------------------------------


class FlipWars(Game):
    ID = "flipwars"
    TITLE = "FlipWars"
    SEATS = ("Blue", "Red")
    OPTIONS = (
        Option(
            "mode",
            str,
            "standard",
            "standard (5x5), enclosed (4x4, one of each tile), flag (Capture the Flag), "
            "tactical (the block on c3)",
            choices=tuple(MODES),
            label="Mode",
            choice_labels=(
                ("standard", "Standard (5×5)"),
                ("enclosed", "Enclosed (4×4, one of each tile)"),
                ("flag", "Capture the Flag"),
                ("tactical", "Tactical (the block on c3)"),
            ),
        ),
        Option(
            "series",
            bool,
            True,
            "Tactical mode only: play a series (first to 3 round wins, at most 9 rounds); "
            "the other modes are always one round",
            label="A series of rounds (first to 3 wins)",
            applies_when=("mode", ("tactical",)),
        ),
    )
    VARIANTS = (
        {"mode": "standard"},
        {"mode": "enclosed"},
        {"mode": "flag"},
        {"mode": "tactical"},
        {"mode": "tactical", "series": False},
    )
    PITCH = "Place a tile and flip every tile it attacks, even your own: most tiles of your colour wins."

    # Set by _resolve / _build_actions (typed here for mypy).
    mode: Mode
    series: bool
    size: int
    cell_names: tuple[str, ...]
    cell_index: dict[str, int]
    kinds: tuple[TileKind, ...]
    combos: tuple[tuple[int, int], ...]  # (kind index, quarter turns) in action-table order

    def _resolve(self, options: dict[str, Any]) -> dict[str, Any]:
        mode = MODES[options["mode"]]
        # Only Tactical War has series rules (the loser moves the block between rounds), so the
        # other modes are single rounds whatever `series` says; they report series=False.
        series = bool(options["series"]) and mode.name == "tactical"
        self.mode = mode
        self.series = series
        self.size = n = mode.size
        files = "abcdefgh"[:n]
        self.cell_names = tuple(f"{files[i % n]}{i // n + 1}" for i in range(n * n))
        self.cell_index = {name: i for i, name in enumerate(self.cell_names)}
        self.kinds = SOLDIERS + ((KINDS[FLAG],) if mode.flag else ())
        self.combos = tuple((k.index, q) for k in self.kinds for q in k.rotations)
        return {"mode": mode.name, "series": series}

    def _build_actions(self) -> tuple[list[Action], list[Action]]:
        n = self.size
        stride = len(self.combos)
        actions: list[Action] = []
        # Per action id: (cell, kind, attacked-cells mask, tile code) for placements, else None.
        self._placing: list[tuple[int, int, int, int] | None] = []
        for cell, cell_name in enumerate(self.cell_names):
            f, r = cell % n, cell // n
            for kind_index, q in self.combos:
                kind = KINDS[kind_index]
                mask = 0
                for dx, dy in kind.offsets(q):
                    x, y = f + dx, r + dy
                    if 0 <= x < n and 0 <= y < n:
                        mask |= 1 << (y * n + x)
                word = ROTATION_WORDS[q]
                actions.append(
                    Action(
                        len(actions),
                        f"place {kind.name} {cell_name} {word}",
                        "place",
                        (kind.name, cell_name, q * 90),
                    )
                )
                self._placing.append((cell, kind_index, mask, kind_index * 4 + q))
        self._stride = stride
        self._block_of: dict[int, int] = {}
        self._first_of: dict[int, int] = {}
        if self.series:
            for cell, cell_name in enumerate(self.cell_names):
                self._block_of[len(actions)] = cell
                actions.append(Action(len(actions), f"block {cell_name}", "block", (cell_name,)))
                self._placing.append(None)
            for seat, colour in enumerate(COLOURS):
                self._first_of[len(actions)] = seat
                actions.append(Action(len(actions), f"first {colour}", "first", (colour,)))
                self._placing.append(None)
        self._block_actions = tuple(actions[i] for i in self._block_of)
        self._first_actions = tuple(actions[i] for i in self._first_of)
        # Initial supply per player: 2 bits per kind (counts 0..3).
        stock = sum(self.mode.copies << (2 * k.index) for k in SOLDIERS)
        if self.mode.flag:
            stock += 1 << (2 * FLAG)
        self._initial_stock = stock
        self._combos_by_stock: dict[int, tuple[int, ...]] = {}
        self.first_block = -1 if self.mode.block is None else self.cell_index[self.mode.block]
        return actions, []

    def _aliases(self) -> Iterable[tuple[str, Action]]:
        return aliases(self)

    def _max_game_length(self) -> int:
        cells = self.size * self.size - (1 if self.mode.block else 0)
        if not self.series:
            return cells
        # Every round fills the board but the block; between rounds come `block` and `first`.
        return SERIES_MAX_ROUNDS * cells + (SERIES_MAX_ROUNDS - 1) * 2

    def new_initial_state(self) -> FlipWarsState:
        return FlipWarsState(self)

    # -- helpers used by states, bots and renderers ------------------------------------------
    def combos_for(self, stock: int) -> tuple[int, ...]:
        """Indexes into ``combos`` that a player with this supply may place now."""
        cached = self._combos_by_stock.get(stock)
        if cached is None:
            if self.mode.flag and (stock >> (2 * FLAG)) & 3:
                allowed = {FLAG}  # the flag must be the first placement
            else:
                allowed = {k.index for k in self.kinds if (stock >> (2 * k.index)) & 3}
            cached = tuple(i for i, (k, _) in enumerate(self.combos) if k in allowed)
            self._combos_by_stock[stock] = cached
        return cached

    def placement(self, action: Action) -> tuple[int, int, int, int] | None:
        """(cell, kind index, attacked-cells mask, tile code) of a placement, else None."""
        return self._placing[action.id]

    def place_action(self, kind: str, cell: str, rotation: int = 0) -> Action:
        """The canonical placement of ``kind`` on ``cell`` turned ``rotation`` degrees."""
        return self.parse_action(f"place {kind} {cell} r{rotation % 360}")

    def initial_stock(self) -> int:
        return self._initial_stock

    # -- notation help (notation.py) --------------------------------------------------------
    def _example(self) -> str:
        return EXAMPLE

    def explain_unreadable(self, text: str) -> Message:
        return explain_unreadable(self, text)

    def _shape(self, action: Action) -> str:
        return SHAPES[action.verb]


# -- the state --------------------------------------------------------------------------------

# One finished round of a series: (who moved first, block cell, blue's score, red's score,
# winner seat or -1 for a drawn round).
RoundResult = tuple[int, int, int, int, int]


class FlipWarsState(State):
    __slots__ = (
        "blue",
        "red",
        "flags",
        "tiles",
        "empty",
        "stock",
        "block",
        "phase",
        "first",
        "round",
        "wins",
        "results",
    )

    game: FlipWars
    blue: int  # cells whose tile shows blue
    red: int  # cells whose tile shows red
    flags: int  # cells holding a flag (either colour)
    tiles: list[int]  # per cell: kind * 4 + quarter turns, or -1
    empty: tuple[int, ...]  # empty cells in cell order (the block is not one)
    stock: tuple[int, int]  # each player's supply, 2 bits per kind
    block: int  # the block's cell, or -1
    phase: int
    first: int  # the seat that moved first in this round
    round: int  # 1-based
    wins: tuple[int, int]  # round wins in a series
    results: tuple[RoundResult, ...]  # finished rounds of a series

    def __init__(self, game: FlipWars) -> None:
        super().__init__(game)
        self.wins = (0, 0)
        self.results = ()
        self.round = 1
        self._start_round(game.first_block, first=0)

    def _start_round(self, block: int, first: int) -> None:
        game = self.game
        n = game.size * game.size
        self.blue = self.red = self.flags = 0
        self.tiles = [-1] * n
        self.block = block
        self.empty = tuple(c for c in range(n) if c != block)
        self.stock = (game._initial_stock, game._initial_stock)
        self.phase = PLACING
        self.first = first
        self.current_player = first

    # -- contract hooks ----------------------------------------------------------------------
    def _legal_actions(self) -> Sequence[Action]:
        if self.phase == PLACING:
            game = self.game
            combos = game.combos_for(self.stock[self.current_player])
            return Placements(game, self.empty, combos, game._stride)
        if self.phase == CHOOSE_BLOCK:
            return self.game._block_actions
        return self.game._first_actions

    def _apply(self, action: Action) -> None:
        game = self.game
        info = game._placing[action.id]
        if info is None:
            self._apply_between_rounds(action)
            return
        cell, kind, targets, code = info
        bit = 1 << cell
        blue, red = self.blue, self.red
        seat = self.current_player
        stock = self.stock[seat]
        shift = kind + kind
        # Place, then flip every tile on an attacked cell (either colour).
        hit = targets & (blue | red)
        blue ^= hit
        red ^= hit
        if seat == 0:
            self.blue = blue | bit
            self.red = red
            self.stock = (stock - (1 << shift), self.stock[1])
        else:
            self.blue = blue
            self.red = red | bit
            self.stock = (self.stock[0], stock - (1 << shift))
        if kind == FLAG:
            self.flags |= bit
        self.tiles[cell] = code
        empty = self.empty
        i = empty.index(cell)
        self.empty = empty[:i] + empty[i + 1 :]
        if self.empty:
            self.current_player = 1 - seat
        else:
            self._end_round()

    def _apply_between_rounds(self, action: Action) -> None:
        game = self.game
        if action.verb == "block":
            # The board is cleared and the block set for the next round.
            self.round += 1
            self._start_round(game._block_of[action.id], first=self.current_player)
            self.phase = CHOOSE_FIRST
            return
        # `first blue` / `first red`
        first = game._first_of[action.id]
        self.first = first
        self.current_player = first
        self.phase = PLACING

    def _why_illegal(self, action: Action) -> Message:
        return why_refused(self, action)

    def _end_round(self) -> None:
        game = self.game
        if not game.series:
            self.phase = OVER
            self.current_player = TERMINAL
            return
        s0, s1 = self.round_scores()
        winner = 0 if s0 > s1 else 1 if s1 > s0 else -1
        self.results = self.results + ((self.first, self.block, s0, s1, winner),)
        if winner >= 0:
            w = list(self.wins)
            w[winner] += 1
            self.wins = (w[0], w[1])
        if max(self.wins) >= SERIES_TARGET or self.round >= SERIES_MAX_ROUNDS:
            self.phase = OVER
            self.current_player = TERMINAL
            return
        # The loser moves the block and picks who starts; after a draw, the second mover does.
        self.phase = CHOOSE_BLOCK
        self.current_player = 1 - winner if winner >= 0 else 1 - self.first

    def _copy(self) -> FlipWarsState:
        c = FlipWarsState.__new__(FlipWarsState)
        c.game = self.game
        c.current_player = self.current_player
        c.blue = self.blue
        c.red = self.red
        c.flags = self.flags
        c.tiles = self.tiles.copy()
        c.empty = self.empty
        c.stock = self.stock
        c.block = self.block
        c.phase = self.phase
        c.first = self.first
        c.round = self.round
        c.wins = self.wins
        c.results = self.results
        return c

    # -- scores and views --------------------------------------------------------------------
    def round_scores(self) -> tuple[int, int]:
        """Tiles showing each colour in this round, a flag counting 2."""
        flags = self.flags
        return (
            popcount(self.blue) + popcount(self.blue & flags),
            popcount(self.red) + popcount(self.red & flags),
        )

    def scores(self) -> tuple[float, float]:
        """Round wins in a series; otherwise this round's tiles (a flag counts 2)."""
        if self.game.series:
            return self.wins
        return self.round_scores()

    def scores_name(self) -> str:
        return "rounds-won" if self.game.series else "score"

    def supply(self, seat: int) -> dict[str, int]:
        """Tiles ``seat`` still has to place, by kind."""
        stock = self.stock[seat]
        return {k.name: (stock >> (2 * k.index)) & 3 for k in self.game.kinds}

    def tile_at(self, cell: int) -> tuple[str, int, int] | None:
        """(kind, rotation in degrees, colour seat) of the tile on ``cell``, or None."""
        code = self.tiles[cell]
        if code < 0:
            return None
        return (KINDS[code // 4].name, (code % 4) * 90, 0 if self.blue >> cell & 1 else 1)

    def position(self) -> dict[str, Any]:
        return position_json(self)

    def __str__(self) -> str:
        """A plain-ASCII picture (views.ascii_picture): upper-case letters are blue tiles,
        lower-case red, ``#`` the block."""
        return ascii_picture(self)
