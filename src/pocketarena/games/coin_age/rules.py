"""Coin Age's rules (docs/rules/coin-age.md gives every ruling and why).

A turn is a chance node (the slap) followed by the mover's decisions. Coins are small ints,
``owner * 4 + kind`` with kind 0..3 = D P N Q, so the rank of a coin is ``(coin & 3) + 1`` and
its owner ``coin >> 2``; a space's stack is a tuple of coins, bottom first, shared between
copies of a state because it is never mutated in place.
"""

from __future__ import annotations

import difflib
import itertools
import random
from collections.abc import Iterable, Mapping
from typing import Any

from pocketarena.core import (
    Action,
    Game,
    Message,
    Option,
    State,
    comma_list,
    message,
    normalize_notation,
    seat_name,
    seat_of,
)
from pocketarena.core.state import CHANCE, TERMINAL

from .atlas import MAP_NAMES, CoinAgeMap, load_map

COINS = "DPNQ"  # kind index -> letter; rank = index + 1
SLAP_ORDER = (3, 2, 1, 0)  # notation lists thrown coins as Q N P D
COIN_NAMES = ("dime", "penny", "nickel", "quarter")
START_BANK = (4, 3, 2, 1)  # D P N Q
SIDES = ("H", "T")  # seat 0 plays Heads, seat 1 Tails
SIDE_NAMES = ("heads", "tails")
MAX_TURNS = 200
# Per number of matches: places, pays, moves, captures the slap allows.
ALLOWANCE = ((0, 0, 1, 1), (1, 0, 1, 0), (2, 0, 0, 0), (2, 0, 0, 0), (2, 1, 0, 0))
_POPCOUNT = tuple(bin(mask).count("1") for mask in range(16))

# Verb codes for the per-action dispatch table.
_PLACE, _PAY, _MOVE, _CAPTURE, _END, _SLAP = range(6)


def allowance_text(matches: int) -> str:
    """What a slap with ``matches`` matching coins lets the mover do, in words."""
    return (
        "capture 1 and move 1",
        "place 1 and move 1",
        "place up to 2",
        "place up to 2",
        "place up to 2, and pay 1 to place a third",
    )[matches]


def allowance_words(matches: int) -> Message:
    """``allowance_text`` as a message, worded in the reader's language."""
    return message(f"coin-age.allows.{matches}")


def coin_word(kind: int) -> Message:
    """ "quarter", "nickel", "penny" or "dime" (kind 3..0), in the reader's language."""
    return message(f"coin-age.coin.{COIN_NAMES[kind]}")


def coin_text(coin: int) -> str:
    """``Q:H`` for a heads quarter: the coin letter and the side it shows."""
    return f"{COINS[coin & 3]}:{SIDES[coin >> 2]}"


