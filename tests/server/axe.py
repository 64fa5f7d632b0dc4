"""axe-core in the browser tests: the accessibility violations of a page. axe-core is the
current npm release (tests/package.json, installed by tests/services.py), put into the page over
the DevTools protocol (``page.evaluate``), so a page's Content-Security-Policy does not stop it."""

from __future__ import annotations

from functools import cache
from typing import Any

from playwright.sync_api import Page

from .. import services

SERIOUS = ("serious", "critical")


# WCAG 2.5.3 (label in name) on a live board's buttons: axe-core 4.14 reads every glyph drawn
# inside a place (a coin's "TL", a tile's count) as its label. Those glyphs are the pieces, not
# a label; the label a person sees and says is the place's name, which the button's name must
# contain. So on the board the check is that one, made here, and axe's stays for the rest.
BOARD_LABEL_CHECK = """(sel) => {
  const n = document.querySelector(sel);
  if (!n || !n.closest('#board, .board') || n.getAttribute('role') !== 'button') return false;
  const seen = (n.getAttribute('data-name') || n.getAttribute('data-place')
                || n.getAttribute('data-tile') || '').toLowerCase();
  return seen !== '' && (n.getAttribute('aria-label') || '').toLowerCase().includes(seen);
}"""


# The rules whose outcome a translation can change: names and labels made of the catalog's
# words (an empty or mismatched translation fails them) and the page's language. A language
# whose pages are laid out as another's (same script direction, same templates and styles) is
# checked with these alone; the rest of axe (contrast, structure, ARIA use) runs on the pages
# of one language of each kind, where it checks the same things (tests/server/test_browser_i18n).
WORDING_RULES = (
    "label-content-name-mismatch",
    "button-name",
    "link-name",
    "input-button-name",
    "select-name",
    "label",
    "image-alt",
    "svg-img-alt",
    "role-img-alt",
    "aria-command-name",
    "aria-input-field-name",
    "aria-toggle-field-name",
    "aria-meter-name",
    "aria-progressbar-name",
    "aria-tooltip-name",
    "aria-dialog-name",
    "document-title",
    "empty-heading",
    "empty-table-header",
    "frame-title",
    "html-has-lang",
    "html-lang-valid",
    "html-xml-lang-mismatch",
    "valid-lang",
)


def axe_violations(
    page: Page, impacts: tuple[str, ...] = SERIOUS, rules: tuple[str, ...] | None = None
) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now, of these impacts (serious and critical
    by default): each with its rule id, help text and the offending nodes. ``rules``: only
    these of axe's rules (all by default)."""
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if rules is not None:
        options["runOnly"] = {"type": "rule", "values": list(rules)}
    if not page.evaluate(AXE_LOADED):  # a page axe already ran on keeps it
        page.evaluate(_axe_script())
    violations: list[dict[str, Any]] = page.evaluate(RUN, options)
    found = []
    for v in violations:
        if v.get("impact") not in impacts:
            continue
        if v["id"] == "label-content-name-mismatch":
            v["nodes"] = [
                n for n in v["nodes"] if not page.evaluate(BOARD_LABEL_CHECK, n["target"][0])
            ]
            if not v["nodes"]:
                continue
        found.append(v)
    return found


AXE_LOADED = "() => typeof window.axe === 'object' && typeof window.axe.run === 'function'"
# Only the violations come back (axe's whole result, every rule that passed or did not apply
# with its description, is large to send), and axe is put into a page once: with both, a run on
# this site's pages costs 0.37 CPU s of all processes, where axe-playwright-python's took 0.44.
RUN = "(options) => window.axe.run(document, options).then((results) => results.violations)"


@cache
def _axe_script() -> str:
    script = services.axe_core()
    if script is None:
        services.unavailable("no npm to install axe-core with (apt-get install npm)")
    assert script is not None
    return script.read_text(encoding="utf-8")


def describe(violations: list[dict[str, Any]]) -> str:
    """Violations in a few lines each, for an assertion message."""
    lines = []
    for v in violations:
        targets = [", ".join(n["target"]) for n in v["nodes"][:3]]
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} at {targets}")
        lines.extend(f"    {n.get('failureSummary', '')[:200]}" for n in v["nodes"][:2])
    return "\n".join(lines)
