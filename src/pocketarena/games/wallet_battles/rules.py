"""Wallet Battles: two piles of pocket change fight over the locations of a Civil War battlefield.

Both players flip a coin each round: ``flip HH`` lets the Union act, ``flip TT`` the Confederacy,
``flip odd`` nobody (and the third odd in a row makes everyone with coins on the map recall one).
The acting player places a coin from their pile, captures an enemy top coin, or passes.

The position, for a map of L locations (pgx style, coins by index: 0 Q, 1 N, 2 P, 3 D, so a
smaller index is a physically larger coin and stacks grow with increasing index)::

    stacks[loc]   tuple of coin indices, bottom first (empty tuple: the location is empty)
    holder[loc]   0 Union, 1 Confederacy, -1 nobody (a stack only ever holds its holder's coins)
    piles[4*seat + coin]   coins of each kind in a seat's pile
    ever          bit loc set once a coin has stood on loc (for the ``used`` end)

The printed end, "when all possible locations on the map have been used", has two readings,
chosen by the option ``end``: ``occupied`` (every location holds a coin at the same moment) and
``used`` (every location has held a coin at some time in the game).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from pocketarena.core import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    Message,
    Option,
    State,
    comma_list,
    message,
    normalize_notation,
    or_list,
    seat_name,
)

COINS = ("Q", "N", "P", "D")  # largest first: a coin may only go on a smaller index
COIN_NAMES = ("quarter", "nickel", "penny", "dime")
MAPS = ("gettysburg", "antietam")


def coin_word(coin: int) -> Message:
    """ "quarter", "nickel", "penny" or "dime" (Q N P D), in the reader's language."""
    return message(f"wallet-battles.coin.{COIN_NAMES[coin]}")


DEFAULT_COINS: dict[str, int] = {"Q": 6, "N": 6, "P": 6, "D": 6}
# What records and saved games meant before the ``end`` option existed (they name no ``end``).
FORMER_COINS: dict[str, int] = {"Q": 6, "N": 6, "P": 6, "D": 6}
FORMER_END = "occupied"
# The recommended 6 of each kind shared out between the two players.
SHARED_OUT_COINS: dict[str, int] = {"Q": 3, "N": 3, "P": 3, "D": 3}
# Readings of "all possible locations on the map have been used", and how a person says them.
END_RULES = ("occupied", "used")
END_LABELS = {
    "occupied": "every location holds a coin at once",
    "used": "every location has held a coin",
}
# By the balance study (docs/balance.md): strong players finish "used" games in a median of
# 35 flips and never reached the guard, while by "occupied" 84% of their games ran to it.
DEFAULT_END = "used"
MAX_COINS_OF_A_KIND = 20
FLIP_LIMIT = 500  # the guard: the game ends once this many flips are made and nothing is owed
DOUBLING_HEIGHT = 3  # stacks of this many coins or more count their coins twice

UNION, CONFEDERACY = 0, 1
NOBODY = -1

# Kinds of actions, for dispatch by action id.
PLACE, CAPTURE, RECALL, PASS, FLIP = range(5)
# Flip faces; HH and TT are also the seat they let act.
HH, TT, ODD = 0, 1, 2
FLIP_TEXTS = ("HH", "TT", "odd")
FLIP_PROBABILITIES = (0.25, 0.25, 0.5)


# -- maps ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Location:
    id: str
    name: str
    x: float  # 0..100, left to right (west to east)
    y: float  # 0..100, top to bottom (north to south)


@dataclass(frozen=True)
class Feature:
    """Scenery for drawing only (roads, creeks, ridges, woods, towns): no rule uses it."""

    kind: str
    name: str
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class BattleMap:
    id: str
    title: str
    date: str
    flavour: str
    locations: tuple[Location, ...]
    features: tuple[Feature, ...]

    @property
    def location_ids(self) -> tuple[str, ...]:
        return tuple(loc.id for loc in self.locations)


