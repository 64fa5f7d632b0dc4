"""Languages: which ones we speak, which one a reader asked for, and the words in it.

The catalogs are gettext ``.po`` files under ``pocketarena/locale/<code>/LC_MESSAGES/`` in two
domains: ``site`` (the web pages, their scripts and the server's messages) and ``engine`` (the
rules engine's refusals and move sentences, the terminal). They are compiled in memory the
first time a language is asked for (Babel reads the ``.po`` and writes the ``.mo`` into a
buffer): nothing compiled is kept in the repository. ``qps`` is a pseudo-locale for tests,
made from the ``.pot`` templates: every string wrapped in ⟦…⟧ and accented, so a page shows at
once any text that did not go through a catalog.

The current language is a context variable: a request or a terminal session sets it once
(``use_locale``) and every ``gettext`` below reads it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from io import BytesIO
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale, UnknownLocaleError, dates, numbers
from babel.core import negotiate_locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

# Code -> the language's name in itself (what a selector shows).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "es": "Español",
    "pt_BR": "Português (Brasil)",
    "ja": "日本語",
    "zh_Hans": "简体中文",
    "ar": "العربية",
}
DEFAULT = "en"
PSEUDO = "qps"  # tests only: never offered to a reader, never negotiated
DOMAINS = ("site", "engine")
LOCALE_DIR = Path(str(resources.files("pocketarena"))) / "locale"

_current: ContextVar[str] = ContextVar("pocketarena_locale", default=DEFAULT)
_zone: ContextVar[str] = ContextVar("pocketarena_time_zone", default="UTC")


def known(code: str | None) -> bool:
    """Whether ``code`` is a language we speak (or the pseudo-locale)."""
    return code in LANGUAGES or code == PSEUDO


def negotiate(accept_language: str | None) -> str:
    """The language to speak to a browser that sent this ``Accept-Language`` header (RFC 9110:
    tags with optional ``q`` weights); a language we speak in another region counts (``pt-PT``
    reads ``pt_BR``, ``zh-TW`` reads ``zh_Hans``), else English."""
    preferred: list[str] = []
    for tag in _by_weight(accept_language or ""):
        preferred.append(tag)
        language = tag.split("_")[0]
        if language != tag:
            preferred.append(language)
    aliases = {code.lower(): code for code in LANGUAGES}
    aliases.update({code.split("_")[0].lower(): code for code in LANGUAGES})
    chosen = negotiate_locale(preferred, list(LANGUAGES), sep="_", aliases=aliases)
    if chosen is None:
        return DEFAULT
    return aliases.get(chosen.lower(), DEFAULT)


def _by_weight(header: str) -> list[str]:
    """The header's language tags, best first (``_`` between subtags, as Babel writes them);
    malformed parts and ``q=0`` are skipped."""
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        if not tag or tag == "*" or not re.fullmatch(r"[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*", tag):
            continue
        weight = 1.0
        match = re.fullmatch(r"\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*", params) if params else None
        if params and match is None:
            continue
        if match:
            weight = float(match.group(1))
        if weight > 0:
            weighted.append((-weight, index, tag.replace("-", "_")))
    return [tag for _, _, tag in sorted(weighted)]


def babel_locale(code: str) -> Locale:
    """The CLDR locale for numbers, dates and plurals (the pseudo-locale formats as English)."""
    try:
        return Locale.parse(code if code in LANGUAGES else DEFAULT)
    except (UnknownLocaleError, ValueError):
        return Locale.parse(DEFAULT)


@cache  # asked for every sentence a move's message words; Babel's locale parsing is not free
def is_rtl(code: str) -> bool:
    """Whether the language is written right to left (Arabic)."""
    return known(code) and babel_locale(code).character_order == "right-to-left"


def html_lang(code: str) -> str:
    """The BCP 47 tag for ``<html lang>``: ``pt-BR``, ``zh-Hans``; the pseudo-locale is
    ``en-XA`` (the tag pseudo-locales conventionally use)."""
    return "en-XA" if code == PSEUDO else code.replace("_", "-")


def catalog_path(code: str, domain: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.po"


def template_path(domain: str) -> Path:
    return LOCALE_DIR / f"{domain}.pot"


def read_catalog(path: Path, code: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=code if code in LANGUAGES else None)


@cache
def translations(code: str, domain: str) -> Translations:
    """The compiled catalog of ``domain`` in language ``code`` (compiled once per process, in
    memory); English, a language without the file, and unknown codes read the source text."""
    if code == PSEUDO:
        catalog = pseudo_catalog(domain)
    else:
        path = catalog_path(code, domain)
        if code not in LANGUAGES or not path.exists():
            return Translations(domain=domain)
        catalog = read_catalog(path, code)
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)  # a fuzzy entry is a guess: the source wins
    buffer.seek(0)
    return Translations(buffer, domain=domain)


# Placeholders and markup the pseudo-locale keeps as they are: %(name)s, %s, %%, {name}, <tag>.
_KEEP = re.compile(r"%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sdifr%]|\{[^{}]*\}|<[^<>]*>|&\w+;")
_ACCENTED = str.maketrans(
    "AaBCcDdEeGgHhIiJjKkLlNnOoPRrSsTtUuWwYyZz",
    "ÅåƁÇçĐđÉéĜĝĤĥÎîĴĵĶķĻļÑñÖöƤŘřŠšŢţÛûŴŵÝýŽž",
)


def pseudo(text: str) -> str:
    """``text`` wrapped and accented, placeholders and markup kept: ``Play %(n)s`` ->
    ``⟦Ƥļåý %(n)s⟧``."""
    if not text:
        return text
    out: list[str] = []
    last = 0
    for match in _KEEP.finditer(text):
        out.append(text[last : match.start()].translate(_ACCENTED))
        out.append(match.group(0))
        last = match.end()
    out.append(text[last:].translate(_ACCENTED))
    return "⟦" + "".join(out) + "⟧"


def pseudo_catalog(domain: str) -> Catalog:
    """The pseudo-locale's catalog of ``domain``, made from its ``.pot`` template."""
    catalog = Catalog(locale="en", domain=domain)
    path = template_path(domain)
    if not path.exists():
        return catalog
    for message in read_catalog(path):
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            forms = [pseudo(message.id[0]), pseudo(message.id[1])]
            catalog.add(message.id, forms, context=message.context)
        else:
            catalog.add(message.id, pseudo(message.id), context=message.context)
    return catalog