class CoinAge(Game):
    """Coin Age on one of four maps; ``map="random"`` picks one from ``seed``."""

    ID = "coin-age"
    TITLE = "Coin Age"
    SEATS = ("Heads", "Tails")
    CHANCE = True
    GUARD_COUNTERS = ("turn",)  # the turn counter only ends the game at MAX_TURNS
    PITCH = (
        "Slap your coins, then place, stack, move and capture to rule the regions of a tiny map."
    )
    OPTIONS = (
        Option(
            "map",
            str,
            "classic",
            "which map card: one of the four printed maps, or a random one",
            choices=(*MAP_NAMES, "random"),
            label="Map",
            choice_labels=(
                *((name, load_map(name).title) for name in MAP_NAMES),
                ("random", "A random map"),
            ),
        ),
        Option(
            "seed",
            int,
            None,
            "only for a random map: the same number always gives the same map; left empty, "
            "one is drawn and kept with the game",
            nullable=True,
            label="Random map number",
            applies_when=("map", ("random",)),
        ),
    )
    VARIANTS = tuple({"map": name} for name in MAP_NAMES)

    map: CoinAgeMap

    @classmethod
    def needs_seed(cls, options: Mapping[str, Any]) -> bool:
        return options["map"] == "random" and options["seed"] is None

    def _resolve(self, options: dict[str, Any]) -> dict[str, Any]:
        if options["map"] == "random":
            if options["seed"] is None:
                raise ValueError(
                    "coin-age option map=random picks the map from the seed: give seed=N too "
                    "(any whole number; the same seed picks the same map)"
                )
            # The options keep the seed and the map it picked, so the game replays exactly.
            options["map"] = random.Random(options["seed"]).choice(MAP_NAMES)
        return options

    def _build_actions(self) -> tuple[list[Action], list[Action]]:
        self.map = game_map = load_map(self.options["map"])
        ids = game_map.space_ids
        self.num_spaces = len(ids)
        index = {s: i for i, s in enumerate(ids)}
        decisions: list[Action] = []
        verb: list[int] = []
        arg_a: list[int] = []
        arg_b: list[int] = []

        def add(text: str, name: str, args: tuple[Any, ...], code: int, a: int, b: int) -> Action:
            action = Action(len(decisions), text, name, args)
            decisions.append(action)
            verb.append(code)
            arg_a.append(a)
            arg_b.append(b)
            return action

        place: list[list[Action]] = [[], [], [], []]
        for k in SLAP_ORDER:
            for s, sid in enumerate(ids):
                place[k].append(
                    add(f"place {COINS[k]} {sid}", "place", (COINS[k], sid), _PLACE, k, s)
                )
        pay_by_kind = {
            k: add(f"pay {COINS[k]}", "pay", (COINS[k],), _PAY, k, 0) for k in SLAP_ORDER
        }
        pay = [pay_by_kind[k] for k in range(4)]
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(index[t] for t in game_map.neighbours(sid)) for sid in ids
        )
        moves: list[tuple[int, int, Action]] = []
        self.move_action: dict[tuple[int, int], Action] = {}
        for s, sid in enumerate(ids):
            for t in self.neighbours[s]:
                action = add(f"move {sid} {ids[t]}", "move", (sid, ids[t]), _MOVE, s, t)
                moves.append((s, t, action))
                self.move_action[s, t] = action
        capture = [
            add(f"capture {sid}", "capture", (sid,), _CAPTURE, s, 0) for s, sid in enumerate(ids)
        ]
        self.end_action = add("end", "end", (), _END, 0, 0)

        # Chance: every slap the notation can write, each kind absent, heads or tails (3^4 = 81).
        outcomes: list[Action] = []
        self.outcomes_for: list[list[tuple[Action, float]]] = [[] for _ in range(16)]
        for faces in itertools.product("HT-", repeat=4):
            thrown = heads = 0
            words = ["slap"]
            for k, face in zip(SLAP_ORDER, faces, strict=True):
                if face != "-":
                    thrown |= 1 << k
                    heads |= (face == "H") << k
                    words.append(f"{COINS[k]}:{face}")
            action = Action(len(decisions) + len(outcomes), " ".join(words), "slap", faces, True)
            outcomes.append(action)
            verb.append(_SLAP)
            arg_a.append(thrown)
            arg_b.append(heads)
            self.outcomes_for[thrown].append((action, 0.0))
        for thrown, listed in enumerate(self.outcomes_for):
            p = 1.0 / len(listed)
            self.outcomes_for[thrown] = [(action, p) for action, _ in listed]

        self.verb = verb
        self.arg_a = arg_a
        self.arg_b = arg_b
        self.place_action = place
        self.pay_action = pay
        self.move_list = moves
        self.capture_action = capture
        self.region_spaces: tuple[tuple[int, ...], ...] = tuple(
            tuple(index[s] for s in region.spaces) for region in game_map.regions
        )
        return decisions, outcomes

    def _aliases(self) -> Iterable[tuple[str, Action]]:
        yield "pass", self.end_action

    def _max_game_length(self) -> int:
        # A turn is the slap plus at most 4 decisions (three places and a pay, after which
        # only `end` is left and the turn ends itself).
        return MAX_TURNS * 5

    def new_initial_state(self) -> CoinAgeState:
        return CoinAgeState(self)

    # -- messages for text that is not an action ------------------------------------------
    def _shape(self, action: Action) -> Message:
        return message(f"coin-age.shape.{action.verb}")

    def _space_problem(self, word: str) -> Message:
        close = difflib.get_close_matches(word, self.map.space_ids, n=1)
        if close:
            return message(
                "coin-age.not-a-space-close", word=word, map=self.map.title, close=close[0]
            )
        return message(
            "coin-age.not-a-space",
            word=word,
            map=self.map.title,
            spaces=comma_list(self.map.space_ids),
        )

    def explain_unreadable(self, text: str) -> Message:
        words = normalize_notation(text).split()
        shown = text.strip()
        spaces = self.map.space_ids
        coins = "QNPD"
        if not words or words[0] not in ("place", "pay", "move", "capture", "end", "slap"):
            return super().explain_unreadable(text)
        verb, args = words[0], words[1:]
        shape = self._shape(next(a for a in self.actions if a.verb == verb))
        expected = {"place": 2, "pay": 1, "move": 2, "capture": 1, "end": 0}.get(verb)
        if verb == "slap":
            for word in args:
                coin, _, face = word.partition(":")
                if coin.upper() not in coins or face.upper() not in SIDES:
                    return message("coin-age.not-a-thrown-coin", text=shown, word=word)
            return message("coin-age.slap-order", text=shown)
        if expected is not None and len(args) != expected:
            return message(
                "coin-age.word-count", text=shown, count=len(args), verb=verb, shape=shape
            )
        if verb in ("place", "pay") and args[0].upper() not in coins:
            return message("coin-age.not-a-coin", text=shown, word=args[0])
        for word in args[1:] if verb == "place" else args if verb in ("move", "capture") else ():
            if word not in spaces:
                return message("core.about", text=shown, problem=self._space_problem(word))
        if verb == "move":
            a, b = args
            if a == b:
                return message("coin-age.move-onto-itself", text=shown)
            return message(
                "coin-age.not-adjacent",
                text=shown,
                start=a,
                end=b,
                reachable=comma_list(self.map.neighbours(a)),
            )
        return message(
            "coin-age.not-an-action", text=shown, game=self.TITLE, verb=verb, shape=shape
        )


