"""The language runtime: negotiation, compiled catalogs, the current language, the pseudo-locale."""

from __future__ import annotations

import threading

import pytest

from pocketarena import i18n


@pytest.mark.parametrize(
    ("header", "code"),
    [
        (None, "en"),
        ("", "en"),
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("fr-CA", "fr"),
        ("pt-PT,pt;q=0.9", "pt_BR"),
        ("pt-BR", "pt_BR"),
        ("zh-CN,zh;q=0.9", "zh_Hans"),
        ("zh-TW", "zh_Hans"),
        ("ja", "ja"),
        ("ar-EG,ar;q=0.9", "ar"),
        ("sv-SE,sv;q=0.9", "en"),  # nothing we speak: English
        ("sv;q=1,es;q=0.5", "es"),
        ("en;q=0.1,ja;q=0.9", "ja"),  # weights, not order
        ("de;q=0,fr", "fr"),  # q=0 means "not this"
        ("*", "en"),
        ("qps", "en"),  # the pseudo-locale is never negotiated
        ("<script>, ;;;, de;q=oops, es", "es"),  # malformed parts are skipped
        ("x" * 5000, "en"),
    ],
)
def test_negotiate(header: str | None, code: str) -> None:
    assert i18n.negotiate(header) == code


def test_rtl_and_html_lang() -> None:
    assert i18n.is_rtl("ar")
    assert not any(i18n.is_rtl(c) for c in i18n.LANGUAGES if c != "ar")
    assert not i18n.is_rtl("qps")
    assert i18n.html_lang("pt_BR") == "pt-BR"
    assert i18n.html_lang("zh_Hans") == "zh-Hans"


def test_every_language_has_its_catalogs_and_compiles() -> None:
    for code in i18n.LANGUAGES:
        for domain in i18n.DOMAINS:
            assert i18n.catalog_path(code, domain).exists(), (code, domain)
            i18n.translations(code, domain)  # compiles without error


def test_use_locale_is_scoped_and_per_context() -> None:
    assert i18n.current() == "en"
    with i18n.use_locale("fr"):
        assert i18n.current() == "fr"
        seen: list[str] = []
        thread = threading.Thread(target=lambda: seen.append(i18n.current()))
        thread.start()
        thread.join()
        assert seen == ["en"]  # another context keeps its own language
    assert i18n.current() == "en"
    with i18n.use_locale("xx-nonsense"):
        assert i18n.current() == "en"


def test_pseudo_wraps_accents_and_keeps_placeholders() -> None:
    text = i18n.pseudo("Play %(name)s on {square} <b>now</b> 100%%")
    assert text.startswith("⟦") and text.endswith("⟧")
    assert "%(name)s" in text and "{square}" in text and "<b>" in text and "%%" in text
    assert "Play" not in text and "Ƥļåý" in text


def test_pseudo_locale_translates_every_template_string() -> None:
    for domain in i18n.DOMAINS:
        template = i18n.read_catalog(i18n.template_path(domain))
        pseudo = i18n.translations("qps", domain)
        for message in template:
            if message.id and isinstance(message.id, str):
                said = (
                    pseudo.pgettext(message.context, message.id)
                    if message.context  # the engine's messages: their id is the context
                    else pseudo.gettext(message.id)
                )
                assert said == i18n.pseudo(message.id)


def test_gettext_formats_parameters() -> None:
    with i18n.use_locale("en"):
        assert i18n.gettext("%(n)s coins", n=3) == "3 coins"
        assert i18n.ngettext("%(num)d move", "%(num)d moves", 1, num=1) == "1 move"
        assert i18n.ngettext("%(num)d move", "%(num)d moves", 2, num=2) == "2 moves"


def test_plural_indexes_follow_each_language() -> None:
    assert i18n.plural_indexes("en") == {"one": 0, "other": 1}
    arabic = i18n.plural_indexes("ar")
    assert sorted(arabic.values()) == list(range(6))
    assert i18n.plural_indexes("ja") == {"other": 0}
