"""Running a game: a match between players, which ends in a record.

The code that runs a game owns its randomness: a match takes a ``ChanceSource`` (a
``SeededChance`` derives every throw from its seed and the ply alone; the server's fair coins
follow the same protocol). Both live in :mod:`pocketarena.core.chance` and are also importable
from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .bots.base import Bot
from .core import CHANCE, TERMINAL, Action, Game, IllegalActionError, State, seat_of
from .core.chance import ChanceSource, SeededChance
from .records import Player, Record, now_utc, result_for, result_of

__all__ = [
    "ChanceSource",
    "Match",
    "SeededChance",
    "deciders_after_throw",
    "play_match",
]


def deciders_after_throw(state: State) -> set[int]:
    """The seats that may decide right after this chance node's throw, i.e. whose throw it is.

    In Coin Age the slap starts the mover's turn (one seat); in Wallet Battles both flip and
    either may act (both seats). Empty when every outcome leads to more chance or the end."""
    seats: set[int] = set()
    for action, _ in state.chance_outcomes():
        # the state's own outcomes: pushed unchecked (``child`` would list them again for each)
        player = state.pushed(action).current_player
        if player >= 0:
            seats.add(player)
    return seats


class Match:
    """A game in progress between two seats, each a ``Bot`` or ``None`` (a person).

    It owns the chance source, knows who made each move (for ``undo``) and ends in a Record.
    The terminal ``play`` command drives one; so can a server or a test.
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[Bot | None],
        chance: ChanceSource,
        *,
        players: Sequence[Player] | None = None,
        seed: int | str | None = None,
        headers: Mapping[str, str] | None = None,
        reseed_bots: bool = False,
    ) -> None:
        if len(seats) != 2:
            raise ValueError(f"a match has 2 seats, got {len(seats)}")
        self.game = game
        self.seats = tuple(seats)
        self.chance = chance
        self.state = game.new_initial_state()
        self.players = (
            list(players)
            if players is not None
            else [
                Player(name=bot.name, kind="bot")
                if bot is not None
                else Player(name="human", kind="human")
                for bot in self.seats
            ]
        )
        self.seed = seed if seed is not None else getattr(chance, "seed", None)
        self.headers = dict(headers or {})
        # Each bot decision drawn from (seed, ply) alone, like the throws: the game goes on
        # the same way after an undo or when resumed from its record.
        self.reseed_bots = reseed_bots and self.seed is not None
        if isinstance(chance, SeededChance):
            self.headers.setdefault("Chance", "seeded")
        self.started = now_utc()
        self.movers: list[int] = []  # who acted at each ply: a seat, or CHANCE for a throw
        self.resigned: int | None = None  # the seat that resigned
        self.abandoned = False

    # -- where the game stands -----------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.is_terminal() or self.resigned is not None or self.abandoned

    @property
    def last(self) -> Action | None:
        return self.state.history[-1] if self.state.history else None

    def is_human(self, seat: int) -> bool:
        return 0 <= seat < 2 and self.seats[seat] is None

    def human_to_act(self) -> bool:
        """A person must act now: decide, or throw the coins of their turn."""
        player = self.state.current_player
        if player == CHANCE:
            return self.human_throws()
        return player != TERMINAL and self.is_human(player)

    def human_throws(self) -> bool:
        """At a chance node: is it (also) a person's throw, so they press Enter for it?"""
        if not any(bot is None for bot in self.seats):
            return False
        deciders = deciders_after_throw(self.state)
        return not deciders or any(self.is_human(seat) for seat in deciders)

    # -- acting --------------------------------------------------------------------------
    def throw(self) -> Action:
        """Throw the coins at a chance node (from the match's chance source)."""
        if self.state.current_player != CHANCE:
            raise IllegalActionError("match.nothing-to-throw")
        action = self.chance.outcome(self.state)
        self._apply(action, CHANCE)
        return action

    def play(self, action: Action | str | int) -> Action:
        """A person's decision: notation, an Action, or the 1-based number of a listed move."""
        player = self.state.current_player
        if self.over:
            raise IllegalActionError("match.over")
        if player == CHANCE:
            raise IllegalActionError("match.throw-first")
        if not self.is_human(player):
            raise IllegalActionError("match.bot-seat", seat=seat_of(self.game.SEATS[player]))
        if isinstance(action, int):
            legal = self.state.legal_actions()
            if not 1 <= action <= len(legal):
                raise IllegalActionError("match.no-such-number", number=action, last=len(legal))
            action = legal[action - 1]
        return self._apply(action, player)

    def bot_move(self) -> Action:
        player = self.state.current_player
        bot = self.seats[player] if player >= 0 else None
        if bot is None:
            raise IllegalActionError("match.no-bot-to-move")
        if self.reseed_bots:
            bot.reseed(f"{self.seed}:bot:{self.state.ply}")
        return self._apply(bot.choose(self.state), player)

    def step(self) -> Action:
        """One automatic step: a throw, or the bot to move deciding."""
        if self.state.current_player == CHANCE:
            return self.throw()
        return self.bot_move()

    def _apply(self, action: Action | str, mover: int) -> Action:
        self.state.apply(action)
        self.movers.append(mover)
        return self.state.history[-1]

    def resume(self, moves: Sequence[str]) -> None:
        """Play a saved game's moves again (a fresh match only), so it goes on from there;
        IllegalActionError names the first move that does not fit."""
        if self.state.history:
            raise IllegalActionError("match.resume-started")
        for number, text in enumerate(moves, start=1):
            mover = self.state.current_player
            try:
                self._apply(text, mover)
            except IllegalActionError as e:
                raise IllegalActionError(
                    "match.resume-illegal", number=number, text=text, why=e.message
                ) from None

    def undo(self, seat: int | None = None) -> int:
        """Take back ``seat``'s last decision and everything after it (the bot's reply, the
        throws: they are re-derived identically when played again). With no seat, the last
        decision of anyone. Returns how many plies were taken back."""
        if self.resigned is not None or self.abandoned:
            raise IllegalActionError("match.ended-no-undo")
        cut = None
        for ply in range(len(self.movers) - 1, -1, -1):
            mover = self.movers[ply]
            if mover >= 0 and (seat is None or mover == seat):
                cut = ply
                break
        if cut is None:
            raise IllegalActionError("match.nothing-to-undo")
        taken = len(self.movers) - cut
        history = self.state.history[:cut]
        state = self.game.new_initial_state()
        for action in history:
            state.apply(action)
        self.state = state
        del self.movers[cut:]
        for bot in self.seats:
            if bot is not None:
                bot.reset()
        return taken

    def resign(self, seat: int) -> None:
        if self.over:
            raise IllegalActionError("match.already-over")
        self.resigned = seat

    def abandon(self) -> None:
        if not self.over:
            self.abandoned = True

    # -- the outcome ------------------------------------------------------------------------
    @property
    def result(self) -> str:
        if self.resigned is not None:
            return result_for(1 - self.resigned)
        return result_of(self.state)

    @property
    def termination(self) -> str:
        if self.resigned is not None:
            return "resignation"
        if self.state.is_terminal():
            return "normal"
        return "abandoned" if self.abandoned else "unterminated"

    def record(self) -> Record:
        return Record.from_state(
            self.state,
            players=self.players,
            result=self.result,
            termination=self.termination,
            started=self.started,
            seed=self.seed,
            headers=self.headers,
        )


def play_match(
    game: Game,
    bots: Sequence[Bot],
    chance: ChanceSource,
    *,
    players: Sequence[Player] | None = None,
    headers: Mapping[str, str] | None = None,
    on_action: Callable[[State, Action], None] | None = None,
) -> Record:
    """Play ``game`` between two bots to the end and return its record.

    ``on_action(state, action)`` is called after each action (the state already has it)."""
    match = Match(game, bots, chance, players=players, headers=headers)
    while not match.state.is_terminal():
        action = match.step()
        if on_action is not None:
            on_action(match.state, action)
    return match.record()