class CoinAgeState(State):
    """A Coin Age position: the stacks on the map, both banks, and the turn in progress."""

    __slots__ = (
        "stacks",
        "tops",
        "banks",
        "turn",
        "mover",
        "slap",
        "matched",
        "unused",
        "places",
        "pays",
        "moves",
        "captures",
    )

    game: CoinAge
    stacks: list[tuple[int, ...]]  # per space, bottom coin first
    tops: list[int]  # per space, the top coin or -1 when empty
    banks: list[list[int]]  # per seat, counts of D P N Q
    turn: int  # 1-based number of the turn in progress (or the last one)
    mover: int  # whose turn it is (also at the slap, where current_player is CHANCE)
    slap: Action | None  # this turn's slap once thrown
    matched: int  # bit mask of kinds whose thrown coin shows the mover's side
    unused: int  # matched kinds not yet placed or paid
    places: int  # places, pays, moves, captures still allowed this turn
    pays: int
    moves: int
    captures: int

    def __init__(self, game: CoinAge) -> None:
        super().__init__(game)
        n = game.num_spaces
        self.stacks = [()] * n
        self.tops = [-1] * n
        self.banks = [list(START_BANK), list(START_BANK)]
        self.turn = 1
        self.mover = 0
        self.current_player = CHANCE
        self.slap = None
        self.matched = self.unused = 0
        self.places = self.pays = self.moves = self.captures = 0

    # -- the hooks ----------------------------------------------------------------------
    def _copy(self) -> CoinAgeState:
        c = CoinAgeState.__new__(CoinAgeState)
        c.game = self.game
        c.current_player = self.current_player
        c.stacks = self.stacks.copy()
        c.tops = self.tops.copy()
        c.banks = [self.banks[0].copy(), self.banks[1].copy()]
        c.turn = self.turn
        c.mover = self.mover
        c.slap = self.slap
        c.matched = self.matched
        c.unused = self.unused
        c.places = self.places
        c.pays = self.pays
        c.moves = self.moves
        c.captures = self.captures
        return c

    def bank_mask(self, seat: int) -> int:
        """Bit mask of the kinds ``seat`` has in their bank: the coins they would throw."""
        bank = self.banks[seat]
        return (bank[0] > 0) | (bank[1] > 0) << 1 | (bank[2] > 0) << 2 | (bank[3] > 0) << 3

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return list(self.game.outcomes_for[self.bank_mask(self.mover)])

    def _legal_actions(self) -> list[Action]:
        g = self.game
        tops = self.tops
        out: list[Action] = []
        unused = self.unused
        if self.places and unused:
            for k in SLAP_ORDER:
                if unused >> k & 1:
                    row = g.place_action[k]
                    for s, top in enumerate(tops):
                        if top < 0 or (top & 3) > k:
                            out.append(row[s])
        if self.pays and unused:
            for k in SLAP_ORDER:
                if unused >> k & 1:
                    out.append(g.pay_action[k])
        if self.moves:
            for s, t, action in g.move_list:
                if tops[s] >= 0 and tops[t] < 0:
                    out.append(action)
        if self.captures:
            capture = g.capture_action
            for s, top in enumerate(tops):
                if top >= 0:
                    out.append(capture[s])
        out.append(g.end_action)
        return out

    def _can_act(self) -> bool:
        """Is anything but `end` legal? (A decision node always has an empty space: a place
        that fills the last one ends the game.)"""
        if (self.places or self.pays) and self.unused:
            return True
        tops = self.tops
        if self.captures and max(tops) >= 0:
            return True
        if self.moves:
            neighbours = self.game.neighbours
            for s, top in enumerate(tops):
                if top >= 0:
                    for t in neighbours[s]:
                        if tops[t] < 0:
                            return True
        return False

    def _apply(self, action: Action) -> None:
        g = self.game
        aid = action.id
        code = g.verb[aid]
        a = g.arg_a[aid]
        if code == _SLAP:
            self._throw(action, a, g.arg_b[aid])
        elif code == _END:
            self._end_turn()
        elif code == _PLACE:
            self._place(a, g.arg_b[aid])
        elif code == _PAY:
            self._pay(a)
        elif code == _MOVE:
            self._move(a, g.arg_b[aid])
        else:
            self._capture(a)

    # -- the mover's actions ------------------------------------------------------------
    def _place(self, a: int, b: int) -> None:
        """Place a coin of kind ``a`` on space ``b``."""
        mover = self.mover
        coin = mover << 2 | a
        self.stacks[b] = self.stacks[b] + (coin,)
        self.tops[b] = coin
        self.banks[mover][a] -= 1
        self.unused &= ~(1 << a)
        self.places -= 1
        if not any(self.banks[mover]) or min(self.tops) >= 0:
            self._finish()
        elif not self._can_act():
            self._end_turn()

    def _pay(self, a: int) -> None:
        """Pay a coin of kind ``a`` to the opponent for one more placement."""
        mover = self.mover
        self.banks[mover][a] -= 1
        self.banks[1 - mover][a] += 1
        self.unused &= ~(1 << a)
        self.pays = 0
        self.places += 1
        if not any(self.banks[mover]):
            self._finish()
        elif not self._can_act():
            self._end_turn()

    def _move(self, s: int, t: int) -> None:
        """Move the stack on space ``s`` to the empty space ``t``."""
        self.stacks[t] = self.stacks[s]
        self.tops[t] = self.tops[s]
        self.stacks[s] = ()
        self.tops[s] = -1
        self.moves = 0
        if not self._can_act():
            self._end_turn()

    def _capture(self, s: int) -> None:
        """Take the top coin of space ``s`` into the mover's bank."""
        stack = self.stacks[s]
        self.banks[self.mover][stack[-1] & 3] += 1
        stack = self.stacks[s] = stack[:-1]
        self.tops[s] = stack[-1] if stack else -1
        self.captures = 0
        if not self._can_act():
            self._end_turn()

    # -- steps of a turn ----------------------------------------------------------------
    def _throw(self, action: Action, thrown: int, heads: int) -> None:
        mover = self.mover
        matched = heads if mover == 0 else thrown & ~heads
        self.slap = action
        self.matched = self.unused = matched
        self.places, self.pays, self.moves, self.captures = ALLOWANCE[_POPCOUNT[matched]]
        self.current_player = mover
        if not self._can_act():
            self._end_turn()

    def _end_turn(self) -> None:
        self.places = self.pays = self.moves = self.captures = 0
        self.unused = 0
        if self.turn >= MAX_TURNS:
            self.current_player = TERMINAL
            return
        self.turn += 1
        self.mover ^= 1
        self.slap = None
        self.matched = 0
        self.current_player = CHANCE

    def _finish(self) -> None:
        self.places = self.pays = self.moves = self.captures = 0
        self.unused = 0
        self.current_player = TERMINAL

    # -- messages -------------------------------------------------------------------------
    @property
    def matches(self) -> int:
        return _POPCOUNT[self.matched]

    def _coin_words(self, coin: int) -> Message:
        return message(
            "coin-age.coin-of",
            seat=seat_of(self.game.SEATS[coin >> 2]),
            coin=coin_word(coin & 3),
            text=coin_text(coin),
        )

    def _no_allowance(self, verb: str) -> Message:
        m = self.matches
        given = ALLOWANCE[m]
        has = {"place": given[0], "pay": given[1], "move": given[2], "capture": given[3]}
        if verb == "place" and m == 4 and self.pays:
            return message("coin-age.pay-for-third")
        if has.get(verb, 0):
            return message(f"coin-age.already-{verb}", allows=allowance_words(m))
        return message(f"coin-age.cannot-{verb}", count=m, allows=allowance_words(m))

    def _why_illegal(self, action: Action) -> Message:
        """Why the rules refuse ``action`` here, in the order a player checks: a slap that
        throws other coins than the bank holds; a coin not thrown, not matching or used
        already; an allowance spent; and last the place itself (``_legal_actions`` holds what
        may go where)."""
        g = self.game
        aid = action.id
        code = g.verb[aid]
        a, b = g.arg_a[aid], g.arg_b[aid]
        ids = g.map.space_ids
        if code == _SLAP:
            mask = self.bank_mask(self.mover)
            return message(
                "coin-age.slap-misfit",
                action=action.text,
                seat=seat_name(g.SEATS[self.mover]),
                kinds=" ".join(COINS[k] for k in SLAP_ORDER if mask >> k & 1),
                example=self._chance_outcomes()[0][0].text,
            )
        if code == _PLACE:
            return self._coin_problem(a, "place", self.places) or message(
                "coin-age.topped",
                space=ids[b],
                top=self._coin_words(self.tops[b]),
                coin=coin_word(a),
            )
        if code == _PAY:
            return self._coin_problem(a, "pay", self.pays) or self._no_allowance("pay")
        if code == _MOVE:
            if not self.moves:
                return self._no_allowance("move")
            if self.tops[a] < 0:
                return message("coin-age.empty-move", space=ids[a])
            return message("coin-age.occupied", space=ids[b])
        if not self.captures:
            return self._no_allowance("capture")
        return message("coin-age.empty-capture", space=ids[a])

    def _coin_problem(self, k: int, verb: str, allowance: int) -> Message | None:
        """What stops coin kind ``k`` from being placed (or paid) now, if anything. The coin's
        own problem is named first: it says more than "no place left"."""
        bit = 1 << k
        name = coin_word(k)
        slap = self.slap
        thrown = self.game.arg_a[slap.id] if slap is not None else 0
        if not thrown & bit:
            return message(f"coin-age.not-thrown-{verb}", coin=name)
        if not self.matched & bit:
            return message(
                "coin-age.landed-wrong",
                coin=name,
                side=message(f"coin-age.side.{SIDE_NAMES[1 - self.mover]}"),
                own=message(f"coin-age.side.{SIDE_NAMES[self.mover]}"),
            )
        if not self.unused & bit:
            return message("coin-age.already-used", coin=name)
        if not allowance:
            return self._no_allowance(verb)
        return None

    # -- views ----------------------------------------------------------------------------
    def scores(self) -> tuple[int, int]:
        tops = self.tops
        points = [sum(self.banks[0]), sum(self.banks[1])]
        for spaces in self.game.region_spaces:
            region = [0, 0]
            held = [0, 0]
            for s in spaces:
                top = tops[s]
                if top >= 0:
                    region[top >> 2] += (top & 3) + 1
                    held[top >> 2] += 1
            # Doubling needs strictly more controlled spaces than the opponent.
            if held[0] > held[1]:
                region[0] *= 2
            elif held[1] > held[0]:
                region[1] *= 2
            points[0] += region[0]
            points[1] += region[1]
        return points[0], points[1]

    def bank_value(self, seat: int) -> int:
        """Total rank of the coins in ``seat``'s bank: the tie-break."""
        d, p, n, q = self.banks[seat]
        return d + 2 * p + 3 * n + 4 * q

    def winner(self) -> int | None:
        if self.current_player != TERMINAL:
            return None
        a, b = self.scores()
        if a == b:
            a, b = self.bank_value(0), self.bank_value(1)
        if a > b:
            return 0
        if b > a:
            return 1
        return None

    def end_reason(self) -> str | None:
        """Why the game ended: 'board full', 'bank empty' or 'turn limit'; None while it runs."""
        if self.current_player != TERMINAL:
            return None
        if min(self.tops) >= 0:
            return "board full"
        if not all(any(bank) for bank in self.banks):
            return "bank empty"
        return "turn limit"

    def allowance(self) -> dict[str, int]:
        return {
            "place": self.places,
            "pay": self.pays,
            "move": self.moves,
            "capture": self.captures,
        }

    def position(self) -> dict[str, Any]:
        """Stacks per space (bottom coin first, each as ``Q:H``), both banks, the turn, whose
        it is and its phase (slap, act, over), this turn's slap, matches, unused matching coins
        and remaining allowance, and why the game ended."""
        ids = self.game.map.space_ids
        seats = self.game.SEATS
        phase = {CHANCE: "slap", TERMINAL: "over"}.get(self.current_player, "act")
        return {
            "map": self.game.map.id,
            "stacks": {sid: [coin_text(c) for c in self.stacks[s]] for s, sid in enumerate(ids)},
            "banks": {
                seats[seat]: {COINS[k]: self.banks[seat][k] for k in SLAP_ORDER} for seat in (0, 1)
            },
            "turn": self.turn,
            "max_turns": MAX_TURNS,
            "mover": seats[self.mover],
            "phase": phase,
            "slap": self.slap.text if self.slap is not None else None,
            "matches": self.matches if self.slap is not None else None,
            "unused": [COINS[k] for k in SLAP_ORDER if self.unused >> k & 1],
            "allowance": self.allowance(),
            "ended": self.end_reason(),
        }

    def __str__(self) -> str:
        g = self.game
        ids = g.map.space_ids
        width = max(len(s) for s in ids)
        lines = [f"{g.TITLE} - {g.map.title} - turn {self.turn}/{MAX_TURNS}"]
        for region, spaces in zip(g.map.regions, g.region_spaces, strict=True):
            lines.append(f"{region.name}:")
            for s in spaces:
                stack = " ".join(coin_text(c) for c in reversed(self.stacks[s])) or "."
                lines.append(f"  {ids[s]:<{width}}  {stack}")
        for seat in (0, 1):
            bank = " ".join(f"{COINS[k]}{self.banks[seat][k]}" for k in SLAP_ORDER)
            lines.append(f"{g.SEATS[seat]} bank: {bank}")
        heads, tails = self.scores()
        lines.append(f"score: Heads {heads}, Tails {tails}")
        who = g.SEATS[self.mover]
        if self.current_player == CHANCE:
            lines.append(f"{who} to slap")
        elif self.current_player == TERMINAL:
            winner = self.winner()
            result = "draw" if winner is None else f"{g.SEATS[winner]} wins"
            lines.append(f"game over ({self.end_reason()}): {result}")
        else:
            left = ", ".join(f"{k} {v}" for k, v in self.allowance().items() if v) or "nothing"
            unused = " ".join(COINS[k] for k in SLAP_ORDER if self.unused >> k & 1) or "-"
            assert self.slap is not None
            lines.append(f"{who} to act after {self.slap.text}: {left} left (coins {unused})")
        return "\n".join(lines)
