"""A guest's given name ("Guest 0467") in each reader's language: stored as given, worded
where it is shown (the pages; the JSON carries the number beside the stored name for the
scripts), while a name a player chose reads as they wrote it."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from pocketarena import records
from pocketarena.cli.main import app

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


def test_a_record_file_keeps_a_guests_given_name_language_neutral_with_its_number(
    client: TestClient, tmp_path: Path
) -> None:
    """A game's record, downloaded by readers of any language, is one file: the name as stored
    ("Guest 0467") with the number beside it (``guest``, the ``<Seat>Guest`` tag), as the API
    keeps it; whoever reads the file words it in their language (here ``pocketarena replay``
    in French: "Invité 0467"). A name a player chose has no number."""
    gid, friend = friend_game(client)
    me = client.get("/api/me").json()
    number = me["id"][:4]
    friend.patch("/api/me", json={"name": "Ada"})
    assert friend.post(f"/api/games/{gid}/resign").status_code == 200  # its End stays put
    english = client.get(f"/api/games/{gid}/record?format=json").json()
    assert english["players"][0] == {
        "seat": "Heads",
        "name": f"Guest {number}",
        "kind": "human",
        "guest": number,
    }
    assert english["players"][1] == {"seat": "Tails", "name": "Ada", "kind": "human"}
    text = client.get(f"/api/games/{gid}/record?format=text").text
    assert f'[Heads "Guest {number}"]' in text and f'[HeadsGuest "{number}"]' in text
    assert "TailsGuest" not in text
    friend.cookies.set("lang", "fr")  # the same file for a French reader
    assert friend.get(f"/api/games/{gid}/record?format=text").text == text
    saved = tmp_path / "game.txt"
    saved.write_text(text, "utf-8")
    assert records.load(saved).players[0].guest == number
    assert records.loads(client.get(f"/api/games/{gid}/record").text).players[0].guest == number
    shown_fr = CliRunner().invoke(app, ["--lang", "fr", "replay", str(saved)], input="q\n")
    assert f"Invité {number}" in shown_fr.output and f"Guest {number}" not in shown_fr.output
    assert "Ada" in shown_fr.output
