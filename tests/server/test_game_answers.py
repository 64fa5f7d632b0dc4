"""The API's answers that carry a game are made once from the view's model
(``games.view_response``), no longer validated against ``response_model`` and dumped again by
FastAPI: the bytes must be the ones that path made, in every kind of position."""

from __future__ import annotations

import random

import pytest
from pydantic import TypeAdapter

from pocketarena.core import Action
from pocketarena.server import catalog
from pocketarena.server.api.responses import SafeJSONResponse
from pocketarena.server.api.routes import games
from pocketarena.server.live import session, views
from pocketarena.server.live.games import LiveGame
from pocketarena.server.schemas import GameCreated, GameView

from .tables import made, random_turn, seat
from .test_views import WALL, live_game

SCHEMA = TypeAdapter(GameView)


def through_fastapi(view: dict[str, object]) -> bytes:
    """What FastAPI answered for a route returning ``view`` with ``response_model=GameView``:
    the value validated, dumped as JSON data, rendered by the app's response class."""
    return bytes(
        SafeJSONResponse(SCHEMA.dump_python(SCHEMA.validate_python(view), mode="json")).body
    )


@pytest.mark.parametrize("timed", [False, True])
@pytest.mark.parametrize("game", catalog.game_ids())
def test_a_games_answer_is_what_fastapi_made_of_its_view(game: str, timed: bool) -> None:
    rng = random.Random(game)
    live = live_game(game, timed)
    start = session.begin(live, 0.0, WALL)
    if start is not None:
        session.adopt(live, start)
    checked = 0
    while True:
        for viewer in ("ann", "bob", None):
            for svg in (False, True):
                if svg and checked % 7:  # the board drawn now and then: it is text in the view
                    continue
                answer = games.view_response(live, viewer, svg)
                assert answer.body == through_fastapi(games.view_for(live, viewer, svg))
                assert answer.status_code == 200
                assert answer.headers["content-type"] == "application/json"
        checked += 1
        if live.status != "active":
            break
        random_turn(live, rng, WALL)
    assert live.status == "finished" and checked > 2
    # what a rated game's end and the rematch offers add to the view
    live.rating_changes = [{"player": "ann", "before": 1500, "after": 1516, "delta": 16}]
    live.rematch_offers = {1}
    assert games.view_response(live, "bob").body == through_fastapi(games.view_for(live, "bob"))


@pytest.mark.parametrize("game", catalog.game_ids())
def test_a_new_games_answer_is_what_fastapi_made_of_it(game: str) -> None:
    live = made(LiveGame, game, (seat("ann"), None))
    live.id, live.created_at, live.status, live.mode = "W1", WALL, "waiting", "friend"
    created = {"id": live.id, "url": "http://x/g/W1", "invite_url": "http://x/g/W1?invite=t"}
    ours = SafeJSONResponse({**created, "game": games.view_answer(live, "ann", False)})
    schema = TypeAdapter(GameCreated)
    theirs = schema.validate_python({**created, "game": games.view_for(live, "ann", False)})
    assert ours.body == SafeJSONResponse(schema.dump_python(theirs, mode="json")).body


def test_legal_actions_pydantic_cannot_write_go_the_common_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The legal actions are written by pydantic's writer; a text it refuses (a lone
    surrogate: no game's notation has one) is written as every other answer is."""
    live = live_game("stack-a-cash", timed=False)
    actions = [Action(0, "say \ud800", "say"), Action(1, 'quote "é"', "quote")]
    monkeypatch.setattr(views, "_legal_actions", lambda _live: actions)
    answer = games.view_response(live, "ann")
    assert answer.body == through_fastapi(games.view_for(live, "ann"))
    assert b'"say ?"' in answer.body