class use_locale:  # noqa: N801  (a context manager named as the function it was)
    """Speak ``code`` (an unknown code speaks English) until the block ends. A class rather
    than a generator under ``contextmanager``: it is entered several times a move (each
    watcher's message, each sentence), at half the calls."""

    __slots__ = ("chosen", "_token")

    def __init__(self, code: str) -> None:
        self.chosen = code if known(code) else DEFAULT

    def __enter__(self) -> str:
        self._token = _current.set(self.chosen)
        return self.chosen

    def __exit__(self, *_exc: object) -> None:
        _current.reset(self._token)


def set_locale(code: str) -> str:
    """Speak ``code`` from now on in this context (a request's task, a terminal session)."""
    chosen = code if known(code) else DEFAULT
    _current.set(chosen)
    return chosen


def current() -> str:
    """The language now spoken."""
    return _current.get()


def valid_time_zone(name: str | None) -> str | None:
    """``name`` if it is an IANA time zone this machine knows (``Europe/Paris``), else None."""
    if not name or len(name) > 64 or not re.fullmatch(r"[A-Za-z0-9_+\-/]+", name):
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None
    return name


@contextmanager
def use_time_zone(name: str) -> Iterator[str]:
    """Show times in the zone ``name`` (UTC when unknown) until the block ends."""
    chosen = valid_time_zone(name) or "UTC"
    token = _zone.set(chosen)
    try:
        yield chosen
    finally:
        _zone.reset(token)


def time_zone() -> str:
    """The reader's time zone now (an IANA name)."""
    return _zone.get()


