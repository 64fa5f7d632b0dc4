"""Games on the server as records (``pocketarena.records``), with the fair-chance headers."""

from __future__ import annotations

from datetime import UTC, datetime

from pocketarena import records
from pocketarena.fair import HEADER_COMMITMENT, HEADER_GAME_ID, HEADER_SCHEME, HEADER_SEED

from . import catalog
from .live.games import LiveGame
from .names import guest_number

SITE = "Pocket Arena"


def _iso(value: datetime | None) -> str | None:
    """ISO 8601 UTC to the second, as records write dates (SQLite returns naive UTC)."""
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(UTC)
    return value.replace(microsecond=0, tzinfo=None).isoformat() + "Z"


def record_of(live: LiveGame) -> records.Record:
    """The record of a game as anyone may download it: the seed only once the game is over."""
    # A guest's given name and a bot's as stored, with the guest's number and the bot's spec:
    # one file for every reader, which each reader's program words in its language, and from
    # which `pocketarena play --resume` makes the bot.
    players = [
        records.Player(
            name=s.name,
            kind="bot" if s.kind == "bot" else "human",
            guest=guest_number(s.player_id, s.name),
            bot=s.bot if s.kind == "bot" else None,
        )
        if s
        else records.Player()
        for s in live.seats
    ]
    headers = {
        "Site": SITE,
        "GameId": live.id,
        "Mode": live.mode,
        "Rated": "yes" if live.rated else "no",
    }
    if live.chance is not None:
        headers[HEADER_SCHEME] = live.chance.scheme
        headers[HEADER_GAME_ID] = live.id
        headers[HEADER_COMMITMENT] = live.chance.commitment
        if live.status == "finished":
            headers[HEADER_SEED] = live.chance.reveal()
    if live.clock is not None:
        headers["TimeControl"] = (
            f"{live.clock.initial_ms // 1000}+{live.clock.increment_ms // 1000}"
        )
    finished = live.status == "finished"
    # An aborted game is over too, without a result: called off, or never joined.
    over = finished or live.status == "aborted"
    termination = live.termination if over else "unterminated"
    if termination not in records.TERMINATIONS:
        termination = "abandoned"
    return records.Record.from_state(
        live.state,
        players=players,
        result=live.result if finished and live.result else "*",
        termination=termination,
        started=_iso(live.started_at or live.created_at),
        ended=_iso(live.finished_at) if over else None,
        headers=headers,
    )


def title_of(game_id: str) -> str:
    try:
        return catalog.game_class(game_id).TITLE
    except ValueError:
        return game_id
