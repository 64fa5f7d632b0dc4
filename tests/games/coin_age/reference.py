"""A deliberately plain model of Coin Age written straight from SPEC.md, sharing no code with the
engine: strings, dicts and lists, slow and obvious. The differential test compares the two.

The classic map is copied from SPEC's text; the other maps are read from their JSON files with
nothing but ``json``.
"""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path

RANK = {"D": 1, "P": 2, "N": 3, "Q": 4}
ORDER = ["Q", "N", "P", "D"]
MY_SIDE = ["H", "T"]

CLASSIC_SPACES = [
    "mount-cragro", "hellag-dum", "stone-rock", "treewood", "grey-hills", "cedarville",
    "townsville", "goldfarme", "gentle-wood", "silver-city",
]  # fmt: skip
CLASSIC_REGIONS = [
    ["mount-cragro", "hellag-dum", "stone-rock"],
    ["treewood", "grey-hills", "cedarville"],
    ["townsville", "goldfarme"],
    ["gentle-wood", "silver-city"],
]
CLASSIC_ADJACENT = """hellag-dum–stone-rock, hellag-dum–grey-hills,
  hellag-dum–treewood, stone-rock–mount-cragro, stone-rock–treewood, stone-rock–cedarville,
  mount-cragro–cedarville, mount-cragro–townsville, grey-hills–treewood, treewood–cedarville,
  cedarville–townsville, gentle-wood–silver-city, gentle-wood–grey-hills, gentle-wood–treewood,
  silver-city–goldfarme, silver-city–treewood, silver-city–cedarville, goldfarme–cedarville,
  goldfarme–townsville"""

MAP_DIR = Path(__file__).parents[3] / "src" / "pocketarena" / "games" / "coin_age" / "maps"


class RefMap:
    def __init__(self, name: str) -> None:
        if name == "classic":
            self.spaces = list(CLASSIC_SPACES)
            self.regions = [list(r) for r in CLASSIC_REGIONS]
            pairs = [p.strip().split("–") for p in CLASSIC_ADJACENT.split(",")]
        else:
            data = json.loads((MAP_DIR / f"{name}.json").read_text())
            self.spaces = [s["id"] for s in data["spaces"]]
            self.regions = [
                [s["id"] for s in data["spaces"] if s["region"] == r["id"]] for r in data["regions"]
            ]
            pairs = data["adjacent"]
        self.adjacent = set()
        for a, b in pairs:
            self.adjacent.add((a, b))
            self.adjacent.add((b, a))


