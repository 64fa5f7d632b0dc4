"""A deliberately plain model of Stack-a-Cash, written from SPEC.md alone (no engine code).

Coins are objects with a size and a face, stacks are lists bottom to top, the protected coin
is tracked by identity. Slow and obvious on purpose: the engine is checked against it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FILES = "abc"
RANKS = "123"
SQUARES = [f + r for r in RANKS for f in FILES]
# Physical size: bigger number, bigger coin.
SIZE_OF = {"L": 3, "M": 2, "S": 1}
LINES = (
    [[f + r for f in FILES] for r in RANKS]
    + [[f + r for r in RANKS] for f in FILES]
    + [["a1", "b2", "c3"], ["c1", "b2", "a3"]]
)


@dataclass
class Coin:
    name: str  # L, M or S
    face: str  # "H" or "T"


@dataclass
class RefState:
    protect: str
    stacks: dict[str, list[Coin]] = field(default_factory=lambda: {sq: [] for sq in SQUARES})
    supply: list[str] = field(default_factory=lambda: ["L", "L", "M", "M", "S", "S"])
    to_move: str = "H"  # H = Heads = seat 0
    protected: Coin | None = None
    plies: int = 0
    history: list[tuple[object, ...]] = field(default_factory=list)
    result: str | None = None  # "H", "T" or "draw" once over

    def copy(self) -> RefState:
        # Rebuild coin objects but keep which one is protected.
        clone = RefState(self.protect)
        clone.supply = list(self.supply)
        clone.to_move = self.to_move
        clone.plies = self.plies
        clone.history = list(self.history)
        clone.result = self.result
        for sq, stack in self.stacks.items():
            clone.stacks[sq] = []
            for coin in stack:
                twin = Coin(coin.name, coin.face)
                clone.stacks[sq].append(twin)
                if coin is self.protected:
                    clone.protected = twin
        return clone

    def top(self, sq: str) -> Coin | None:
        return self.stacks[sq][-1] if self.stacks[sq] else None

    def fits(self, coin_name: str, sq: str) -> bool:
        top = self.top(sq)
        return top is None or SIZE_OF[top.name] > SIZE_OF[coin_name]

    def legal(self) -> set[str]:
        if self.result is not None:
            return set()
        out: set[str] = set()
        for name in sorted(set(self.supply)):
            for sq in SQUARES:
                if self.fits(name, sq):
                    out.add(f"place {name} {sq}")
        for sq in SQUARES:
            coin = self.top(sq)
            if coin is None or coin is self.protected:
                continue
            out.add(f"flip {sq}")
            for to in SQUARES:
                if to != sq and self.fits(coin.name, to):
                    out.add(f"move {sq} {to}")
                    out.add(f"move {sq} {to} flip")
        return out

    def signature(self) -> tuple[object, ...]:
        board = tuple(tuple((c.name, c.face) for c in self.stacks[sq]) for sq in SQUARES)
        where = None
        for sq in SQUARES:
            if self.stacks[sq] and self.stacks[sq][-1] is self.protected:
                where = sq
        return (board, self.to_move, where)

    def has_line(self, face: str) -> bool:
        for line in LINES:
            tops = [self.top(sq) for sq in line]
            if all(t is not None and t.face == face for t in tops):
                return True
        return False

    def play(self, text: str) -> RefState:
        assert text in self.legal(), text
        nxt = self.copy()
        words = text.split()
        mover = nxt.to_move
        touched: Coin
        if words[0] == "place":
            nxt.supply.remove(words[1])
            touched = Coin(words[1], mover)
            nxt.stacks[words[2]].append(touched)
        elif words[0] == "flip":
            touched = nxt.stacks[words[1]][-1]
            touched.face = "T" if touched.face == "H" else "H"
        else:
            touched = nxt.stacks[words[1]].pop()
            if len(words) == 4:
                touched.face = "T" if touched.face == "H" else "H"
            nxt.stacks[words[2]].append(touched)
        if self.protect == "touched" or words[0] == "place":
            nxt.protected = touched
        else:
            nxt.protected = None
        nxt.plies += 1
        other = "T" if mover == "H" else "H"
        nxt.to_move = other
        if nxt.has_line(other):
            nxt.result = other
        elif nxt.has_line(mover):
            nxt.result = mover
        else:
            # Every position since the start counts, as the rule is worded.
            sig = nxt.signature()
            nxt.history = [*self.history, sig]
            if nxt.history.count(sig) >= 3 or nxt.plies >= 200:
                nxt.result = "draw"
        return nxt

    @classmethod
    def initial(cls, protect: str) -> RefState:
        state = cls(protect)
        state.history = [state.signature()]
        return state

    def winner(self) -> int | None:
        return {"H": 0, "T": 1}.get(self.result or "")


def perft(state: RefState, depth: int) -> int:
    if depth == 0 or state.result is not None:
        return 1
    moves = state.legal()
    if depth == 1:
        return len(moves)
    return sum(perft(state.play(m), depth - 1) for m in moves)
