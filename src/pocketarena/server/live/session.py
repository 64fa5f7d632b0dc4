"""One live game as a state machine: who may act, what an action does, how a game ends.

Nothing here waits, reads a clock or touches the database: the moment (``now``, a reading
of the game clock's time source, and ``wall``, the date) is passed in, and each request is
answered with a ``Change`` that says what to write and what the game becomes. The hub
writes it (naming the version it replaces) and only then ``adopt``s it, so a change that is
refused, illegal or fails to save leaves the game as it was.
"""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

from pocketarena import i18n
from pocketarena.core import (
    CHANCE,
    Action,
    ActionError,
    Game,
    Message,
    State,
    recorded_options,
)
from pocketarena.fair import SCHEME, FairChance
from pocketarena.i18n import N_, _
from pocketarena.messages import speak, speak_error
from pocketarena.ratings import Rating
from pocketarena.records import result_for
from pocketarena.render import place_names

from .. import catalog
from ..models import GameRecord, utcnow
from ..names import shown_name
from ..store import aware
from .clock import Clock

log = logging.getLogger(__name__)

MODES = ("bot", "friend", "seek", "local")
MAX_CLOCK_MS = 3 * 3600 * 1000
MAX_INCREMENT_MS = 180 * 1000
DAYS_PER_MOVE = (1, 2, 3, 5, 7, 14)  # a turn-based game's time for each move
# Game ids are checked before they reach the database (ours are 8 letters and digits).
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
RATED_KINDS = ("account", "bot")
T = TypeVar("T", bound="Table")


