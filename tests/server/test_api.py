"""The HTTP API: catalog, identity, creating and joining games, moves, errors, records, pages."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app

from .conftest import create, make_settings, player_id, second_client

SAC = {"game": "stack-a-cash", "options": {}}
SMALL_WALLET = {"game": "wallet-battles", "options": {"coins": {"Q": 1, "N": 1, "P": 1, "D": 1}}}


def wait_for(client: TestClient, gid: str, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = client.get(f"/api/games/{gid}?svg=false").json()
        if pred(view):
            return view
        time.sleep(0.02)
    raise AssertionError(f"game {gid} never reached the expected state: {view}")


def test_catalog_lists_every_game_with_options_and_bots(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/catalog").json()}
    assert {"coin-age", "stack-a-cash", "wallet-battles"} <= set(games)
    assert games["stack-a-cash"]["options"][0]["name"] == "protect"
    assert "random" in games["wallet-battles"]["bots"]
    assert games["coin-age"]["chance"] is True
    assert client.get("/api/catalog/nope").status_code == 404
    # Forms name options and their choices in words; the values stay the ids.
    protect = games["stack-a-cash"]["options"][0]
    assert protect["label"] == "Protected coin" and protect["choices"] == ["touched", "placed"]
    assert protect["choice_labels"] == [
        "the coin touched last turn",
        "a just-placed coin only (as printed)",
    ]
    end = next(o for o in games["wallet-battles"]["options"] if o["name"] == "end")
    assert end["choices"] == ["occupied", "used"]
    assert end["label"] == "The map ends the game when"
    assert end["choice_labels"] == [
        "every location holds a coin at once",
        "every location has held a coin",
    ]


def test_a_visitor_gets_a_stable_signed_guest_identity(client: TestClient) -> None:
    first = client.get("/api/me").json()
    assert first["kind"] == "guest" and client.get("/api/me").json()["id"] == first["id"]
    assert "pa_session" in client.cookies
    client.cookies.set("pa_session", client.cookies["pa_session"][:-3] + "xyz")  # forged
    assert client.get("/api/me").json()["id"] != first["id"]


def test_display_names(client: TestClient) -> None:
    assert client.patch("/api/me", json={"name": "Ada"}).json()["name"] == "Ada"
    r = client.patch("/api/me", json={"name": "<b>"})
    assert r.status_code == 400 and "may not contain" in r.json()["detail"]
    assert client.get("/api/me").json()["name"] == "Ada"


def test_accounts_register_login_logout(client: TestClient) -> None:
    guest = player_id(client)
    r = client.post("/api/auth/register", json={"username": "ada", "password": "longenough"})
    assert r.status_code == 200 and r.json()["id"] == guest and r.json()["kind"] == "account"
    assert client.post("/api/auth/logout").status_code == 200
    assert player_id(client) != guest
    r = client.post("/api/auth/login", json={"username": "ada", "password": "wrong-password"})
    assert r.status_code == 400 and r.json()["detail"] == "wrong username or password"
    assert (
        client.post(
            "/api/auth/login", json={"username": "ada", "password": "longenough"}
        ).status_code
        == 200
    )
    assert player_id(client) == guest


def test_a_game_against_a_bot_starts_at_once(client: TestClient) -> None:
    created = create(client, **SAC, mode="bot", bot="random", seat=0)
    view = created["game"]
    assert view["status"] == "active" and view["you"] == [0] and view["to_move"] == 0
    assert view["seats"][1]["kind"] == "bot" and view["seats"][1]["bot"] == "random"
    assert view["svg"].startswith("<svg") and 'data-place="b2"' in view["svg"]
    place = next(a for a in view["legal"] if a["text"] == "place L b2")
    assert place["verb"] == "place" and place["tokens"] == ["L", "b2"]
    assert created["invite_url"] is None and created["url"].endswith(f"/g/{created['id']}")


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess", "mode": "bot", "bot": "random"}, 400, "unknown game"),
        (
            {"game": "stack-a-cash", "options": {"protect": "never"}, "mode": "local"},
            400,
            "choose one of",
        ),
        ({"game": "stack-a-cash", "options": {"size": 4}, "mode": "local"}, 400, "unknown option"),
        ({"game": "stack-a-cash", "mode": "bot", "bot": "grandmaster"}, 400, "choose one of"),
        ({"game": "stack-a-cash", "mode": "bot"}, 400, "choose a bot level"),
        ({"game": "stack-a-cash", "mode": "online"}, 422, "mode"),
        ({"game": "stack-a-cash", "mode": "local", "seat": 2}, 422, "seat"),
        ({"game": "stack-a-cash", "mode": "local", "clock": {"initial_s": 1}}, 422, "initial_s"),
        ({"game": "stack-a-cash", "mode": "local", "colour": "red"}, 422, "colour"),
    ],
)
def test_bad_game_requests_are_explained(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == status, r.text
    assert words in str(r.json()["detail"])


def test_moves_over_http_with_every_refusal(client: TestClient) -> None:
    gid = create(client, **SAC, mode="bot", bot="random", seat=0)["id"]
    r = client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 0})
    assert r.status_code == 200 and r.json()["version"] == 1
    view = wait_for(client, gid, lambda v: v["version"] >= 2)  # the bot answered
    assert view["to_move"] == 0 and len(view["history"]) == 2
    # the same move again, on the old version: refused as stale, nothing changes
    r = client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 0})
    assert r.status_code == 409 and r.json()["code"] == "stale"
    # illegal: the engine's reason, given as a reason id and parameters beside the words. A
    # large coin onto b2 (which holds one): refused as topped, or, when the random bot placed
    # the last large coin (a third of its replies), as none left.
    r = client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 2})
    assert r.status_code == 422 and r.json()["code"] == "illegal"
    large = {"id": "stack-a-cash.size.large", "params": {}}
    if any(a["text"].startswith("place L ") for a in view["legal"]):
        assert r.json()["reason"] == "stack-a-cash.topped"
        assert r.json()["params"]["place"] == "b2" and r.json()["params"]["size"] == large
    else:
        assert r.json()["reason"] == "stack-a-cash.none-left"
        assert r.json()["params"] == {"size": large, "letter": "L"}
    r = client.post(f"/api/games/{gid}/moves", json={"action": "jump b2", "version": 2})
    assert r.status_code == 422 and "starts with" in r.json()["detail"]
    assert r.json()["reason"] == "stack-a-cash.unknown-verb"
    assert r.json()["params"] == {"text": "jump b2", "word": "jump"}
    # someone else
    other = second_client(client)
    r = other.post(f"/api/games/{gid}/moves", json={"action": "place S a1", "version": 2})
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    r = client.post("/api/games/NOPE1234/moves", json={"action": "place S a1", "version": 2})
    assert r.status_code == 404 and r.json()["code"] == "unknown_game"
    assert client.get(f"/api/games/{gid}?svg=false").json()["version"] == 2


def test_creating_and_joining_answer_without_the_board_when_asked(client: TestClient) -> None:
    """``?svg=false``: the same answer, less the SVG board (the site's pages draw theirs from
    the socket); without it the board comes as before."""
    full = client.post("/api/games", json={**SAC, "mode": "friend", "seat": 0})
    bare = client.post("/api/games?svg=false", json={**SAC, "mode": "friend", "seat": 0})
    assert full.status_code == bare.status_code == 201
    assert full.json()["game"]["svg"].startswith("<svg")
    assert bare.json()["game"]["svg"] is None
    same = {"id", "url", "invite_url", "svg", "created_at"}  # each game's own
    assert {k: v for k, v in full.json()["game"].items() if k not in same} == {
        k: v for k, v in bare.json()["game"].items() if k not in same
    }
    friend = second_client(client)
    for created, svg in ((full.json(), None), (bare.json(), "false")):
        invite = created["invite_url"].split("invite=")[1]
        query = f"?svg={svg}" if svg else ""
        r = friend.post(f"/api/games/{created['id']}/join{query}", json={"invite": invite})
        assert r.status_code == 200 and r.json()["status"] == "active" and r.json()["you"] == [1]
        assert (r.json()["svg"] is None) == (svg == "false")
        if svg is None:
            assert r.json()["svg"].startswith("<svg")
    r = client.post("/api/games?svg=maybe", json={**SAC, "mode": "friend", "seat": 0})
    assert r.status_code == 422  # a bad value changes nothing: no game made
    assert "svg" in r.text


def test_a_friend_joins_by_invite_only(client: TestClient) -> None:
    created = create(client, **SAC, mode="friend", seat=1)
    gid, invite = created["id"], created["invite_url"].split("invite=")[1]
    assert created["game"]["status"] == "waiting"
    friend = second_client(client)
    r = friend.post(f"/api/games/{gid}/join", json={})
    assert r.status_code == 403 and "invitation" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/join", json={"invite": invite})
    assert r.status_code == 403 and "your own game" in r.json()["detail"]
    r = friend.post(f"/api/games/{gid}/join", json={"invite": invite})
    assert r.status_code == 200 and r.json()["status"] == "active" and r.json()["you"] == [0]
    # out of turn: the creator sits second
    r = client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 1})
    assert r.status_code == 403 and r.json()["code"] == "not_your_turn"
    assert (
        friend.post(
            f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 1}
        ).status_code
        == 200
    )
    # a third person cannot take a seat any more
    r = second_client(client).post(f"/api/games/{gid}/join", json={"invite": invite})
    assert r.status_code == 409


def test_seeks_appear_in_the_lobby_until_taken(client: TestClient) -> None:
    gid = create(client, **SMALL_WALLET, mode="seek")["id"]
    lobby = client.get("/api/lobby").json()
    assert [s["id"] for s in lobby["seeks"]] == [gid]
    other = second_client(client)
    assert other.post(f"/api/games/{gid}/join", json={}).json()["status"] == "active"
    lobby = client.get("/api/lobby").json()
    assert not lobby["seeks"] and [g["id"] for g in lobby["live"]] == [gid]


def test_only_the_creator_cancels_a_waiting_game(client: TestClient) -> None:
    gid = create(client, **SAC, mode="seek")["id"]
    assert second_client(client).delete(f"/api/games/{gid}").status_code == 403
    assert client.delete(f"/api/games/{gid}").json()["status"] == "aborted"
    assert client.delete(f"/api/games/{gid}").status_code == 409


def test_resign_rates_the_game_and_rematch_swaps_seats(client: TestClient) -> None:
    client.post("/api/auth/register", json={"username": "rater", "password": "longenough"})
    gid = create(client, **SAC, mode="bot", bot="random", seat=0)["id"]
    client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 0})
    wait_for(client, gid, lambda v: v["version"] >= 2)  # the bot answered: both have moved
    view = client.post(f"/api/games/{gid}/resign").json()
    assert (
        view["status"] == "finished"
        and view["winner"] == 1
        and view["termination"] == "resignation"
    )
    assert view["result"] == "0-1" and view["rating_changes"][0]["delta"] < 0
    me = player_id(client)
    page = client.get(f"/api/players/{me}").json()
    assert page["stats"]["losses"] == 1 and page["ratings"][0]["game"] == "stack-a-cash"
    assert page["games"][0]["outcome"] == "loss" and page["games"][0]["rating_change"] < 0
    rematch = client.post(f"/api/games/{gid}/rematch").json()["rematch"]["id"]
    new = client.get(f"/api/games/{rematch}?svg=false").json()
    assert new["status"] == "active" and new["you"] == [1] and new["rematch"]["of"] == gid
    r = client.post(f"/api/games/{gid}/resign")
    assert r.status_code == 409 and "in progress" in r.json()["detail"]


def test_local_games_are_unrated_and_both_seats_are_yours(client: TestClient) -> None:
    view = create(client, **SAC, mode="local", rated=True)["game"]
    assert view["you"] == [0, 1] and view["rated"] is False
    gid = view["id"]
    client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 0})
    assert (
        client.post(
            f"/api/games/{gid}/moves", json={"action": "place S a1", "version": 1}
        ).status_code
        == 200
    )


def test_records_and_verification_of_a_finished_chance_game(client: TestClient) -> None:
    created = create(client, **SMALL_WALLET, mode="friend", seat=0)
    gid, invite = created["id"], created["invite_url"].split("invite=")[1]
    view = second_client(client).post(f"/api/games/{gid}/join", json={"invite": invite}).json()
    assert view["status"] == "active" and view["history"][-1]["chance"]  # flipped at the start
    assert view["fair"]["commitment"] and view["fair"]["seed"] is None
    early = client.get(f"/api/games/{gid}/verify").json()
    assert not early["ok"] and "not been revealed" in early["verdict"]
    assert "ChanceSeed" not in client.get(f"/api/games/{gid}/record?format=text").text
    assert client.post(f"/api/games/{gid}/resign").status_code == 200
    report = client.get(f"/api/games/{gid}/verify").json()
    assert report["ok"], report
    assert report["checks"] and all(c["ok"] for c in report["checks"])
    text = client.get(f"/api/games/{gid}/record?format=text&download=true")
    assert "attachment" in text.headers["content-disposition"]
    assert '[ChanceSeed "' in text.text and '[Termination "' in text.text
    record = client.get(f"/api/games/{gid}/record?format=json").json()
    assert record["headers"]["ChanceCommitment"] == view["fair"]["commitment"]
    # verify an uploaded record, then a tampered one
    r = client.post("/api/verify", content=text.text, headers={"Content-Type": "text/plain"})
    assert r.json()["ok"] is True
    first_flip = next(i for i, m in enumerate(record["moves"]) if m.startswith("flip"))
    record["moves"][first_flip] = (
        "flip TT" if record["moves"][first_flip] != "flip TT" else "flip HH"
    )
    record["moves"] = record["moves"][: first_flip + 1]
    record["result"], record["termination"], record["scores"] = "*", "unterminated", None
    import json

    r = client.post(
        "/api/verify", content=json.dumps(record), headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 200 and r.json()["ok"] is False
    r = client.post("/api/verify", content="hello", headers={"Content-Type": "text/plain"})
    assert r.status_code == 400 and "not a readable record" in r.json()["detail"]


def test_boards_for_replays_and_previews(client: TestClient) -> None:
    gid = create(client, **SAC, mode="local")["id"]
    client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 0})
    r = client.get(f"/api/games/{gid}/board?ply=1")
    assert r.headers["content-type"].startswith("image/svg+xml") and r.text.startswith("<svg")
    assert client.get(f"/api/games/{gid}/board?ply=0").text != r.text
    assert client.get(f"/api/games/{gid}/board?ply=5").status_code == 400
    assert client.get(f"/api/games/{gid}/board?ply=-1").status_code == 422
    preview = client.get(f"/api/games/{gid}/preview", params={"action": "place M a1"})
    assert preview.status_code == 200 and preview.text.startswith("<svg")
    assert (
        client.get(f"/api/games/{gid}/preview", params={"action": "place L b2"}).status_code == 422
    )


def test_pages_render(client: TestClient) -> None:
    gid = create(client, **SAC, mode="bot", bot="random")["id"]
    me = player_id(client)
    for path in [
        "/",
        "/new",
        "/new?game=wallet-battles",
        f"/g/{gid}",
        f"/g/{gid}/replay",
        f"/g/{gid}/verify",
        "/lobby",
        "/rules",
        "/rules/stack-a-cash",
        f"/players/{me}",
        "/account",
        "/verify",
    ]:
        r = client.get(path)
        assert r.status_code == 200, path
        assert "Content-Security-Policy" in r.headers and "<title>" in r.text
    assert "Tic-tac-toe" in client.get("/").text  # a pitch on the home page
    assert (
        '<table tabindex="0">' in client.get("/rules/stack-a-cash").text
    )  # Markdown tables rendered
    assert client.get("/g/NOPE1234").status_code == 404
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/players/nobody").status_code == 404
    assert client.get("/me", follow_redirects=False).headers["location"] == f"/players/{me}"


def test_the_verify_form(client: TestClient) -> None:
    r = client.post("/verify", data={"record": "not a record"})
    assert r.status_code == 400 and "not a readable record" in r.text


def test_openapi_documents_the_api(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path in [
        "/api/games",
        "/api/games/{game_id}/moves",
        "/api/games/{game_id}/verify",
        "/api/lobby",
        "/api/players/{player_id}",
        "/api/catalog",
        "/api/verify",
    ]:
        assert path in schema["paths"], path
    assert "/" not in schema["paths"]  # pages are not API
    assert client.get("/docs").status_code == 200


def test_cross_site_writes_are_refused(client: TestClient) -> None:
    r = client.post(
        "/api/games", json={**SAC, "mode": "local"}, headers={"Origin": "https://evil.example"}
    )
    assert r.status_code == 403 and "cross-site" in r.json()["detail"]
    r = client.post(
        "/api/games", json={**SAC, "mode": "local"}, headers={"Origin": "http://testserver"}
    )
    assert r.status_code == 201


def test_http_writes_are_rate_limited_per_client(tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings: Settings = make_settings(tmp_path, http_writes_per_s=0.5, http_burst=3)
    with TestClient(create_app(settings)) as client:
        client.get("/api/me")  # the session (a cookie-less request is limited per address)
        codes = [client.patch("/api/me", json={"name": f"Ann{i}"}).status_code for i in range(5)]
        assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]
        r = client.patch("/api/me", json={"name": "Bob"})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        # another client has its own allowance
        assert second_client(client).patch("/api/me", json={"name": "Cat"}).status_code == 200
        assert client.get("/api/me").json()["name"] == "Ann2"  # reads are not limited


def test_no_secret_reaches_a_spectator(client: TestClient) -> None:
    created = create(client, **SMALL_WALLET, mode="friend", seat=0)
    gid, invite = created["id"], created["invite_url"].split("invite=")[1]
    spectator = second_client(client)
    assert invite in client.get(f"/g/{gid}").text  # the creator's page shows the invite link
    assert invite not in spectator.get(f"/g/{gid}").text
    assert invite not in spectator.get(f"/api/games/{gid}").text
    friend = second_client(client)
    friend.post(f"/api/games/{gid}/join", json={"invite": invite})
    seed = client.app.state.ctx.hub.games[gid].chance.reveal()
    for who in (spectator, friend, client):  # nobody sees the seed while the game runs
        for path in (
            f"/api/games/{gid}",
            f"/g/{gid}",
            f"/api/games/{gid}/record?format=text",
            f"/api/games/{gid}/record",
            f"/g/{gid}/replay",
            "/api/lobby",
            "/lobby",
        ):
            assert seed not in who.get(path).text, path
    client.post(f"/api/games/{gid}/resign")
    assert spectator.get(f"/api/games/{gid}?svg=false").json()["fair"]["seed"] == seed  # revealed


def test_rules_pages_show_their_diagrams(client: TestClient) -> None:
    page = client.get("/rules/coin-age").text
    assert 'src="/rules/files/maps/coin-age-classic.svg"' in page
    assert 'href="#the-maps"' in page and 'id="the-maps"' in page
    image = client.get("/rules/files/maps/coin-age-classic.svg")
    assert image.status_code == 200 and image.headers["content-type"] == "image/svg+xml"
    assert "<svg" in image.text
    for bad in ["../README.md", "maps/../../pyproject.toml", "coin-age.md", "maps/nope.svg"]:
        assert client.get(f"/rules/files/{bad}").status_code == 404, bad
    assert (
        "data-place" in client.get("/rules/flipwars").text
    )  # starting boards drawn beside the rules


def test_the_lobby_forgets_seeks_and_games_left_idle(client: TestClient) -> None:
    seek = create(client, **SAC, mode="seek")["id"]
    live_id = create(client, **SAC, mode="bot", bot="random")["id"]
    lobby = client.get("/api/lobby").json()
    assert seek in [s["id"] for s in lobby["seeks"]] and live_id in [g["id"] for g in lobby["live"]]
    for gid in (seek, live_id):
        client.app.state.ctx.hub.games[gid].last_activity -= 31 * 60
    lobby = client.get("/api/lobby").json()
    assert not lobby["seeks"] and not lobby["live"]
    assert (
        client.get(f"/api/games/{seek}?svg=false").json()["status"] == "waiting"
    )  # still joinable


def test_text_from_the_address_never_becomes_markup(client: TestClient) -> None:
    gid = create(client, **SAC, mode="bot", bot="random", seat=0)["id"]
    hostile = '</script><script>alert(1)</script><!--"&'
    html = client.get(f"/g/{gid}", params={"invite": hostile}).text
    assert "<script>alert(1)" not in html
    embedded = re.search(
        r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S
    )
    assert embedded is not None
    data = json.loads(embedded.group(1))
    assert data["invite"] == hostile and data["game"]["id"] == gid