@cache
def load_map(name: str) -> BattleMap:
    """One side of the card, read from ``maps/<name>.json`` in this package."""
    if name not in MAPS:
        raise ValueError(f"unknown Wallet Battles map {name!r}; maps: {', '.join(MAPS)}")
    text = resources.files(__package__).joinpath("maps").joinpath(f"{name}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    locations = tuple(
        Location(str(d["id"]), str(d["name"]), float(d["x"]), float(d["y"]))
        for d in data["locations"]
    )
    features = tuple(
        Feature(str(f["kind"]), str(f["name"]), tuple((float(x), float(y)) for x, y in f["points"]))
        for f in data.get("features", [])
    )
    return BattleMap(
        str(data["id"]),
        str(data["title"]),
        str(data["date"]),
        str(data["flavour"]),
        locations,
        features,
    )


def location_names() -> dict[str, str]:
    """Display names of every location of both maps (ids are unique across the card)."""
    return {loc.id: loc.name for name in MAPS for loc in load_map(name).locations}


# -- options ------------------------------------------------------------------------------
def _check_coins(value: Any) -> Message | None:
    """Why a ``coins`` option is not a valid starting pile, or None if it is."""
    example = json.dumps(DEFAULT_COINS)
    if not isinstance(value, Mapping):
        return message("wallet-battles.coins-dict", example=example)
    keys = {str(k) for k in value}
    missing = ", ".join(c for c in COINS if c not in keys)
    unknown = ", ".join(repr(k) for k in sorted(keys - set(COINS)))
    if missing or unknown:
        which = "missing-unknown" if missing and unknown else "missing" if missing else "unknown"
        return message(
            f"wallet-battles.coins-{which}", missing=missing, unknown=unknown, example=example
        )
    for coin in COINS:
        n = value[coin]
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_COINS_OF_A_KIND:
            return message(
                "wallet-battles.coin-count", coin=coin, most=MAX_COINS_OF_A_KIND, value=n
            )
    if sum(value[c] for c in COINS) == 0:
        return message("wallet-battles.no-coins")
    return None


