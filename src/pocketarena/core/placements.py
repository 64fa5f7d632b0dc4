"""A lazy view of legal actions that form a grid in a game's action table.

Many games number their placements as ``first + row * stride + column``: a row per cell (or
space), a column per thing that can go there (a tile and rotation, a coin). When the same
columns are legal on every legal row, the legal actions are ``rows x columns`` and need not be
listed: :class:`Placements` answers ``len``, indexing and ``in`` in constant time and builds
nothing until asked (python-chess's ``legal_moves`` is such a view).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from .action import Action
from .game import normalize_notation

if TYPE_CHECKING:
    from .game import Game


class Placements(Sequence[Action]):
    """Every one of ``rows`` (in the order given) times every one of ``columns``: the actions
    ``game.actions[first + row * stride + column]``. Length, indexing and ``in`` are O(1);
    nothing is built until asked for.
    """

    __slots__ = ("_game", "_table", "_first", "_stride", "_rows", "_columns", "_n", "_len")

    def __init__(
        self,
        game: Game,
        rows: tuple[int, ...],
        columns: tuple[int, ...],
        stride: int,
        first: int = 0,
    ) -> None:
        self._game = game
        self._table = game.actions
        self._first = first
        self._stride = stride
        self._rows = rows
        self._columns = columns
        self._n = len(columns)
        self._len = len(rows) * self._n

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("legal action index out of range")
        q, r = divmod(i, self._n)
        return self._table[self._first + self._rows[q] * self._stride + self._columns[r]]

    def __iter__(self) -> Iterator[Action]:
        table, stride, columns = self._table, self._stride, self._columns
        for row in self._rows:
            base = self._first + row * stride
            for c in columns:
                yield table[base + c]

    def _id_of(self, item: object) -> int:
        """The id of ``item`` in this game's table if it is one of its actions (an Action or
        its canonical text), else -1."""
        table = self._table
        if isinstance(item, Action):
            aid = item.id
            if 0 <= aid < len(table) and table[aid].text == item.text:
                return aid
            return -1
        if isinstance(item, str):
            action = self._game._by_key.get(normalize_notation(item))
            if action is not None and action.text == item:
                return action.id
        return -1

    def _place_of(self, aid: int) -> tuple[int, int] | None:
        """(row, column) of action id ``aid`` when it is in this grid's part of the table."""
        rel = aid - self._first
        if rel < 0:
            return None
        row, column = divmod(rel, self._stride)
        return row, column

    def __contains__(self, item: object) -> bool:
        table = self._table
        if type(item) is Action and item.id < len(table) and table[item.id] is item:
            aid = item.id  # this game's own action: the common case, found without a lookup
        else:
            aid = self._id_of(item)
        rel = aid - self._first
        if aid < 0 or rel < 0:
            return False
        row, column = divmod(rel, self._stride)
        return row in self._rows and column in self._columns

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        if value in self:
            place = self._place_of(self._game.action(value).id)
            assert place is not None
            i = self._rows.index(place[0]) * self._n + self._columns.index(place[1])
            if start <= i and (stop is None or i < stop):
                return i
        raise ValueError(f"{value!r} is not a legal action here")

    def count(self, value: Any) -> int:
        return 1 if value in self else 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Placements):
            return (
                self._table is other._table
                and self._first == other._first
                and self._stride == other._stride
                and self._rows == other._rows
                and self._columns == other._columns
            )
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == self._len and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        return self._len > 0

    def __repr__(self) -> str:
        shown = ", ".join(a.text for a in self[:3])
        more = f", … ({self._len} in all)" if self._len > 3 else ""
        return f"<legal placements: {shown}{more}>"
