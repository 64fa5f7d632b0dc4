"""A deliberately plain, slow model of Wallet Battles written straight from SPEC.md.

It shares no code with the engine: locations are typed in again from SPEC, the board is a dict
of location -> {"owner", "coins"}, what is owed is an explicit queue, probabilities are exact
fractions, and the end test runs literally after every action. The differential test plays it
side by side with the engine.
"""

from __future__ import annotations

import copy
from fractions import Fraction

# SPEC.md, Wallet Battles: location ids in order, for each side of the card.
LOCATIONS = {
    "gettysburg": [
        "mcpherson-ridge",
        "seminary-ridge",
        "cemetery-hill",
        "culps-hill",
        "cemetery-ridge",
        "peach-orchard",
        "wheatfield",
        "devils-den",
        "little-round-top",
    ],
    "antietam": [
        "north-woods",
        "cornfield",
        "west-woods",
        "dunker-church",
        "sunken-road",
        "burnside-bridge",
        "sharpsburg",
    ],
}
SIZE = {"Q": 4, "N": 3, "P": 2, "D": 1}  # physical size: Q > N > P > D
GUARD = 500


class Reference:
    def __init__(
        self,
        map_name: str = "gettysburg",
        coins: dict[str, int] | None = None,
        end: str = "occupied",
    ) -> None:
        coins = coins or {"Q": 6, "N": 6, "P": 6, "D": 6}
        self.locations = list(LOCATIONS[map_name])
        self.board: dict[str, dict | None] = {loc: None for loc in self.locations}
        # SPEC's option end: "occupied" (every location occupied at once) or "used" (every
        # location has held a coin at some time in the game).
        self.end = end
        self.ever_held: set[str] = set()
        self.piles = [dict(coins), dict(coins)]
        self.flips = 0
        self.odd_in_a_row = 0
        self.owed: list[tuple[str, int]] = []  # ("act" | "recall", seat), first is next
        self.over = False

    def clone(self) -> Reference:
        return copy.deepcopy(self)

    # -- who moves ---------------------------------------------------------------------
    def to_move(self) -> str | int:
        if self.over:
            return "over"
        if not self.owed:
            return "chance"
        return self.owed[0][1]

    def chance_outcomes(self) -> dict[str, Fraction]:
        if self.to_move() != "chance":
            return {}
        return {"flip HH": Fraction(1, 4), "flip TT": Fraction(1, 4), "flip odd": Fraction(1, 2)}

    def coins_on_map(self, seat: int) -> bool:
        return any(s is not None and s["owner"] == seat for s in self.board.values())

    def legal(self) -> set[str]:
        who = self.to_move()
        if not isinstance(who, int):
            return set()
        kind, seat = self.owed[0]
        out: set[str] = set()
        if kind == "recall":
            for loc, s in self.board.items():
                if s is not None and s["owner"] == seat:
                    out.add(f"recall {loc}")
            return out
        out.add("pass")
        for loc, s in self.board.items():
            for coin, n in self.piles[seat].items():
                if n == 0:
                    continue
                if s is None or (s["owner"] == seat and SIZE[s["coins"][-1]] > SIZE[coin]):
                    out.add(f"place {coin} {loc}")
            if s is not None and s["owner"] != seat:
                out.add(f"capture {loc}")
        return out

    # -- doing -------------------------------------------------------------------------
    def apply(self, text: str) -> None:
        words = text.split()
        if self.to_move() == "chance":
            assert text in self.chance_outcomes(), text
            self.flips += 1
            if words[1] == "odd":
                self.odd_in_a_row += 1
                if self.odd_in_a_row == 3:
                    self.odd_in_a_row = 0
                    for seat in (0, 1):
                        if self.coins_on_map(seat):
                            self.owed.append(("recall", seat))
            else:
                self.odd_in_a_row = 0
                self.owed.append(("act", 0 if words[1] == "HH" else 1))
            self._guard()
            return
        assert text in self.legal(), text
        _, seat = self.owed.pop(0)
        if words[0] == "place":
            coin, loc = words[1], words[2]
            self.piles[seat][coin] -= 1
            if self.board[loc] is None:
                self.board[loc] = {"owner": seat, "coins": []}
            self.board[loc]["coins"].append(coin)
            self.ever_held.add(loc)
        elif words[0] in ("capture", "recall"):
            loc = words[1]
            stack = self.board[loc]
            coin = stack["coins"].pop()
            self.piles[seat][coin] += 1
            if not stack["coins"]:
                self.board[loc] = None
        # The end test, literally after every action.
        if self.end == "used":
            full = set(self.locations) <= self.ever_held
        else:
            full = all(s is not None for s in self.board.values())
        if full or sum(self.piles[0].values()) == 0 or sum(self.piles[1].values()) == 0:
            self.over = True
            return
        self._guard()

    def _guard(self) -> None:
        if self.flips >= GUARD and not self.owed:
            self.over = True

    # -- result ------------------------------------------------------------------------
    def scores(self) -> tuple[int, int]:
        out = [sum(self.piles[0].values()), sum(self.piles[1].values())]
        for s in self.board.values():
            if s is None:
                continue
            n = len(s["coins"])
            out[s["owner"]] += 2 + (2 * n if n >= 3 else n)
        return (out[0], out[1])

    def winner(self) -> int | None:
        if not self.over:
            return None
        a, b = self.scores()
        return 0 if a > b else 1 if b > a else None


def reference_perft(state: Reference, depth: int) -> int:
    if depth == 0 or state.over:
        return 1
    moves = list(state.chance_outcomes()) or sorted(state.legal())
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = state.clone()
        child.apply(move)
        total += reference_perft(child, depth - 1)
    return total