class GameError(Exception):
    """A request about a game that is refused; ``message`` is meant for the person."""

    STATUS = {
        "unknown_game": 404,
        "unknown_player": 404,
        "unknown_challenge": 404,
        "unknown_tournament": 404,
        "stale": 409,
        "conflict": 409,
        "full": 409,
        "not_your_turn": 403,
        "not_seated": 403,
        "forbidden": 403,
        "illegal": 422,
        "bad_request": 400,
        "not_active": 409,
        "rate_limited": 429,
        "too_many_games": 429,
        "unavailable": 503,
    }

    def __init__(
        self,
        code: str,
        message: str,
        retry_after: int = 60,
        *,
        reason: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after  # seconds, for a 429
        # The engine's reason for a refused move (``stack-a-cash.protected``) and its
        # parameters, so that a client can point at the place without reading the words.
        self.reason = reason
        self.params = params

    @classmethod
    def refused(cls, error: ActionError, game: Game) -> GameError:
        """A move the engine refused: its reason, worded in the reader's language with the
        board's own names for places."""
        said = error.to_json()
        return cls(
            "illegal",
            speak(error.message, places=place_names(game)),
            reason=said["reason"],
            params=said["params"],
        )

    def to_json(self) -> dict[str, Any]:
        """The refusal's reason and parameters, when the engine gave them."""
        return {} if self.reason is None else {"reason": self.reason, "params": self.params}

    @property
    def status(self) -> int:
        return self.STATUS.get(self.code, 400)


@dataclass
class Seat:
    player_id: str
    name: str
    kind: str  # guest | account | bot
    bot: str | None = None
    rating: Rating = field(default_factory=Rating)


@dataclass(slots=True)
class Entry:
    """A move in the move list: its notation, who made it (None: a chance outcome) and its
    sentence as a message (``said``), worded for each reader when a view is made. The English
    words (``say``) are made the first time something reads them, not for every move."""

    text: str
    seat: int | None
    chance: bool
    said: Message
    english: str | None = field(default=None, compare=False, repr=False)

    @property
    def say(self) -> str:
        """The sentence in English."""
        if self.english is None:
            self.english = catalog.said_in_english(self.said)
        return self.english

    def worded(self) -> str:
        """The sentence in the reader's language (its English made once, the other
        languages' for each view that shows it)."""
        if i18n.current() == i18n.DEFAULT:
            return self.say
        try:
            return speak(self.said)
        except Exception:  # a sentence the language cannot word: its English stays
            log.exception("wording %s failed", self.said)
            return self.say


@dataclass
class Table:
    """A game at its table: the players' seats, the position, the clocks and the result."""

    id: str
    game: Game
    state: State
    mode: str
    rated: bool
    creator_id: str
    creator_seat: int
    seats: list[Seat | None]
    status: str = "waiting"
    version: int = 0
    invite_token: str | None = None
    chance: FairChance | None = None
    clock: Clock | None = None
    movers: list[int] = field(default_factory=list)  # who made each action (CHANCE: nobody)
    entries: list[Entry] = field(default_factory=list)  # the move list, described
    events_from: int = 0  # history index where the last change began (for animations)
    winner: int | None = None
    result: str | None = None
    termination: str | None = None
    final_scores: list[float] | None = None
    rating_changes: list[dict[str, Any]] | None = None
    rematch_of: str | None = None
    rematch_id: str | None = None
    rematch_offers: set[int] = field(default_factory=set)
    created_at: datetime = field(default_factory=utcnow)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    throwers: dict[int, int | None] = field(default_factory=dict)
    creator_addr: str | None = None  # keyed hash of the address it was opened from
    days_per_move: int | None = None  # a turn-based game: the days each move may take
    deadline: datetime | None = None  # when the move awaited is due (turn-based games)
    draw_offer: int | None = None  # the seat offering a draw (until a move or an answer)
    takeback_offer: int | None = None  # the seat asking to take its last move back

    def seats_of(self, player_id: str | None) -> list[int]:
        if player_id is None:
            return []
        return [i for i, s in enumerate(self.seats) if s is not None and s.player_id == player_id]

    def actor(self, state: State | None = None) -> int | None:
        """The seat expected to act: the decision's seat, or the seat that throws in person."""
        state = self.state if state is None else state
        if state.current_player >= 0:
            return state.current_player
        if state.current_player == CHANCE:
            return self.thrower(state)
        return None

    def thrower(self, state: State) -> int | None:
        # A game's history only grows, so the position at a ply never changes: cache by ply.
        ply = len(state.history)
        if ply not in self.throwers:
            self.throwers[ply] = catalog.thrower(state)
        return self.throwers[ply]

    def rated_pair(self, movers: set[int]) -> tuple[str, str] | None:
        """The players whose ratings this game changes: a rated game between two players who
        may be rated (see ``may_be_rated``), in which each of them made a move (``movers``:
        the seats that did; a game given up before then is too short to say anything)."""
        a, b = self.seats
        if self.rated and may_be_rated(self.seats) and {0, 1} <= movers:
            assert a is not None and b is not None
            return (a.player_id, b.player_id)
        return None


def may_be_rated(seats: list[Seat | None]) -> bool:
    """Rated play needs two different players, each an account or a bot (not two bots): a
    guest's games are never rated (anyone can make guests), and nobody rates against
    themselves."""
    a, b = seats
    return (
        a is not None
        and b is not None
        and a.player_id != b.player_id
        and a.kind in RATED_KINDS
        and b.kind in RATED_KINDS
        and not (a.kind == b.kind == "bot")
    )


@dataclass(frozen=True)
class Finish:
    """How a game ends: the result to record, and whose ratings change (None: nobody's)."""

    winner: int | None
    termination: str
    scores: list[float]
    at: datetime
    rated: tuple[str, str] | None

    @property
    def result(self) -> str:
        return result_for(self.winner)


@dataclass
class Change:
    """An accepted request, not yet made: the row's new values (``values``, written naming
    the table's version), the position and clocks the table then has, and how it ended."""

    state: State
    values: dict[str, Any]
    clock: Clock | None
    finish: Finish | None = None


# -- the move list ------------------------------------------------------------------------------
def append(table: Table, state: State, action: Action, played: bool = False) -> None:
    """Apply ``action`` to ``state`` (the table's own while loading) and extend the move
    list. ``played``: the action was already applied, checked, to the position that replaces
    ``state`` (``adopt``'s), so it is pushed without a second check."""
    seat = state.current_player
    said = catalog.describe_said(table.game.ID, action, state)
    if played:
        state.push(action)
    else:
        state.apply(action)
    table.movers.append(seat)
    table.entries.append(Entry(action.text, seat if seat >= 0 else None, action.chance, said))


def movers(table: Table, new: State) -> set[int]:
    """The seats that made a decision in ``new`` (the table's position plus what follows)."""
    seats = {m for m in table.movers if m >= 0}
    replay = table.state.clone()
    for action in new.history[len(table.state.history) :]:
        if replay.current_player >= 0:
            seats.add(replay.current_player)
        replay.apply(action)
    return seats


def auto_chance(table: Table, new: State) -> None:
    """Throw for every chance node whose thrower is nobody or a bot (FairChance decides)."""
    guard = catalog.max_plies(table.game) + 1
    while new.current_player == CHANCE and guard > 0:
        seat = table.thrower(new)
        if seat is not None and (s := table.seats[seat]) is not None and s.kind != "bot":
            break
        assert table.chance is not None, "a game with chance nodes always has a FairChance"
        new.apply(table.chance.outcome(new))
        guard -= 1


# -- requests -----------------------------------------------------------------------------------
def check_turn(table: Table, player_id: str | None, version: Any) -> int:
    """The seat the player acts for, or a GameError saying why they cannot act now."""
    if table.status == "waiting":
        raise GameError("not_active", _("the game has not started: it is waiting for an opponent"))
    if table.status != "active":
        raise GameError("not_active", _("the game is over"))
    if isinstance(version, bool) or not isinstance(version, int):
        raise GameError("bad_request", _("a move must say the version of the game it was made on"))
    if version != table.version:
        raise GameError(
            "stale",
            _(
                "this was sent for version %(sent)s of the game, which is now at version "
                "%(now)s (already played, or the position changed): here is the current one",
                sent=version,
                now=table.version,
            ),
        )
    mine = table.seats_of(player_id)
    if not mine:
        raise GameError("not_seated", _("you are watching this game; only its players can move"))
    actor = table.actor()
    if actor is None:
        raise GameError("not_your_turn", _("nobody can act now; the coins are being thrown"))
    if actor not in mine:
        seat = table.seats[actor]
        name = (
            shown_name(seat.player_id, seat.name, seat.kind) if seat else _(table.game.SEATS[actor])
        )
        raise GameError(
            "not_your_turn",
            _(
                "it is %(name)s's turn (%(seat)s), not yours",
                name=name,
                seat=_(table.game.SEATS[actor]),
            ),
        )
    return actor


def move(
    table: Table, player_id: str | None, text: Any, version: Any, now: float, wall: datetime
) -> Change:
    """A decision in notation, made by ``player_id`` on ``version``."""
    check_turn(table, player_id, version)
    if table.state.current_player == CHANCE:
        raise GameError(
            "illegal", _("the coins must be thrown first: press the throw button (message 'throw')")
        )
    if not isinstance(text, str) or not text.strip() or len(text) > 100:
        raise GameError(
            "bad_request",
            _("a move is notation text, e.g. %(example)s", example=table.game.actions[0].text),
        )
    try:
        new = table.state.child(table.game.parse_action(text))
    except ActionError as e:
        raise GameError.refused(e, table.game) from None
    return advance(table, new, now, wall)


def throw(table: Table, player_id: str | None, version: Any, now: float, wall: datetime) -> Change:
    """The coins thrown in person by the seat whose throw it is (FairChance decides how they
    fall)."""
    check_turn(table, player_id, version)
    if table.state.current_player != CHANCE or table.chance is None:
        raise GameError("illegal", _("there is nothing to throw now: it is time to move"))
    new = table.state.clone()
    new.apply(table.chance.outcome(new))
    return advance(table, new, now, wall)


def resign(table: Table, player_id: str | None, now: float, wall: datetime) -> Change:
    if table.status != "active":
        raise GameError("not_active", _("only a game in progress can be resigned"))
    mine = table.seats_of(player_id)
    if not mine:
        raise GameError("not_seated", _("only a player of this game can resign it"))
    # Both seats on one screen: the side to act (or seat 0) resigns.
    actor = table.actor()
    seat = actor if actor in mine else mine[0]
    return finish(table, table.state, 1 - seat, "resignation", now, wall)


# -- gestures: abort, draw, takeback -------------------------------------------------------------
# Why a gesture (a draw, a takeback) cannot be made, worded whole for each gesture.
GESTURE_REFUSALS = {
    "draw": {
        "not_active": N_("only a game in progress can have a draw"),
        "not_seated": N_("only a player of this game can ask for a draw"),
        "both_seats": N_("both seats are yours: there is nobody to ask for a draw"),
        "bot": N_("a bot plays every game to its end: no draw"),
    },
    "takeback": {
        "not_active": N_("only a game in progress can have a takeback"),
        "not_seated": N_("only a player of this game can ask for a takeback"),
        "both_seats": N_("both seats are yours: there is nobody to ask for a takeback"),
        "bot": N_("a bot plays every game to its end: no takeback"),
    },
}


def _opponent_seat(table: Table, player_id: str | None, what: str) -> int:
    """The seat of ``player_id`` in a game in progress against someone else (a gesture
    between two players: ``what`` is draw or takeback), or a GameError saying why not."""
    why = GESTURE_REFUSALS[what]
    if table.status != "active":
        raise GameError("not_active", _(why["not_active"]))
    mine = table.seats_of(player_id)
    if not mine:
        raise GameError("not_seated", _(why["not_seated"]))
    if len(mine) == 2:
        raise GameError("forbidden", _(why["both_seats"]))
    other = table.seats[1 - mine[0]]
    if other is not None and other.kind == "bot":
        raise GameError("forbidden", _(why["bot"]))
    return mine[0]


def decided(table: Table) -> set[int]:
    """The seats that have made a decision in this game so far."""
    return {m for m in table.movers if m >= 0}


def abortable(table: Table) -> bool:
    """A game in progress may be aborted until each side has made a move, unless a tournament
    paired it: its result counts whoever is paired (an abort would score half a point each)."""
    return table.status == "active" and table.mode != "tourney" and not {0, 1} <= decided(table)


def abort(table: Table, player_id: str | None, now: float, wall: datetime) -> Change:
    """Call the game off before each side has moved: no result, no rating change."""
    if table.status != "active":
        raise GameError("not_active", _("only a game in progress can be aborted"))
    if not table.seats_of(player_id):
        raise GameError("not_seated", _("only a player of this game can abort it"))
    if table.mode == "tourney":
        raise GameError(
            "forbidden", _("a tournament's games cannot be aborted: resign, or offer a draw")
        )
    if not abortable(table):
        raise GameError(
            "forbidden",
            _("both sides have moved: the game can no longer be aborted (resign, or offer a draw)"),
        )
    clock = table.clock.copy() if table.clock is not None else None
    if clock is not None:
        clock.stop(now)
    values = {
        **_row_values(table, table.state, clock, now, wall),
        "status": "aborted",
        "termination": "aborted",
        "finished_at": wall,
        "turn_id": None,
        "deadline": None,
    }
    return Change(table.state, values, clock)


def offer_draw(table: Table, player_id: str | None, now: float, wall: datetime) -> Change:
    """Offer a draw; offering when the opponent has offered accepts theirs."""
    seat = _opponent_seat(table, player_id, "draw")
    if table.draw_offer == 1 - seat:
        return finish(table, table.state, None, "agreement", now, wall)
    if table.draw_offer == seat:
        raise GameError("conflict", _("you have offered a draw already; wait for the answer"))
    return _offer(table, {"draw_offer": seat}, now, wall)


def answer_draw(
    table: Table, player_id: str | None, accept: bool, now: float, wall: datetime
) -> Change:
    """Accept the opponent's draw offer (the game is drawn) or decline it."""
    seat = _opponent_seat(table, player_id, "draw")
    if table.draw_offer != 1 - seat:
        raise GameError("conflict", _("there is no draw offer from your opponent to answer"))
    if accept:
        return finish(table, table.state, None, "agreement", now, wall)
    return _offer(table, {"draw_offer": None}, now, wall)


def takeback_point(table: Table, seat: int) -> int | None:
    """How many actions remain when ``seat``'s last decision is taken back (with everything
    played after it); None: it has made none."""
    for ply in range(len(table.movers) - 1, -1, -1):
        if table.movers[ply] == seat:
            return ply
    return None


def ask_takeback(table: Table, player_id: str | None, now: float, wall: datetime) -> Change:
    """Ask to take back your last move; the opponent decides (rated games too)."""
    seat = _opponent_seat(table, player_id, "takeback")
    if takeback_point(table, seat) is None:
        raise GameError("forbidden", _("you have not moved yet: there is nothing to take back"))
    if table.takeback_offer == seat:
        raise GameError("conflict", _("you have asked for a takeback already; wait for the answer"))
    return _offer(table, {"takeback_offer": seat}, now, wall)


def answer_takeback(
    table: Table, player_id: str | None, accept: bool, now: float, wall: datetime
) -> Change:
    """Agree to the opponent's takeback (their last move and everything after it go; they
    move again) or refuse it."""
    seat = _opponent_seat(table, player_id, "takeback")
    asker = 1 - seat
    point = takeback_point(table, asker) if table.takeback_offer == asker else None
    if point is None:
        raise GameError("conflict", _("there is no takeback request from your opponent to answer"))
    if not accept:
        return _offer(table, {"takeback_offer": None}, now, wall)
    state = table.game.new_initial_state()
    for action in table.state.history[:point]:
        state.apply(action)
    return step(table, state, now, wall)


def _offer(table: Table, offers: dict[str, Any], now: float, wall: datetime) -> Change:
    """An offer made or answered: the position and clocks stay, the row says who offers."""
    clock = table.clock.copy() if table.clock is not None else None
    values = {"version": table.version + 1, **offers}
    return Change(table.state, values, clock)


def flag(table: Table, now: float, wall: datetime) -> Change | None:
    """Lose on time, if the running clock has run out at ``now``, or the move awaited in a
    turn-based game was due before ``wall``."""
    if table.status != "active":
        return None
    if table.deadline is not None and wall >= table.deadline:
        seat = table.actor()
        if seat is None:
            return None
        return finish(table, table.state, 1 - seat, "time forfeit", now, wall)
    if table.clock is None:
        return None
    seat = table.clock.flagged(now)
    if seat is None:
        return None
    clock = table.clock.copy()
    clock.remaining[seat] = 0
    return finish(table, table.state, 1 - seat, "time forfeit", now, wall, clock)


def begin(table: Table, now: float, wall: datetime) -> Change | None:
    """Both seats are taken: the opening chance nodes nobody throws in person (None: there
    are none, the clock just starts; see ``start_clock``)."""
    new = table.state.clone()
    auto_chance(table, new)
    if len(new.history) == len(table.state.history):
        return None
    return step(table, new, now, wall)


def start_clock(table: Table, now: float) -> None:
    if table.clock is not None:
        table.clock.switch(table.actor(), now)


def advance(table: Table, new: State, now: float, wall: datetime) -> Change:
    """``new`` (one action past the table's position) after the chance nodes nobody throws
    in person; the end of the game if it is over."""
    auto_chance(table, new)
    if new.is_terminal():
        return finish(table, new, new.winner(), "normal", now, wall)
    return step(table, new, now, wall)


def step(table: Table, new: State, now: float, wall: datetime) -> Change:
    """The game goes on at ``new``: the clock passes to whoever acts there."""
    clock = table.clock.copy() if table.clock is not None else None
    if clock is not None:
        clock.switch(table.actor(new), now)
    return Change(new, _row_values(table, new, clock, now, wall), clock)


def finish(
    table: Table,
    new: State,
    winner: int | None,
    termination: str,
    now: float,
    wall: datetime,
    clock: Clock | None = None,
) -> Change:
    """The game ends at ``new``. It is rated only if both players moved (see
    ``Table.rated_pair``). ``clock``: the clocks as they end (default: the table's)."""
    if clock is None and table.clock is not None:
        clock = table.clock.copy()
    if clock is not None:
        clock.stop(now)
    done = Finish(
        winner=winner,
        termination=termination,
        scores=[float(x) for x in new.scores()],
        at=wall,
        rated=table.rated_pair(movers(table, new)),
    )
    values = {
        **_row_values(table, new, clock, now, wall),
        "status": "finished",
        "winner": winner,
        "result": done.result,
        "termination": termination,
        "scores": done.scores,
        "finished_at": wall,
        "rated": done.rated is not None,
        "turn_id": None,
        "deadline": None,
    }
    return Change(new, values, clock, done)


def _row_values(
    table: Table, new: State, clock: Clock | None, now: float, wall: datetime
) -> dict[str, Any]:
    values: dict[str, Any] = {
        "history": [a.text for a in new.history],
        "version": table.version + 1,
    }
    if clock is not None:
        values["clock0_ms"] = max(0, clock.left_ms(0, now))
        values["clock1_ms"] = max(0, clock.left_ms(1, now))
        values["clock_since"] = wall  # the running clock (re)started now
    values.update(turn_values(table, new, wall))
    # An offer is made on a position: a move (or the end) withdraws it.
    if table.draw_offer is not None:
        values["draw_offer"] = None
    if table.takeback_offer is not None:
        values["takeback_offer"] = None
    return values


def turn_values(
    table: Table, state: State, wall: datetime, seats: list[Seat | None] | None = None
) -> dict[str, Any]:
    """Whose move it is at ``state`` (a person's, for their "your turn" list) and, in a
    turn-based game, when it is due: ``days_per_move`` from ``wall``. A bot has no deadline:
    it moves at once. ``seats``: the seats as they are about to be (default: the table's)."""
    seats = table.seats if seats is None else seats
    actor = table.actor(state) if not state.is_terminal() else None
    seat = seats[actor] if actor is not None else None
    person = seat is not None and seat.kind != "bot"
    due = None
    if person and table.days_per_move is not None:
        due = wall + timedelta(days=table.days_per_move)
    return {"turn_id": seat.player_id if seat is not None and person else None, "deadline": due}


def adopt(table: Table, change: Change) -> None:
    """Make the change, once it is written."""
    start = len(table.state.history)
    kept = len(change.state.history)
    if kept < start:  # moves taken back: the move list and what was known past it go
        del table.movers[kept:]
        del table.entries[kept:]
        table.throwers = {ply: seat for ply, seat in table.throwers.items() if ply <= kept}
        start = kept
    replay = table.state  # extend the move list with the new actions
    for action in change.state.history[start:]:
        append(table, replay, action, played=True)
    table.state = change.state
    table.clock = change.clock
    table.events_from = start
    table.version += 1
    values = change.values
    if "deadline" in values:
        table.deadline = values["deadline"]
    if "draw_offer" in values:
        table.draw_offer = values["draw_offer"]
    if "takeback_offer" in values:
        table.takeback_offer = values["takeback_offer"]
    if values.get("status") == "aborted":
        table.status = "aborted"
        table.termination = values.get("termination")
        table.finished_at = values.get("finished_at")
    done = change.finish
    if done is not None:
        table.status = "finished"
        table.rated = done.rated is not None
        table.winner = done.winner
        table.result = done.result
        table.termination = done.termination
        table.final_scores = done.scores
        table.finished_at = done.at


# -- before and after play ----------------------------------------------------------------------
def check_new_game(
    game_id: str,
    options: dict[str, Any],
    mode: str,
    seat: int | None,
    bot: str | None,
    clock: tuple[int, int] | None,
    days_per_move: int | None = None,
) -> Game:
    """The game asked for, once every part of the request is checked (nothing is written
    before: a refused request changes nothing)."""
    if mode not in MODES:
        raise GameError(
            "bad_request",
            _("mode must be one of %(modes)s, not %(mode)r", modes=", ".join(MODES), mode=mode),
        )
    if days_per_move is not None:
        if isinstance(days_per_move, bool) or days_per_move not in DAYS_PER_MOVE:
            raise GameError(
                "bad_request",
                _(
                    "days_per_move must be one of %(days)s, not %(value)r",
                    days=", ".join(map(str, DAYS_PER_MOVE)),
                    value=days_per_move,
                ),
            )
        if clock is not None:
            raise GameError(
                "bad_request",
                _("a game has a real-time clock or days per move, not both: send one of them"),
            )
    try:
        game = catalog.load_game(game_id, options)  # ValueError for anything but a game id
    except ValueError as e:
        raise GameError("bad_request", speak_error(e)) from None
    if seat not in (None, 0, 1):
        raise GameError("bad_request", _("seat must be 0 (first), 1 (second) or omitted (random)"))
    if clock is not None:
        initial, increment = clock
        if not (10_000 <= initial <= MAX_CLOCK_MS and 0 <= increment <= MAX_INCREMENT_MS):
            raise GameError(
                "bad_request",
                _("a clock needs 10 s to 3 h of initial time and 0 to 180 s increment"),
            )
    if mode == "bot":
        if not bot:
            raise GameError("bad_request", _("choose a bot level to play against"))
        levels = catalog.bot_levels(game.ID)
        if bot not in levels:
            raise GameError(
                "bad_request",
                _(
                    "no %(bot)r bot for %(game)s; choose one of: %(levels)s",
                    bot=bot,
                    game=game.TITLE,
                    levels=", ".join(levels),
                ),
            )
    return game


def rated_at_start(asked: bool, seats: list[Seat | None], creator_kind: str) -> bool:
    """Whether a new game is rated: as asked, if its players may be rated (both seated), or
    may yet be (a guest's game never is, whoever joins)."""
    if seats[0] is not None and seats[1] is not None:
        return asked and may_be_rated(seats)
    return asked and creator_kind in RATED_KINDS


def charge(table: Table, since: datetime, until: datetime) -> None:
    """Charge the player to act the time from ``since`` to ``until`` (a game resumed after
    the server stopped: the time used before it stopped, not the time it was down)."""
    actor = table.actor()
    used_ms = round((until - since).total_seconds() * 1000)
    if table.clock is not None and actor is not None and used_ms > 0:
        table.clock.remaining[actor] -= used_ms


def rename(table: Table, player_id: str, name: str) -> bool:
    """Show a player's new name in their seats; whether any changed."""
    changed = False
    for seat in table.seats:
        if seat is not None and seat.player_id == player_id and seat.name != name:
            seat.name = name
            changed = True
    return changed


def joining_seat(table: Table, player_id: str, invite: str | None) -> int | None:
    """The seat ``player_id`` takes by joining (None: it is theirs already)."""
    if table.status != "waiting":
        if table.seats_of(player_id):
            return None
        raise GameError("full", _("this game already has both players; you can watch it"))
    if table.seats_of(player_id):
        raise GameError(
            "forbidden", _("this is your own game: send the invite link to a friend, or wait")
        )
    if table.mode == "friend" and (
        not isinstance(invite, str) or not secrets.compare_digest(invite, table.invite_token or "")
    ):
        raise GameError("forbidden", _("this game is by invitation; ask its creator for the link"))
    return 1 - table.creator_seat


def abandoned_values(version: int) -> dict[str, Any]:
    """The write that ends a game nobody joined, replacing ``version``."""
    return {"status": "aborted", "termination": "abandoned", "version": version + 1}


def rematch_offer(table: Table, player_id: str | None) -> list[int]:
    """The seats ``player_id`` offers a rematch for (their seats in the finished game)."""
    if table.status != "finished":
        raise GameError("not_active", _("a rematch can be offered once the game is over"))
    mine = table.seats_of(player_id)
    if not mine or player_id is None:
        raise GameError("not_seated", _("only the players of this game can ask for a rematch"))
    return mine


def rematch_agreed(table: Table, mine: list[int]) -> bool:
    """Whether every other seat offered a rematch too (a bot always agrees)."""
    return all(
        (seat := table.seats[s]) is not None and (seat.kind == "bot" or s in table.rematch_offers)
        for s in (0, 1)
        if s not in mine
    )


@dataclass(frozen=True)
class Rematch:
    """The new game a rematch opens: seats swapped, the same game, options and clock."""

    creator_id: str
    mode: str
    seat: int
    bot: str | None
    clock: tuple[int, int] | None
    rated: bool
    opponent_id: str | None  # seated at once, without the invite (friend and seek games)
    days_per_move: int | None = None


def rematch_terms(table: Table, player_id: str) -> Rematch:
    bot = next((s.bot for s in table.seats if s is not None and s.kind == "bot"), None)
    creator_seat = table.creator_seat if table.mode != "bot" else table.seats_of(player_id)[0]
    opponent = None
    if table.mode in ("friend", "seek"):
        # The invited player is the other seat of the old game.
        opponent = next(
            (s.player_id for s in table.seats if s and s.player_id != table.creator_id), None
        )
    return Rematch(
        creator_id=player_id if table.mode == "bot" else table.creator_id,
        mode="local" if table.mode == "local" else ("bot" if table.mode == "bot" else "friend"),
        seat=1 - creator_seat,
        bot=bot,
        clock=(table.clock.initial_ms, table.clock.increment_ms) if table.clock else None,
        rated=table.rated,
        opponent_id=opponent,
        days_per_move=table.days_per_move,
    )


# -- the stored row -----------------------------------------------------------------------------
def new_record(table: Table) -> GameRecord:
    """The row of a game just opened (nothing played yet)."""
    clock, chance = table.clock, table.chance
    seat0, seat1 = table.seats
    return GameRecord(
        id=table.id,
        game=table.game.ID,
        options=dict(table.game.options),
        mode=table.mode,
        status=table.status,
        rated=table.rated,
        creator_id=table.creator_id,
        seat0_id=seat0.player_id if seat0 else None,
        seat1_id=seat1.player_id if seat1 else None,
        creator_seat=table.creator_seat,
        invite_token=table.invite_token,
        clock_initial_ms=clock.initial_ms if clock else None,
        clock_increment_ms=clock.increment_ms if clock else None,
        clock0_ms=clock.remaining[0] if clock else None,
        clock1_ms=clock.remaining[1] if clock else None,
        history=[],
        version=0,
        chance_scheme=SCHEME if chance else None,
        chance_seed=chance.reveal() if chance else None,
        chance_commitment=chance.commitment if chance else None,
        rematch_of=table.rematch_of,
        creator_addr=table.creator_addr,
        created_at=table.created_at,
        started_at=table.started_at,
        days_per_move=table.days_per_move,
        **(
            turn_values(table, table.state, table.started_at or table.created_at)
            if table.status == "active"
            else {}
        ),
    )


def from_record(kind: type[T], row: GameRecord, seats: list[Seat | None]) -> T:
    """The table (of class ``kind``) of a stored row, its history replayed and its clocks as
    stored (not running)."""
    try:
        # Saved before an option existed: played as games were then.
        game = catalog.load_game(row.game, recorded_options(row.game, row.options))
    except ValueError as e:
        raise GameError(
            "unavailable", _("game %(id)s cannot be loaded: %(why)s", id=row.id, why=e)
        ) from None
    table = kind(
        id=row.id,
        game=game,
        state=game.new_initial_state(),
        mode=row.mode,
        rated=row.rated,
        creator_id=row.creator_id,
        creator_seat=row.creator_seat if row.creator_seat is not None else 0,
        seats=seats,
        status=row.status,
        version=row.version,
        invite_token=row.invite_token,
        chance=FairChance(row.id, seed=row.chance_seed) if row.chance_seed else None,
        clock=_stored_clock(row),
        winner=row.winner,
        result=row.result,
        termination=row.termination,
        final_scores=row.scores,
        rating_changes=row.rating_changes,
        rematch_of=row.rematch_of,
        rematch_id=row.rematch_id,
        created_at=row.created_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
        creator_addr=row.creator_addr,
        days_per_move=row.days_per_move,
        deadline=aware(row.deadline) if row.deadline is not None else None,
        draw_offer=row.draw_offer,
        takeback_offer=row.takeback_offer,
    )
    try:
        for text in row.history:
            append(table, table.state, table.state.game.action(text))
    except ValueError as e:
        raise GameError(
            "unavailable", _("game %(id)s no longer replays: %(why)s", id=row.id, why=e)
        ) from None
    table.events_from = len(table.state.history)
    return table


def advanced(table: T, row: GameRecord) -> T | None:
    """The stored game as ``table`` plus the moves played since (the common case: a game in
    progress, same players, history extended), without reading the players again or
    replaying the whole game; None when it is anything else."""
    if row.status != "active" or table.status != "active":
        return None
    if [row.seat0_id, row.seat1_id] != [s.player_id if s else None for s in table.seats]:
        return None
    done = len(table.state.history)
    if row.history[:done] != [a.text for a in table.state.history]:
        return None
    fresh = replace(
        table,
        state=table.state.clone(),
        movers=list(table.movers),
        entries=list(table.entries),
        throwers=dict(table.throwers),
    )
    try:
        for text in row.history[done:]:
            append(fresh, fresh.state, fresh.state.game.action(text))
    except ValueError:  # an ActionError too
        return None
    fresh.version = row.version
    fresh.rated = row.rated
    fresh.clock = _stored_clock(row) or fresh.clock
    fresh.deadline = aware(row.deadline) if row.deadline is not None else None
    fresh.draw_offer, fresh.takeback_offer = row.draw_offer, row.takeback_offer
    return fresh


def _stored_clock(row: GameRecord) -> Clock | None:
    if row.clock_initial_ms is None:
        return None
    return Clock(
        row.clock_initial_ms, row.clock_increment_ms or 0, [row.clock0_ms or 0, row.clock1_ms or 0]
    )
