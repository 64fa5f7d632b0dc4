"""A player's profile in Chromium on a phone and a laptop: the rating graph drawn by the
server fits the width, the filter form works without a script, the pager leads on; no
sideways scroll, no serious axe finding."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import make_engine, session_factory
from pocketarena.server.store import Store

from .axe import axe_violations, describe
from .conftest import make_settings
from .site_pages import running
from .test_browser_gestures import register
from .test_profiles import seed

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("POCKETARENA_SHOTS", "/tmp/pocketarena-shots"))


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Settings]]:
    settings = make_settings(Path(tmp_path_factory.mktemp("arena")))
    with running(settings) as base:
        yield base, settings


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "laptop"])
def test_the_profile_graph_filters_and_pages(
    served: tuple[str, Settings], browser: Browser, size: tuple[int, int]
) -> None:
    server, settings = served
    contexts = [browser.new_context(viewport={"width": size[0], "height": size[1]}) for _ in "abc"]
    try:
        me, ann, bob = (c.new_page() for c in contexts)
        errors: list[str] = []
        me.on("pageerror", lambda e: errors.append(str(e)))
        ids = [
            register(p, server, f"{n}{size[0]}")
            for p, n in ((me, "mia"), (ann, "ann"), (bob, "bob"))
        ]
        engine = make_engine(settings)
        store = Store(engine, session_factory(engine))
        seed(store, *ids, prefix=str(size[0]))
        engine.dispose()
        me.goto(f"{server}/players/{ids[0]}")
        graph = me.locator("svg.rating-graph")
        box = graph.bounding_box()
        assert box is not None and box["width"] <= size[0] - 20
        assert "over 15 rated games" in (me.locator("#rating-graph-desc").text_content() or "")
        # the filters, as a form (no script needed)
        me.select_option("select[name=result]", "draw")
        me.fill("input[name=opponent]", f"ann{size[0]}")
        me.click(".games-filter button[type=submit]")
        me.wait_for_url("**result=draw**")
        assert me.locator("#games tbody tr").count() == 5
        me.click("text=All games")
        me.click("a[rel=next]")
        me.wait_for_url("**page=2**")
        assert me.locator("#games tbody tr").count() == 5
        me.goto(f"{server}/players/{ids[0]}")
        width = me.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size[0], f"the page is {width} px wide"
        SHOTS.mkdir(parents=True, exist_ok=True)
        me.screenshot(path=str(SHOTS / f"profile-{size[0]}.png"), full_page=True)
        found = axe_violations(me)
        assert not found, describe(found)
        assert not errors, errors
    finally:
        for c in contexts:
            c.close()
