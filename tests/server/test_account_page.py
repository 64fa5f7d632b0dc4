"""The account page says its rules before the browser does (issue 24: the password minimum
appeared only in the browser's tooltip after a refused submit)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from pocketarena.server.store import PASSWORD_MIN


def test_the_register_form_states_the_password_minimum(client: TestClient) -> None:
    html = client.get("/account").text
    assert f"At least {PASSWORD_MIN} characters." in html
    assert f'minlength="{PASSWORD_MIN}" aria-describedby="password-rule"' in html
    short = client.post("/api/auth/register", json={"username": "ann", "password": "x" * 7})
    assert short.status_code == 400 and str(PASSWORD_MIN) in short.json()["detail"]
