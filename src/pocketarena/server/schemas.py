"""The API's request and response bodies (pydantic), apart from the storage models."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
    field_validator,
)

MAX_OPTION_DEPTH = 6


def plain_text(value: str) -> str:
    """Text that can be stored and echoed anywhere: valid Unicode (no lone surrogates, which
    JSON's \\u escapes can carry) and no NUL (which PostgreSQL's text refuses)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("text must be valid Unicode (this has a lone surrogate)") from None
    if "\x00" in value:
        raise ValueError("text may not contain NUL characters")
    return value


Text = Annotated[str, AfterValidator(plain_text)]


def plain_json(value: Any, max_depth: int = MAX_OPTION_DEPTH) -> Any:
    """JSON data whose texts (keys included) are all ``plain_text``, nested at most
    ``max_depth`` deep (looked at without recursion, so any depth is safe to check)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            plain_text(item)
        elif isinstance(item, dict | list):
            if depth > max_depth:
                raise ValueError(f"options may be nested at most {max_depth} levels deep")
            if isinstance(item, dict):
                stack.extend((k, depth) for k in item)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
    return value


class ErrorOut(BaseModel):
    detail: str = Field(description="What is wrong, in words meant for the person")
    code: str = Field("bad_request", description="A stable machine-readable reason")
    reason: str | None = Field(
        None, description="For a refused move: the engine's reason id, e.g. stack-a-cash.protected"
    )
    params: dict[str, Any] | None = Field(
        None, description="For a refused move: the reason's parameters, e.g. {'place': 'b2'}"
    )


class Issue(BaseModel):
    loc: list[str | int] = Field(description="Where in the request, e.g. ['body', 'version']")
    msg: str
    type: str


class InvalidOut(BaseModel):
    """422: a request that does not fit its schema (``detail`` lists the issues, ``code``
    is ``invalid``), or a move the rules refuse (``detail`` says why, ``code`` is
    ``illegal``)."""

    detail: str | list[Issue]
    code: str


# -- catalog -----------------------------------------------------------------------------------
class AppliesWhen(BaseModel):
    option: str = Field(examples=["map"])
    values: list[Any] = Field(examples=[["random"]])


class OptionField(BaseModel):
    name: str
    label: str = Field(description="The option's name for a person")
    type: Literal["bool", "int", "str", "dict", "list"]
    default: Any
    help: str
    choices: list[Any] | None
    choice_labels: list[str] | None = Field(
        description="Each choice's name for a person, in the order of choices"
    )
    applies_when: AppliesWhen | None = Field(
        None, description="The option matters only while another has one of these values"
    )


class ButtonWordsOut(BaseModel):
    """How the notation's words read on the game page's buttons, in the reader's language."""

    names: dict[str, str] = Field(
        default_factory=dict,
        description="A coin or piece, beside its letter",
        examples=[{"Q": "Quarter"}],
    )
    choices: dict[str, str] = Field(
        default_factory=dict,
        description="Words read instead of the notation's",
        examples=[{"blue": "Blue starts"}],
    )
    verbs: dict[str, str] = Field(
        default_factory=dict,
        description="An action that is a verb alone",
        examples=[{"end": "End turn"}],
    )
    rotations: list[str] = Field(default_factory=list, description="The words that turn a piece")


class CatalogGame(BaseModel):
    id: str = Field(examples=["coin-age"])
    title: str
    pitch: str
    seats: list[str]
    chance: bool = Field(description="Whether the game has chance nodes (slaps, flips)")
    options: list[OptionField]
    variants: list[dict[str, Any]]
    bots: list[str] = Field(description="Bot levels available for this game")
    bot_names: list[str] = Field(default_factory=list, description="The bots' names, as shown")
    rules: bool = Field(description="Whether a rules page exists")
    words: ButtonWordsOut = Field(default_factory=ButtonWordsOut)


# -- games -------------------------------------------------------------------------------------
class ClockIn(BaseModel):
    initial_s: int = Field(ge=10, le=10800, description="Initial time per player, seconds")
    increment_s: int = Field(0, ge=0, le=180, description="Added after each turn, seconds")


class GameCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Text = Field(examples=["wallet-battles"], max_length=40)
    options: dict[str, Any] = Field(default_factory=dict, examples=[{"map": "antietam"}])
    mode: Literal["bot", "friend", "seek", "local"] = Field(
        description="bot: against a bot; friend: by invite link; seek: open in the lobby; "
        "local: both seats on one screen"
    )
    seat: Literal[0, 1] | None = Field(None, description="0 first, 1 second, null random")
    bot: Text | None = Field(
        None, examples=["random"], max_length=40, description="Bot level (mode bot)"
    )
    clock: ClockIn | None = Field(None, description="null: untimed")
    days_per_move: int | None = Field(
        None,
        description="A turn-based game: days each move may take (1, 2, 3, 5, 7 or 14); a move "
        "not made in time loses. null: not turn-based. Not together with a clock.",
    )
    rated: bool = Field(
        True,
        description="Asked for a rated game; it is rated only if both players are accounts "
        "(or bots) and each of them moves",
    )

    @field_validator("options")
    @classmethod
    def _plain_options(cls, value: dict[str, Any]) -> dict[str, Any]:
        return dict(plain_json(value))


# Beside a stored name: a guest still called by the name they were given ("Guest 0467") is
# shown in the reader's language from this number (server.names).
GUEST = (
    'A guest still called by the name they were given: their number ("0467"), to show '
    'as "Guest 0467" in the reader\'s language; null for a name a player chose, and bots'
)
OPPONENT_KIND = (
    "guest, account or bot: a bot's name is the catalog's source words, to show in the "
    "reader's language"
)


class SeatOut(BaseModel):
    player: str
    name: str
    kind: Literal["guest", "account", "bot"]
    guest: str | None = Field(None, description=GUEST)
    bot: str | None
    rating: int
    provisional: bool


class ActionOut(BaseModel):
    id: int
    text: str = Field(description="Canonical notation")
    verb: str
    tokens: list[str] = Field(description="The words after the verb, in notation order")


class HistoryEntry(BaseModel):
    text: str
    seat: int | None = Field(description="Who made it; null for a chance outcome")
    chance: bool
    say: str = Field(description="The action in words, in the reader's language")


class FairOut(BaseModel):
    scheme: str
    commitment: str = Field(description="SHA-256 of the secret seed, shown from the start")
    seed: str | None = Field(description="Revealed when the game is over")


class RematchOut(BaseModel):
    id: str | None
    offers: list[int]
    of: str | None


class GameView(BaseModel):
    id: str
    game: str
    title: str
    options: dict[str, Any]
    options_text: str = Field("", description="The options in players' words")
    mode: str
    status: Literal["waiting", "active", "finished", "aborted"]
    rated: bool
    version: int = Field(
        description="Send it with each move; a move on an older version is refused"
    )
    seat_names: list[str]
    seats: list[SeatOut | None]
    node: Literal["decision", "chance", "terminal"]
    to_move: int | None
    thrower: int | None = Field(description="At a chance node: the seat that throws in person")
    legal: list[ActionOut]
    history: list[HistoryEntry] = Field(description="The move list from history_from on")
    history_from: int = Field(
        0, description="0 here; over the WebSocket, updates carry only new entries"
    )
    plies: int = Field(description="Length of the whole move list")
    events_from: int = Field(
        description="Where the last change began in the move list (to animate it)"
    )
    scores: list[float]
    position: dict[str, Any]
    winner: int | None
    result: str | None
    termination: str | None
    rating_changes: list[dict[str, Any]] | None
    fair: FairOut | None
    rematch: RematchOut
    created_at: str
    days_per_move: int | None = Field(None, description="Turn-based: days each move may take")
    deadline: str | None = Field(
        None, description="Turn-based: when the move awaited is due (ISO 8601, UTC)"
    )
    draw_offer: int | None = Field(None, description="The seat offering a draw, if any")
    takeback_offer: int | None = Field(
        None, description="The seat asking to take its last move back, if any"
    )
    abortable: bool = Field(
        False, description="The game may still be aborted (each side has not moved yet)"
    )
    svg: str | None = None
    clock: dict[str, Any] | None = None
    you: list[int] = Field(default_factory=list, description="The seats that are yours")


class GameCreated(BaseModel):
    id: str
    url: str
    invite_url: str | None = Field(description="Send this to a friend (mode friend)")
    game: GameView


class WhyOut(BaseModel):
    legal: bool = Field(description="A legal move begins with the picks")
    detail: str | None = Field(None, description="The rules' reason, in words")
    reason: str | None = Field(None, description="The reason's message id")
    params: dict[str, Any] = Field(default_factory=dict, description="Its parameters")


class MoveIn(BaseModel):
    action: Text = Field(max_length=100, examples=["place Q cemetery-hill"])
    version: int


class VersionIn(BaseModel):
    version: int


class JoinIn(BaseModel):
    invite: Text | None = Field(None, max_length=64)


