"""The rules pages' translations (docs/rules/<code>/<game>.md): each one says the English page's
players' part with the same build: the same headings at the same levels, the notation
unchanged (every fenced block byte for byte, every inline code span), the same tables, and
pictures and in-page links that lead somewhere, on the site and on GitHub. And the reader gets
their language where there is a translation, English (and told so) where there is none."""

from __future__ import annotations

import glob
import posixpath
import re
import shutil
import tomllib
import urllib.parse
from collections import Counter
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from pocketarena import i18n, rulepages
from pocketarena.server import rules

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / "docs" / "rules"
GAMES = sorted(p.stem for p in RULEBOOK.glob("*.md"))
TRANSLATIONS = sorted(
    p.relative_to(RULEBOOK).as_posix() for p in RULEBOOK.glob("*/*.md") if p.parent.name != "maps"
)


def tokens(text: str) -> list[Token]:
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(text)


def build(text: str, folder: str) -> dict[str, list[object]]:
    """What a translation must keep of the English page: headings' levels, fenced blocks,
    inline code spans, tables' shapes, and the pictures (as paths in the rulebook)."""
    found: dict[str, list[object]] = {
        "headings": [],
        "fenced blocks": [],
        "inline code": [],
        "tables (rows, columns)": [],
        "pictures": [],
    }
    rows = columns = 0
    for token in tokens(text):
        if token.type == "heading_open":
            found["headings"].append(token.tag)
        elif token.type == "fence":
            found["fenced blocks"].append((token.info, token.content))
        elif token.type == "table_open":
            rows = columns = 0
        elif token.type == "tr_open":
            rows, columns = rows + 1, 0
        elif token.type in ("th_open", "td_open"):
            columns += 1
        elif token.type == "table_close":
            found["tables (rows, columns)"].append((rows, columns))
        for child in token.children or []:
            if child.type == "code_inline":
                found["inline code"].append(child.content)
            elif child.type == "image":
                src = str(child.attrGet("src"))
                found["pictures"].append(posixpath.normpath(posixpath.join(folder, src)))
    # Inline notation may move within a sentence, and a sentence may need it once more or
    # once less: the same spans, not the same count. A span quoting the engine's answer to
    # what was typed ("'r45' is not a rotation") is a message, worded as the engine's catalog
    # words it in the page's language; notation never holds a quote.
    spans = {str(span) for span in found["inline code"] if "'" not in str(span)}
    found["inline code"] = sorted(spans)
    return found


def differences(english: str, translated: str, folder: str) -> list[str]:
    """How a translation's build differs from the English players' part, in words."""
    want, got = build(rulepages.for_players(english), ""), build(translated, folder)
    said = []
    for what, expected in want.items():
        if what == "headings" and got[what] != expected:
            said.append(f"{what}: {got[what]} where English has {expected}")
        elif got[what] != expected:
            missing = Counter(map(repr, expected)) - Counter(map(repr, got[what]))
            extra = Counter(map(repr, got[what])) - Counter(map(repr, expected))
            order = "" if missing or extra else " (in another order)"
            said.append(f"{what}: missing {list(missing)}, not in English {list(extra)}{order}")
    if rulepages.PROGRAMMERS_HEADING in translated:
        said.append("a translation holds only the players' part (no 'For programmers')")
    return said


def broken_links(translated: str, folder: str, rulebook: Path = RULEBOOK) -> list[str]:
    """Pictures and links of a translation that lead nowhere: a file missing relative to the
    translation (as GitHub reads it), an image the site would not serve, an in-page anchor
    that no heading of the site's rendering carries."""
    html = rules.render(rules.title_and_body(translated)[1], folder)
    ids = set(re.findall(r' id="([^"]+)"', html))
    broken = []
    for token in tokens(translated):
        for child in token.children or []:
            target = str(child.attrGet("src") or child.attrGet("href") or "")
            if child.type not in ("image", "link_open") or re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            anchor = urllib.parse.unquote(anchor)  # stored encoded; ids keep their own script
            in_book = posixpath.normpath(posixpath.join(folder, path))
            if not path and anchor not in ids:
                broken.append(f"#{anchor}: no heading has this anchor (ids: {sorted(ids)})")
            elif path and not (rulebook / folder / path).resolve().is_file():
                broken.append(f"{target}: no such file next to the page")
            elif child.type == "image" and rules.asset(in_book) is None:
                broken.append(f"{target}: the site does not serve it")
            elif child.type == "image" and f'src="/rules/files/{in_book}"' not in html:
                broken.append(f"{target}: the site's page does not show it")
    return broken


def test_there_are_translations() -> None:
    assert "fr/coin-age.md" in TRANSLATIONS


@pytest.mark.parametrize("code", [c for c in i18n.LANGUAGES if c != i18n.DEFAULT])
def test_every_game_is_translated_into_every_language(code: str) -> None:
    """A reader of any language we speak reads every rules page in it, none in English."""
    missing = [game for game in GAMES if f"{code}/{game}.md" not in TRANSLATIONS]
    assert not missing, f"no {code} translation of {missing} (docs/i18n.md: translating one)"


@pytest.mark.parametrize("name", TRANSLATIONS)
def test_a_translation_is_of_a_game_in_a_language_we_speak(name: str) -> None:
    folder, page = name.split("/")
    assert folder in i18n.LANGUAGES and folder != i18n.DEFAULT, f"{folder}: not a language code"
    assert page[:-3] in GAMES, f"{page}: no English page docs/rules/{page}"