# -- the game -----------------------------------------------------------------------------
class WalletBattles(Game):
    ID = "wallet-battles"
    TITLE = "Wallet Battles"
    SEATS = ("Union", "Confederacy")
    CHANCE = True
    GUARD_COUNTERS = ("flips",)  # the flip counter only ends the game at FLIP_LIMIT
    OPTIONS = (
        Option(
            "map",
            str,
            "gettysburg",
            "the battlefield: either side of the card",
            choices=MAPS,
            label="Battlefield",
            choice_labels=tuple((m, load_map(m).title) for m in MAPS),
        ),
        Option(
            "coins",
            dict,
            DEFAULT_COINS,
            "how many quarters (Q), nickels (N), pennies (P) and dimes (D) each player starts "
            "with; 6 of each as printed",
            check=_check_coins,
            label="Coins in each pile",
        ),
        Option(
            "end",
            str,
            DEFAULT_END,
            "besides an empty pile, which always ends it: once every location has held a coin "
            "at some time (even if captured or recalled since), or once every location holds a "
            "coin at the same time",
            choices=END_RULES,
            label="The map ends the game when",
            choice_labels=tuple(END_LABELS.items()),
        ),
    )
    VARIANTS = (
        {"map": "gettysburg"},
        {"map": "antietam"},
        {"map": "antietam", "coins": {"Q": 2, "N": 2, "P": 2, "D": 2}},
        {"map": "gettysburg", "end": "occupied"},
    )
    # The print leaves two things open, both weighed by the balance lab: what "all locations
    # used" means, and whether the recommended 6 of each kind are each player's or shared out.
    READINGS = {"end": END_RULES, "coins": (FORMER_COINS, SHARED_OUT_COINS)}
    PITCH = "Flip for the right to act, then stack and capture coins across Gettysburg or Antietam."

    battle_map: BattleMap
    location_ids: tuple[str, ...]
    start_pile: tuple[int, int, int, int]
    ends_when_used: bool  # end="used": the map ends the game once every location has held a coin

    @classmethod
    def recorded_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        # A record or saved game names every option; one without ``end`` predates it and was
        # played by the rule and piles of that time, whatever the defaults are now.
        if "end" in options:
            return dict(options)
        return {"coins": dict(FORMER_COINS), **options, "end": FORMER_END}

    def _resolve(self, options: dict[str, Any]) -> dict[str, Any]:
        coins = options["coins"]
        # A fresh dict in Q N P D order: canonical for records, and never the shared default.
        options["coins"] = {c: int(coins[c]) for c in COINS}
        return options

    def _build_actions(self) -> tuple[list[Action], list[Action]]:
        self.battle_map = load_map(self.options["map"])
        self.location_ids = self.battle_map.location_ids
        self.ends_when_used = self.options["end"] == "used"
        self.start_pile = (
            self.options["coins"]["Q"],
            self.options["coins"]["N"],
            self.options["coins"]["P"],
            self.options["coins"]["D"],
        )
        decisions: list[Action] = []
        kinds: list[int] = []
        coins: list[int] = []
        locs: list[int] = []

        def add(
            text: str, verb: str, args: tuple[str, ...], kind: int, coin: int, loc: int
        ) -> Action:
            action = Action(len(decisions), text, verb, args)
            decisions.append(action)
            kinds.append(kind)
            coins.append(coin)
            locs.append(loc)
            return action

        # Location-major, so a legal list built location by location is in id order.
        self.place_actions: tuple[tuple[Action, ...], ...] = tuple(
            tuple(
                add(f"place {c} {lid}", "place", (c, lid), PLACE, ci, li)
                for ci, c in enumerate(COINS)
            )
            for li, lid in enumerate(self.location_ids)
        )
        self.capture_actions = tuple(
            add(f"capture {lid}", "capture", (lid,), CAPTURE, -1, li)
            for li, lid in enumerate(self.location_ids)
        )
        self.recall_actions = tuple(
            add(f"recall {lid}", "recall", (lid,), RECALL, -1, li)
            for li, lid in enumerate(self.location_ids)
        )
        self.pass_action = add("pass", "pass", (), PASS, -1, -1)
        outcomes = [
            Action(len(decisions) + i, f"flip {face}", "flip", (face,), chance=True)
            for i, face in enumerate(FLIP_TEXTS)
        ]
        kinds.extend([FLIP] * len(outcomes))
        coins.extend(range(len(outcomes)))  # the face, for flips
        locs.extend([-1] * len(outcomes))
        self.kinds: tuple[int, ...] = tuple(kinds)
        self.coin_of: tuple[int, ...] = tuple(coins)
        self.loc_of: tuple[int, ...] = tuple(locs)
        self.flip_outcomes: tuple[tuple[Action, float], ...] = tuple(
            zip(outcomes, FLIP_PROBABILITIES, strict=True)
        )
        return decisions, outcomes

    def _aliases(self) -> Iterable[tuple[str, Action]]:
        odd = self.flip_outcomes[ODD][0]
        return (("flip HT", odd), ("flip TH", odd))

    def _max_game_length(self) -> int:
        # Never more decisions than flips (one act per HH or TT; two recalls only after a run
        # of three odd flips), and no flip comes after the FLIP_LIMIT-th.
        return 2 * FLIP_LIMIT

    def new_initial_state(self) -> WalletBattlesState:
        return WalletBattlesState(self)

    # -- messages for text that is no action at all ---------------------------------------
    def explain_unreadable(self, text: str) -> Message:
        words = normalize_notation(text).split()
        typed = text.split()  # the same words as the player typed them, for quoting
        shown = text.strip()
        first = self.location_ids[0]
        shapes = {
            verb: message(f"wallet-battles.shape.{verb}", place=first)
            for verb in ("place", "capture", "recall", "pass", "flip")
        }
        if not words:
            return message("wallet-battles.empty", place=first)
        verb, rest = words[0], words[1:]
        if verb not in shapes:
            return message("core.unknown-verb", text=shown, word=verb, verbs=comma_list(shapes))
        expected = {"place": 2, "capture": 1, "recall": 1, "pass": 0, "flip": 1}[verb]
        if verb == "flip" and len(rest) == 1:
            return message("wallet-battles.not-a-flip", text=shown, word=typed[1])
        if verb == "flip" and not rest:
            return message("wallet-battles.say-flip", text=shown)
        if verb == "place" and rest and rest[0].upper() not in COINS:
            if rest[0] in self.location_ids and len(rest) == 1:
                return message("wallet-battles.which-coin", text=shown, place=rest[0])
            return message("wallet-battles.not-a-coin", text=shown, word=typed[1])
        if len(rest) > expected:
            return message("wallet-battles.too-many-words", text=shown, shape=shapes[verb])
        if len(rest) < expected:
            missing = "coin-and-location" if verb == "place" and not rest else "location"
            return message(f"wallet-battles.missing-{missing}", text=shown, shape=shapes[verb])
        where = rest[-1]
        other = next(
            (m for m in MAPS if m != self.battle_map.id and where in load_map(m).location_ids), None
        )
        if other is not None:
            return message(
                "wallet-battles.other-map",
                text=shown,
                word=where,
                map=load_map(other).title,
                this=self.battle_map.title,
                places=comma_list(self.location_ids),
            )
        return message(
            "wallet-battles.not-a-location",
            text=shown,
            word=where,
            map=self.battle_map.title,
            places=comma_list(self.location_ids),
        )