class LobbyEntry(BaseModel):
    id: str
    game: str
    title: str
    options: dict[str, Any]
    options_text: str = ""
    mode: str
    rated: bool
    clock: list[int] | None
    seats: list[SeatOut | None]
    plies: int
    created_at: str
    days_per_move: int | None = None
    idle_s: int | None = Field(None, description="Seconds since the last move (live games)")


class LobbyItem(BaseModel):
    """A game as the lobby chooses from, and as each process of a cluster keeps it on the bus
    for the others: its entry, status, mode, the sources (player, address) its seeks count
    against, and when it was last active (seconds since the epoch)."""

    entry: LobbyEntry
    status: str
    mode: str
    sources: list[str]
    active_at: float


class LobbyOut(BaseModel):
    seeks: list[LobbyEntry]
    live: list[LobbyEntry]


# -- players -----------------------------------------------------------------------------------
class RatingOut(BaseModel):
    game: str
    rating: int
    deviation: int
    provisional: bool
    games: int


class GameSummary(BaseModel):
    id: str
    game: str
    title: str
    status: str
    mode: str
    rated: bool
    seat: int
    opponent: str | None
    opponent_id: str | None
    opponent_guest: str | None = Field(None, description=GUEST)
    opponent_kind: str | None = Field(None, description=OPPONENT_KIND)
    result: str | None
    outcome: Literal["win", "loss", "draw"] | None
    termination: str | None
    rating_change: int | None
    created_at: str


class TurnOut(BaseModel):
    """A game in progress that awaits the player's move."""

    id: str
    game: str
    title: str
    url: str
    opponent: str | None
    opponent_guest: str | None = Field(None, description=GUEST)
    opponent_kind: str | None = Field(None, description=OPPONENT_KIND)
    days_per_move: int | None
    deadline: str | None = Field(description="When the move is due (ISO 8601, UTC); null: never")


class TurnsOut(BaseModel):
    count: int = Field(description="How many games await your move (all of them, not only listed)")
    games: list[TurnOut]


class PlayerOut(BaseModel):
    id: str
    name: str
    kind: str
    guest: str | None = Field(None, description=GUEST)
    username: str | None
    ratings: list[RatingOut]
    stats: dict[str, int]
    games: list[GameSummary]


class MeOut(BaseModel):
    id: str
    name: str
    kind: str
    guest: str | None = Field(None, description=GUEST)
    username: str | None


class NameIn(BaseModel):
    name: Text = Field(max_length=100)


class CredentialsIn(BaseModel):
    username: Text = Field(max_length=100)
    password: Text = Field(max_length=1024)


class SessionOut(BaseModel):
    created_at: str
    last_seen_at: str
    expires_at: str = Field(description="It ends then unless used again (then later)")
    user_agent: str
    current: bool = Field(description="The session of the browser asking")


# -- fairness ----------------------------------------------------------------------------------
class ChanceCheckOut(BaseModel):
    move_number: int
    recorded: str
    expected: str
    ok: bool


class VerifyOut(BaseModel):
    game: str
    game_id: str | None
    scheme: str | None
    commitment: str | None
    seed: str | None
    commitment_ok: bool
    checks: list[ChanceCheckOut]
    problems: list[str]
    in_progress: bool = False  # the game goes on: its seed is revealed when it ends
    ok: bool
    verdict: str


