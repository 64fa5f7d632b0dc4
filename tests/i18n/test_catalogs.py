"""Every catalog complete: each message of a domain's template translated in every language, not
fuzzy, with the source's placeholders; the templates current with the sources."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from pocketarena import i18n
from pocketarena.server import catalog

# %(name)s and friends (Python, templates) and {name} (the page scripts' t()).
PLACEHOLDER = re.compile(r"%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sdifr]|\{[A-Za-z_][\w.]*\}")
TRANSLATED = [c for c in i18n.LANGUAGES if c != i18n.DEFAULT]


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def _forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def _ids(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, tuple | list) else [message.id]


def problems(template: Catalog, catalog: Catalog) -> list[str]:
    found: list[str] = []
    for source in template:
        if not source.id:
            continue
        key = source.id[0] if isinstance(source.id, tuple | list) else source.id
        message = catalog.get(key, context=source.context)
        if message is None:
            found.append(f"missing: {key!r}")
            continue
        if message.fuzzy:
            found.append(f"fuzzy: {key!r}")
        forms = _forms(message)
        if not all(forms):
            found.append(f"untranslated: {key!r}")
            continue
        ids = _ids(source)
        if len(ids) == 1:
            if placeholders(forms[0]) != placeholders(ids[0]):
                found.append(f"placeholders differ: {key!r} -> {forms[0]!r}")
            continue
        # Plural forms: the last (CLDR "other") keeps every placeholder of the plural; a form
        # for exactly one may leave the number out ("a move"), nothing may be invented.
        allowed = set(placeholders(ids[0])) | set(placeholders(ids[1]))
        if placeholders(forms[-1]) != placeholders(ids[1]):
            found.append(f"placeholders differ: {ids[1]!r} -> {forms[-1]!r}")
        for form in forms:
            if not set(placeholders(form)) <= allowed:
                found.append(f"placeholders invented: {key!r} -> {form!r}")
    return found


@pytest.mark.parametrize("domain", i18n.DOMAINS)
@pytest.mark.parametrize("code", TRANSLATED)
def test_catalog_complete(code: str, domain: str) -> None:
    template = i18n.read_catalog(i18n.template_path(domain))
    catalog = i18n.read_catalog(i18n.catalog_path(code, domain), code)
    found = problems(template, catalog)
    assert not found, f"{code}/{domain}: {len(found)} problems\n" + "\n".join(found[:40])


def test_the_checker_sees_what_is_wrong() -> None:
    template = Catalog()
    template.add("Play")
    template.add("Hello %(name)s")
    template.add("Gone")
    template.add("Soon")
    template.add(("%(num)d move", "%(num)d moves"))
    catalog = Catalog(locale="fr")
    catalog.add("Play", "Jouer")
    catalog.add("Hello %(name)s", "Bonjour %(nom)s")
    catalog.add("Soon", "Bientôt", flags=["fuzzy"])
    catalog.add(("%(num)d move", "%(num)d moves"), ("un coup", "%(n)d coups"))
    found = problems(template, catalog)
    assert "missing: 'Gone'" in found
    assert "fuzzy: 'Soon'" in found
    assert any(p.startswith("placeholders differ: 'Hello") for p in found)
    assert any(p.startswith("placeholders differ: '%(num)d moves'") for p in found)
    assert not any("'Play'" in p for p in found)


ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "t": None, "tn": (1, 2)}


def test_the_site_catalog_holds_every_word_of_the_code() -> None:
    """Extracting the site's words again finds nothing the .pot lacks: a word added without
    running scripts/catalogs.py (or written where extraction cannot see it, such as a t()
    call inside a template literal) fails here, before a page shows it untranslated."""
    with (ROOT / "babel-site.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = {
        message[2][0] if isinstance(message[2], tuple) else message[2]
        for message in extract_from_dir(str(ROOT), method_map, options_map, keywords=KEYWORDS)
    }
    found |= set(catalog.game_words())
    template = {
        m.id[0] if isinstance(m.id, tuple | list) else m.id
        for m in i18n.read_catalog(i18n.template_path("site"))
        if m.id
    }
    assert not found - template, f"run scripts/catalogs.py site: {sorted(found - template)[:20]}"


def test_no_script_word_hides_inside_a_template_literal() -> None:
    """pybabel's JavaScript extractor does not look inside `${…}`: a t() there is never in the
    catalog. Words are worded first, then placed."""
    hidden = [
        f"{path.name}:{n}"
        for path in sorted((ROOT / "src/pocketarena/server/static").glob("*.js"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\$\{\s*tn?\(", line)
    ]
    assert not hidden, hidden