@pytest.mark.parametrize("name", TRANSLATIONS)
def test_a_translation_keeps_the_pages_build_and_notation(name: str) -> None:
    folder, page = name.split("/")
    english = (RULEBOOK / page).read_text(encoding="utf-8")
    said = differences(english, (RULEBOOK / name).read_text(encoding="utf-8"), folder)
    assert not said, f"docs/rules/{name} differs from docs/rules/{page}:\n" + "\n".join(said)


@pytest.mark.parametrize("name", TRANSLATIONS)
def test_a_translations_pictures_and_links_lead_somewhere(name: str) -> None:
    folder = name.split("/")[0]
    broken = broken_links((RULEBOOK / name).read_text(encoding="utf-8"), folder)
    assert not broken, f"docs/rules/{name}:\n" + "\n".join(broken)


def test_the_checks_catch_a_changed_build() -> None:
    """What the checks above would say of a careless translation (they must be able to fail)."""
    english = (RULEBOOK / "coin-age.md").read_text(encoding="utf-8")
    good = (RULEBOOK / "fr" / "coin-age.md").read_text(encoding="utf-8")
    assert differences(english, good, "fr") == []
    careless = (
        good.replace("place N treewood", "poser N treewood")  # notation translated
        .replace("`pay D`", "`payer D`")
        .replace("## Crédits", "### Crédits")
        .replace("| penny | P | 2 |\n", "")
    )
    said = " ".join(differences(english, careless, "fr"))
    for what in ("fenced blocks", "inline code", "headings", "tables"):
        assert what in said, what
    moved = good.replace("](../maps/coin-age-classic.svg)", "](maps/coin-age-classic.svg)")
    assert "pictures" in " ".join(differences(english, moved, "fr"))
    assert broken_links(moved, "fr")
    lost = good.replace("(#les-cartes)", "(#the-maps)")
    assert [said.split(":")[0] for said in broken_links(lost, "fr")] == ["#the-maps"]


def test_a_link_to_a_heading_in_any_script_leads_to_it() -> None:
    """Markdown keeps a link's target percent-encoded (#%E5%9C%B0%E5%9B%B3) while the heading's
    id stays in its own script (地図); the browser decodes the one to find the other."""
    for heading in ("地図", "地图", "الخرائط", "Les cartes"):
        anchor = heading.lower().replace(" ", "-")
        assert broken_links(f"## {heading}\n\nSee [{heading}](#{anchor}).\n", "ja") == []
    assert broken_links("## 地図\n\nSee [地圖](#地圖).\n", "ja")  # another heading: broken


def test_headings_in_any_script_carry_an_anchor() -> None:
    html = rules.render("## Les cartes\n\n## 地図\n\n## الخرائط\n\n## What you need\n")
    assert re.findall(r'id="([^"]+)"', html) == ["les-cartes", "地図", "الخرائط", "what-you-need"]


def test_notation_stays_left_to_right_in_any_page() -> None:
    html = rules.render("Jouez `place Q b2`.\n\n```\nslap Q:H\n```\n")
    assert '<code dir="ltr">place Q b2</code>' in html
    assert '<pre tabindex="0" dir="ltr"><code' in html


def test_a_translations_pictures_are_found_from_its_folder() -> None:
    html = rules.render("![x](../maps/coin-age-classic.svg)", "fr")
    assert 'src="/rules/files/maps/coin-age-classic.svg"' in html
    assert 'src="/rules/files/maps/coin-age-classic.svg"' in rules.render(
        "![x](maps/coin-age-classic.svg)"
    )


def test_the_reader_gets_their_language_and_english_where_there_is_none(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    french = rulepages.rules_page("coin-age", "fr")
    assert french is not None and (french.lang, french.folder) == ("fr", "fr")
    assert french.text == (RULEBOOK / "fr" / "coin-age.md").read_text(encoding="utf-8")
    english = rulepages.rules_page("coin-age", "en")
    assert english is not None and (english.lang, english.folder) == ("en", "")
    assert rulepages.PROGRAMMERS_HEADING not in english.text
    for code in (i18n.PSEUDO, "xx", "../fr", "maps"):  # no such translation: English
        page = rulepages.rules_page("coin-age", code)
        assert page is not None and page.lang == "en" and page.text == english.text, code
    with i18n.use_locale("fr"):  # the language now spoken by default
        assert rulepages.rules_text("coin-age") == french.text
    # A page without a translation in the reader's language reads in English.
    rulebook = tmp_path / "rulebook"
    shutil.copytree(RULEBOOK, rulebook)
    (rulebook / "fr" / "coin-age.md").unlink()
    monkeypatch.setattr(rulepages, "files", lambda package: tmp_path)
    fallen = rulepages.rules_page("coin-age", "fr")
    assert fallen is not None and fallen.lang == "en" and fallen.text == english.text
    assert rulepages.rules_page("monopoly", "fr") is None


def test_the_package_ships_every_translation() -> None:
    """pyproject's package data (globbed as setuptools globs it, from src/pocketarena, through
    the rulebook link) takes in every page of docs/rules, translations and maps included."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        patterns = tomllib.load(f)["tool"]["setuptools"]["package-data"]["pocketarena"]
    package = ROOT / "src" / "pocketarena"
    shipped = {
        name
        for pattern in patterns
        for name in glob.glob(pattern, root_dir=package, recursive=True)
    }
    pages = {f"rulebook/{p.relative_to(RULEBOOK).as_posix()}" for p in RULEBOOK.rglob("*.*")}
    assert {"rulebook/fr/coin-age.md", "rulebook/maps/coin-age-classic.svg"} <= pages
    assert pages - {"rulebook/.keep"} <= shipped
