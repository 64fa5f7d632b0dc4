"""The terminal in the reader's language: chosen from the environment as gettext reads it or
with --lang, and a whole game played in French at a real prompt."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from pocketarena import i18n
from pocketarena.cli.common import terminal_language
from pocketarena.cli.main import app
from tests.cli.test_terminal import finish, shown


@pytest.mark.parametrize(
    ("env", "code"),
    [
        ({}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "pt_BR.UTF-8"}, "pt_BR"),
        ({"LANG": "pt_PT.UTF-8"}, "pt_BR"),
        ({"LANG": "zh_CN.UTF-8"}, "zh_Hans"),
        ({"LC_MESSAGES": "ar_EG.UTF-8", "LANG": "en_US.UTF-8"}, "ar"),
        ({"LANGUAGE": "eo:es", "LANG": "en_US.UTF-8"}, "es"),
        ({"LANGUAGE": "en:fr"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "xx_YY"}, "en"),
    ],
)
def test_the_language_is_read_from_the_environment_as_gettext_does(
    env: dict[str, str], code: str
) -> None:
    assert terminal_language(env) == code


def test_lang_wins_over_the_environment_and_ends_with_the_command() -> None:
    result = CliRunner().invoke(app, ["--lang", "de", "games"], env={"LANGUAGE": "fr"})
    assert result.exit_code == 0, result.output
    assert "Plätze: Kopf / Zahl" in result.output
    assert i18n.current() == "en"  # the command's language does not leak into the caller
    french = CliRunner().invoke(app, ["games"], env={"LANGUAGE": "fr"})
    assert "places : Face / Pile" in french.output
    wrong = CliRunner().invoke(app, ["--lang", "klingon", "games"])
    assert wrong.exit_code == 2 and "--lang klingon" in wrong.output


def test_a_game_played_in_french_at_the_prompt(tmp_path: Path) -> None:
    save = tmp_path / "partie.txt"
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "TERM": "xterm",
        "NO_COLOR": "1",
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "LANGUAGE": "",
        "LANG": "fr_FR.UTF-8",
    }
    child = pexpect.spawn(
        sys.executable,
        ["-m", "pocketarena", "play", "stack-a-cash", "--vs", "human", "--save", str(save)],
        env=env,
        dimensions=(40, 100),
        encoding="utf-8",
        timeout=60,
    )
    child.expect(shown("Face contre Pile, les deux joués sur cet écran"))
    child.expect(shown("À Face de jouer> "))
    child.sendline("flip b2")  # refused, in French, by its reason
    child.expect(shown("b2 est vide : il n'y a aucune pièce à retourner"))
    child.expect(shown("À Face de jouer> "))
    child.sendline("zzz")
    child.expect(shown("'zzz' commence par 'zzz' ; une action de Stack-a-Cash commence par"))
    child.sendline("place L b2")
    child.expect(shown("Face joue place L b2"))
    child.expect(shown("Face pose une pièce grande en b2"))  # the move's sentence
    child.expect(shown("À Pile de jouer> "))
    child.sendline("flip b2")
    child.expect(shown("la pièce en b2 est protégée : Face vient de la jouer"))
    child.sendline("moves place S")
    child.expect(shown("place S a1"))
    child.sendline("undo")
    child.expect(shown("1 coup repris."))
    child.expect(shown("À Face de jouer> "))
    child.sendline("place M a1")
    child.expect(shown("À Pile de jouer> "))
    child.sendline("resign")
    child.expect(shown("Pile abandonne : Face gagne, 1-0."))
    child.expect(shown("Partie enregistrée dans"))
    finish(child)
    assert save.exists()