# -- the state ----------------------------------------------------------------------------
class WalletBattlesState(State):
    """A Wallet Battles position. ``current_player`` is CHANCE before each flip, the acting or
    recalling seat at a decision, TERMINAL once over; ``recalling`` tells a recall from an act.
    """

    __slots__ = (
        "stacks",
        "holder",
        "piles",
        "pile_total",
        "held",
        "empty",
        "ever",
        "unused",
        "odd",
        "flips",
        "recalling",
    )

    game: WalletBattles
    stacks: list[tuple[int, ...]]
    holder: list[int]
    piles: list[int]
    pile_total: list[int]
    held: list[int]  # locations held per seat: "has coins on the map" is held[seat] > 0
    empty: int  # empty locations
    ever: int  # bit loc: a coin has stood on loc at some time in the game
    unused: int  # locations that never held a coin
    odd: int  # odd flips in a row since the last HH, TT or recall (0..2)
    flips: int  # flips made so far
    recalling: bool

    def __init__(self, game: WalletBattles) -> None:
        super().__init__(game)
        n = len(game.location_ids)
        self.stacks = [()] * n
        self.holder = [NOBODY] * n
        self.piles = list(game.start_pile) * 2
        total = sum(game.start_pile)
        self.pile_total = [total, total]
        self.held = [0, 0]
        self.empty = n
        self.ever = 0
        self.unused = n
        self.odd = 0
        self.flips = 0
        self.recalling = False
        self.current_player = CHANCE

    def _copy(self) -> WalletBattlesState:
        c = WalletBattlesState.__new__(WalletBattlesState)
        c.game = self.game
        c.current_player = self.current_player
        c.stacks = self.stacks.copy()
        c.holder = self.holder.copy()
        c.piles = self.piles.copy()
        c.pile_total = self.pile_total.copy()
        c.held = self.held.copy()
        c.empty = self.empty
        c.ever = self.ever
        c.unused = self.unused
        c.odd = self.odd
        c.flips = self.flips
        c.recalling = self.recalling
        return c

    # -- what may happen --------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        game = self.game
        seat = self.current_player
        holder = self.holder
        if self.recalling:
            recall = game.recall_actions
            return [recall[loc] for loc, h in enumerate(holder) if h == seat]
        piles = self.piles
        base = 4 * seat
        have = [c for c in range(4) if piles[base + c]]
        stacks = self.stacks
        places = game.place_actions
        out: list[Action] = []
        captures: list[Action] = []
        for loc, h in enumerate(holder):
            if h == NOBODY:
                row = places[loc]
                for c in have:
                    out.append(row[c])
            elif h == seat:
                top = stacks[loc][-1]
                row = places[loc]
                for c in have:
                    if c > top:
                        out.append(row[c])
            else:
                captures.append(game.capture_actions[loc])
        out += captures
        out.append(game.pass_action)
        return out

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return list(self.game.flip_outcomes)

    # -- applying -----------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        game = self.game
        aid = action.id
        kind = game.kinds[aid]
        if kind == FLIP:
            self._flip(game.coin_of[aid])
            return
        seat = self.current_player
        loc = game.loc_of[aid]
        if self.recalling:
            self._take_top(loc, seat, seat)
            if seat == UNION and self.held[CONFEDERACY]:
                self.current_player = CONFEDERACY  # the Confederacy recalls second
            else:
                self.recalling = False
                self._next_flip()
            return
        if kind == PLACE:
            self._place(game.coin_of[aid], loc, seat)
            # Only a place can end the game: it is the only action that fills a location or
            # takes from a pile (captures and recalls only empty locations and fill piles).
            if self._map_done() or self.pile_total[seat] == 0:
                self.current_player = TERMINAL
                return
        elif kind == CAPTURE:
            # The captured coin is the capturer's from now on.
            self._take_top(loc, self.holder[loc], seat)
        self._next_flip()

    def _flip(self, face: int) -> None:
        self.flips += 1
        if face != ODD:
            self.odd = 0
            self.current_player = face  # HH: the Union acts, TT: the Confederacy
            return
        if self.odd < 2:
            self.odd += 1
            self._next_flip()
            return
        # The third odd in a row: a recall, Union first, by whoever has coins on the map.
        self.odd = 0
        if self.held[UNION]:
            self.recalling = True
            self.current_player = UNION
        elif self.held[CONFEDERACY]:
            self.recalling = True
            self.current_player = CONFEDERACY
        else:
            self._next_flip()

    def _map_done(self) -> bool:
        """Does the map end the game now (by the ``end`` rule in play)?"""
        return self.unused == 0 if self.game.ends_when_used else self.empty == 0

    def _next_flip(self) -> None:
        """Nothing is owed any more: flip again, unless the flip guard has been reached."""
        self.current_player = TERMINAL if self.flips >= FLIP_LIMIT else CHANCE

    def _place(self, coin: int, loc: int, seat: int) -> None:
        if self.holder[loc] == NOBODY:
            self.stacks[loc] = (coin,)
            self.holder[loc] = seat
            self.held[seat] += 1
            self.empty -= 1
            bit = 1 << loc
            if not self.ever & bit:
                self.ever |= bit
                self.unused -= 1
        else:
            self.stacks[loc] += (coin,)
        self.piles[4 * seat + coin] -= 1
        self.pile_total[seat] -= 1

    def _take_top(self, loc: int, holder: int, into: int) -> None:
        """Move the top coin of ``holder``'s stack on ``loc`` into ``into``'s pile; the location
        empties with its last coin."""
        stack = self.stacks[loc]
        self.stacks[loc] = stack[:-1]
        self.piles[4 * into + stack[-1]] += 1
        self.pile_total[into] += 1
        if len(stack) == 1:
            self.holder[loc] = NOBODY
            self.held[holder] -= 1
            self.empty += 1

    def _why_illegal(self, action: Action) -> Message:
        """Why the rules refuse ``action`` here: a recall owed (or none owed), a coin the pile
        lacks, a location held by the other side or emptied, and last a coin too large for
        the stack (``_legal_actions`` holds "strictly smaller on top")."""
        game = self.game
        aid = action.id
        kind = game.kinds[aid]
        seat = self.current_player
        loc = game.loc_of[aid]
        name = game.location_ids[loc]
        h = self.holder[loc]
        if self.recalling:
            if kind != RECALL:
                return self._recall_owed(action)
            return message(
                "wallet-battles.not-yours-to-recall", place=name, owed=self._recall_owed(None)
            )
        if kind == RECALL:
            return message("wallet-battles.no-recall-owed")
        if kind == CAPTURE:
            if h == NOBODY:
                return message("wallet-battles.empty-capture", place=name)
            return message(
                "wallet-battles.own-stack", place=name, seat=seat_name(game.SEATS[1 - seat])
            )
        coin = game.coin_of[aid]
        if not self.piles[4 * seat + coin]:
            return message("wallet-battles.none-left", letter=COINS[coin], coin=coin_word(coin))
        if h != seat:
            return message("wallet-battles.held", place=name, seat=seat_name(game.SEATS[h]))
        top = self.stacks[loc][-1]
        return message(
            "wallet-battles.not-smaller",
            place=name,
            top=COINS[top],
            coin=coin_word(top),
            letter=COINS[coin],
        )

    def _recall_owed(self, action: Action | None) -> Message:
        seat = self.current_player
        own = [
            f"recall {self.game.location_ids[loc]}"
            for loc, h in enumerate(self.holder)
            if h == seat
        ]
        said = message(
            "wallet-battles.recall-owed",
            seat=seat_name(self.game.SEATS[seat]),
            recalls=or_list(own),
        )
        if action is None:
            return said
        return message("wallet-battles.not-now", action=action.text, owed=said)

    # -- reading the position -------------------------------------------------------------
    def location_value(self, loc: int) -> int:
        """What holding ``loc`` scores: 2, plus a point a coin, doubled for 3 coins or more."""
        n = len(self.stacks[loc])
        if not n:
            return 0
        return 2 + (2 * n if n >= DOUBLING_HEIGHT else n)

    def scores(self) -> tuple[float, float]:
        totals = [self.pile_total[0], self.pile_total[1]]
        stacks = self.stacks
        for loc, h in enumerate(self.holder):
            if h != NOBODY:
                n = len(stacks[loc])
                totals[h] += 2 + (2 * n if n >= DOUBLING_HEIGHT else n)
        return (totals[0], totals[1])

    @property
    def phase(self) -> str:
        if self.current_player == TERMINAL:
            return "over"
        if self.current_player == CHANCE:
            return "flip"
        return "recall" if self.recalling else "act"

    @property
    def ending(self) -> str | None:
        """Why the game ended: ``pile`` (a pile ran out), ``occupied`` or ``used`` (the map, by
        the end rule in play) or ``guard`` (the flip guard); None while it goes on."""
        if self.current_player != TERMINAL:
            return None
        if 0 in self.pile_total:
            return "pile"
        if self._map_done():
            return self.game.options["end"]  # type: ignore[no-any-return]
        return "guard"

    def facts(self) -> dict[str, int | str]:
        # Flips are what a person sits through; "ending" tells the map, a pile or the guard.
        return {"flips": self.flips, "ending": self.ending or "unfinished"}

    def used(self, loc: int) -> bool:
        """Has a coin stood on ``loc`` at some time in the game?"""
        return bool(self.ever >> loc & 1)

    def pile(self, seat: int) -> dict[str, int]:
        return {c: self.piles[4 * seat + i] for i, c in enumerate(COINS)}

    def position(self) -> dict[str, Any]:
        game = self.game
        cp = self.current_player
        return {
            "map": game.battle_map.id,
            "locations": [
                {
                    "id": loc.id,
                    "name": loc.name,
                    "x": loc.x,
                    "y": loc.y,
                    "holder": None if self.holder[i] == NOBODY else self.holder[i],
                    "stack": [COINS[c] for c in self.stacks[i]],  # bottom first, top last
                    "value": self.location_value(i),
                    "used": self.used(i),
                }
                for i, loc in enumerate(game.battle_map.locations)
            ],
            "end": game.options["end"],
            "unused": self.unused,
            "piles": [self.pile(0), self.pile(1)],
            "flips": self.flips,
            "flip_limit": FLIP_LIMIT,
            "odd_in_a_row": self.odd,
            "phase": self.phase,
            "to_move": cp if cp >= 0 else None,
            "ending": self.ending,
        }

    def __str__(self) -> str:
        game = self.game
        seats = ("U", "C")
        phase = self.phase
        who = "" if self.current_player < 0 else " " + game.SEATS[self.current_player]
        lines = [
            f"{game.battle_map.title}: {phase}{who}, flips {self.flips}, odd in a row {self.odd}"
            " (stacks top first)",
        ]
        width = max(len(x) for x in game.location_ids)
        for loc, lid in enumerate(game.location_ids):
            h = self.holder[loc]
            stack = " ".join(COINS[c] for c in reversed(self.stacks[loc]))  # top first
            mark = seats[h] if h != NOBODY else "."
            if not stack:
                stack = "- (used)" if game.ends_when_used and self.used(loc) else "-"
            lines.append(f"  {lid:<{width}}  {mark}  {stack}")
        for seat in (UNION, CONFEDERACY):
            pile = " ".join(f"{c}{n}" for c, n in self.pile(seat).items())
            lines.append(f"  {game.SEATS[seat]:<11} pile {pile}")
        a, b = self.scores()
        lines.append(f"  score {a:g}-{b:g}")
        if game.ends_when_used:
            lines.append(f"  never used {self.unused} (the game ends when none is left)")
        return "\n".join(lines)


def flip_seat(action: Action) -> int | None:
    """The seat a flip lets act (HH the Union, TT the Confederacy), None for an odd flip."""
    face = action.args[0] if action.args else None
    return {"HH": UNION, "TT": CONFEDERACY}.get(str(face))