def format_datetime(moment: datetime, format: str = "medium") -> str:
    """``moment`` in the reader's time zone and language (CLDR's ``short``/``medium``/``long``
    or a pattern); a naive moment is UTC, as the store keeps them."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return dates.format_datetime(
        moment, format, tzinfo=ZoneInfo(time_zone()), locale=babel_locale(current())
    )


def format_date(moment: datetime, format: str = "medium") -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    local = moment.astimezone(ZoneInfo(time_zone()))
    return dates.format_date(local.date(), format, locale=babel_locale(current()))


def format_ago(moment: datetime, now: datetime | None = None) -> str:
    """How long ago (or how soon) ``moment`` is, in words: "3 minutes ago", "vor 3 Minuten"."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    now = now or datetime.now(UTC)
    return dates.format_timedelta(
        moment - now, add_direction=True, threshold=1.0, locale=babel_locale(current())
    )


def format_number(value: float, format: str | None = None) -> str:
    """``value`` as the reader writes numbers (``0,53`` in French); ``format`` is a CLDR
    pattern (``"0.00"``: two decimals)."""
    return numbers.format_decimal(value, format, locale=babel_locale(current()))


def _format(text: str, params: Mapping[str, Any]) -> str:
    return text % params if params else text


class Domain:
    """The words of one domain, in the current language: ``SITE.gettext("Play")``,
    ``SITE.ngettext("%(num)d move", "%(num)d moves", n, num=n)``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def catalog(self) -> Translations:
        return translations(current(), self.name)

    def gettext(self, message: str, /, **params: Any) -> str:
        return _format(self.catalog().gettext(message), params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        return _format(self.catalog().ngettext(singular, plural, n), params)

    def pgettext(self, context: str, message: str, /, **params: Any) -> str:
        return _format(str(self.catalog().pgettext(context, message)), params)

    def npgettext(self, context: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
        return _format(str(self.catalog().npgettext(context, singular, plural, n)), params)


SITE = Domain("site")
ENGINE = Domain("engine")


def gettext(message: str, /, **params: Any) -> str:
    """``message`` of the site's catalog in the current language, ``%(name)s`` filled."""
    return SITE.gettext(message, **params)


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The plural form for ``n`` in the current language (CLDR's rules via the catalog)."""
    return SITE.ngettext(singular, plural, n, **params)


def pgettext(context: str, message: str, /, **params: Any) -> str:
    return SITE.pgettext(context, message, **params)


_ = gettext


def N_(message: str) -> str:
    """Marks ``message`` for the catalog where it is written (a table of titles); it is
    translated where it is shown, with ``gettext``."""
    return message


def js_catalog(code: str, domain: str = "site") -> dict[str, Any]:
    """The catalog as JSON for the browser: ``{"messages": {msgid: text or [forms]},
    "plural": CLDR's rule}``; entries without a translation are left out (the script shows the
    source), fuzzy ones too."""
    if code == PSEUDO:
        catalog = pseudo_catalog(domain)
    else:
        path = catalog_path(code, domain)
        if code not in LANGUAGES or not path.exists():
            catalog = Catalog(locale=DEFAULT, domain=domain)
        else:
            catalog = read_catalog(path, code)
    messages: dict[str, Any] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        key = message.id[0] if isinstance(message.id, tuple | list) else message.id
        if message.context:
            key = f"{message.context}\x04{key}"
        if isinstance(message.string, tuple | list):
            if all(message.string):
                messages[key] = list(message.string)
        elif message.string:
            messages[key] = message.string
    return {"locale": code, "messages": messages, "plurals": plural_indexes(code, domain)}


@cache
def js_catalog_bytes(code: str, domain: str = "site") -> tuple[bytes, str]:
    """``js_catalog`` as the bytes served to pages, and a short hash of them (the address a
    page asks for names it, so that a new catalog is never an old cached one)."""
    body = json.dumps(js_catalog(code, domain), ensure_ascii=False, sort_keys=True).encode()
    return body, hashlib.sha256(body).hexdigest()[:12]


def plural_indexes(code: str, domain: str = "site") -> dict[str, int]:
    """CLDR plural category -> the catalog's plural form: the script asks
    ``Intl.PluralRules`` for the category of a number and picks that form (no gettext
    expression to evaluate in the page)."""
    locale = babel_locale(code)
    rule = translations(code, domain).plural
    samples = [*range(0, 1200), 10**6, 10**7]
    return {str(locale.plural_form(n)): int(rule(n)) for n in reversed(samples)}
