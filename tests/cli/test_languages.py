"""The terminal in the reader's language: chosen from the environment as gettext reads it or
with --lang, and a whole game played in French at a real prompt."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

import pocketarena as pa
from pocketarena import i18n
from pocketarena.cli.common import terminal_language
from pocketarena.cli.main import app
from tests.cli.test_terminal import finish, shown

SRC = Path(__file__).resolve().parents[2] / "src"


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
    child.expect(shown("Abandonner la partie ? (o/N)> "))
    child.sendline("non")
    child.expect(shown("Pas d'abandon ; la partie continue."))
    child.sendline("resign")
    child.expect(shown("Abandonner la partie ? (o/N)> "))
    child.sendline("oui")
    child.expect(shown("Pile abandonne : Face gagne, 1-0."))
    child.expect(shown("Partie enregistrée dans"))
    finish(child)
    assert save.exists()


def pseudo_bare(text: str, names: set[str]) -> list[str]:
    """The lines of ``text`` with a word outside the catalog: the pseudo-locale wraps every
    catalog text in ⟦…⟧; names, paths, flags and notation the line quotes are allowed."""
    bare = []
    for line in text.splitlines():
        rest, before = line, None
        while rest != before:
            before, rest = rest, re.sub(r"⟦[^⟦⟧]*⟧", " ", rest)
        for name in sorted(names, key=len, reverse=True):
            rest = rest.replace(name, " ")
        rest = re.sub(r"--?[a-z][\w-]*|'[^']*'|\S*/\S*", " ", rest)  # flags, quoted, paths
        if re.search(r"[A-Za-z]{2,}", rest):
            bare.append(line)
    return bare


def test_the_terminals_refusals_go_through_the_catalog(tmp_path: Path) -> None:
    """Every refusal of the player's commands, its ``error:`` prefix included, is a catalog
    text: in the pseudo-locale no word of it is bare English."""
    missing = tmp_path / "nowhere" / "game.json"
    runner = CliRunner()
    calls = [
        ["play"],
        ["play", "stack-a-cash", "--vs", "human", "--seat", "second"],
        ["play", "stack-a-cash", "--save", str(missing)],
        ["play", "stack-a-cash", "--mode", "tactical", "-o", "mode=flag"],
        ["play", "stack-a-cash", "--seed", "3", "-o", "seed=4"],
        ["play", "stack-a-cash", "--save", str(tmp_path)],
        ["explore", "coin-age"],
        ["explore", "stack-a-cash", "--moves", "flip b2"],
    ]
    bare = {}
    for args in calls:
        result = runner.invoke(app, ["--lang", i18n.PSEUDO, *args])
        assert result.exit_code != 0, (args, result.output)
        found = pseudo_bare(result.output, {"stack-a-cash", "coin-age", "klingon", "tactical"})
        if found:
            bare[" ".join(args)] = found
    assert not bare, bare
    # A --lang we do not speak is refused in the environment's language.
    wrong = runner.invoke(app, ["--lang", "klingon", "games"], env={"LANGUAGE": "fr"})
    assert "erreur : --lang klingon : nous ne parlons pas cette langue" in wrong.output


def test_a_bad_record_is_explained_in_the_readers_language(tmp_path: Path) -> None:
    """What is wrong with a record (no such file, not a record, an illegal move and the rules'
    reason) is said in the reader's language, English unchanged."""
    runner = CliRunner()
    missing = tmp_path / "nope.txt"
    result = runner.invoke(app, ["--lang", "fr", "replay", str(missing)])
    assert result.exit_code == 2 and "aucun fichier d'enregistrement" in result.output
    english = runner.invoke(app, ["--lang", "en", "replay", str(missing)])
    assert f"no such record file: {missing}" in english.output
    (tmp_path / "empty.txt").write_text("\n", encoding="utf-8")
    result = runner.invoke(app, ["--lang", "de", "verify", str(tmp_path / "empty.txt")])
    assert "die Aufzeichnung ist leer" in result.output, result.output
    illegal = tmp_path / "illegal.txt"
    illegal.write_text(
        '[Game "stack-a-cash"]\n[Result "*"]\n\nplace L b2\nplace L b2\n*\n', encoding="utf-8"
    )
    result = runner.invoke(app, ["--lang", "fr", "replay", str(illegal), "--check"])
    assert "le coup 2 ('place L b2') est illégal : " in result.output, result.output
    assert "is illegal" not in result.output and " is not " not in result.output


def test_the_listing_and_a_records_replay_speak_the_readers_language(tmp_path: Path) -> None:
    """``games`` (the games' pitches and options' help, the site's words for them) and a
    resigned game's ``replay`` (how it ended, the prompt) and ``replay --check`` go through
    the catalogs: in the pseudo-locale nothing of them is bare English but names, notation
    and the verdict's ``ok:`` (the prefix scripts read); in French the ending is French."""
    record = tmp_path / "g.json"
    runner = CliRunner()
    keys = "place L b2\nresign\ny\n"
    played = runner.invoke(
        app, ["play", "stack-a-cash", "--vs", "greedy", "--seed", "1", "--save", str(record)],
        input=keys,
    )  # fmt: skip
    assert played.exit_code == 0 and record.exists(), played.output
    moves = {line.strip() for line in record.read_text("utf-8").split('"moves"')[1].split('"')}
    names = {"greedy"} | set(pa.GAMES) | {cls.TITLE for cls in pa.GAMES.values()}
    for cls in pa.GAMES.values():  # the suite's own games (Coin Race) are in no catalog
        if cls.__module__.startswith("tests."):
            names |= {cls.PITCH} | {o.help for o in cls.OPTIONS if o.help}
    bare = {}
    for args in (["games"], ["replay", str(record), "--check"], ["replay", str(record)]):
        # In a process of its own, as a user runs it: in the suite's process what earlier tests
        # left behind (seen once in a full run, never alone) must not decide what it shows.
        result = subprocess.run(
            [sys.executable, "-m", "pocketarena", "--lang", i18n.PSEUDO, *args],
            input="e\nq\n",
            env={**os.environ, "COLUMNS": "1000", "PYTHONPATH": str(SRC)},
            capture_output=True,
            text=True,
            timeout=300,
        )  # one line each (COLUMNS): a catalog text folded in two would not read as one
        assert result.returncode == 0, result.stdout + result.stderr
        shown = result.stdout.replace("ok: ", "", 1)
        found = pseudo_bare(shown, names | {m for m in moves if len(m) > 2})
        found = [line for line in found if not re.search(r"\w+=", line)]  # name=value options
        if found:
            bare[" ".join(args)] = found
    assert not bare, bare
    french = runner.invoke(app, ["--lang", "fr", "replay", str(record), "--check"]).output
    assert "(abandon)" in french and "resignation" not in french, french
