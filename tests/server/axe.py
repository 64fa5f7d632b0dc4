"""axe-core in the browser tests: the accessibility violations of a page. axe-core is the
current npm release (tests/package.json, installed by tests/services.py), not the older copy
bundled in the axe-playwright-python package; that package only injects it over the DevTools
protocol, so a page's Content-Security-Policy does not stop it."""

from __future__ import annotations

from functools import cache
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from .. import services

SERIOUS = ("serious", "critical")


def axe_violations(page: Page, impacts: tuple[str, ...] = SERIOUS) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now, of these impacts (serious and critical
    by default): each with its rule id, help text and the offending nodes."""
    results = _axe().run(page)
    return [v for v in results.response["violations"] if v.get("impact") in impacts]


@cache
def _axe() -> Axe:
    script = services.axe_core()
    if script is None:
        services.unavailable("no npm to install axe-core with (apt-get install npm)")
    assert script is not None
    return Axe(axe_script=script.read_text(encoding="utf-8"))


def describe(violations: list[dict[str, Any]]) -> str:
    """Violations in a few lines each, for an assertion message."""
    lines = []
    for v in violations:
        targets = [", ".join(n["target"]) for n in v["nodes"][:3]]
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} at {targets}")
        lines.extend(f"    {n.get('failureSummary', '')[:200]}" for n in v["nodes"][:2])
    return "\n".join(lines)
