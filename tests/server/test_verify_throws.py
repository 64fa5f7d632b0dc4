"""Each coin throw names the exact HMAC message it was drawn from, counted as the verifier
counts (issue 24, item 4): the verify page shows ``id:n`` beside the list's move n + 1, and
the move list of a finished game links every throw to its row."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser

from .conftest import make_settings
from .site_pages import SMALL_WALLET, http, play_out, running


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, httpx.Client]]:
    with running(make_settings(Path(tmp_path_factory.mktemp("verify")))) as base:
        client = http(base)
        body = {"game": "wallet-battles", "options": SMALL_WALLET, "mode": "local"}
        gid = client.post("/api/games", json=body).json()["id"]
        play_out(client, gid, random.Random(3))
        yield base, gid, client
        client.close()


def test_the_verify_page_names_each_throws_message(
    finished: tuple[str, str, httpx.Client],
) -> None:
    base, gid, client = finished
    view = client.get(f"/api/games/{gid}", params={"svg": "false"}).json()
    assert view["status"] == "finished" and view["fair"]["seed"]
    html = client.get(f"/g/{gid}/verify").text
    throws = [i for i, h in enumerate(view["history"]) if h["chance"]]
    assert throws
    for i in throws:
        row = html.split(f'id="throw-{i}"', 1)[1].split("</tr>", 1)[0]
        cells = [c.split("</td>", 1)[0] for c in row.split("<td>")[1:]]
        # as the move list numbers it, with the message as HMAC reads it
        assert cells[0] == f'<strong>{i + 1}</strong> <code class="msg">{gid}:{i}</code>'

        assert "✓ same" in cells[-1]  # recomputed from that message: the recorded throw
    assert f"move 1 is “{gid}:0”" in html


@pytest.mark.browser
def test_a_throw_in_the_move_list_is_checked_in_one_tap(
    finished: tuple[str, str, httpx.Client], browser: Browser
) -> None:
    base, gid, client = finished
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.context.add_cookies(
            [{"name": k, "value": v, "url": base} for k, v in client.cookies.items()]
        )
        page.goto(f"{base}/g/{gid}/replay")
        links = page.locator("#moves a.throw-check")
        chance = page.locator("#moves li.chance")
        assert links.count() == chance.count() > 0
        href = links.nth(1).get_attribute("href") or ""
        index = int(href.rsplit("throw-", 1)[1])
        links.nth(1).click()
        page.wait_for_url(f"**/g/{gid}/verify#throw-{index}")
        row = page.locator(f"tr#throw-{index}")
        assert row.is_visible() and f"{gid}:{index}" in row.inner_text()
        assert "✓" in row.inner_text()
    finally:
        page.context.close()
