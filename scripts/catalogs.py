"""Extract the words of a gettext domain and update every language's catalog of it.

    python scripts/catalogs.py site            # extract site.pot, update the eight site.po
    python scripts/catalogs.py engine
    python scripts/catalogs.py site --init eo  # start a new language's catalog (see docs/i18n.md)

It runs pybabel with the project's settings (one mapping file per domain, ``babel-<domain>.cfg``;
no line numbers in the catalogs so that catalogs do not change when code only moves; no
wrapping), exactly the commands docs/i18n.md spells out.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from pocketarena.i18n import LANGUAGES  # noqa: E402

LOCALE = ROOT / "src" / "pocketarena" / "locale"
# _ gettext ngettext pgettext are pybabel's defaults; N_ marks a word kept for later (a table
# of titles), t/tn are the page scripts' own (static/i18n.js), M_/nM_ the engine's messages
# (pocketarena/messages.py: the message id is the context, the English the msgid).
KEYWORDS = ["N_", "t", "tn:1,2", "M_:1c,2", "nM_:1c,2,3"]


def pybabel(*args: str) -> None:
    command = [str(Path(sys.executable).with_name("pybabel")), *args]
    subprocess.run(command, check=True, cwd=ROOT)


def extract(domain: str, locale: Path) -> Path:
    pot = locale / f"{domain}.pot"
    keywords = [f"--keyword={k}" for k in KEYWORDS]
    pybabel(
        "extract",
        "--mapping-file",
        f"babel-{domain}.cfg",
        *keywords,
        "--no-location",
        "--no-wrap",
        "--sort-output",
        "--project=Pocket Arena",
        "--copyright-holder=Pocket Arena engineers",
        "--output-file",
        str(pot),
        ".",
    )
    return pot


def add_game_words(pot: Path) -> None:
    """The words the games bring to the site (pitches, seats, options): not written as
    ``_("…")`` in the server's code, so taken from the games themselves."""
    from pocketarena.server.catalog import game_words

    add_words(pot, game_words(), "the games' own words (server/catalog.py)")


def add_command_help(pot: Path) -> None:
    """The terminal's commands' descriptions: their docstrings (typer shows them as the
    command's help), which extraction does not read."""
    from pocketarena.cli.main import command_descriptions

    add_words(pot, command_descriptions(), "a command's description in -h (its docstring)")


def add_words(pot: Path, words: Iterable[str], comment: str) -> None:
    from babel.messages.pofile import read_po, write_po

    with pot.open("rb") as f:
        catalog = read_po(f)
    for word in words:
        if word not in catalog:
            catalog.add(word, auto_comments=[comment])
    with pot.open("wb") as f:
        write_po(f, catalog, width=0, no_location=True, sort_output=True)


def update(domain: str, pot: Path, locale: Path) -> None:
    pybabel(
        "update",
        "--input-file",
        str(pot),
        "--output-dir",
        str(locale),
        "--domain",
        domain,
        "--no-wrap",
        "--ignore-obsolete",
        "--no-fuzzy-matching",
    )


def init(domain: str, pot: Path, code: str, locale: Path) -> None:
    pybabel(
        "init",
        "--input-file",
        str(pot),
        "--output-dir",
        str(locale),
        "--domain",
        domain,
        "--locale",
        code,
        "--no-wrap",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("domain", choices=["site", "engine"])
    parser.add_argument("--init", metavar="CODE", help="start the catalog of a new language")
    parser.add_argument(
        "--locale-dir", type=Path, default=LOCALE, help="where the catalogs are (a copy, say)"
    )
    args = parser.parse_args()
    locale = args.locale_dir.resolve()
    pot = extract(args.domain, locale)
    if args.domain == "site":
        add_game_words(pot)
    else:
        add_command_help(pot)
    codes = [*LANGUAGES, *([args.init] if args.init else [])]
    for code in codes:  # a language without a catalog of this domain gets an empty one
        if not (locale / code / "LC_MESSAGES" / f"{args.domain}.po").exists():
            init(args.domain, pot, code, locale)
    update(args.domain, pot, locale)


if __name__ == "__main__":
    main()
