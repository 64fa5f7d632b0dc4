"""``pocketarena rules`` and ``games``, the program as a module, and its help."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner

import pocketarena as pa
from pocketarena import rulepages
from pocketarena.cli.main import app

from .helpers import assert_clean_error, run

# The commands as typed (a module of cli/ may register several: deploy.py's haproxy-config…).
NAMES = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / "docs" / "rules"
REAL_GAMES = sorted(pa.GAMES)  # collected before Coin Race is registered


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_rules_of_every_game(game_id: str) -> None:
    page = RULEBOOK / f"{game_id}.md"
    assert page.is_file(), f"{game_id} has no rules page at docs/rules/{game_id}.md"
    result = run("rules", game_id.upper().replace("-", "_"))
    assert result.exit_code == 0, result.output
    first_heading = next(line for line in page.read_text().splitlines() if line.startswith("#"))
    assert first_heading.lstrip("# ").strip() in result.output
    assert "#" not in result.output.splitlines()[1], "Markdown is rendered, not printed raw"


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_rules_leave_the_programmers_section_out(game_id: str) -> None:
    page = (RULEBOOK / f"{game_id}.md").read_text()
    assert rulepages.PROGRAMMERS_HEADING in page
    out = " ".join(run("rules", game_id).output.split())
    assert "For programmers" not in out and "scores()" not in out and "position()" not in out
    assert "seat 0" not in out


def test_rules_in_the_terminals_language(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``--lang fr`` or ``LANGUAGE=fr``: the French page; where a game has none, English."""
    runner = CliRunner()
    for args, env in (
        (["--lang", "fr", "rules", "coin-age"], {"LANGUAGE": "de"}),
        (["rules", "coin-age"], {"LANGUAGE": "fr:en", "LANG": "C.UTF-8"}),
        (["rules", "coin-age"], {"LANGUAGE": "", "LC_ALL": "", "LANG": "fr_FR.UTF-8"}),
    ):
        out = " ".join(runner.invoke(app, args, env=env).output.split())
        assert "Matériel" in out and "Le lancer" in out, (args, env)
        assert "What you need" not in out and "For programmers" not in out
        assert "place P stone-rock the penny covers the quarter" in out  # notation as is
    (tmp_path / "rulebook").mkdir()
    (tmp_path / "rulebook" / "coin-race.md").write_text("# Coin Race\n\nFirst to ten wins.\n")
    monkeypatch.setattr(rulepages, "files", lambda package: tmp_path)
    english = runner.invoke(app, ["--lang", "fr", "rules", "coin-race"])
    assert english.exit_code == 0 and "First to ten wins." in english.output


def test_rules_are_read_through_the_package_rulebook() -> None:
    rulebook = Path(str(rulepages.files("pocketarena") / "rulebook"))
    assert rulebook.resolve() == RULEBOOK.resolve()


def test_rules_render_markdown(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "rulebook").mkdir()
    long_item = "- " + "a long line that the terminal must wrap, not cut " * 3 + "zebra"
    (tmp_path / "rulebook" / "coin-race.md").write_text(
        f"# Coin Race\n\nFirst to **ten** wins.\n\n- flip\n- add\n{long_item}\n"
    )
    monkeypatch.setattr(rulepages, "files", lambda package: tmp_path)
    result = run("rules", "coin-race")
    assert result.exit_code == 0
    assert "Coin Race" in result.output and "First to ten wins." in result.output
    assert "**" not in result.output and "• flip" in result.output
    assert "zebra" in result.output


def test_rules_of_a_game_without_a_page(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(rulepages, "files", lambda package: tmp_path)
    assert_clean_error(run("rules", "coin-race"), 1, "coin-race has no rules page yet")
    assert_clean_error(run("rules", "monopoly"), 2, "unknown game 'monopoly'; valid games:")


def test_games_lists_games_options_and_variants() -> None:
    result = run("games")
    assert result.exit_code == 0
    out = result.output
    assert "coin-race  Coin Race  (with chance)" in out
    assert "goal=10  points to reach" in out
    assert "variants: defaults" in out
    for game_id, cls in pa.GAMES.items():
        assert game_id in out and cls.TITLE in out
        for option in cls.OPTIONS:
            assert f"{option.name}=" in out


def test_every_command_is_registered_and_documented() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for name in NAMES:
        assert name in result.output
    assert run().exit_code in (0, 2)  # no command: the help, never a traceback


def test_each_command_is_summed_up_in_one_short_sentence() -> None:
    """``pocketarena -h`` lists each command with the first paragraph of its help: one
    complete sentence that fits its line at 80 columns; the rest is for ``COMMAND -h``."""
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    for name, command in group.commands.items():
        summary, *rest = inspect.cleandoc(command.help or "").split("\n\n")
        assert "\n" not in summary and len(summary) <= 61, (name, summary)
        assert summary[0].isupper() and summary.endswith("."), (name, summary)
        for line in "\n".join(rest).splitlines():
            assert len(line) <= 78, (name, line)  # no detail line folded in COMMAND -h
    listing = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "80"}).output
    for name, command in group.commands.items():
        line = next(line for line in listing.splitlines() if line.startswith(f"│ {name} "))
        summary = inspect.cleandoc(command.help or "").split("\n\n")[0]
        assert summary in line, (name, line)


def test_python_dash_m_runs_the_program() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    ok = subprocess.run(
        [sys.executable, "-m", "pocketarena", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert ok.returncode == 0 and "replay" in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "pocketarena", "play", "chess"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert bad.returncode == 2
    assert bad.stdout == "" and bad.stderr.count("\n") == 1
    assert bad.stderr.startswith("error: unknown game 'chess'")


# What a command line that shows help or lists the games has no use for: the server's stack
# and the numeric and research libraries (pydantic stays: typer reads the arguments with it).
# Each costs every start a tenth of a second of CPU or more (``--help`` took 0.70 s of CPU
# with numpy, networkx and rich's help modules, 0.43 s without, 2026-12-06); a module-level
# import of one in cli/, or in what cli/ imports, fails here.
NOT_AT_START = (
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "redis",
    "pywebpush",
    "numpy",
    "networkx",
    "jax",
    "torch",
    "matplotlib",
)
IMPORTS_OF = """
import runpy, sys
sys.argv = ["pocketarena", *sys.argv[1:]]
try:
    runpy.run_module("pocketarena", run_name="__main__")
except SystemExit:
    pass
heavy = {name.split(".")[0] for name in sys.modules} & set(%r)
sys.stderr.write("IMPORTED " + " ".join(sorted(heavy)) + "\\n")
"""


def test_the_program_starts_without_the_heavy_libraries() -> None:
    """``pocketarena --help`` (which lists every command and bot) and ``pocketarena games``
    import none of ``NOT_AT_START``: each command imports what it needs when it runs."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    script = IMPORTS_OF % (NOT_AT_START,)
    for args in (["--help"], ["games"]):
        done = subprocess.run(
            [sys.executable, "-c", script, *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert "Commands" in done.stdout or "stack-a-cash" in done.stdout, done.stdout
        said = [line for line in done.stderr.splitlines() if line.startswith("IMPORTED")]
        assert said == ["IMPORTED "], (args, done.stderr[-2000:])
