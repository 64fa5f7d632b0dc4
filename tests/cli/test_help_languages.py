"""The terminal's ``-h`` help in the reader's language: the program's and each command's
description, each option's and argument's help, and the words typer and click add (the
panels' titles, ``Usage:``, ``[default: …]``), from ``--lang`` or the environment."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from pocketarena import i18n
from pocketarena.cli.main import app, help_words
from tests.cli.test_languages import pseudo_bare

WIDE = {"COLUMNS": "400"}  # one help text a line: the pseudo-locale's ⟦…⟧ never wrapped


def helped(*args: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(app, list(args), env={**WIDE, **(env or {})})
    assert result.exit_code == 0, result.output
    return result.output


def flat(text: str) -> str:
    """The help's words without the boxes' borders and the folding of lines."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def test_lang_words_a_commands_help_in_french() -> None:
    shown = flat(helped("--lang", "fr", "play", "-h"))
    assert "Utilisation : pocketarena play [OPTIONS] [GAME]" in shown
    assert "Jouer à GAME dans le terminal contre un bot ou un ami." in shown
    assert "Graine des pièces et du bot (au hasard si absente)." in shown
    assert "Identifiant du jeu : " + help_words()["games"] + " (pas avec --resume)." in shown
    assert "Afficher ce message et quitter." in shown
    assert "Seed for the coins" not in shown and "Show this message" not in shown
    assert i18n.current() == "en"  # the help's language ends with the command


def test_the_environment_words_a_commands_help_in_japanese() -> None:
    shown = flat(helped("rules", "-h", env={"LANGUAGE": "ja"}))
    assert "使い方： pocketarena rules [OPTIONS] GAME" in shown
    assert "GAME のルールを表示します。" in shown
    assert "引数" in shown and "オプション" in shown and "[必須]" in shown
    assert "Print the rules" not in shown and "Arguments" not in shown


def test_the_programs_help_follows_lang_given_before_it() -> None:
    """``pocketarena --lang de -h``: the help is drawn while the options are parsed, before
    ``--lang`` is applied, so it is read from the command line first."""
    shown = flat(helped("--lang", "de", "-h", env={"LANGUAGE": "fr"}))
    assert "Befehle" in shown and "Die Regeln von GAME ausgeben." in shown
    assert "Sprache der angezeigten Wörter: en, fr, de" in shown
    assert "Regeln" in flat(helped("--lang=de", "-h"))
    assert "Règles" not in shown and "Afficher les règles de GAME." in flat(
        helped("-h", env={"LANGUAGE": "fr"})
    )
    assert "Show this message and exit." in flat(helped("--lang", "klingon", "-h"))


def test_english_help_is_the_source_text() -> None:
    shown = flat(helped("--lang", "en", "arena", "-h"))
    assert "Usage: pocketarena arena [OPTIONS] GAME" in shown
    assert "Play a tournament of --bots at GAME, at once or in rounds." in shown
    assert "Bots: " + help_words()["bots"] + "." in shown
    assert "[default: random,greedy,medium,hard]" in shown and "[required]" in shown


def test_brackets_in_help_are_shown() -> None:
    """typer reads help as rich markup: a default written in the text ("[default: greedy]")
    or "[address]:port" vanished as if it were a tag; the defaults are typer's, in the
    reader's words."""
    shown = flat(helped("play", "-h"))
    assert "[default: (greedy)]" in shown and "[default: (first)]" in shown
    assert "[default: (human)]" in shown
    assert "Where HAProxy listens, [address]:port." in flat(helped("haproxy-config", "-h"))
    assert "[défaut : (first)]" in flat(helped("--lang", "fr", "play", "-h"))


def commands() -> list[str]:
    return [info.name or "" for info in app.registered_commands]


def arguments(command: str) -> list[str]:
    """The names of a command's arguments (typer shows them beside their metavars)."""
    group = typer.main.get_command(app)
    params = group.commands[command].params if command else []  # type: ignore[attr-defined]
    return [p.name or "" for p in params if p.param_type_name == "argument"]


@pytest.mark.parametrize("command", ["", *commands()])
def test_no_help_word_escapes_the_catalog(command: str) -> None:
    """In the pseudo-locale every word of every help screen is wrapped; what may stay bare is
    notation: flags, metavars, the commands' names and the program's."""
    shown = helped("--lang", i18n.PSEUDO, *([command] if command else []), "-h")
    assert "⟦" in shown
    # A description of several paragraphs is one text: ⟦ opens its first, ⟧ ends its last.
    shown = re.sub(r"⟦[^⟦⟧]*⟧", lambda text: re.sub(r"\S", "-", text.group(0)), shown)
    # Metavars: <int>, GAME, NAME=VALUE, url... (a command's arguments), [OPTIONS].
    shown = re.sub(r"<[^<>]*>|\b[A-Z][A-Z_=]+\b(\.\.\.)?|\b[a-z]+\.\.\.", " ", shown)
    bare = pseudo_bare(shown, {"pocketarena", *commands(), *arguments(command)})
    assert not bare, bare
