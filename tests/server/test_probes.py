"""The attacker's probes of a cluster: names the operating system cannot take, requests that come
from another site with only a Referer to say so, and the one rule for visible text (chat, names,
usernames) tried over every format character Unicode has."""

from __future__ import annotations

import errno
import sys
import unicodedata

import pytest
from fastapi.testclient import TestClient

from pocketarena.server import rules
from pocketarena.server.core.text import TextError, visible_line

from .conftest import create
from .test_chat import register, say
from .test_ws import friend_game

LONG = "a" * 300
DEEP = "/".join(["d"] * 3000)
SAC = {"game": "stack-a-cash"}


def test_no_name_or_depth_of_path_gets_a_server_error(client: TestClient) -> None:
    """A name longer than the file system takes, or a path deeper than it takes, is simply not
    there: 404, never 500, on every route that serves files."""
    paths = [
        f"/rules/files/{LONG}.png",
        f"/rules/files/{LONG}/{LONG}.svg",
        f"/rules/files/{DEEP}/x.png",
        f"/rules/files/{DEEP}.png",
        f"/static/{LONG}.css",
        f"/static/{DEEP}/app.js",
        f"/rules/{LONG}",
        f"/g/{LONG}",
        f"/g/{LONG}/replay",
        f"/players/{LONG}",
        f"/api/games/{LONG}/record",
        f"/api/games/{DEEP}/record",
        f"/{DEEP}",
    ]
    probe = TestClient(client.app, raise_server_exceptions=False)
    probe.portal = client.portal
    for path in paths:
        r = probe.get(path)
        assert r.status_code == 404, (path[:60], r.status_code)


def test_a_foreign_referer_without_origin_is_refused(client: TestClient) -> None:
    r = client.post(
        "/api/games", json={**SAC, "mode": "local"}, headers={"Referer": "https://evil.example/x"}
    )
    assert r.status_code == 403 and "cross-site" in r.json()["detail"]
    r = client.post("/api/games", json={**SAC, "mode": "local"}, headers={"Referer": "::::"})
    assert r.status_code == 403
    r = client.post(
        "/api/games", json={**SAC, "mode": "local"}, headers={"Referer": "http://testserver/new"}
    )
    assert r.status_code == 201
    # An API client sends neither: it is not a browser carrying someone's cookie.
    assert create(client, **SAC, mode="local")["id"]


def _every(category: str) -> list[str]:
    return [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == category]


def test_every_format_character_is_refused() -> None:
    """The whole Cf category (bidi marks and isolates, U+061C, zero widths, U+FEFF, the tag
    characters...), alone and inside a word."""
    formats = _every("Cf")
    assert {"\u200b", "\u200f", "\u061c", "\ufeff", "\U000e0001", "\U000e007f"} <= set(formats)
    for ch in formats:
        for text in (ch, f"ab{ch}cd", f"{ch}abcd"):
            with pytest.raises(TextError):
                visible_line(text)
    for category in ("Cc", "Cs", "Co", "Zl", "Zp"):
        for ch in _every(category)[:200]:
            with pytest.raises(TextError):
                visible_line(f"ab{ch}cd")


def test_visible_text_is_nfc_and_single_spaced() -> None:
    assert visible_line("Cafe\u0301") == "Caf\u00e9"
    assert visible_line("  a \u00a0 b\u3000c  ") == "a b c"
    assert visible_line("Ünïcödé 🎲 中文 עברית") == "Ünïcödé 🎲 中文 עברית"
    with pytest.raises(TextError, match="U\\+200B"):
        visible_line("zero\u200bwidth")


@pytest.mark.parametrize("ch", ["\u061c", "\u200b", "\u200f", "\ufeff", "\U000e0041", "\u202e"])
def test_chat_and_names_refuse_format_characters(client: TestClient, ch: str) -> None:
    register(client, "typist")
    gid, _friend = friend_game(client)
    r = say(client, gid, f"hello{ch}there")
    assert r.status_code == 400 and f"U+{ord(ch):04X}" in r.json()["detail"], r.text
    assert client.get(f"/api/games/{gid}/chat").json()["messages"] == []
    r = client.patch("/api/me", json={"name": f"Ada{ch}Lovelace"})
    assert r.status_code == 400 and f"U+{ord(ch):04X}" in r.json()["detail"], r.text
    r = client.post("/api/auth/register", json={"username": f"ada{ch}", "password": "longenough"})
    assert r.status_code in (400, 422), r.text
    assert client.get("/api/me").json()["name"] != f"Ada{ch}Lovelace"


def test_chat_and_names_are_kept_in_nfc(client: TestClient) -> None:
    register(client, "accents")
    gid, friend = friend_game(client)
    assert say(client, gid, "Cafe\u0301  au   lait").status_code == 201
    text = friend.get(f"/api/games/{gid}/chat").json()["messages"][0]["text"]
    assert text == "Caf\u00e9 au lait"
    assert client.patch("/api/me", json={"name": "Jose\u0301"}).json()["name"] == "Jos\u00e9"


def test_other_faults_of_the_system_stay_server_errors(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only names the system cannot take are 404s: a failing disk is still the server's fault."""

    def failing(name: str) -> None:
        raise OSError(errno.EIO, "Input/output error", name)

    monkeypatch.setattr(rules, "asset", failing)
    probe = TestClient(client.app, raise_server_exceptions=False)
    probe.portal = client.portal
    r = probe.get("/rules/files/maps/coin-age-classic.svg")
    assert r.status_code == 500 and r.json()["code"] == "error"