# -- the live connection (WebSocket, client to server) -----------------------------------------
def _text_as_sent(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("must be text")
    return value


def _game_ref(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError("must be the game's id")
    return value


# Any text as sent, even one a strict check refuses (a lone surrogate): the hub answers a game
# id or a move it cannot use in its own words (no such game; an illegal move).
TextAsSent = Annotated[str, PlainValidator(_text_as_sent)]
GameRef = Annotated[str, PlainValidator(_game_ref)]


class _Message(BaseModel):
    """Every message may carry ``ref`` (echoed in the reply; checked by the socket, which
    answers even a message that fits no schema) and fields the server does not read."""

    model_config = ConfigDict(extra="ignore")

    ref: Any = None


class _GameMessage(_Message):
    game: GameRef = Field(description="The game's id")
    # The site's pages read the state message a change brings, never its ack: asking for none
    # spares a message per move (made, compressed and sent). A refusal is always sent.
    ack: StrictBool = Field(
        True, description="false: no ack when carried out (the state message says it)"
    )


class PingMessage(_Message):
    type: Literal["ping"]


class LobbyMessage(_Message):
    type: Literal["lobby"]


class WatchMessage(_GameMessage):
    type: Literal["watch"]
    svg: StrictBool = Field(True, description="Send the board as SVG in each state")


class UnwatchMessage(_GameMessage):
    type: Literal["unwatch"]


class MoveMessage(_GameMessage):
    type: Literal["move"]
    action: TextAsSent = Field(examples=["place L b2"])
    version: StrictInt


class ThrowMessage(_GameMessage):
    type: Literal["throw"]
    version: StrictInt


class ResignMessage(_GameMessage):
    type: Literal["resign"]


class AbortMessage(_GameMessage):
    type: Literal["abort"]


Answer = Literal["offer", "accept", "decline"]


class DrawMessage(_GameMessage):
    type: Literal["draw"]
    answer: Answer = Field(
        "offer", description="offer (accepts one already offered), accept or decline"
    )


class TakebackMessage(_GameMessage):
    type: Literal["takeback"]
    answer: Answer = Field("offer", description="offer (ask), accept or decline")


class RematchMessage(_GameMessage):
    type: Literal["rematch"]


class JoinMessage(_GameMessage):
    type: Literal["join"]
    invite: TextAsSent | None = None


class TournamentMessage(_Message):
    """Follow a tournament: its standings and pairings now and after every change."""

    type: Literal["tournament"]
    id: GameRef = Field(description="The tournament's id")


ClientMessage = Annotated[
    PingMessage
    | LobbyMessage
    | WatchMessage
    | UnwatchMessage
    | MoveMessage
    | ThrowMessage
    | ResignMessage
    | AbortMessage
    | DrawMessage
    | TakebackMessage
    | RematchMessage
    | JoinMessage
    | TournamentMessage,
    Field(discriminator="type"),
]


# -- WebSocket: the server's messages ---------------------------------------------------------
# The state message (``views.state_message``) is joined from parts serialized once per version
# and shared by every watcher; these are the rest, each written by its schema.
def message_text(message: BaseModel, **dump: Any) -> str:
    """A message's JSON text. A field may echo what a client sent (a ``ref``, a game id), which
    can hold a lone surrogate that UTF-8 cannot carry: ``json.dumps`` writes it escaped
    (``\\ud800``), where pydantic's own JSON writer refuses it."""
    return json.dumps(message.model_dump(**dump), separators=(",", ":"))


class HelloOut(BaseModel):
    """The first message on every socket: who the server takes the client for, and the build
    of the pages it serves (``assets.BUILD``): a page of another build runs old scripts."""

    type: Literal["hello"] = "hello"
    player: str | None
    build: str


class PongOut(BaseModel):
    type: Literal["pong"] = "pong"
    ref: Any = None


class AckOut(BaseModel):
    """A request carried out. ``version`` (a move, throw, resignation or join) and ``rematch``
    are written only for the requests that have them."""

    type: Literal["ack"] = "ack"
    ref: Any = None
    request: str
    version: int | None = None
    rematch: str | None = None

    def text(self) -> str:
        return message_text(self, exclude={"version", "rematch"} - self.model_fields_set)


class ErrorMessageOut(BaseModel):
    """A request refused (nothing changed); ``ref`` and ``game`` only when known."""

    type: Literal["error"] = "error"
    code: str
    message: str
    ref: Any = None
    game: str | None = None
    reason: str | None = None  # a refused move's reason id and parameters (GameError)
    params: dict[str, Any] | None = None

    def text(self) -> str:
        return message_text(self, exclude_none=True)


class AnswerIn(BaseModel):
    answer: Literal["offer", "accept", "decline"] = Field(
        "offer", description="offer (or ask), accept or decline the opponent's"
    )


class SpectatorsOut(BaseModel):
    """How many people watch a game without a seat in it."""

    type: Literal["spectators"] = "spectators"
    game: str
    count: int


class PresenceOut(BaseModel):
    """Per seat of a game: its person online (true), offline (false), or none (a bot, empty)."""

    type: Literal["presence"] = "presence"
    game: str
    online: list[bool | None]


class OnlineOut(BaseModel):
    """How many players are online (sent to the lobby's watchers when it changes)."""

    type: Literal["online"] = "online"
    players: int | None


class LobbyFullOut(LobbyOut):
    """The whole lobby, sent when a socket starts watching it."""

    type: Literal["lobby"] = "lobby"


class LobbyDeltaOut(BaseModel):
    """What changed in the lobby: the entries that are new or changed, and both lists' order
    by id (an id no longer listed has left)."""

    type: Literal["lobby"] = "lobby"
    delta: Literal[True] = True
    entries: list[LobbyEntry]
    seeks: list[str]
    live: list[str]
