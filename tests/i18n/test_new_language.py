"""docs/i18n.md's steps for adding a language, followed for a ninth one (Italian) in a copy of
the catalogs: its empty catalogs made by scripts/catalogs.py, translated, complete by the same
check as the others, and a page read in it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from fastapi.testclient import TestClient

from pocketarena import i18n
from pocketarena.server.main import create_app
from tests.server.conftest import make_settings

from .test_catalogs import problems

ROOT = Path(__file__).resolve().parents[2]
ITALIAN = {"New game": "Nuova partita", "Play": "Gioca", "Language": "Lingua"}


@pytest.fixture
def copy_of_catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    i18n.translations.cache_clear()
    i18n.js_catalog_bytes.cache_clear()
    yield locale
    i18n.translations.cache_clear()
    i18n.js_catalog_bytes.cache_clear()


def test_a_ninth_language_by_the_documented_steps(
    copy_of_catalogs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 1. the code and its name
    monkeypatch.setitem(i18n.LANGUAGES, "it", "Italiano")
    # 2. its empty catalogs (the script's own run, as the docs say, on the copy)
    for domain in i18n.DOMAINS:
        subprocess.run(
            [
                sys.executable,
                "scripts/catalogs.py",
                domain,
                "--init",
                "it",
                "--locale-dir",
                str(copy_of_catalogs),
            ],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
    site = copy_of_catalogs / "it" / "LC_MESSAGES" / "site.po"
    assert site.exists() and (copy_of_catalogs / "it" / "LC_MESSAGES" / "engine.po").exists()
    template = i18n.read_catalog(copy_of_catalogs / "site.pot")
    with site.open("rb") as f:
        catalog = read_po(f, locale="it")
    assert problems(template, catalog)  # empty: the check says so
    # 3. translate every msgstr (here: a few words, the rest as in English)
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            message.string = tuple(message.id[min(i, 1)] for i in range(catalog.num_plurals))
        else:
            message.string = ITALIAN.get(message.id, message.id)
    with site.open("wb") as f:
        write_po(f, catalog, width=0, no_location=True)
    # 4. complete, and a page in it
    assert not problems(template, i18n.read_catalog(site, "it"))
    assert i18n.negotiate("it-IT,it;q=0.9,en;q=0.5") == "it"
    with TestClient(create_app(make_settings(tmp_path))) as client:
        page = client.get("/new", headers={"Accept-Language": "it"}).text
    assert '<html lang="it" dir="ltr"' in page
    assert "Nuova partita" in page and "Italiano" in page
