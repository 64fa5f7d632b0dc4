"""The views the browsers read: built as the API's schemas, with the keys the client scripts
have always been sent (and no others), in every kind of position."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import pytest

from pocketarena import i18n
from pocketarena.core import Action
from pocketarena.server import catalog
from pocketarena.server.live import lobby, session, views
from pocketarena.server.live.clock import Clock
from pocketarena.server.live.games import LiveGame
from pocketarena.server.schemas import GameView

from .conftest import as_move
from .tables import made, random_turn, seat

WALL = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
VIEW_KEYS = [
    *("id", "game", "title", "options", "options_text", "mode", "status", "rated", "version"),
    *("seat_names", "seats", "node", "to_move", "thrower", "legal", "history", "history_from"),
    *("plies", "events_from", "scores", "position", "winner", "result", "termination"),
    *("rating_changes", "fair", "rematch", "created_at", "days_per_move", "deadline"),
    *("draw_offer", "takeback_offer", "abortable"),
]
ENTRY_KEYS = [
    *("id", "game", "title", "options", "options_text", "mode", "rated", "clock", "seats"),
    *("plies", "created_at", "days_per_move"),
]


def live_game(game: str, timed: bool) -> LiveGame:
    live = made(
        LiveGame,
        game,
        (seat("ann"), seat("bob", "guest")),
        clock=Clock(60_000, 0) if timed else None,
    )
    live.id, live.created_at = "V1", WALL
    return live


@pytest.mark.parametrize("game", catalog.game_ids())
def test_views_keep_their_keys_through_a_whole_game(game: str) -> None:
    rng = random.Random(game)
    live = live_game(game, timed=game != "flipwars")
    start = session.begin(live, 0.0, WALL)
    if start is not None:
        session.adopt(live, start)
    while True:
        for svg in (False, True):
            data = views.view_data(live, svg)
            assert list(data) == VIEW_KEYS + (["svg"] if svg else [])
            assert GameView.model_validate(data).model_dump(
                mode="json", exclude={"you", "clock"}
            ) == (data if svg else {**data, "svg": None})
        assert [h["text"] for h in data["history"]] == [a.text for a in live.state.history]
        record = lobby.record(live, 0.0, live.last_activity)
        item = lobby.read_record(record or "")
        assert (item is not None) == (live.status == "active")
        assert item is None or list(item.entry.model_dump(exclude={"idle_s"})) == ENTRY_KEYS
        actor = live.actor()
        you = [actor] if actor is not None else []
        message = json.loads(views.state_message(live, you, svg=False))
        assert list(message) == ["type", "you", "clock", "legal", "game"]
        to_act = live.status == "active" and live.state.current_player >= 0
        legal = [a.text for a in live.state.legal_actions()] if to_act else []
        # the mover is sent the actions' texts alone: the client reads each one's verb and
        # tokens from its words, which must be the API's (``GET /api/games/{id}``) for it
        assert message["legal"] == legal
        objects = [a.model_dump(exclude={"id"}) for a in views.legal(live)] if to_act else []
        assert [as_move(text) for text in message["legal"]] == objects
        assert views.legal_text(live) == json.dumps(legal, separators=(",", ":"))
        assert (message["clock"] is None) == (live.clock is None)
        if live.status != "active":
            break
        live.revision += 1  # a broadcast: the cached texts are made again
        random_turn(live, rng, WALL)
    assert data["fair"] is None or data["fair"]["seed"] is not None  # revealed at the end
    assert data["to_move"] is None and data["legal"] == []


def test_legal_texts_that_json_must_escape_are_written_by_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The texts are joined as they are only when none needs an escape (no game's notation
    does today); one that does is still sent as valid JSON saying the same."""
    live = live_game("stack-a-cash", timed=False)
    texts = ['say "hi"', "path a\\b", "tab\there", "plain é"]
    actions = [Action(n, text, text.split()[0]) for n, text in enumerate(texts)]
    monkeypatch.setattr(views, "_legal_actions", lambda _live: actions)
    assert json.loads(views.legal_text(live)) == texts
    live.revision += 1
    monkeypatch.setattr(views, "_legal_actions", lambda _live: actions[3:])
    assert views.legal_text(live) == '["plain é"]'


def test_the_lobby_lists_seeks_fairly_and_live_games_liveliest_first() -> None:
    wall, now = 1_000_000.0, 500.0
    items = []
    for n in range(5):
        live = live_game("stack-a-cash", timed=False)
        live.id, live.mode, live.status, live.last_activity = f"S{n}", "seek", "waiting", now - 10
        items.append(lobby.item(live, wall, now))
    for n, idle in enumerate((50.0, 5.0, 99_999.0)):
        live = live_game("stack-a-cash", timed=False)
        live.id, live.last_activity = f"L{n}", now - idle
        items.append(lobby.item(live, wall, now))
    finished = live_game("stack-a-cash", timed=False)
    finished.status = "finished"
    assert lobby.record(finished, wall, now) is None
    # as the other processes of a cluster read them back from the bus
    texts = [lobby.record(live, wall, now) for live in (live_game("flipwars", timed=True),)]
    assert all(t is not None and lobby.read_record(t) is not None for t in texts)
    assert lobby.read_record('{"entry": {}}') is None and lobby.read_record("[") is None
    lists = views.lobby_lists(items, wall)
    assert len(lists["seeks"]) == views.LOBBY_SEEKS_PER_SOURCE  # one creator: a few seeks
    assert [e["id"] for e in lists["live"]] == ["L1", "L0"]  # the idle one has left
    assert [e["idle_s"] for e in lists["live"]] == [5, 50]
    assert all(list(e) == ENTRY_KEYS for e in lists["seeks"])
    assert all(list(e) == [*ENTRY_KEYS, "idle_s"] for e in lists["live"])


def test_live_now_drops_a_game_its_players_left() -> None:
    """Issue 24: 'Live now' listed games whose players had gone (a game kept its place for 30
    minutes without a move). A game in progress is listed while someone moved in the last few
    minutes; a seek keeps its longer wait (someone may still take it)."""
    wall, now = 1_000_000.0, 5_000.0
    items = []
    for n, idle in enumerate((60.0, views.LIVE_IDLE_S - 1, views.LIVE_IDLE_S + 1, 20 * 60)):
        live = live_game("stack-a-cash", timed=False)
        live.id, live.last_activity = f"L{n}", now - idle
        items.append(lobby.item(live, wall, now))
    seek = live_game("stack-a-cash", timed=False)
    seek.id, seek.mode, seek.status, seek.last_activity = "S", "seek", "waiting", now - 20 * 60
    items.append(lobby.item(seek, wall, now))
    lists = views.lobby_lists(items, wall)
    assert [e["id"] for e in lists["live"]] == ["L0", "L1"]
    assert [e["id"] for e in lists["seeks"]] == ["S"]


def test_a_games_options_are_worded_in_each_readers_language() -> None:
    """The options' words are made once per game and language (``views.options_text``): each
    reader still gets them in their own language, in the view and the lobby's entry."""
    live = live_game("wallet-battles", timed=False)
    seen = {}
    for code in ("en", "fr", "en", "de", "fr"):
        with i18n.use_locale(code):
            expected = catalog.options_text(live.game.ID, live.game.options)
            live.revision += 1  # as after a broadcast: nothing cached in the view reused
            assert json.loads(views.view_json(live, svg=False))["options_text"] == expected
            assert views.lobby_entry(live).options_text == expected
            seen[code] = expected
    assert len(set(seen.values())) == 3  # three languages, three wordings
