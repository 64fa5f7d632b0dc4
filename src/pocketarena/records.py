"""Game records: who played what, move by move, in JSON or a plain-text form in the spirit of PGN.

A record holds the game id and options, the players per seat, every action in notation (chance
outcomes included, so a game with coins in the air replays bit for bit), the result, the final
scores, dates, an optional seed and free headers. The text form reads like this::

    [Game "stack-a-cash"]
    [Options "{\\"protect\\": \\"touched\\"}"]
    [Heads "Guest 0467"]
    [HeadsKind "human"]
    [HeadsGuest "0467"]
    [Tails "greedy"]
    [TailsKind "bot"]
    [Result "1-0"]
    [Start "2024-05-01T12:00:00Z"]
    [End "2024-05-01T12:09:41Z"]

    place L b2
    # a comment about the next move
    place M a1
    ...
    1-0

(``Start`` and ``End``: ISO 8601 UTC. A game not over, its result ``*``, has no ``End``: one
still being played, or stopped to go on later with ``pocketarena play --resume``.
``HeadsGuest``: Heads is a guest still called by the name a server gave them; the file keeps
that name for every reader, and each reader's program words it from the number, "Invité
0467" in French.)

``Record.replay()`` rebuilds the final state and checks the stated result against it. A record
names every option of its game; one that leaves an option out was written before that option
existed and is replayed as games were played then (``Game.recorded_options``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .core import (
    CHANCE,
    GAMES,
    Game,
    IllegalActionError,
    Message,
    RecordError,
    SeededChance,
    State,
    message,
    recorded_options,
)
from .core import load as load_game

FORMAT = "pocketarena-record"
VERSION = 1
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
# Why a game stopped. "normal": the rules ended it; the others leave the replay unfinished
# (or, for "unterminated", still running) with a result decided off the board, except
# "aborted": called off before each side had moved, over without a result ("*").
# A record is a few kilobytes (even the longest games stay far below this); anything larger or
# more deeply nested is refused before it is parsed any further, whoever reads it.
MAX_RECORD_BYTES = 1_000_000
MAX_JSON_DEPTH = 16

TERMINATIONS = (
    "normal",
    "resignation",
    "time forfeit",
    "abandoned",
    "agreement",
    "aborted",
    "unterminated",
)


def termination_message(termination: str | None) -> Message:
    """How a game ended (a record's Termination, which keeps the English word) as the message
    a reader's language words: ``record.termination.<word>`` (a space as a hyphen), ``.none``
    for a record that names none; a word this version does not know is said as written."""
    if termination is None:
        return message("record.termination.none")
    if termination in TERMINATIONS:
        return message("record.termination." + termination.replace(" ", "-"))
    return message("core.said", text=termination)


# Header names the text form gives a meaning to; everything else is a free header.
_RESERVED = ("Game", "Options", "Result", "Termination", "Scores", "Start", "End", "Seed")
_HEADER = re.compile(r'^\[([A-Za-z][A-Za-z0-9_-]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')


# The name a server gives a level's bot (its catalog's source words, server/catalog.py
# BOT_NAMES): each level's English is the engine message record.bot.<level>.
BOT_LEVEL_NAMES = ("random", "greedy", "easy", "medium", "hard", "perfect")
_NUMBERED = re.compile(r"(.+) ([0-9]+)")


def bot_name_message(spec: str, name: str) -> Message | None:
    """A bot's name in the reader's words when it is the name a server gives a level's bot
    (``Randy (random)``, or with a tournament's number ``Randy (random) 2``); else None."""
    if spec not in BOT_LEVEL_NAMES:
        return None
    level = message("record.bot." + spec)
    if name == str(level):
        return level
    numbered = _NUMBERED.fullmatch(name)
    if numbered and numbered[1] == str(level):
        return message("record.bot-numbered", name=level, number=numbered[2])
    return None


def now_utc() -> str:
    """The current moment as ISO 8601 UTC, to the second (``2024-05-01T12:00:00Z``)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def result_for(winner: int | None) -> str:
    """The result of a finished game: ``1-0`` (seat 0 won), ``0-1`` (seat 1 won) or
    ``1/2-1/2`` (nobody did), however it ended (on the board, by time, by resignation)."""
    return "1-0" if winner == 0 else "0-1" if winner == 1 else "1/2-1/2"


def result_of(state: State) -> str:
    """The result string for a state: ``1-0``/``0-1``/``1/2-1/2`` once over, ``*`` before."""
    return result_for(state.winner()) if state.is_terminal() else "*"


def _check_date(name: str, value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise RecordError("record.date-not-text", name=name, value=value)
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise RecordError(
            "record.date-not-iso", name=name, value=value, example=now_utc()
        ) from None
    return value


def _number(value: float) -> float | int:
    """Scores as ints when whole, so records read naturally and compare after JSON."""
    return int(value) if float(value).is_integer() else float(value)


@dataclass
class Player:
    """Who sat in a seat: a display name and a kind (``human``, ``bot``…). ``guest``: the
    number of a guest still called by the name a server gave them (``Guest 0467``): the file
    keeps that name, the same for every reader, and each reader words it in their own language
    from the number (``said``), as the server's pages do. ``bot``: a bot's spec as
    ``make_bot`` takes it (``greedy``, ``mcts:200``), the same in every language: what a
    program that plays the game on (``play --resume``) makes the bot from; the name is what
    people read (a server's "Randy (random)", worded in each reader's language)."""

    name: str = "?"
    kind: str = "human"
    guest: str | None = None
    bot: str | None = None

    def to_json(self) -> dict[str, str]:
        data = {"name": self.name, "kind": self.kind}
        if self.guest is not None:
            data["guest"] = self.guest
        if self.bot is not None:
            data["bot"] = self.bot
        return data

    @property
    def bot_spec(self) -> str | None:
        """The spec to make this seat's bot from: ``bot``, or for a record written before it
        was kept (the terminal wrote the spec as the name) the name; None for a person."""
        if self.kind != "bot":
            return None
        return self.bot if self.bot is not None else self.name

    def said(self) -> Message:
        """The player's name as a message: a guest's given name worded from its number
        (``record.guest``), a level's bot under the name a server gives it (``Randy
        (random)``, ``Randy (random) 2`` in a tournament) worded from its spec
        (``record.bot.<spec>``), any other as it is written."""
        if self.guest is not None:
            return message("record.guest", number=self.guest)
        if self.kind == "bot" and self.bot is not None:
            worded = bot_name_message(self.bot, self.name)
            if worded is not None:
                return worded
        return message("core.said", text=self.name)


@dataclass
class Record:
    """One game, as data. Build it with ``Record.from_state`` or load it from a file."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    players: list[Player] = field(default_factory=lambda: [Player(), Player()])
    moves: list[str] = field(default_factory=list)
    result: str = "*"
    termination: str | None = None
    scores: tuple[float, float] | None = None
    started: str | None = None
    ended: str | None = None
    seed: int | str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    # (number of moves played before the comment, text): kept in place by both forms.
    comments: list[tuple[int, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        # A record names every option of its game; one that leaves an option out was written
        # before the option existed, and replays as games were played then.
        if isinstance(self.options, Mapping):
            self.options = recorded_options(self.game, self.options)

    # -- building -----------------------------------------------------------------------
    @classmethod
    def from_state(
        cls,
        state: State,
        *,
        players: tuple[Player, Player] | list[Player] | None = None,
        result: str | None = None,
        termination: str | None = None,
        started: str | None = None,
        ended: str | None = None,
        seed: int | str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Record:
        """The record of ``state``'s history. ``result`` defaults to what the state says;
        give it (with a ``termination``) for a game decided off the board, e.g. a resignation.
        ``ended`` defaults to now for a game over (a result other than ``*``); a game still
        going, or stopped to go on later, has no end."""
        game = state.game
        if result is None:
            result = result_of(state)
        if termination is None:
            termination = "normal" if state.is_terminal() else "unterminated"
        record = cls(
            game=game.ID,
            options=dict(game.options),
            players=list(players) if players is not None else [Player(), Player()],
            moves=[a.text for a in state.history],
            result=result,
            termination=termination,
            scores=(_number(state.scores()[0]), _number(state.scores()[1])),
            started=started,
            ended=ended if ended is not None or result == "*" else now_utc(),
            seed=seed,
            headers=dict(headers or {}),
        )
        record.validate()
        return record

    def load_game(self) -> Game:
        """The game this record was played in, with its options."""
        if self.game not in GAMES:
            raise RecordError("record.unknown-game", game=self.game, games=", ".join(sorted(GAMES)))
        try:
            return load_game(self.game, **self.options)
        except ValueError as e:
            raise RecordError("record.bad-options", why=str(e)) from None

    def validate(self) -> None:
        """Check the fields (not the moves: that is ``replay``); raise RecordError saying what."""
        self.load_game()
        if len(self.players) != 2:
            raise RecordError("record.two-players", count=len(self.players))
        if self.result not in RESULTS:
            raise RecordError("record.bad-result", result=self.result, results=", ".join(RESULTS))
        if self.termination is not None and self.termination not in TERMINATIONS:
            raise RecordError(
                "record.bad-termination",
                termination=self.termination,
                terminations=", ".join(TERMINATIONS),
            )
        if not all(isinstance(m, str) for m in self.moves):
            raise RecordError("record.moves-not-text")
        if self.scores is not None and (
            len(self.scores) != 2
            or not all(isinstance(s, int | float) and not isinstance(s, bool) for s in self.scores)
        ):
            raise RecordError("record.bad-scores", scores=self.scores)
        _check_date("start", self.started)
        _check_date("end", self.ended)
        for before, _ in self.comments:
            if not 0 <= before <= len(self.moves):
                raise RecordError("record.comment-after", move=before)

    @property
    def seat_names(self) -> tuple[str, str]:
        return GAMES[self.game].SEATS if self.game in GAMES else ("First", "Second")

    # -- replaying ----------------------------------------------------------------------
    def walk(self) -> Iterator[State]:
        """The initial state, then the state after each move (each a fresh object).

        Raises RecordError naming the move number, the move and the engine's reason at the
        first illegal move (after yielding every state before it)."""
        state = self.load_game().new_initial_state()
        yield state.clone()
        for number, text in enumerate(self.moves, start=1):
            try:
                state.apply(text)
            except IllegalActionError as e:
                raise RecordError(
                    "record.illegal-move", number=number, text=text, why=e.message
                ) from None
            yield state.clone()

    def replay(self, *, check_result: bool = True) -> State:
        """Rebuild the final state; check the stated result (and scores) against it."""
        self.validate()
        seeded = self._seeded_chance()
        state = self.load_game().new_initial_state()
        for number, text in enumerate(self.moves, start=1):
            if seeded is not None and state.current_player == CHANCE:
                expected = seeded.outcome(state)
                if expected != text:
                    raise RecordError(
                        "record.not-the-throw",
                        number=number,
                        text=text,
                        seed=self.seed,
                        expected=expected,
                    )
            try:
                state.apply(text)
            except IllegalActionError as e:
                raise RecordError(
                    "record.illegal-move", number=number, text=text, why=e.message
                ) from None
        if check_result:
            self._check_outcome(state)
        return state

    def _seeded_chance(self) -> SeededChance | None:
        """The chance source a ``Chance: seeded`` record claims, to check its throws against."""
        if self.headers.get("Chance") != "seeded":
            return None
        if self.seed is None:
            raise RecordError("record.no-seed")
        return SeededChance(self.seed)

    def _check_outcome(self, state: State) -> None:
        played = result_of(state)
        if state.is_terminal():
            if self.result != played:
                raise RecordError("record.result-differs", result=self.result, played=played)
            if self.termination not in (None, "normal"):
                raise RecordError("record.ended-normally", termination=self.termination)
        elif self.result != "*" and self.termination in (None, "normal", "unterminated"):
            raise RecordError("record.not-over", result=self.result, count=len(self.moves))
        if self.scores is not None:
            actual = tuple(_number(s) for s in state.scores())
            if tuple(self.scores) != actual:
                raise RecordError(
                    "record.scores-differ",
                    stated=_scores_text(self.scores),
                    played=_scores_text(actual),
                )

    # -- JSON ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        seats = self.seat_names
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": dict(self.options),
            "players": [{"seat": seats[i], **p.to_json()} for i, p in enumerate(self.players)],
            "moves": list(self.moves),
            "result": self.result,
            "termination": self.termination,
            "scores": list(self.scores) if self.scores is not None else None,
            "started": self.started,
            "ended": self.ended,
            "seed": self.seed,
            "headers": dict(self.headers),
            "comments": [{"after": n, "text": t} for n, t in self.comments],
        }

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """A record from ``to_json()`` data (or JSON text); RecordError says what is wrong."""
        data = _json_record(data)
        for name in ("game", "moves"):
            if name not in data:
                raise RecordError("record.no-field", name=name)
        if not isinstance(data["game"], str):
            raise RecordError("record.game-not-id")
        if not isinstance(data["moves"], list):
            raise RecordError("record.moves-not-list")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError("record.options-not-object")
        players_data = data.get("players") or [{}, {}]
        if not isinstance(players_data, list) or not all(isinstance(p, dict) for p in players_data):
            raise RecordError("record.players-not-list")
        scores = data.get("scores")
        if scores is not None and (not isinstance(scores, list) or len(scores) != 2):
            raise RecordError("record.scores-not-list", scores=scores)
        headers = data.get("headers") or {}
        if not isinstance(headers, dict):
            raise RecordError("record.headers-not-object")
        headers = {str(k): str(v) for k, v in headers.items()}
        # A server's JSON record kept a bot's spec as a header (TailsBot) before its players
        # kept it: read as the player's, as the text form's tag of that name is.
        seats = GAMES[data["game"]].SEATS if data["game"] in GAMES else ()
        bots = [headers.pop(seat.replace(" ", "") + "Bot", None) for seat in seats]
        players = []
        for i, p in enumerate(players_data):
            bot = p.get("bot", bots[i] if i < len(bots) else None)
            players.append(
                Player(
                    name=str(p.get("name", "?")),
                    kind=str(p.get("kind", "human")),
                    guest=None if p.get("guest") is None else str(p["guest"]),
                    bot=None if bot is None else str(bot),
                )
            )
        comments_data = data.get("comments") or []
        try:
            comments = [(int(c["after"]), str(c["text"])) for c in comments_data]
        except (TypeError, KeyError, ValueError):
            raise RecordError("record.comments-not-list") from None
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
            raise RecordError("record.bad-seed", seed=seed)
        record = cls(
            game=data["game"],
            options=options,
            players=players,
            moves=list(data["moves"]),
            result=data.get("result", "*"),
            termination=data.get("termination"),
            scores=(scores[0], scores[1]) if scores is not None else None,
            started=data.get("started"),
            ended=data.get("ended"),
            seed=seed,
            headers=headers,
            comments=comments,
        )
        record.validate()
        return record

    def dumps_json(self) -> str:
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"

    # -- the text form ----------------------------------------------------------------------
    def to_text(self) -> str:
        seats = [s.replace(" ", "") for s in self.seat_names]
        tags: list[tuple[str, str]] = [
            ("Game", self.game),
            ("Options", json.dumps(self.options, sort_keys=True)),
        ]
        for seat, player in zip(seats, self.players, strict=True):
            tags += [(seat, player.name), (f"{seat}Kind", player.kind)]
            if player.guest is not None:
                tags.append((f"{seat}Guest", player.guest))
            if player.bot is not None:
                tags.append((f"{seat}Bot", player.bot))
        tags.append(("Result", self.result))
        if self.termination is not None:
            tags.append(("Termination", self.termination))
        if self.scores is not None:
            tags.append(("Scores", " ".join(str(_number(s)) for s in self.scores)))
        if self.started is not None:
            tags.append(("Start", self.started))
        if self.ended is not None:
            tags.append(("End", self.ended))
        if self.seed is not None:
            tags.append(("Seed", json.dumps(self.seed)))
        tags += list(self.headers.items())
        lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
        lines.append("")
        comments: dict[int, list[str]] = {}
        for before, text in self.comments:
            comments.setdefault(before, []).append(text)
        for i, move in enumerate(self.moves):
            lines += [f"# {c}" for c in comments.get(i, [])]
            lines.append(move)
        lines += [f"# {c}" for c in comments.get(len(self.moves), [])]
        lines.append(self.result)
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Record:
        """A record from its text form; RecordError names the line that is wrong."""
        tags, moves, comments, result = _read_text(text)
        if "Game" not in tags:
            raise RecordError("record.no-game-header")
        options = _parse_json(
            tags.get("Options", "{}"),
            "record.options-header-not-json",
            "record.options-header-too-deep",
        )
        if not isinstance(options, dict):
            raise RecordError("record.options-header-not-object")
        game_id = tags["Game"]
        seats = [s.replace(" ", "") for s in GAMES[game_id].SEATS] if game_id in GAMES else []
        players = [
            Player(
                name=tags.get(seat, "?"),
                kind=tags.get(f"{seat}Kind", "human"),
                guest=tags.get(f"{seat}Guest"),
                bot=tags.get(f"{seat}Bot"),
            )
            for seat in seats
        ] or [Player(), Player()]
        stated = tags.get("Result", result or "*")
        if result is not None and stated != result:
            raise RecordError("record.result-header-differs", stated=stated, result=result)
        scores = _scores_tag(tags["Scores"]) if "Scores" in tags else None
        seed = _seed_tag(tags["Seed"]) if "Seed" in tags else None
        player_tags = {f"{seat}{tag}" for seat in seats for tag in ("", "Kind", "Guest", "Bot")}
        headers = {k: v for k, v in tags.items() if k not in _RESERVED and k not in player_tags}
        record = cls(
            game=game_id,
            options=options,
            players=players,
            moves=moves,
            result=stated,
            termination=tags.get("Termination"),
            scores=scores,
            started=tags.get("Start"),
            ended=tags.get("End"),
            seed=seed,
            headers=headers,
            comments=comments,
        )
        record.validate()
        return record

    # -- files ------------------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the record: JSON for a ``.json`` path, the text form otherwise."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = self.dumps_json() if path.suffix.lower() == ".json" else self.to_text()
        path.write_text(text, encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path) -> Record:
        return load(path)


def loads(text: str) -> Record:
    """A record from text in either form (detected: JSON starts with ``{``)."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError("record.too-large", most=MAX_RECORD_BYTES // 1_000_000)
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        raise RecordError("record.empty")
    if stripped.startswith("{"):
        return Record.from_json(stripped)
    return Record.from_text(stripped)


def load(path: str | Path) -> Record:
    """Read a record file in either form; RecordError (one line) says what is wrong with it."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise RecordError("record.no-file", path=path) from None
    except IsADirectoryError:
        raise RecordError("record.folder", path=path) from None
    except OSError as e:
        raise RecordError("record.unreadable", path=path, why=e.strerror) from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError("record.file-too-large", path=path, most=MAX_RECORD_BYTES // 1_000_000)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("record.not-text", path=path) from None
    try:
        return loads(text)
    except RecordError as e:
        raise RecordError("record.in-file", path=path, problem=e.message) from None


def _parse_json(text: str | bytes, not_json: str, too_deep: str) -> Any:
    """JSON from a record: RecordError (one line about ``what``) for bad JSON, and for JSON
    nested more than MAX_JSON_DEPTH deep (whose parsing would otherwise exhaust the stack)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(not_json, error=e.msg, line=e.lineno) from None
    except RecursionError:
        data = None
    else:
        if _depth(data) <= MAX_JSON_DEPTH:
            return data
    raise RecordError(too_deep, most=MAX_JSON_DEPTH)


def _depth(data: Any) -> int:
    """How deeply lists and objects nest in ``data`` (found without recursion)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if deepest > MAX_JSON_DEPTH:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _scores_text(scores: tuple[float, ...] | list[float]) -> str:
    return "-".join(str(_number(s)) for s in scores)


def _read_text(text: str) -> tuple[dict[str, str], list[str], list[tuple[int, str]], str | None]:
    """The text form's headers, moves, comments (with the number of moves before each) and
    closing result, in the order they come; RecordError names a line out of place."""
    tags: dict[str, str] = {}
    moves: list[str] = []
    comments: list[tuple[int, str]] = []
    result: str | None = None
    in_moves = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not in_moves:
            if not line or line.startswith("#"):
                in_moves = not line and bool(tags)
                continue
            match = _HEADER.match(line)
            if match is not None:
                tags[match.group(1)] = _unescape(match.group(2))
                continue
            _check_header_end(tags, line, number)
            in_moves = True  # moves right after the headers, without the blank line
        if not line:
            continue
        if line.startswith("#"):
            comments.append((len(moves), line[1:].strip()))
        elif result is not None:
            raise RecordError("record.after-result", number=number, line=line, result=result)
        elif line in RESULTS:
            result = line
        else:
            moves.append(line)
    return tags, moves, comments, result


def _check_header_end(tags: dict[str, str], line: str, number: int) -> None:
    """A line that is not a header ends the headers: there must have been some, and it must
    not look like a broken header."""
    if not tags:
        raise RecordError("record.no-headers")
    if line.startswith("["):
        raise RecordError("record.bad-header", number=number, line=line)


def _scores_tag(text: str) -> tuple[float, float]:
    try:
        parts = [float(p) for p in text.split()]
    except ValueError:
        parts = []
    if len(parts) != 2:
        raise RecordError("record.bad-scores-header", text=text)
    return (_number(parts[0]), _number(parts[1]))


def _seed_tag(text: str) -> int | str:
    """The Seed header: JSON for an integer or quoted text, else the text as it is."""
    try:
        seed = json.loads(text)
    except json.JSONDecodeError:
        return text
    return seed if isinstance(seed, int | str) and not isinstance(seed, bool) else text


def _json_record(data: Any) -> dict[str, Any]:
    """JSON text or data as a record's object, its format and version checked."""
    if isinstance(data, str | bytes):
        data = _parse_json(data, "record.json-not-json", "record.json-too-deep")
    if not isinstance(data, dict):
        raise RecordError("record.json-not-object")
    if data.get("format") != FORMAT:
        raise RecordError("record.bad-format", format=FORMAT)
    if data.get("version") != VERSION:
        raise RecordError("record.bad-version", version=data.get("version"), reads=VERSION)
    return data
