"""A guest's given name ("Guest 0467") in each reader's language: stored as given, worded
where it is shown (the pages; the JSON carries the number beside the stored name for the
scripts), while a name a player chose reads as they wrote it."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from .conftest import create, second_client
from .test_ws import friend_game


def shown(page: str) -> str:
    """A page without its scripts' data (which keeps the stored name beside the number)."""
    return re.sub(r"<script.*?</script>", "", page, flags=re.S)


def test_a_guests_given_name_is_worded_in_each_readers_language(client: TestClient) -> None:
    gid, friend = friend_game(client)
    me = client.get("/api/me").json()
    number = me["id"][:4]
    # The API keeps the stored name and adds the number to word it by.
    assert me["name"] == f"Guest {number}" and me["guest"] == number
    friend.cookies.set("lang", "fr")
    seat = friend.get(f"/api/games/{gid}").json()["seats"][0]
    assert seat["name"] == f"Guest {number}" and seat["guest"] == number
    # The pages: the opponent's page, the friend's own name in the header, a game's page.
    page = shown(friend.get(f"/players/{me['id']}").text)
    assert f"<h1>Invité {number}" in page and f"Guest {number}" not in page
    own = friend.get("/api/me").json()["guest"]
    header = shown(friend.get(f"/g/{gid}").text)
    assert f">Invité {own}</button>" in header and f"Guest {own}" not in header
    japanese = second_client(client)
    japanese.cookies.set("lang", "ja")
    assert f"<h1>ゲスト {number}" in japanese.get(f"/players/{me['id']}").text
    # What the server says with the name: the first seat is to move, the friend is refused.
    refused = friend.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 1})
    assert refused.status_code == 403, refused.text
    assert f"c'est au tour de Invité {number}" in refused.json()["detail"]
    # The chat carries the number beside the stored name; so does the lobby.
    said = client.post(f"/api/games/{gid}/chat", json={"room": "players", "text": "Hello"})
    assert said.status_code == 201, said.text
    messages = friend.get(f"/api/games/{gid}/chat").json()["messages"]
    assert [(m["name"], m["guest"]) for m in messages] == [(f"Guest {number}", number)]
    seek = create(friend, game="stack-a-cash", mode="seek")
    listed = {e["id"]: e for e in client.get("/api/lobby").json()["seeks"]}
    assert [s["guest"] for s in listed[seek["id"]]["seats"] if s] == [own]


def test_a_chosen_name_reads_as_it_was_written(client: TestClient) -> None:
    gid, friend = friend_game(client)
    me = client.patch("/api/me", json={"name": "Ada"}).json()
    assert me["name"] == "Ada" and me["guest"] is None
    friend.cookies.set("lang", "fr")
    assert friend.get(f"/api/games/{gid}").json()["seats"][0]["guest"] is None
    assert "<h1>Ada" in friend.get(f"/players/{me['id']}").text
    # A guest who never chose a name has no name of their own in the rename form.
    chip = friend.get("/").text
    own = friend.get("/api/me").json()["guest"]
    assert 'value="" placeholder="Invité ' + own + '"' in chip


def test_a_player_page_finds_an_opponent_by_the_name_the_reader_sees(client: TestClient) -> None:
    """The games' filter by opponent takes a guest's given name as the reader reads it
    ("Invité 0467") as well as stored ("Guest 0467")."""
    gid, friend = friend_game(client)
    me = client.get("/api/me").json()
    number = me["id"][:4]
    friend.cookies.set("lang", "fr")
    own = friend.get("/api/me").json()["id"]
    for typed in (f"Invité {number}", f"invité {number.upper()}", f"Guest {number}"):
        found = friend.get(f"/api/players/{own}/games", params={"opponent": typed}).json()
        assert [g["id"] for g in found["games"]] == [gid], typed
