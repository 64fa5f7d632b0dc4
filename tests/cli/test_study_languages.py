"""The study commands' output in the reader's language: ``solve``'s verdict and figures, and
the tables ``arena`` and ``balance`` print (titles, column headings), numbers as the reader
writes them; in the pseudo-locale nothing of them is bare English."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pocketarena.cli import common
from pocketarena.cli.main import app
from tests.cli.test_languages import pseudo_bare

WIDE = {"COLUMNS": "200"}  # no heading or cell folded, so each line reads whole
# What the commands print as the games, the bots and the options name them.
NAMES = {"Stack-a-Cash", "stack-a-cash", "protect", "touched", "placed", "random", "greedy"}


@pytest.fixture(autouse=True)
def _consoles_as_wide_as_the_environment() -> None:
    """The program's consoles are made once per process, and rich keeps a width once one is
    set: in the whole suite an arena table here came out 80 wide under COLUMNS=200. Each test
    starts from the environment's width."""
    for console in (common.console, common.err_console):
        console._width = None  # noqa: SLF001


def shown(*args: str, lang: str) -> str:
    result = CliRunner().invoke(app, ["--lang", lang, *args], env=WIDE)
    assert result.exit_code == 0, result.output
    return result.output


def arena(tmp_path: Path, lang: str, *extra: str) -> str:
    out = tmp_path / f"arena-{lang}-{len(extra)}"
    args = ["arena", "stack-a-cash", "--bots", "random,greedy", "-j", "1", "--no-plots"]
    return shown(*args, *extra, "--out", str(out), "-q", lang=lang)


def balance(tmp_path: Path, lang: str) -> str:
    out = tmp_path / f"balance-{lang}"
    args = ["balance", "stack-a-cash", "--bot", "random", "--against", "greedy", "-n", "2"]
    return shown(*args, "-j", "1", "--no-plots", "--no-records", "--out", str(out), lang=lang)


def test_solve_speaks_french_with_french_numbers() -> None:
    out = shown("solve", "stack-a-cash", lang="fr")
    assert "avec le meilleur jeu, Face (le premier joueur) gagne en 15 demi-coups." in out
    assert "31\u202f442\u202f644 positions accessibles" in out  # CLDR's French grouping
    assert "Solution enregistrée lue en " in out and "145,7 s" in out
    assert "with best play" not in out and "reachable" not in out and "Read the" not in out


def test_arenas_tables_speak_french_and_japanese(tmp_path: Path) -> None:
    french = arena(tmp_path, "fr", "-n", "2")
    assert "stack-a-cash : classement (2 parties)" in french
    assert "appariements (du point de vue du premier bot)" in french
    assert "adversaire" in french and "cote" in french and "IC 95 %" in french
    assert "standings" not in french and "opponent" not in french
    japanese = arena(tmp_path, "ja", "--kind", "swiss", "--rounds", "2")
    assert "stack-a-cash: swiss、2ラウンド(" in japanese
    assert "勝ち点" in japanese and "不戦" in japanese
    assert "points" not in japanese and "byes" not in japanese


def test_balances_tables_speak_french(tmp_path: Path) -> None:
    out = balance(tmp_path, "fr")
    title = " ".join(out.split())  # a title wider than its table is folded to the table's width
    assert "stack-a-cash : random contre greedy (2 parties par variante)" in title
    assert "nuls" in out and "médiane" in out
    assert "games a variant" not in out and "draws" not in out and "median" not in out


def test_balance_names_the_bot_playing_itself_in_japanese(tmp_path: Path) -> None:
    out = shown(
        "balance", "stack-a-cash", "--bot", "random", "-n", "2", "-j", "1", "--no-plots",
        "--no-records", "--out", str(tmp_path / "b"), "-q", lang="ja",
    )  # fmt: skip
    assert "random の自己対戦(バリアントごとに2局)" in out
    assert "self-play" not in out


@pytest.mark.parametrize("command", ["solve", "arena", "swiss", "balance"])
def test_the_study_commands_output_has_no_bare_english_in_the_pseudo_locale(
    tmp_path: Path, command: str
) -> None:
    if command == "solve":
        out = shown("solve", "stack-a-cash", lang="qps")
    elif command == "arena":
        out = arena(tmp_path, "qps", "-n", "2")
    elif command == "swiss":
        out = arena(tmp_path, "qps", "--kind", "swiss", "--rounds", "2")
    else:
        out = balance(tmp_path, "qps")
    # The summary's own path (the saved line) is allowed as any path is.
    bare = pseudo_bare(out, NAMES | {"swiss"})
    assert not bare, bare


@pytest.mark.parametrize("lang", ["en", "fr", "de", "es", "pt_BR", "ja", "zh_Hans", "ar"])
def test_the_tables_cut_nothing_short_at_80_columns_in_any_language(
    tmp_path: Path, lang: str
) -> None:
    """The headings are worded short enough that, at 80 columns, no figure or heading of
    balance's two tables or arena's pairings ends in '…' (French's first headings did)."""
    runner = CliRunner()
    args = ["balance", "wallet-battles", "--bot", "random", "--against", "greedy", "-n", "2"]
    args += ["--map", "gettysburg", "-o", "end=used", "-j", "1", "--no-plots", "--no-records"]
    result = runner.invoke(
        app, ["--lang", lang, *args, "--out", str(tmp_path / "b"), "-q"], env={"COLUMNS": "80"}
    )
    assert result.exit_code == 0, result.output
    assert "…" not in result.output, result.output
    args = ["arena", "stack-a-cash", "--bots", "random,greedy", "-n", "2", "-j", "1"]
    result = runner.invoke(
        app,
        ["--lang", lang, *args, "--no-plots", "--out", str(tmp_path / "a"), "-q"],
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 0, result.output
    assert "…" not in result.output, result.output
