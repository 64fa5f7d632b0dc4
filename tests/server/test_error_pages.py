"""Errors at a page's address are pages in the site's look; errors under /api stay JSON."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app


def is_site_page(text: str) -> bool:
    return '<header class="topbar">' in text and "Back to the games" in text


def test_unknown_addresses_are_pages(client: TestClient) -> None:
    for path, words in (
        ("/nowhere", "nothing at this address"),
        ("/g/NOPE1234", "there is no game"),
        ("/g/NOPE1234/replay", "there is no game"),
        ("/rules/chess", "no rules for"),
        ("/players/nobody", "no such player"),
    ):
        r = client.get(path)
        assert r.status_code == 404, path
        assert r.headers["content-type"].startswith("text/html"), path
        assert is_site_page(r.text) and words in r.text.lower(), path
        assert '{"detail"' not in r.text
        assert "default-src 'self'" in r.headers["content-security-policy"]


def test_api_errors_stay_json(client: TestClient) -> None:
    r = client.get("/api/nowhere")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = client.get("/api/games/NOPE1234")
    assert r.status_code == 404 and r.json()["code"] == "unknown_game"
    assert client.get("/static/nothing.css").headers["content-type"].startswith("application/json")


def test_wrong_method_is_a_page(client: TestClient) -> None:
    r = client.post("/lobby")
    assert r.status_code == 405 and is_site_page(r.text)
    r = client.get("/g/NOPE1234/replay/extra")
    assert r.status_code == 404 and is_site_page(r.text)


def test_server_error_is_a_page_without_a_trace(settings: Settings) -> None:
    app = create_app(settings)

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("secret internals")

    @app.get("/api/boom")
    def api_boom() -> None:
        raise RuntimeError("secret internals")

    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/boom")
        assert r.status_code == 500 and is_site_page(r.text)
        assert "went wrong on our side" in r.text and "secret internals" not in r.text
        r = c.get("/api/boom")
        assert r.status_code == 500 and r.json() == {"detail": "internal error", "code": "error"}
        # in the reader's language, status and code as in English
        r = c.get("/api/boom", headers={"Accept-Language": "fr"})
        assert r.status_code == 500, r.text
        assert r.json() == {"detail": "erreur interne", "code": "error"}


def test_the_database_away_is_said_in_the_readers_language(settings: Settings) -> None:
    """A request that finds the database away (down, restarting) is answered 503 with
    Retry-After and code unavailable, in the reader's language (the lang cookie or
    Accept-Language)."""
    app = create_app(settings)

    @app.get("/api/away")
    def away() -> None:
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    with TestClient(app, raise_server_exceptions=False) as c:
        said = {
            "en": c.get("/api/away"),
            "fr": c.get("/api/away", headers={"Accept-Language": "fr"}),
        }
        c.cookies.set("lang", "fr")
        said["fr cookie"] = c.get("/api/away")
    for lang, r in said.items():
        assert r.status_code == 503 and r.headers["retry-after"], (lang, r.text)
        assert r.json()["code"] == "unavailable", (lang, r.text)
    assert said["en"].json()["detail"] == "the database is away for a moment; try again"
    for lang in ("fr", "fr cookie"):
        detail = said[lang].json()["detail"]
        assert detail == "la base de données est momentanément indisponible ; réessayez", detail
