"""A deliberately simple, slow model of FlipWars written straight from SPEC.md, sharing no code
with the engine: a dict board keyed by cell name, notation built and parsed by hand, the
attack patterns typed in again from SPEC's table. The differential test plays it in lockstep
with the engine.
"""

from __future__ import annotations

# SPEC: attack offsets (file, rank) in printed orientation r0.
SPEC_OFFSETS: dict[str, list[tuple[int, int]]] = {
    "tank": [(-2, 0), (-1, 0), (1, 0), (2, 0)],
    "rocket": [(0, 1), (0, -1), (-1, 0), (1, 0)],
    "grenade": [(-1, 0), (-1, 1), (-1, -1)],
    "paratrooper": [(-1, 1), (0, 1), (-1, 0)],
    "sniper": [(-2, 0)],
    "foxhole": [(-1, 0), (-2, 0), (-3, 0)],
    "twin": [(-1, 1), (1, 1), (-1, -1), (1, -1)],
    "trex": [(-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (0, -1), (1, -1)],
    "flag": [],
}
EIGHT = ["tank", "rocket", "grenade", "paratrooper", "sniper", "foxhole", "twin", "trex"]
COLOUR = ["blue", "red"]


def turned(kind: str, degrees: int) -> set[tuple[int, int]]:
    """SPEC: clockwise, (x, y) -> (y, -x) per quarter turn."""
    out = set()
    for x, y in SPEC_OFFSETS[kind]:
        for _ in range(degrees // 90):
            x, y = y, -x
        out.add((x, y))
    return out


def _distinct_rotations(kind: str) -> list[int]:
    """Rotations that differ in effect, each by its smallest angle."""
    seen: list[set[tuple[int, int]]] = []
    keep = []
    for degrees in (0, 90, 180, 270):
        effect = turned(kind, degrees)
        if effect not in seen:
            seen.append(effect)
            keep.append(degrees)
    return keep


ROTATIONS = {kind: _distinct_rotations(kind) for kind in SPEC_OFFSETS}


class Reference:
    def __init__(self, mode: str = "standard", series: bool = True) -> None:
        self.mode = mode
        self.size = 4 if mode == "enclosed" else 5
        self.series = mode == "tactical" and series
        self.files = "abcde"[: self.size]
        self.cells = [f + str(r) for r in range(1, self.size + 1) for f in self.files]
        self.round_wins = [0, 0]
        self.rounds_played = 0
        self.over = False
        self.new_round(block="c3" if mode == "tactical" else None, first=0)

    def new_round(self, block: str | None, first: int) -> None:
        copies = 1 if self.mode == "enclosed" else 2
        self.supply = [{k: copies for k in EIGHT} for _ in range(2)]
        if self.mode == "flag":
            for s in self.supply:
                s["flag"] = 1
        self.board: dict[str, list[str]] = {}  # cell -> [kind, colour]
        self.block = block
        self.first = first
        self.to_move = first
        self.phase = "place"

    def empties(self) -> list[str]:
        return [c for c in self.cells if c not in self.board and c != self.block]

    def placeable(self, seat: int) -> list[str]:
        if self.supply[seat].get("flag", 0) > 0:
            return ["flag"]
        return [k for k in EIGHT if self.supply[seat][k] > 0]

    def legal(self) -> set[str]:
        if self.over:
            return set()
        if self.phase == "block":
            return {"block " + c for c in self.cells}
        if self.phase == "first":
            return {"first blue", "first red"}
        return {
            f"place {k} {c} r{d}"
            for c in self.empties()
            for k in self.placeable(self.to_move)
            for d in ROTATIONS[k]
        }

    def attacked(self, kind: str, cell: str, degrees: int) -> list[str]:
        f = self.files.index(cell[0])
        r = int(cell[1:]) - 1
        out = []
        for dx, dy in turned(kind, degrees):
            x, y = f + dx, r + dy
            if 0 <= x < self.size and 0 <= y < self.size:
                out.append(self.files[x] + str(y + 1))
        return out

    def apply(self, text: str) -> None:
        assert text in self.legal(), f"reference: {text} is not legal"
        words = text.split()
        if words[0] == "block":
            self.new_round(block=words[1], first=self.to_move)
            self.phase = "first"
            return
        if words[0] == "first":
            self.first = self.to_move = COLOUR.index(words[1])
            self.phase = "place"
            return
        _, kind, cell, rot = words
        me = self.to_move
        self.board[cell] = [kind, COLOUR[me]]
        self.supply[me][kind] -= 1
        for target in self.attacked(kind, cell, int(rot[1:])):
            if target in self.board and target != self.block:
                tile = self.board[target]
                tile[1] = "red" if tile[1] == "blue" else "blue"
        if self.empties():
            self.to_move = 1 - me
            return
        # The round is over.
        if not self.series:
            self.over = True
            return
        b, r = self.round_score()
        self.rounds_played += 1
        if b != r:
            winner = 0 if b > r else 1
            self.round_wins[winner] += 1
            chooser = 1 - winner
        else:
            chooser = 1 - self.first  # the player who moved second
        if max(self.round_wins) >= 3 or self.rounds_played >= 9:
            self.over = True
            return
        self.phase = "block"
        self.to_move = chooser

    def round_score(self) -> tuple[int, int]:
        score = {"blue": 0, "red": 0}
        for kind, colour in self.board.values():
            score[colour] += 2 if kind == "flag" else 1
        return score["blue"], score["red"]

    def scores(self) -> tuple[int, int]:
        if self.series:
            return self.round_wins[0], self.round_wins[1]
        return self.round_score()

    def current_player(self) -> int:
        return -4 if self.over else self.to_move

    def winner(self) -> int | None:
        if not self.over:
            return None
        a, b = self.scores()
        return 0 if a > b else 1 if b > a else None

    def colours(self) -> dict[str, str]:
        return {cell: tile[1] for cell, tile in self.board.items()}
