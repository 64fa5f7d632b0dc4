"""axe-core in the browser tests: the serious and critical accessibility violations of a page."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page

SERIOUS = ("serious", "critical")


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """The serious or critical axe-core violations on ``page`` as it is now: each with its rule
    ``id``, ``impact``, ``help`` and the ``nodes`` (targets and a summary) that fail it."""
    results = Axe().run(page)
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [
                {"target": n.get("target"), "summary": n.get("failureSummary", "")}
                for n in v.get("nodes", [])
            ],
        }
        for v in results.response.get("violations", [])
        if v.get("impact") in SERIOUS
    ]
