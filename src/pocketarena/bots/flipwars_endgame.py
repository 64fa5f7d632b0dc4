"""An exact FlipWars endgame solver: the final margin of the current round under perfect play.

``solve_endgame(state)`` returns ``(margin, action)``: the side to move's points minus the
opponent's points at the end of the round (a flag counts 2) when both sides play perfectly
from here, and a placement that achieves it. It searches to the end of the round, so it is
meant for positions with few empty cells; ``max_nodes`` bounds the work, counted in
searched positions with three or more empty cells (``EndgameLimitExceeded`` past it). A tactical series is solved round by round: the value is
the current round's margin, not the series.

How it searches: negamax alpha-beta with a null window (principal-variation search) below
the root and MTD(f) at the root (null-window passes that close in on the value from the
current margin, reusing the table between passes). ``EndgameSolver.sign`` wants only the
result of the round: its passes test the windows at 0 and 1 alone (two at most).

- Positions are bit masks seen from the side to move: its tiles, the opponent's tiles, and
  both supplies (2 bits per kind). The rules are the same for both colours, so two positions
  that differ only in who is Blue share one value.
- Transposition table: each position's exact key (both masks, both supplies and the flags
  packed into one int, which Python hashes in C; unlike XOR-ed Zobrist keys it cannot
  collide; the side to move is implicit, since the key is written from its side) maps to
  lower and upper bounds on its value and its best move.
- Rotation equivalence: a tile's rotations are searched only when they flip different tiles,
  so the four turns of a sniper whose targets are empty count once, and so do the turns with
  the same attacked cells at the board's edge. Every tile's set of patterns is closed under
  turning and mirroring the board, so the board's symmetries (those that keep the block in
  place) fold mirror-image positions into one table entry while many cells are empty, where
  such transpositions happen.
- Move ordering: the table's best move first (tried before the others are generated), then by
  the heuristic's terms: immediate gain (tiles won minus tiles lost, a flag double) and how
  exposed the placed tile is to the opponent's remaining tiles.
- The last two empty cells are searched by a dedicated routine: each placement's value is its
  gain less the opponent's best reply on the other cell; the reply that refuted the previous
  placement is tried first, and placements are cut off as soon as even the opponent's least
  useful reply would hold them to the bound. Which tiles a placement hits depends only on the
  occupied cells, not on colours, so those shapes are computed once per set of occupied cells.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pocketarena.core import TERMINAL, Action, State
from pocketarena.games.flipwars import FLAG, KINDS, FlipWars, FlipWarsState
from pocketarena.games.flipwars.modes import PLACING

__all__ = ["EndgameLimitExceeded", "EndgameSolver", "solve_endgame"]

INF = 1 << 20
SYMMETRY_MIN_EMPTY = 9  # fold board symmetries into the table only with this many empty cells
TABLE_LIMIT = 4_000_000  # table entries (about 1 GB) before the table is emptied to start afresh
SHAPE_LIMIT = 50_000  # cached move shapes (up to a few kB each) before they are forgotten


class EndgameLimitExceeded(RuntimeError):
    """The search needed more than ``max_nodes`` nodes."""


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class _Board:
    """Move tables for one board (size, block): per cell and kind, the distinct on-board target
    masks with the first (smallest-rotation) combo index that produces each."""

    size: int
    free: int  # cells that take tiles (all but the block)
    targets: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]  # [cell][kind] -> ((mask, combo),)
    masks: tuple[tuple[int, ...], ...]  # [cell][combo] -> attacked cells on the board
    reach: Callable[[int], tuple[int, ...]]  # kinds mask -> per cell, who can attack it
    symmetries: tuple[tuple[tuple[int, ...], ...], ...]  # per symmetry: chunk lookup tables
    chunk: int


_BOARDS: dict[tuple[str, int], _Board] = {}


def _symmetry_maps(n: int, block: int) -> list[list[int]]:
    """Cell permutations of the square (other than the identity) that keep the block."""
    maps = []
    for turn in range(4):
        for mirror in (False, True):
            if turn == 0 and not mirror:
                continue
            perm = []
            for cell in range(n * n):
                x, y = cell % n, cell // n
                if mirror:
                    x = n - 1 - x
                for _ in range(turn):
                    x, y = y, n - 1 - x
                perm.append(y * n + x)
            if block < 0 or perm[block] == block:
                maps.append(perm)
    return maps


def _board(game: FlipWars, block: int) -> _Board:
    key = (game.mode.name, block)
    cached = _BOARDS.get(key)
    if cached is not None:
        return cached
    n = game.size
    n2 = n * n
    stride = game._stride
    off_block = ~(1 << block) if block >= 0 else -1
    masks = tuple(
        tuple(
            info[2] & off_block
            for info in game._placing[cell * stride : (cell + 1) * stride]
            if info
        )
        for cell in range(n2)
    )
    targets: list[tuple[tuple[tuple[int, int], ...], ...]] = []
    for cell in range(n2):
        per_kind: list[tuple[tuple[int, int], ...]] = []
        for kind in KINDS:
            seen: dict[int, int] = {}
            for combo, (k, _q) in enumerate(game.combos):
                if k != kind.index:
                    continue
                seen.setdefault(masks[cell][combo], combo)
            per_kind.append(tuple(seen.items()))
        targets.append(tuple(per_kind))
    reach_cache: dict[int, tuple[int, ...]] = {}

    def reach(kinds_mask: int) -> tuple[int, ...]:
        got = reach_cache.get(kinds_mask)
        if got is None:
            out = [0] * n2
            for cell in range(n2):
                for kind in range(len(KINDS)):
                    if kinds_mask >> kind & 1:
                        for mask, _ in targets[cell][kind]:
                            for target in _bits(mask):
                                out[target] |= 1 << cell
            got = tuple(out)
            reach_cache[kinds_mask] = got
        return got

    # Symmetries as lookup tables over chunks of the mask, for fast canonical keys.
    chunk = 7 if n2 > 16 else 8
    tables = []
    for perm in _symmetry_maps(n, block):
        per_chunk = []
        for start in range(0, n2, chunk):
            table = []
            for value in range(1 << chunk):
                out = 0
                for b in range(chunk):
                    if value >> b & 1 and start + b < n2:
                        out |= 1 << perm[start + b]
                table.append(out)
            per_chunk.append(tuple(table))
        tables.append(tuple(per_chunk))
    free = ((1 << n2) - 1) & ~(1 << block if block >= 0 else 0)
    board = _Board(n, free, tuple(targets), masks, reach, tuple(tables), chunk)
    _BOARDS[key] = board
    return board


class EndgameSolver:
    """Solves positions of one FlipWars game, keeping its transposition table between calls
    (a bot that solves move after move reuses what it learnt)."""

    def __init__(
        self,
        game: FlipWars,
        *,
        max_nodes: int | None = None,
        fold_symmetries_from: int = SYMMETRY_MIN_EMPTY,
        table_limit: int = TABLE_LIMIT,
    ) -> None:
        self.game = game
        self.max_nodes = max_nodes
        self.fold_symmetries_from = fold_symmetries_from
        self.table_limit = table_limit
        self.nodes = 0
        # key -> (lower bound, upper bound, best move or None)
        self._tables: dict[int, dict[int, tuple[int, int, tuple[int, int, int] | None]]] = {}

    def solve(self, state: State, *, max_nodes: int | None = None) -> tuple[int, Action]:
        value, move = self._run(state, max_nodes, sign_only=False)
        assert move is not None
        cell, _kind, combo = move
        return value, self.game.actions[cell * self.game._stride + combo]

    def sign(self, state: State, *, max_nodes: int | None = None) -> int:
        """The sign of ``solve(state)``'s margin (1 the round is won for the side to move, 0
        drawn, -1 lost), settled by at most two null-window searches around 0 instead of
        closing in on the exact margin: a fraction of the nodes where only the result counts."""
        return self._run(state, max_nodes, sign_only=True)[0]

    def _run(
        self, state: State, max_nodes: int | None, *, sign_only: bool
    ) -> tuple[int, tuple[int, int, int] | None]:
        if not isinstance(state, FlipWarsState) or state.game != self.game:
            raise ValueError("this solver was made for another game")
        if state.current_player == TERMINAL:
            raise ValueError("the game is over: there is nothing to solve")
        if state.phase != PLACING:
            raise ValueError(
                "between rounds there is no endgame to solve: choose the block and who starts"
            )
        budget = max_nodes if max_nodes is not None else self.max_nodes
        seat = state.current_player
        mine, theirs = (state.blue, state.red) if seat == 0 else (state.red, state.blue)
        s_me, s_opp = state.stock[seat], state.stock[1 - seat]
        board = _board(self.game, state.block)
        tt = self._tables.setdefault(state.block, {})
        return self._search(
            board, tt, mine, theirs, s_me, s_opp, state.flags, budget, sign_only=sign_only
        )

    # -- the search ---------------------------------------------------------------------------
    def _search(
        self,
        board: _Board,
        tt: dict[int, tuple[int, int, tuple[int, int, int] | None]],
        mine0: int,
        theirs0: int,
        s_me0: int,
        s_opp0: int,
        flags0: int,
        max_nodes: int | None,
        *,
        sign_only: bool = False,
    ) -> tuple[int, tuple[int, int, int] | None]:
        game = self.game
        free = board.free
        targets = board.targets
        reach = board.reach
        flag_mode = game.mode.flag
        flag_shift = 2 * FLAG
        n_kinds = len(KINDS)
        symmetries = board.symmetries
        chunk = board.chunk
        chunk_mask = (1 << chunk) - 1
        n2 = board.size * board.size
        limit = max_nodes if max_nodes is not None else -1
        fold_from = self.fold_symmetries_from
        table_limit = self.table_limit
        nodes = 0
        kinds_cache: dict[int, tuple[int, ...]] = {}
        mask_of = board.masks

        def kinds_of(stock: int) -> tuple[int, ...]:
            got = kinds_cache.get(stock)
            if got is None:
                if flag_mode and stock >> flag_shift & 3:
                    got = (FLAG,)
                else:
                    got = tuple(k for k in range(n_kinds) if stock >> (2 * k) & 3)
                kinds_cache[stock] = got
            return got

        def kinds_mask(stock: int) -> int:
            m = 0
            for k in kinds_of(stock):
                m |= 1 << k
            return m

        def transform(mask: int, tables: tuple[tuple[int, ...], ...]) -> int:
            out = 0
            shift = 0
            for table in tables:
                out |= table[(mask >> shift) & chunk_mask]
                shift += chunk
            return out

        def key_of(mine: int, theirs: int, s_me: int, s_opp: int, flags: int, empties: int) -> int:
            tail = (s_me << 20 | s_opp) << (3 * n2)
            best = mine | theirs << n2 | flags << (2 * n2)
            if empties >= fold_from:
                for tables in symmetries:
                    k = (
                        transform(mine, tables)
                        | transform(theirs, tables) << n2
                        | transform(flags, tables) << (2 * n2)
                    )
                    if k < best:
                        best = k
            return best | tail

        def value_of(mask: int, flags: int) -> int:
            return mask.bit_count() + (mask & flags).bit_count()

        # The moves' shapes (cells, tiles and what they hit) depend on which cells are taken
        # and on the supplies, not on colours: computed once per (occupied cells, supplies).
        pair_shapes: dict[
            tuple[int, int, int],
            list[tuple[int, list[tuple[int, int]], int, list[tuple[int, int, int]]]],
        ] = {}
        move_shapes: dict[tuple[int, int, int], list[tuple[int, int, int, int, int, int]]] = {}

        def pair_shape(
            occupied: int, s_me: int, s_opp: int, cells: list[int], flags: int
        ) -> list[tuple[int, list[tuple[int, int]], int, list[tuple[int, int, int]]]]:
            """For each of two empty cells: its bit, the opponent's distinct replies on the
            other cell (hit, placed), the least any reply gains, and the mover's distinct
            placements here (placed, hit, kind)."""
            key = (occupied, s_me, s_opp)
            shape = pair_shapes.get(key)
            if shape is None:
                shape = []
                for here, there in ((cells[0], cells[1]), (cells[1], cells[0])):
                    bit = 1 << here
                    after = occupied | bit
                    replies: list[tuple[int, int]] = []
                    least = -INF
                    for kind in kinds_of(s_opp):
                        placed = 2 if kind == FLAG else 1
                        for mask, _ in targets[there][kind]:
                            option = (mask & after, placed)
                            if option not in replies:
                                replies.append(option)
                                h = option[0]
                                # Even flipping only its own tiles (a flag double) gains this.
                                gain = placed - 2 * (
                                    h.bit_count() + (h & (flags | bit)).bit_count()
                                )
                                if gain > least:
                                    least = gain
                    options: list[tuple[int, int, int]] = []
                    for kind in kinds_of(s_me):
                        placed = 2 if kind == FLAG else 1
                        for mask, _ in targets[here][kind]:
                            option3 = (placed, mask & occupied, kind)
                            if option3 not in options:
                                options.append(option3)
                    shape.append((bit, replies, least, options))
                if len(pair_shapes) > SHAPE_LIMIT:
                    pair_shapes.clear()
                pair_shapes[key] = shape
            return shape

        def two_left(
            mine: int,
            theirs: int,
            s_me: int,
            s_opp: int,
            flags: int,
            cells: list[int],
            margin: int,
            alpha: int,
            beta: int,
        ) -> int:
            """Two empty cells: the mover fills one, the opponent's best reply fills the other.
            Alpha-beta over the two plies: the mover's placements by immediate gain, stopping
            once even the opponent's least useful reply would hold them to the bound; the reply
            that refuted the last placement is tried first."""
            best = -INF
            for bit, replies, least, shapes in pair_shape(mine | theirs, s_me, s_opp, cells, flags):
                options = []
                for placed, hit, kind in shapes:
                    won = hit & theirs
                    lost = hit & mine
                    gain = placed + 2 * (won.bit_count() - lost.bit_count())
                    if flags:
                        gain += 2 * ((won & flags).bit_count() - (lost & flags).bit_count())
                    options.append((gain, hit, kind))
                options.sort(reverse=True)
                for gain, hit, kind in options:
                    base = margin + gain
                    floor = alpha if alpha > best else best
                    if base - least <= floor:
                        # Neither this placement nor a lesser one can beat the bound.
                        if base - least > best:
                            best = base - least  # still an upper bound for fail-soft
                        break
                    new_flags = flags | bit if kind == FLAG else flags
                    new_mine = (mine & ~hit) | (theirs & hit) | bit
                    new_theirs = (theirs & ~hit) | (mine & hit)
                    worst = -INF  # the opponent's best reply so far
                    for i, (h, p) in enumerate(replies):
                        taken = h & new_mine
                        given = h & new_theirs
                        r = p + 2 * (taken.bit_count() - given.bit_count())
                        if new_flags:
                            r += 2 * (
                                (taken & new_flags).bit_count() - (given & new_flags).bit_count()
                            )
                        if r > worst:
                            worst = r
                            if base - r <= floor:
                                if i:  # refuted: try this reply first next time
                                    replies.insert(0, replies.pop(i))
                                break
                    v = base - worst
                    if v > best:
                        best = v
                        if best >= beta:
                            return best
            return best

        def moves_of(
            mine: int, theirs: int, s_me: int, s_opp: int, flags: int, cells: list[int]
        ) -> list[tuple[int, int, int, int, int, int]]:
            """(order key, cell, kind, flipped mask, combo, gain), one per distinct effect, best
            first: gain (twice the tiles won net of those lost, plus the tile placed), then how
            few of the empty cells the opponent's remaining tiles could attack the new tile from."""
            occupied = mine | theirs
            key = (occupied, s_me, s_opp)
            shapes = move_shapes.get(key)
            if shapes is None:
                empty = free & ~occupied
                opp_reach = reach(kinds_mask(s_opp))
                shapes = []
                for cell in cells:
                    exposure = (opp_reach[cell] & empty).bit_count()
                    per_kind = targets[cell]
                    for kind in kinds_of(s_me):
                        placed = 2 if kind == FLAG else 1
                        seen: list[int] = []
                        for mask, combo in per_kind[kind]:
                            hit = mask & occupied
                            if hit not in seen:
                                seen.append(hit)
                                shapes.append((placed, exposure, cell, kind, hit, combo))
                if len(move_shapes) > SHAPE_LIMIT:
                    move_shapes.clear()
                move_shapes[key] = shapes
            moves = []
            for placed, exposure, cell, kind, hit, combo in shapes:
                won = hit & theirs
                lost = hit & mine
                gain = placed + 2 * (won.bit_count() - lost.bit_count())
                if flags:
                    gain += 2 * ((won & flags).bit_count() - (lost & flags).bit_count())
                moves.append((4 * gain - exposure, cell, kind, hit, combo, gain))
            moves.sort(reverse=True)
            return moves

        def child_value(
            mine: int,
            theirs: int,
            s_me: int,
            s_opp: int,
            flags: int,
            cells: list[int],
            margin: int,
            move: tuple[int, int, int, int, int, int],
            alpha: int,
            beta: int,
        ) -> int:
            """The value of ``move`` for the mover, searched in the window (alpha, beta)."""
            _o, cell, kind, hit, _c, gain = move
            bit = 1 << cell
            new_mine = (mine & ~hit) | (theirs & hit) | bit
            new_theirs = (theirs & ~hit) | (mine & hit)
            new_flags = flags | bit if kind == FLAG else flags
            rest = [c for c in cells if c != cell]
            after = margin + gain
            if not rest:
                return after
            new_stock = s_me - (1 << (2 * kind))
            if len(rest) == 2:
                return -two_left(
                    new_theirs, new_mine, s_opp, new_stock, new_flags, rest, -after, -beta, -alpha
                )
            return -negamax(
                new_theirs, new_mine, s_opp, new_stock, new_flags, rest, -after, -beta, -alpha
            )

        def negamax(
            mine: int,
            theirs: int,
            s_me: int,
            s_opp: int,
            flags: int,
            cells: list[int],
            margin: int,
            alpha: int,
            beta: int,
        ) -> int:
            """Three or more empty cells: alpha-beta with the table and a null window."""
            nonlocal nodes
            nodes += 1
            if nodes == limit:
                raise EndgameLimitExceeded(f"the endgame needs more than {limit} nodes")
            key = key_of(mine, theirs, s_me, s_opp, flags, len(cells))
            entry = tt.get(key)
            tt_move = None
            lower, upper = -INF, INF
            if entry is not None:
                lower, upper, tt_move = entry
                if lower >= beta:
                    return lower
                if upper <= alpha:
                    return upper
                if lower == upper:
                    return lower
                if lower > alpha:
                    alpha = lower
                if upper < beta:
                    beta = upper
            alpha0, beta0 = alpha, beta
            kinds = kinds_of(s_me)
            best = -INF
            best_move = None
            tried = None
            if tt_move is not None:
                # The table's best move first, before generating the others.
                cell, kind, combo = tt_move
                if kind in kinds and not (mine | theirs) >> cell & 1:
                    hit = mask_of[cell][combo] & (mine | theirs)
                    won = hit & theirs
                    lost = hit & mine
                    gain = (2 if kind == FLAG else 1) + 2 * (
                        won.bit_count()
                        + (won & flags).bit_count()
                        - lost.bit_count()
                        - (lost & flags).bit_count()
                    )
                    tried = (0, cell, kind, hit, combo, gain)
                    best = child_value(
                        mine, theirs, s_me, s_opp, flags, cells, margin, tried, alpha, beta
                    )
                    best_move = tt_move
                    if best > alpha:
                        alpha = best
            if best < beta:
                first = tried is None
                for move in moves_of(mine, theirs, s_me, s_opp, flags, cells):
                    if (
                        tried is not None
                        and move[1] == tried[1]
                        and move[2] == tried[2]
                        and move[3] == tried[3]
                    ):
                        continue
                    if first:
                        v = child_value(
                            mine, theirs, s_me, s_opp, flags, cells, margin, move, alpha, beta
                        )
                        first = False
                    else:
                        v = child_value(
                            mine, theirs, s_me, s_opp, flags, cells, margin, move, alpha, alpha + 1
                        )
                        if alpha < v < beta:
                            v = child_value(
                                mine, theirs, s_me, s_opp, flags, cells, margin, move, v, beta
                            )
                    if v > best:
                        best = v
                        best_move = (move[1], move[2], move[4])
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
            if best <= alpha0:
                upper = min(upper, best)
            elif best >= beta0:
                lower = max(lower, best)
            else:
                lower = upper = best
            if len(tt) > table_limit:
                tt.clear()  # losing bounds costs time, never correctness
            tt[key] = (lower, upper, best_move)
            return best

        def next_beta(lower: int, upper: int, guess: int) -> int | None:
            """The next null window's upper edge, None once the wanted value is settled: the
            exact value (MTD(f): from the last pass's value), or only its sign (windows at 0
            and 1, the first picked by the current margin's sign)."""
            if not sign_only:
                if lower >= upper:
                    return None
                return guess + 1 if guess == lower else guess
            if lower >= 1 or upper <= -1 or lower == upper == 0:
                return None
            if lower >= 0:
                return 1  # not lost: is it won?
            if upper <= 0:
                return 0  # not won: is it lost?
            return 1 if margin0 > 0 else 0

        # The root: MTD(f), null-window searches that close in on the value from a first
        # guess (the current margin), each naming a move when it proves a lower bound.
        occupied = mine0 | theirs0
        cells0 = _bits(free & ~occupied)
        if not cells0:
            raise ValueError("the round is over: there is nothing to solve")
        margin0 = value_of(mine0, flags0) - value_of(theirs0, flags0)
        root_moves = moves_of(mine0, theirs0, s_me0, s_opp0, flags0, cells0)
        lower, upper = -INF, INF
        guess = margin0
        best_root: tuple[int, int, int] | None = None
        try:
            while (beta := next_beta(lower, upper, guess)) is not None:
                value = -INF
                for i, move in enumerate(root_moves):
                    v = child_value(
                        mine0, theirs0, s_me0, s_opp0, flags0, cells0, margin0, move, beta - 1, beta
                    )
                    if v > value:
                        value = v
                        if v >= beta:
                            root_moves.insert(0, root_moves.pop(i))  # first in the next pass
                            best_root = (move[1], move[2], move[4])
                            break
                if value < beta:
                    upper = value
                else:
                    lower = value
                guess = value
        finally:
            self.nodes += nodes
        if sign_only:
            return (lower > 0) - (upper < 0), best_root
        assert best_root is not None
        return lower, best_root


def solve_endgame(state: State, *, max_nodes: int | None = None) -> tuple[int, Action]:
    """The exact final margin of the current round for the side to move under perfect play
    (its points minus the opponent's, a flag counting 2), and a placement that achieves it.

    Raises ``EndgameLimitExceeded`` if more than ``max_nodes`` search nodes would be needed,
    and ``ValueError`` for a finished game, a position between rounds or another game's state.
    """
    if not isinstance(state, FlipWarsState):
        raise ValueError(f"expected a FlipWars state, got {state.game.ID}")
    return EndgameSolver(state.game).solve(state, max_nodes=max_nodes)
