"""Mistakes on the command line (click's usage errors and the bot refusal) in the reader's
language: worded from the error's kind and attributes, English exactly as click writes it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from pocketarena import i18n
from pocketarena.bots.registry import bot_names
from pocketarena.cli.main import app
from tests.cli.test_languages import pseudo_bare

BOTS = ", ".join(bot_names())
CALLS = {
    "option": ["play", "--foo"],
    "argument": ["replay"],
    "bot": ["play", "stack-a-cash", "--vs", "nobot"],
    "choice": ["play", "stack-a-cash", "--seat", "sideways"],
    "needs": ["play", "stack-a-cash", "--seed"],
    "extra": ["play", "stack-a-cash", "extra"],
    "integer": ["play", "stack-a-cash", "--seed", "abc"],
    "command": ["nosuchcommand"],
}
SAID = {
    "en": {
        "option": "error: no such option: --foo (Possible options: --option) "
        "(see pocketarena play -h)",
        "argument": "error: missing argument 'FILE' (see pocketarena replay -h)",
        "bot": f"error: unknown bot 'nobot'; valid bots: {BOTS} (or human)",
        "choice": "error: invalid value for '--seat': Value error, 'sideways' is not one of "
        "'first', 'second', 'random' (see pocketarena play -h)",
        "needs": "error: option '--seed' requires an argument",
        "extra": "error: got unexpected extra argument(s) (extra) (see pocketarena play -h)",
        "integer": "error: invalid value for '--seed': Input should be a valid integer, unable "
        "to parse string as an integer (see pocketarena play -h)",
        "command": "error: no such command 'nosuchcommand' (see pocketarena -h)",
    },
    "fr": {
        "option": "erreur : option inconnue : --foo (options possibles : --option) "
        "(voir pocketarena play -h)",
        "argument": "erreur : argument 'FILE' manquant (voir pocketarena replay -h)",
        "bot": f"erreur : bot inconnu 'nobot' ; bots valides : {BOTS} (ou human)",
        "choice": "erreur : valeur non valide pour '--seat' : 'sideways' n'est pas parmi "
        "'first', 'second', 'random' (voir pocketarena play -h)",
        "needs": "erreur : l'option '--seed' demande une valeur",
    },
    "ja": {
        "option": "エラー： そのようなオプションはありません：--foo（候補：--option）"
        "（pocketarena play -h を参照）",
        "argument": "エラー： 引数 'FILE' がありません（pocketarena replay -h を参照）",
        "bot": f"エラー： 不明なボット 'nobot'。使えるボット：{BOTS}（または human）",
        "choice": "エラー： '--seat' の値が正しくありません：'sideways' は 'first', 'second', "
        "'random' のいずれでもありません（pocketarena play -h を参照）",
        "needs": "エラー： オプション '--seed' には値が必要です",
    },
}


def said(case: str, code: str) -> str:
    result = CliRunner().invoke(
        app, CALLS[case], env={"LANGUAGE": code, "COLUMNS": "400"}, prog_name="pocketarena"
    )
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())


@pytest.mark.parametrize(
    ("code", "case"), [(code, case) for code, cases in SAID.items() for case in cases]
)
def test_a_usage_error_is_said_in_the_readers_language(code: str, case: str) -> None:
    assert said(case, code) == SAID[code][case]


@pytest.mark.parametrize("case", CALLS)
def test_no_usage_error_is_bare_english_in_the_pseudo_locale(case: str) -> None:
    result = CliRunner().invoke(app, ["--lang", i18n.PSEUDO, *CALLS[case]], env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    names = {"stack-a-cash", "pocketarena", "nobot", "sideways", "abc", "extra", "human"}
    names |= {"nosuchcommand", "FILE", *bot_names()}
    assert not pseudo_bare(result.output, names)


@pytest.mark.parametrize(
    "args",
    [
        ["arena", "stack-a-cash", "--bots", "random,wizard"],
        ["balance", "stack-a-cash", "--bot", "wizard"],
    ],
)
def test_an_unknown_bot_is_refused_in_the_readers_language(args: list[str]) -> None:
    result = CliRunner().invoke(app, args, env={"LANGUAGE": "de", "COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    assert f"Fehler: unbekannter Bot 'wizard'; gültige Bots: {BOTS}" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bots", "random"], "une arène demande au moins deux bots"),
        (["--bots", "random,random"], "le bot 'random' est listé deux fois"),
        (["--bots", "random,greedy", "--kind", "swiss", "--rounds", "0"], "reçu 0"),
        (["--bots", "random,greedy", "--kind", "round-robin", "--rounds", "2"], "retirez --rounds"),
    ],
)
def test_an_arena_the_bots_cannot_make_is_refused_in_the_readers_language(
    args: list[str], words: str
) -> None:
    result = CliRunner().invoke(
        app, ["arena", "stack-a-cash", *args], env={"LANGUAGE": "fr", "COLUMNS": "400"}
    )
    assert result.exit_code == 2, result.output
    assert words in result.output, result.output