class RefState:
    def __init__(self, game_map: RefMap) -> None:
        self.map = game_map
        self.board: dict[str, list[tuple[int, str]]] = {s: [] for s in game_map.spaces}
        self.bank = [{"D": 4, "P": 3, "N": 2, "Q": 1}, {"D": 4, "P": 3, "N": 2, "Q": 1}]
        self.turn = 1
        self.mover = 0
        self.phase = "slap"  # "slap", "act" or "over"
        self.thrown: list[str] = []
        self.matching: list[str] = []
        self.used: list[str] = []
        self.placed = 0
        self.paid = False
        self.moved = False
        self.captured = False

    def clone(self) -> RefState:
        return copy.deepcopy(self)

    def current_player(self) -> int:
        return {"slap": -1, "over": -4}.get(self.phase, self.mover)

    # -- chance --------------------------------------------------------------------------
    def chance_outcomes(self) -> dict[str, float]:
        if self.phase != "slap":
            return {}
        coins = [c for c in ORDER if self.bank[self.mover][c] > 0]
        out = {}
        for faces in itertools.product("HT", repeat=len(coins)):
            text = " ".join(["slap"] + [f"{c}:{f}" for c, f in zip(coins, faces, strict=True)])
            out[text] = 1 / 2 ** len(coins)
        return out

    # -- decisions -----------------------------------------------------------------------
    def place_limit(self) -> int:
        m = len(self.matching)
        base = 2 if m >= 2 else (1 if m == 1 else 0)
        return base + (1 if self.paid else 0)

    def legal(self) -> list[str]:
        if self.phase != "act":
            return []
        m = len(self.matching)
        free = [c for c in self.matching if c not in self.used]
        out = ["end"]
        if self.placed < self.place_limit():
            for c in free:
                for s in self.map.spaces:
                    stack = self.board[s]
                    if not stack or RANK[stack[-1][1]] > RANK[c]:
                        out.append(f"place {c} {s}")
        if m == 4 and not self.paid:
            for c in free:
                out.append(f"pay {c}")
        if m <= 1 and not self.moved:
            for a, b in self.map.adjacent:
                if self.board[a] and not self.board[b]:
                    out.append(f"move {a} {b}")
        if m == 0 and not self.captured:
            for s in self.map.spaces:
                if self.board[s]:
                    out.append(f"capture {s}")
        return out

    def apply(self, text: str) -> None:
        if self.phase == "slap":
            assert text in self.chance_outcomes(), text
            self.thrown = []
            self.matching = []
            for word in text.split()[1:]:
                coin, face = word.split(":")
                self.thrown.append(coin)
                if face == MY_SIDE[self.mover]:
                    self.matching.append(coin)
            self.used = []
            self.placed = 0
            self.paid = self.moved = self.captured = False
            self.phase = "act"
            self.maybe_end_turn()
            return
        assert text in self.legal(), text
        words = text.split()
        me = self.mover
        if words[0] == "end":
            self.end_turn()
            return
        if words[0] == "place":
            coin, space = words[1], words[2]
            self.board[space].append((me, coin))
            self.bank[me][coin] -= 1
            self.used.append(coin)
            self.placed += 1
            if all(self.board[s] for s in self.map.spaces) or sum(self.bank[me].values()) == 0:
                self.phase = "over"
                return
        elif words[0] == "pay":
            coin = words[1]
            self.bank[me][coin] -= 1
            self.bank[1 - me][coin] += 1
            self.used.append(coin)
            self.paid = True
            if sum(self.bank[me].values()) == 0:
                self.phase = "over"
                return
        elif words[0] == "move":
            a, b = words[1], words[2]
            self.board[b] = self.board[a]
            self.board[a] = []
            self.moved = True
        elif words[0] == "capture":
            owner, coin = self.board[words[1]].pop()
            self.bank[me][coin] += 1
            self.captured = True
        self.maybe_end_turn()

    def maybe_end_turn(self) -> None:
        if self.legal() == ["end"]:
            self.end_turn()

    def end_turn(self) -> None:
        if self.turn == 200:
            self.phase = "over"
            return
        self.turn += 1
        self.mover = 1 - self.mover
        self.phase = "slap"

    # -- the end -------------------------------------------------------------------------
    def scores(self) -> list[int]:
        total = [sum(self.bank[0].values()), sum(self.bank[1].values())]
        for region in self.map.regions:
            pts = [0, 0]
            count = [0, 0]
            for s in region:
                if self.board[s]:
                    owner, coin = self.board[s][-1]
                    pts[owner] += RANK[coin]
                    count[owner] += 1
            for p in (0, 1):
                if count[p] > count[1 - p]:
                    pts[p] *= 2
                total[p] += pts[p]
        return total

    def winner(self) -> int | None:
        if self.phase != "over":
            return None
        a, b = self.scores()
        if a == b:
            a = sum(RANK[c] * n for c, n in self.bank[0].items())
            b = sum(RANK[c] * n for c, n in self.bank[1].items())
        if a == b:
            return None
        return 0 if a > b else 1


def perft(state: RefState, depth: int) -> int:
    if depth == 0 or state.phase == "over":
        return 1
    moves = list(state.chance_outcomes()) if state.phase == "slap" else state.legal()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = state.clone()
        child.apply(move)
        total += perft(child, depth - 1)
    return total
