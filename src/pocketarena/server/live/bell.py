"""The bell (``server.notices``) and what else follows a change without being part of it:
notices queued after the change is written, never in its way (your turn, game over, a
followed player started a game), and a finished game's blunder puzzles, found in a bot
worker. A failure here is logged, never raised into the game."""

from __future__ import annotations

import logging
from typing import Any

from pocketarena.explore import EXPLORABLE

from .. import blunder_puzzles, notices
from . import session
from .bots import BotRunner
from .games import LiveGame, Runner

log = logging.getLogger(__name__)


class Bell:
    def __init__(self, runner: Runner, bots: BotRunner) -> None:
        self.runner = runner
        self.bots = bots

    def awaited(self, live: LiveGame) -> str | None:
        """The person whose move a turn-based game awaits (None: nobody, or not turn-based)."""
        if live.days_per_move is None or live.status != "active":
            return None
        return session.turn_values(live, live.state, self.runner.now())["turn_id"]  # type: ignore[no-any-return]

    def changed(self, live: LiveGame, before: str | None) -> None:
        """After a change written here (``before``: the person awaited before it): tell
        whoever it concerns, and look for blunder puzzles in a game that ended."""
        self._turn(live, before)
        if live.status == "finished" and live.game.ID in EXPLORABLE:  # blunders make puzzles
            moves = [a.text for a in live.state.history]
            self.runner.spawn(
                self._blunder_puzzles(live.id, live.game.ID, dict(live.game.options), moves)
            )

    def _turn(self, live: LiveGame, before: str | None) -> None:
        """A turn-based game: tell the player whose move it now is, or both that it is over."""
        if live.days_per_move is None:
            return
        data = {"title": live.game.TITLE}
        people = [s.player_id for s in live.seats if s is not None and s.kind != "bot"]
        if live.status == "finished":
            data["result"] = live.result or ""
            data["termination"] = live.termination or ""
            self._notify(people, "game_over", None, live.id, data)
            return
        now = self.awaited(live)
        if now is not None and now != before:
            other = next((p for p in people if p != now), None)
            if live.deadline is not None:
                data["deadline"] = live.deadline.isoformat()
            self._notify([now], "your_turn", other, live.id, data)

    def started(self, live: LiveGame) -> None:
        """Tell the followers of each account seated that it started a game."""
        for seat in live.seats:
            if seat is not None and seat.kind == "account":
                data = {"title": live.game.TITLE, "name": seat.name}
                self.runner.spawn(self._queue_followers(seat.player_id, live.id, data))

    async def _queue_followers(self, player_id: str, game_id: str, data: dict[str, Any]) -> None:
        runner = self.runner
        try:
            fans = await runner.db(notices.followers, runner.store, player_id)
            if fans:
                await runner.db(
                    notices.queue,
                    runner.store,
                    fans,
                    "followed_started",
                    runner.now(),
                    player_id,
                    game_id,
                    data,
                )
        except Exception:
            log.exception("notifications of game %s not queued", game_id)

    def _notify(
        self,
        recipients: list[str],
        kind: str,
        actor: str | None,
        game_id: str | None,
        data: dict[str, Any],
    ) -> None:
        runner = self.runner

        async def queue() -> None:
            try:
                await runner.db(
                    notices.queue,
                    runner.store,
                    recipients,
                    kind,
                    runner.now(),
                    actor,
                    game_id,
                    data,
                )
            except Exception:
                log.exception("notification %s of game %s not queued", kind, game_id)

        if recipients:
            runner.spawn(queue())

    async def _blunder_puzzles(
        self, game_id: str, game: str, options: dict[str, Any], moves: list[str]
    ) -> None:
        """Find a finished game's blunder puzzles in a bot worker, then store them."""
        try:
            found = await self.bots.call(
                blunder_puzzles.find_in_game,
                game_id,
                game,
                options,
                moves,
                timeout_s=blunder_puzzles.FIND_LIMIT_S,
                background=True,
            )
            count = await self.runner.db(
                blunder_puzzles.store_found, self.runner.store, game_id, found
            )
        except Exception:
            log.exception("blunder puzzles of game %s failed", game_id)
            return
        if count:
            log.info("game %s gave %d blunder puzzle(s)", game_id, count)
