"""The site's rules pages in the reader's language: the translation where there is one, with its
``lang`` and ``dir`` on the text (Arabic right to left, its notation left to right), and the
English page, marked ``lang="en"``, where there is none."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from pocketarena import i18n, rulepages

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / "docs" / "rules"
TRANSLATIONS = sorted(
    p.relative_to(RULEBOOK).as_posix() for p in RULEBOOK.glob("*/*.md") if p.parent.name != "maps"
)


def rules_text_attrs(page: str) -> dict[str, str]:
    match = re.search(r'<div class="rules-text"([^>]*)>', page)
    assert match, "no rules text on the page"
    return dict(re.findall(r'(\w[\w-]*)="([^"]*)"', match.group(1)))


def main(page: str) -> str:
    """The page's own content (the footer's language selector names English in English)."""
    return page.split("<main", 1)[1].split("</main>", 1)[0]


def read(client: TestClient, code: str, game: str = "coin-age") -> str:
    client.cookies.set("lang", code)
    r = client.get(f"/rules/{game}")
    assert r.status_code == 200, r.text
    return r.text


def test_french_reads_the_french_page(client: TestClient) -> None:
    page = read(client, "fr")
    assert rules_text_attrs(page) == {"lang": "fr", "dir": "ltr"}
    assert 'lang="en"' not in main(page)  # nothing on it is declared English
    assert '<h2 id="matériel">Matériel</h2>' in page and "What you need" not in page
    assert 'href="#les-cartes"' in page and 'id="les-cartes"' in page
    assert '<code dir="ltr">place Q stone-rock</code>' in page
    assert "place P stone-rock       the penny covers the quarter" in page  # notation as is
    for src in re.findall(r'<img src="([^"]+)"', page):
        shown = client.get(src)
        assert shown.status_code == 200 and shown.headers["content-type"] == "image/svg+xml", src
    assert len(re.findall(r'<img src="/rules/files/maps/coin-age-', page)) == 4


@pytest.mark.parametrize("name", TRANSLATIONS)
def test_every_translation_is_served_in_its_language(client: TestClient, name: str) -> None:
    code, game = name[:-3].split("/")
    page = read(client, code, game)
    direction = "rtl" if i18n.is_rtl(code) else "ltr"
    assert rules_text_attrs(page)["lang"] == i18n.html_lang(code)
    assert rules_text_attrs(page)["dir"] == direction
    assert re.search(rf'<h1 lang="{i18n.html_lang(code)}" dir="{direction}">', page)
    text = (RULEBOOK / name).read_text(encoding="utf-8")
    second = next(line[3:] for line in text.splitlines() if line.startswith("## "))
    assert f">{second.replace('&', '&amp;')}</h2>" in page.replace("&#x27;", "'"), second
    assert 'lang="en"' not in main(page)


@pytest.fixture
def rulebook(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A copy of the rulebook the server reads instead of the real one."""
    shutil.copytree(RULEBOOK, tmp_path / "rulebook")
    monkeypatch.setattr(rulepages, "files", lambda package: tmp_path)
    return tmp_path / "rulebook"


def test_japanese_and_arabic_read_their_pages_notation_left_to_right(
    client: TestClient, rulebook: Path
) -> None:
    """The language and direction a page is marked with, whoever wrote the words (a few
    stand-in lines here, so this holds whichever translations exist)."""
    for code, heading, words in (
        ("ja", "用意するもの", "コインを置きます"),
        ("ar", "ما تحتاج إليه", "ضع قطعة نقدية"),
    ):
        (rulebook / code).mkdir(exist_ok=True)
        (rulebook / code / "coin-age.md").write_text(
            f"# Coin Age\n\n## {heading}\n\n{words}: `place Q stone-rock`\n\n"
            "```\nslap Q:H N:H P:T D:T\n```\n\n![Classic](../maps/coin-age-classic.svg)\n",
            encoding="utf-8",
        )
        page = read(client, code)
        rtl = code == "ar"
        assert re.search(rf'<html [^>]*lang="{code}" dir="{"rtl" if rtl else "ltr"}"', page)
        attrs = rules_text_attrs(page)
        assert (attrs["lang"], attrs["dir"]) == (code, "rtl" if rtl else "ltr")
        assert f'<h2 id="{heading.replace(" ", "-")}">{heading}</h2>' in page
        assert f'{words}: <code dir="ltr">place Q stone-rock</code>' in page
        assert '<pre tabindex="0" dir="ltr"><code dir="ltr">slap Q:H N:H P:T D:T' in page
        assert '<img src="/rules/files/maps/coin-age-classic.svg"' in page
        assert 'lang="en"' not in main(page)


def test_a_page_without_a_translation_reads_in_english_marked_so(
    client: TestClient, rulebook: Path
) -> None:
    (rulebook / "de" / "coin-age.md").unlink(missing_ok=True)
    page = read(client, "de")
    assert re.search(r'<html [^>]*lang="de" dir="ltr"', page)
    assert rules_text_attrs(page) == {"lang": "en", "dir": "ltr"}
    assert '<h1 lang="en" dir="ltr">Coin Age</h1>' in page
    assert "What you need" in page and "Regeln" in page  # the site's own words stay German
    shutil.rmtree(rulebook / "ar", ignore_errors=True)
    page = read(client, "ar")  # English in an Arabic page: left to right
    assert rules_text_attrs(page) == {"lang": "en", "dir": "ltr"}
    assert re.search(r'<html [^>]*lang="ar" dir="rtl"', page)


def test_the_boards_beside_the_rules_speak_each_readers_language(client: TestClient) -> None:
    """The starting boards (and the home page's pictures of the games) are drawn in the
    reader's words: the first reader's language was kept for everyone after (an Arabic page
    showed French boards)."""
    words = {"fr": "réserve", "de": "Vorrat", "es": "reserva"}
    for code, word in words.items():
        aside = read(client, code, "stack-a-cash").split('<aside class="rules-diagrams">')[1]
        assert word in aside, code
        assert not {w for c, w in words.items() if c != code and w != word} & set(
            re.findall(r"\w+", aside)
        ), code
        client.cookies.set("lang", code)
        home = client.get("/").text
        assert word in home, code
