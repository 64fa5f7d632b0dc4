"""Table chat: during a game the players talk in one room and the spectators in another, as on
lichess. A player reads and writes only the players' room, anyone else (watchers, people who
are not seated) only the spectators' room, during the game and after it. Guests send one of the
quick phrases; accounts write free text. Messages are kept with the game (``chat_messages``),
so the replay shows each room to its readers.

A message is stored, then announced on the game's channel (``chat``) with its whole content,
through the game runner (``live.games.Runner``: ``announce``, ``hear``, ``held``); every process
following the game (one of its sockets watches it), the sender's included, hands it to the
watchers of that game it holds who may read its room. So chat reaches every watcher of a
cluster the way game changes do, and one process alone behaves the same.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import select

from pocketarena import i18n
from pocketarena.i18n import N_, _

from .core.ratelimit import Limiter, Rate
from .core.text import TextError, visible_line
from .live.games import LiveGame, Runner
from .live.session import GameError
from .models import BlockRow, ChatMessageRow, utcnow
from .names import guest_number
from .schemas import GUEST
from .store import Store, aware

log = logging.getLogger(__name__)

CHANNEL = "chat"
MAX_CHARS = 140
HISTORY = 200  # the newest messages of a room that a reader is sent
# Kept and sent in English (the message's text); each reader's page words them in its language.
QUICK_PHRASES = (
    N_("Hello"),
    N_("Good luck"),
    N_("Your turn"),
    N_("Thanks"),
    N_("Well played"),
    N_("Good game"),
)
Room = Literal["players", "spectators"]


class ChatIn(BaseModel):
    """A message to post: the room it is for and its text (a quick phrase for guests)."""

    model_config = ConfigDict(extra="forbid")
    room: Room
    text: str = Field(min_length=1, max_length=MAX_CHARS)


class ChatMessage(BaseModel):
    id: int
    game: str
    room: Room
    player: str
    name: str
    guest: str | None = Field(None, description=GUEST)
    text: str
    at: str  # ISO 8601, UTC


class ChatOut(BaseModel):
    """A new message of a room, to the watchers of its game who read that room."""

    type: Literal["chat"] = "chat"
    game: str
    message: ChatMessage


class ChatView(BaseModel):
    """What a viewer's chat panel shows: their room, whether and how they may write in it,
    and its newest messages (oldest first)."""

    room: Room
    can_write: bool
    free_text: bool  # False: only the quick phrases
    quick: list[str]
    max_chars: int
    messages: list[ChatMessage]


def rates(per_minute: float, address_per_minute: float) -> tuple[Rate, Rate]:
    return (
        Rate("chat", per_minute / 60.0, 5),
        Rate("address-chat", address_per_minute / 60.0, 15),
    )


def room_of(live: LiveGame, player_id: str | None) -> Room:
    """The room a viewer reads: the players' if they hold a seat, otherwise the spectators'."""
    return "players" if live.seats_of(player_id) else "spectators"


def clean_text(text: str, free_text: bool) -> str:
    """The message as it will be kept (the rule of ``core.text.visible_line``: NFC, one line,
    no control, format or direction characters), or GameError("bad_request") saying what is
    wrong."""
    try:
        text = visible_line(text)
    except TextError as e:
        raise GameError("bad_request", _("a chat message cannot hold %(what)s", what=e)) from None
    if not text:
        raise GameError("bad_request", _("a chat message cannot be empty"))
    if not free_text and text not in QUICK_PHRASES:
        phrases = ", ".join(f"«{_(p)}»" for p in QUICK_PHRASES)
        raise GameError(
            "forbidden",
            _(
                "guests may send only the quick phrases (%(phrases)s); sign up to write",
                phrases=phrases,
            ),
        )
    return text


def _to_json(row: ChatMessageRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game_id,
        "room": row.room,
        "player": row.player_id,
        "name": row.name,
        "guest": guest_number(row.player_id, row.name),  # worded by each reader's page
        "text": row.text,
        "at": aware(row.created_at).isoformat(),
    }


def save(
    store: Store, game_id: str, room: str, player_id: str, name: str, text: str
) -> dict[str, Any]:
    row = ChatMessageRow(
        game_id=game_id, room=room, player_id=player_id, name=name, text=text, created_at=utcnow()
    )
    with store.sessions.begin() as s:
        s.add(row)
        s.flush()
        return _to_json(row)


def history(
    store: Store, game_id: str, room: str, limit: int = HISTORY, reader: str | None = None
) -> list[dict[str, Any]]:
    """The newest messages of a room, oldest first; none from a player ``reader`` blocks."""
    with store.sessions() as s:
        query = select(ChatMessageRow).where(
            ChatMessageRow.game_id == game_id, ChatMessageRow.room == room
        )
        if reader is not None:
            blocked = select(BlockRow.blocked_id).where(BlockRow.blocker_id == reader)
            query = query.where(ChatMessageRow.player_id.not_in(blocked))
        rows = s.scalars(query.order_by(ChatMessageRow.id.desc()).limit(limit)).all()
        return [_to_json(r) for r in reversed(rows)]


def blockers(store: Store, player_id: str) -> list[str]:
    """Who blocks ``player_id`` (their messages reach none of them)."""
    with store.single() as s:
        return list(s.scalars(select(BlockRow.blocker_id).where(BlockRow.blocked_id == player_id)))


def view(
    live: LiveGame, player_kind: str | None, player_id: str | None, messages: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "room": room_of(live, player_id),
        "can_write": player_kind in ("guest", "account"),
        "free_text": player_kind == "account",
        "quick": list(QUICK_PHRASES),
        "max_chars": MAX_CHARS,
        "messages": messages,
    }


async def post(
    runner: Runner,
    limits: tuple[Rate, Rate],
    limiter: Limiter,
    addr: str,
    player_id: str,
    game_id: str,
    body: ChatIn,
) -> dict[str, Any]:
    """Check, store and announce one message; GameError says why one is refused (and then
    nothing is stored or sent)."""
    live = await runner.get(game_id)
    room = room_of(live, player_id)
    if body.room != room:
        if room == "players":
            raise GameError("forbidden", _("players write in the players' chat while they play"))
        raise GameError(
            "forbidden", _("only the players of this game can write in the players' chat")
        )
    player = await runner.db(runner.store.get_player, player_id)
    if player is None or player.kind not in ("guest", "account"):
        raise GameError("forbidden", _("load the page first: chatting needs the session cookie"))
    text = clean_text(body.text, free_text=player.kind == "account")
    per_player, per_address = limits
    for rate, key in ((per_address, addr), (per_player, player_id)):
        wait = await limiter.take(rate, key)
        if wait > 0:
            raise GameError(
                "rate_limited",
                _(
                    "too many chat messages; wait %(seconds)s s",
                    seconds=i18n.format_number(max(wait, 0.1), "0.0"),
                ),
                retry_after=max(1, round(wait + 0.49)),
            )
    seats = live.seats_of(player_id)
    seat = live.seats[seats[0]] if seats else None
    name = seat.name if seat is not None else player.name
    message = await runner.db(save, runner.store, live.id, room, player_id, name, text)
    hidden = await runner.db(blockers, runner.store, player_id) if player.kind == "account" else []
    try:
        await runner.announce(CHANNEL, {"message": message, "blocked_by": hidden}, live.id)
    except Exception:  # the bus is away: the message is kept; readers see it on reload
        log.warning("chat message %s of game %s not announced", message["id"], live.id)
    return message


def attach(runner: Runner) -> None:
    """Deliver announced messages to this process's watchers who may read their room and do
    not block the writer.
    Call before the runner starts."""

    def deliver(msg: dict[str, Any]) -> None:
        try:  # another process's record: one that fits no schema is left out
            message = ChatMessage.model_validate(msg.get("message"))
        except ValidationError:
            log.warning("a chat notice that fits no schema was left out")
            return
        live = runner.held(message.game)
        if live is None:
            return
        text = ChatOut(game=live.id, message=message).model_dump_json()
        hidden = msg.get("blocked_by")
        hidden = set(hidden) if isinstance(hidden, list) else set()  # readers blocking the writer
        for conn in list(live.subscribers):
            if room_of(live, conn.player_id) == message.room and conn.player_id not in hidden:
                conn.push(text)

    runner.hear(CHANNEL, deliver)
