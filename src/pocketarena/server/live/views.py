"""What a live game and the lobby look like to a browser, as the pydantic schemas.

A game's view is ``GameView`` (``game_view`` builds the model). The view sent after every
change, and the API's, is made as that model's JSON data with plain Python instead
(``view_data``): building and dumping the models was a tenth of the server's CPU a move. A
test plays every game and compares the two at every ply, so the messages the browsers read
and the API's documented bodies cannot drift apart. Nothing here changes a game: the hub
calls these after each change.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import pydantic_core

from pocketarena import i18n
from pocketarena.core import Action
from pocketarena.ratings import Rating

from .. import catalog
from ..names import guest_number
from ..schemas import (
    ActionOut,
    FairOut,
    GameView,
    HistoryEntry,
    LobbyEntry,
    LobbyItem,
    RematchOut,
    SeatOut,
)
from . import session

if TYPE_CHECKING:
    from .games import LiveGame
    from .session import Seat

# A game nobody moved in (or a seek nobody took) for this long leaves the lobby's lists; it
# stays playable by its link.
LOBBY_IDLE_S = 30 * 60
# 'Live now' lists a game in progress only while someone moved in it lately: past this, its
# players have most likely left (the bot's last reply waits for a person who has gone).
LIVE_IDLE_S = 5 * 60
LOBBY_SEEKS_PER_SOURCE = 3  # one player or address shows at most this many seeks in the lobby
LOBBY_LIST_MAX = 100  # entries in each of the lobby's lists


def seat_out(seat: Seat) -> SeatOut:
    """The seat as the views show it: made once for each player's name, kind and rating
    (every view of a move showed the same seats again), and never changed once made."""
    key = (seat.player_id, seat.name, seat.kind, seat.bot, seat.rating)
    out = _SEATS.get(key)
    if out is None:
        if len(_SEATS) >= _SEATS_MAX:
            _SEATS.clear()
        out = _SEATS[key] = SeatOut(
            player=seat.player_id,
            name=seat.name,
            kind=seat.kind,  # type: ignore[arg-type]  # guest | account | bot, as stored
            bot=seat.bot,
            guest=guest_number(seat.player_id, seat.name),
            rating=seat.rating.display,
            provisional=seat.rating.provisional,
        )
    return out


_SEATS: dict[tuple[str, str, str, str | None, Rating], SeatOut] = {}
_SEATS_MAX = 10_000


def seats_out(live: LiveGame) -> list[SeatOut | None]:
    return [seat_out(s) if s else None for s in live.seats]


def action_out(action: Action) -> ActionOut:
    """An action with the fields the click-to-play client builds choices from: ``verb`` and
    ``tokens`` (the words after the verb, in notation order)."""
    return ActionOut(
        id=action.id, text=action.text, verb=action.verb, tokens=action.text.split()[1:]
    )


def legal(live: LiveGame) -> list[ActionOut]:
    """The legal decisions (each action's model is made once per game)."""
    return [_action_model(live, a) for a in _legal_actions(live)]


def legal_text(live: LiveGame) -> str:
    """The legal decisions as the state message sends them: a JSON list of their texts (the
    verb, then its words: all the client builds its choices from, in a quarter of the bytes
    of ``legal``'s objects), made once per broadcast from each text as JSON, quoted once
    (``json.dumps`` of the whole list took about 1.4 times as long)."""
    cached = live.legal_cache
    if cached is None or cached[0] != live.revision:
        quoted = _QUOTED
        parts = [quoted.get(a.text) or _quote(a.text) for a in _legal_actions(live)]
        cached = live.legal_cache = (live.revision, "[" + ",".join(parts) + "]")
    return cached[1]


# Actions' texts as JSON strings: the games' notations are a small vocabulary.
_QUOTED: dict[str, str] = {}
_QUOTED_MAX = 100_000


def _quote(text: str) -> str:
    if len(_QUOTED) >= _QUOTED_MAX:
        _QUOTED.clear()
    quoted = _QUOTED[text] = json.dumps(text, ensure_ascii=False)
    return quoted


def _legal_actions(live: LiveGame) -> Sequence[Action]:
    if live.status != "active" or live.state.current_player < 0:
        return ()
    return live.state.legal_actions()


def _action_model(live: LiveGame, action: Action) -> ActionOut:
    entry = live.action_json.get(action.id)
    if entry is None:
        entry = live.action_json[action.id] = action_out(action)
    return entry


def options_text(live: LiveGame) -> str:
    """The game's options in the reader's words, worded once per game and language (its
    options never change; each of a move's views used to word them again)."""
    locale = i18n.current()
    text = live.options_words.get(locale)
    if text is None:
        text = live.options_words[locale] = catalog.options_text(live.game.ID, live.game.options)
    return text


def _listing(live: LiveGame) -> dict[str, Any]:
    """The fields the game's view and its lobby entry share."""
    return {
        "id": live.id,
        "game": live.game.ID,
        "title": live.game.TITLE,
        "options": dict(live.game.options),
        "options_text": options_text(live),
        "mode": live.mode,
        "rated": live.rated,
        "created_at": live.created_at.isoformat(),
        "days_per_move": live.days_per_move,
    }


def game_view(
    live: LiveGame, svg: bool = True, history_from: int = 0, with_legal: bool = True
) -> GameView:
    """The game as everyone may see it. The chance seed appears only once the game is over.

    ``history`` holds the move list from ``history_from`` on (0: all of it)."""
    state = live.state
    node: Literal["decision", "chance", "terminal"] = "decision"
    if state.is_terminal():
        node = "terminal"
    elif state.is_chance_node():
        node = "chance"
    active = live.status == "active"
    fair = None
    if live.chance is not None:
        fair = FairOut(
            scheme=live.chance.scheme,
            commitment=live.chance.commitment,
            seed=live.chance.reveal() if live.status == "finished" else None,
        )
    board = None
    if svg:
        board = catalog.svg_board(state, state.history[-1] if state.history else None)
    return GameView(
        **_listing(live),
        status=live.status,  # type: ignore[arg-type]  # one of the four, as stored
        version=live.version,
        seat_names=list(live.game.SEATS),
        seats=seats_out(live),
        node=node,
        to_move=state.current_player if state.current_player >= 0 and active else None,
        thrower=live.actor() if active and node == "chance" else None,
        legal=legal(live) if with_legal else [],
        history=[
            HistoryEntry(text=e.text, seat=e.seat, chance=e.chance, say=e.worded())
            for e in live.entries[history_from:]
        ],
        history_from=history_from,
        plies=len(live.entries),
        events_from=live.events_from,
        scores=live.final_scores
        if live.final_scores is not None
        else [float(x) for x in state.scores()],
        position=state.position(),
        winner=live.winner,
        result=live.result,
        termination=live.termination,
        rating_changes=live.rating_changes,
        fair=fair,
        rematch=RematchOut(
            id=live.rematch_id, offers=sorted(live.rematch_offers), of=live.rematch_of
        ),
        deadline=live.deadline.isoformat() if live.deadline is not None and active else None,
        draw_offer=live.draw_offer if active else None,
        takeback_offer=live.takeback_offer if active else None,
        abortable=session.abortable(live),
        svg=board,
    )


def view_data(
    live: LiveGame, svg: bool = True, history_from: int = 0, with_legal: bool = True
) -> dict[str, Any]:
    """``game_view`` as JSON data, with the keys the browsers have always been sent: no
    ``svg`` unless asked for, and neither ``you`` nor ``clock`` (they are the caller's).

    Made without the models (``model_dump(mode="json")`` of ``game_view``, less those keys):
    the same keys in the same order and the same values (scores as floats), so that
    ``pydantic_core.to_json`` of it writes the model's JSON text."""
    state = live.state
    active = live.status == "active"
    player = state.current_player
    if state.is_terminal():
        node = "terminal"
    elif state.is_chance_node():
        node = "chance"
    else:
        node = "decision"
    chance = live.chance
    fair = None
    if chance is not None:
        seed = chance.reveal() if live.status == "finished" else None
        fair = {"scheme": chance.scheme, "commitment": chance.commitment, "seed": seed}
    scores = live.final_scores if live.final_scores is not None else state.scores()
    english = i18n.current() == i18n.DEFAULT
    data: dict[str, Any] = {
        "id": live.id,
        "game": live.game.ID,
        "title": live.game.TITLE,
        "options": dict(live.game.options),
        "options_text": options_text(live),
        "mode": live.mode,
        "status": live.status,
        "rated": live.rated,
        "version": live.version,
        "seat_names": list(live.game.SEATS),
        "seats": [seat_data(s) if s else None for s in live.seats],
        "node": node,
        "to_move": player if player >= 0 and active else None,
        "thrower": live.actor() if active and node == "chance" else None,
        "legal": [_action_data(a) for a in _legal_actions(live)] if with_legal else [],
        "history": [
            {
                "text": e.text,
                "seat": e.seat,
                "chance": e.chance,
                "say": e.say if english else e.worded(),
            }
            for e in live.entries[history_from:]
        ],
        "history_from": history_from,
        "plies": len(live.entries),
        "events_from": live.events_from,
        "scores": [float(x) for x in scores],
        "position": state.position(),
        "winner": live.winner,
        "result": live.result,
        "termination": live.termination,
        "rating_changes": live.rating_changes,
        "fair": fair,
        "rematch": {
            "id": live.rematch_id,
            "offers": sorted(live.rematch_offers),
            "of": live.rematch_of,
        },
        "created_at": live.created_at.isoformat(),
        "days_per_move": live.days_per_move,
        "deadline": live.deadline.isoformat() if live.deadline is not None and active else None,
        "draw_offer": live.draw_offer if active else None,
        "takeback_offer": live.takeback_offer if active else None,
        "abortable": session.abortable(live),
    }
    if svg:
        data["svg"] = catalog.svg_board(state, state.history[-1] if state.history else None)
    return data


def seat_data(seat: Seat) -> dict[str, Any]:
    """A seat's ``SeatOut`` as JSON data, made once with its model (never changed: views
    share it)."""
    key = (seat.player_id, seat.name, seat.kind, seat.bot, seat.rating)
    data = _SEAT_DATA.get(key)
    if data is None:
        if len(_SEAT_DATA) >= _SEATS_MAX:
            _SEAT_DATA.clear()
        data = _SEAT_DATA[key] = seat_out(seat).model_dump(mode="json")
    return data


_SEAT_DATA: dict[tuple[str, str, str, str | None, Rating], dict[str, Any]] = {}


def _action_data(action: Action) -> dict[str, Any]:
    """``action_out``'s data."""
    return {
        "id": action.id,
        "text": action.text,
        "verb": action.verb,
        "tokens": action.text.split()[1:],
    }


def view_json(live: LiveGame, svg: bool, delta: bool = False) -> str:
    """The view as JSON text, made once per broadcast for each kind of watcher (as the model's
    JSON: compact, and text other than ASCII as UTF-8 rather than escapes)."""
    key = (svg, delta, i18n.current())  # the view's words are in the reader's language
    cached = live.view_cache.get(key)
    if cached is not None and cached[0] == live.revision:
        return cached[1]
    data = view_data(live, svg, history_from=live.delta_from if delta else 0, with_legal=False)
    # pydantic's own writer, as the model's JSON would be (a third of ``json.dumps``' time)
    text = pydantic_core.to_json(data, inf_nan_mode="null").decode()
    live.view_cache[key] = (live.revision, text)
    return text


def state_message(live: LiveGame, you: list[int], svg: bool, delta: bool = False) -> str:
    """The state message for one client: the shared view, which seats are theirs (``you``),
    the clocks, and the legal actions' texts when it is theirs to act (nobody else needs
    them; ``legal_text``). Put
    together from the texts cached per broadcast, so each watcher costs no new JSON."""
    clock = json.dumps(live.clock.to_json()) if live.clock else "null"
    to_act = live.status == "active" and live.state.current_player in you
    moves = legal_text(live) if to_act else "[]"
    game = view_json(live, svg, delta)
    return (
        f'{{"type":"state","you":{json.dumps(you)},"clock":{clock},"legal":{moves},"game":{game}}}'
    )


def lobby_entry(live: LiveGame, idle_s: int | None = None) -> LobbyEntry:
    return LobbyEntry(
        **_listing(live),
        clock=[live.clock.initial_ms, live.clock.increment_ms] if live.clock else None,
        seats=seats_out(live),
        plies=len(live.state.history),
        idle_s=idle_s,
    )


def lobby_lists(items: list[LobbyItem], wall: float) -> dict[str, Any]:
    """Open seeks (newest first, at most a few per player and per address, so one source
    cannot crowd out the others) and the games in progress (liveliest first, with their idle
    seconds as of ``wall``), as JSON data: a seek's entry has no ``idle_s``."""
    seeks: list[LobbyItem] = []
    live_games: list[tuple[float, LobbyItem]] = []
    for item in items:
        idle = wall - item.active_at
        if item.status == "waiting" and item.mode == "seek":
            if idle < LOBBY_IDLE_S:  # an old seek's creator has gone
                seeks.append(item)
        elif item.status == "active" and idle < LIVE_IDLE_S:
            live_games.append((idle, item))
    seeks.sort(key=lambda i: i.entry.created_at, reverse=True)
    shown: dict[str, int] = {}
    fair_seeks = []
    for item in seeks:
        if all(shown.get(src, 0) < LOBBY_SEEKS_PER_SOURCE for src in item.sources):
            for src in item.sources:
                shown[src] = shown.get(src, 0) + 1
            fair_seeks.append(item.entry.model_dump(mode="json", exclude={"idle_s"}))
    playing = [
        item.entry.model_copy(update={"idle_s": round(idle)}).model_dump(mode="json")
        for idle, item in live_games
    ]
    playing.sort(key=lambda e: e["idle_s"])  # the liveliest first
    return {"seeks": fair_seeks[:LOBBY_LIST_MAX], "live": playing[:LOBBY_LIST_MAX]}
