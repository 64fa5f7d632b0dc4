"""A home card's Play starts the usual game in one click: the medium bot, default options."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from pocketarena.server import catalog
from pocketarena.server.main import create_app

from .conftest import make_settings


def test_play_on_a_card_starts_a_game_against_the_medium_bot(client: TestClient) -> None:
    home = client.get("/")
    for game in catalog.game_ids():
        assert f'action="/play/{game}"' in home.text  # each card offers it
        answer = client.post(f"/play/{game}", follow_redirects=False)
        assert answer.status_code == 303, answer.text
        game_id = answer.headers["location"].removeprefix("/g/")
        view = client.get(f"/api/games/{game_id}").json()
        assert view["game"] == game and view["status"] == "active"
        bots = [seat["bot"] for seat in view["seats"] if seat["kind"] == "bot"]
        assert bots == ["medium"]
        me = client.get("/api/me").json()["id"]
        assert me in [seat["player"] for seat in view["seats"]]


def test_play_refuses_an_unknown_game_and_keeps_the_limits(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, games_per_minute=2)
    with TestClient(create_app(settings)) as c:
        assert c.post("/play/no-such-game", follow_redirects=False).status_code == 404
        codes = [c.post("/play/stack-a-cash", follow_redirects=False).status_code for _ in range(3)]
        assert codes[:2] == [303, 303] and codes[2] == 429
