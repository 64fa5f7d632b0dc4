"""The program as a whole: --version and -h, its help, and requests it must refuse before any
game starts (conflicting options, a --save where nothing can be written)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import pocketarena as pa
from pocketarena.cli.main import app

from .helpers import assert_clean_error, run

# The commands as typed (a module of cli/ may register several: deploy.py's haproxy-config…).
NAMES = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    result = run(flag)
    assert result.exit_code == 0
    assert result.output == f"pocketarena {pa.__version__}\n"


@pytest.mark.parametrize("command", ["", *NAMES])
def test_short_help_and_no_value_shown_for_flags(command: str) -> None:
    args = [command] if command else []
    short, long = run(*args, "-h"), run(*args, "--help")
    assert short.exit_code == long.exit_code == 0
    assert short.output == long.output
    assert "Usage: pocketarena" in short.output and "-h" in short.output
    assert "<bool>" not in short.output, "a flag takes no value"


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (
            ["flipwars", "--mode", "enclosed", "-o", "mode=flag"],
            ["--mode enclosed and -o mode=flag disagree; give the mode once"],
        ),
        (
            ["flipwars", "--mode", "standard", "-o", "series=true"],
            ["series=true does not apply with mode=standard: FlipWars plays series=false"],
        ),
        (["flipwars", "-o", "series=true"], ["series=true does not apply: FlipWars plays"]),
        (
            ["coin-age", "--seed", "5", "-o", "seed=9"],
            ["--seed 5 and -o seed=9 disagree; give the seed once"],
        ),
        (
            ["stack-a-cash", "--vs", "human", "--seat", "second"],
            ["--seat picks your seat against a bot; with --vs human both seats are here"],
        ),
        ([], ["name a GAME (e.g. pocketarena play stack-a-cash) or give --resume FILE"]),
        # Brackets in a message are shown, not swallowed as markup (pip install '…[rl]').
        (["coin-race", "-o", "goal=[rl]"], ["must be an integer, got '[rl]'"]),
    ],
)
def test_conflicting_or_bad_play_requests(args: list[str], fragments: list[str]) -> None:
    assert_clean_error(run("play", *args, input="quit\n"), 2, *fragments)


def test_agreeing_options_are_fine(tmp_path: Path) -> None:
    result = run(
        "play",
        "flipwars",
        "--mode",
        "tactical",
        "-o",
        "mode=TACTICAL",
        "-o",
        "series=false",
        "--save",
        str(tmp_path / "g.txt"),
        input="quit\n",
    )
    assert result.exit_code == 0, result.output
    # Options as they are typed, not as Python writes them.
    assert result.output.startswith("FlipWars  (seed ")
    assert result.output.splitlines()[1] == "Options: mode=tactical, series=false"
    wallet = run("play", "wallet-battles", "--save", str(tmp_path / "w.txt"), input="quit\n")
    assert 'coins={"Q": 6, "N": 6, "P": 6, "D": 6}' in wallet.output


def unwritable_place(tmp_path: Path) -> Path:
    """A folder this process cannot write in (root writes anywhere but /sys)."""
    if os.geteuid() == 0:
        return Path("/sys")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    return locked


def test_save_is_checked_before_the_game(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine\n")
    cases = [
        (folder, f"--save {folder} is a folder; give a file name, e.g. {folder / 'game.json'}"),
        (
            a_file / "sub" / "g.txt",
            f"{a_file} is a file, so no file can be made under it",
        ),
        (unwritable_place(tmp_path) / "g.txt", "cannot write in"),
    ]
    for path, message in cases:
        result = run("play", "coin-race", "--vs", "random", "--save", str(path), input="\n1\n" * 9)
        assert_clean_error(result, 2, message)
        assert "Press Enter" not in result.output, "no game starts"
    assert a_file.read_text() == "mine\n"
    assert list(folder.iterdir()) == []


def test_a_missing_folder_is_refused_not_made(tmp_path: Path) -> None:
    """A typo in --save or --out makes no tree of folders: the folder above must exist."""
    target = tmp_path / "new" / "deeper" / "g.json"
    result = run("play", "coin-race", "--vs", "random", "--save", str(target), input="\n1\nquit\n")
    assert_clean_error(
        result, 2, f"--save {target}: the folder {target.parent} does not exist; make it first"
    )
    out = tmp_path / "nowhere" / "results"
    for command in (
        ["arena", "stack-a-cash", "--bots", "random,greedy", "-n", "1"],
        ["balance", "stack-a-cash", "--bot", "random", "-n", "1"],
    ):
        assert_clean_error(run(*command, "--out", str(out)), 2, f"the folder {out.parent} does not")
    record = tmp_path / "g.txt"
    record.write_text('[Game "stack-a-cash"]\n\nplace L b2\n*\n')
    notes = tmp_path / "missing" / "notes.txt"
    assert_clean_error(run("analyze", str(record), "--out", str(notes)), 2, "does not exist")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.txt"], "nothing was made"


def test_save_into_an_existing_folder_or_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "g.json"
    result = run("play", "coin-race", "--vs", "random", "--save", str(target), input="\n1\nquit\n")
    assert result.exit_code == 0, result.output
    assert target.is_file()
    # The data folder (games go there by default) is ours: its folders are made as needed.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    inside = tmp_path / "data" / "pocketarena" / "mine" / "g.json"
    result = run("play", "coin-race", "--vs", "random", "--save", str(inside), input="\n1\nquit\n")
    assert result.exit_code == 0, result.output
    assert inside.is_file()


def test_out_folders_are_checked_before_the_work(tmp_path: Path) -> None:
    a_file = tmp_path / "taken"
    a_file.write_text("x")
    result = run("arena", "stack-a-cash", "--bots", "random,greedy", "--out", str(a_file))
    assert_clean_error(result, 2, f"--out {a_file} is a file, not a folder")
    record = tmp_path / "g.txt"
    record.write_text('[Game "stack-a-cash"]\n\nplace L b2\n*\n')
    result = run("analyze", str(record), "--bot", "mcts:10", "--out", str(tmp_path))
    assert_clean_error(result, 2, "is a folder; give a file name")


def test_solve_says_where_its_answer_and_its_time_come_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dataclasses import replace

    from pocketarena.solve import stack_a_cash as solver

    monkeypatch.setenv("POCKETARENA_CACHE", str(tmp_path))
    monkeypatch.setattr(solver, "_SOLVED", {})
    out = run("solve", "stack-a-cash").output
    shipped = solver.shipped("touched")
    assert shipped is not None
    assert "Read the stored solution in " in out
    assert f"(building it took {round(shipped.seconds, 1)} s and " in out
    # A rebuild kept in the user's cache is the one used (and timed) from then on.
    solver.save(replace(shipped, seconds=61.5), tmp_path)
    monkeypatch.setattr(solver, "_SOLVED", {})
    assert "(building it took 61.5 s and " in run("solve", "stack-a-cash").output


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["play", "--bogus"], "error: no such option: --bogus (see pocketarena play -h)"),
        (["nosuch"], "error: no such command 'nosuch' (see pocketarena -h)"),
        (["arena", "stack-a-cash", "--games", "x"], "error: invalid value for '--games'"),
        (["arena"], "error: missing argument 'GAME' (see pocketarena arena -h)"),
        (["solve", "stack-a-cash", "--json", "extra"], "error: got unexpected extra argument"),
    ],
)
def test_parser_errors_are_one_error_line_like_the_commands_own(
    args: list[str], fragment: str
) -> None:
    """No usage block and boxed panel for the parser's refusals: the same one line, exit 2."""
    result = CliRunner().invoke(app, args, prog_name="pocketarena")
    assert_clean_error(result, 2, fragment)
    assert not set("╭╰│") & set(result.output)


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "{empty}", "--check"],
        ["replay", "{empty}"],
        ["analyze", "{empty}"],
        ["verify", "{empty}"],
        ["replay", "{garbled}", "--check"],
        ["analyze", "{garbled}"],
        ["play", "--resume", "{empty}"],
    ],
)
def test_a_bad_file_is_a_usage_error_everywhere(tmp_path: Path, args: list[str]) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    garbled = tmp_path / "garbled.json"
    garbled.write_text("{not json")
    named = [a.format(empty=empty, garbled=garbled) for a in args]
    assert_clean_error(run(*named, input="quit\n"), 2, "error: ")


@pytest.mark.parametrize("command", NAMES)
def test_usage_lines_spell_arguments_one_way(command: str) -> None:
    """``GAME`` required, ``[GAME]`` optional, ``URL...`` several: never ``{game}``,
    ``[[GAME]]`` or ``{FILE}``."""
    out = CliRunner().invoke(app, [command, "-h"], prog_name="pocketarena").output
    usage = next(line.strip() for line in out.splitlines() if "Usage:" in line)
    pattern = rf"Usage: pocketarena {command}( \[OPTIONS\])?( (\[[A-Z]+\]|[A-Z]+(\.\.\.)?))*"
    assert re.fullmatch(pattern, usage), usage


def test_shell_completion_is_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    help_text = run("-h").output
    assert "--install-completion" in help_text and "--show-completion" in help_text
    # --show-completion is a flag: Typer asks shellingham for the shell this runs under, which
    # finds none when the test run has no shell above it (started by a service, or orphaned).
    import shellingham

    monkeypatch.setattr(shellingham, "detect_shell", lambda: ("bash", "/bin/bash"))
    script = CliRunner().invoke(app, ["--show-completion"], prog_name="pocketarena")
    assert script.exit_code == 0, (script.output, repr(script.exception))
    assert "_POCKETARENA_COMPLETE" in script.output, script.output


def test_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--no-color``: a colour terminal gets no colour codes (bold stays, as NO_COLOR's)."""
    import io

    from rich.console import Console

    from pocketarena.cli import common

    screens = []
    for flag in ([], ["--no-color"]):
        screen = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor")
        monkeypatch.setattr(common, "err_console", screen)
        assert run(*flag, "rules", "nosuch").exit_code == 2
        screens.append(screen.file.getvalue())  # type: ignore[attr-defined]
    colour = re.compile(r"\x1b\[[0-9;]*?(?:3[0-7]|9[0-7]|38;[0-9;]+)m")
    assert colour.search(screens[0]), repr(screens[0])
    assert "error:" in screens[1] and not colour.search(screens[1]), repr(screens[1])


def test_json_for_scripts(tmp_path: Path) -> None:
    import json

    listing = json.loads(run("games", "--json").output)
    assert {g["id"] for g in listing} >= {"coin-age", "flipwars", "stack-a-cash"}
    assert all("options" in g and "variants" in g for g in listing)
    record = tmp_path / "g.txt"
    record.write_text('[Game "stack-a-cash"]\n\nplace L b2\n*\n')
    verdict = json.loads(run("replay", str(record), "--check", "--json").output)
    assert verdict["ok"] is True and verdict["moves"] == 1 and verdict["game"] == "stack-a-cash"
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "stack-a-cash"]\n\nplace L b2\nplace L b2\n*\n')
    result = run("replay", str(bad), "--check", "--json")
    assert result.exit_code == 1
    assert json.loads(result.output)["ok"] is False


def test_verify_json(tmp_path: Path) -> None:
    import json

    save = tmp_path / "g.json"
    run(
        "play",
        "wallet-battles",
        "--vs",
        "random",
        "--seed",
        "3",
        "--save",
        str(save),
        input="\n1\n\n1\nquit\n",
    )
    data = json.loads(run("verify", str(save), "--json").output)
    assert data["ok"] is True and data["checks"] and all(c["ok"] for c in data["checks"])


@pytest.mark.parametrize("kind", ["all-pairs", "round-robin"])
def test_arena_json_prints_the_summary_it_saves(tmp_path: Path, kind: str) -> None:
    """``arena --json``: standard output is the summary.json it saved, nothing else (the line
    saying where it went is on standard error), as ``games``, ``verify`` and ``replay``."""
    import json

    extra = ["--games", "2"] if kind == "all-pairs" else []
    result = run(
        "arena", "stack-a-cash", "--bots", "random,greedy", "--kind", kind, *extra,
        "--jobs", "1", "--no-plots", "--out", str(tmp_path), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert json.loads(result.stdout) == saved
    assert f"Saved {tmp_path / 'summary.json'}" in result.stderr


@pytest.mark.parametrize("command", ["arena", "balance"])
def test_quiet_and_verbose(tmp_path: Path, command: str) -> None:
    """``-q``: only the results (the tables), no progress bar and no 'Saved' line; ``-v``: a
    line for each game as it ends besides; both at once are refused in one line."""
    args = {
        "arena": ["arena", "stack-a-cash", "--bots", "random,greedy", "--games", "2"],
        "balance": ["balance", "stack-a-cash", "--bot", "random", "--games", "2", "--protect", "touched"],
    }[command] + ["--jobs", "1", "--no-plots"]  # fmt: skip
    normal = run(*args, "--out", str(tmp_path / "normal"))
    assert normal.exit_code == 0, normal.output
    assert "Saved " in normal.output and " eta " in normal.output  # the line and the bar
    quiet = run(*args, "--out", str(tmp_path / "quiet"), "-q")
    assert quiet.exit_code == 0, quiet.output
    assert "Saved " not in quiet.output and " eta " not in quiet.output, quiet.output
    assert "stack-a-cash" in quiet.output  # the results' tables
    verbose = run(*args, "--out", str(tmp_path / "verbose"), "--verbose")
    assert verbose.exit_code == 0, verbose.output
    assert "game 1 of 2: random vs " in verbose.output and " in " in verbose.output
    assert "game 2 of 2: " in verbose.output and "Saved " in verbose.output
    both = run(*args, "--out", str(tmp_path / "both"), "-q", "-v")
    assert_clean_error(both, 2, "--quiet and --verbose")


def test_the_arena_progress_bar_speaks_the_readers_language(tmp_path: Path) -> None:
    """The bar's words after the count and before the time left are the reader's."""
    args = ["arena", "stack-a-cash", "--bots", "random,greedy", "--games", "2", "--jobs", "1"]
    result = run("--lang", "fr", *args, "--no-plots", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    bar = next(line for line in result.output.splitlines() if "2/2" in line)
    assert "2/2 parties" in bar and " reste " in bar and "games" not in bar, bar


def test_solve_quiet_and_verbose(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``solve`` takes ``-q`` and ``-v`` as ``arena`` does: ``-q`` prints the verdict alone
    and draws no progress bar (a rebuild's), ``-v`` what each first move leads to besides;
    both at once are refused in one line."""
    from pocketarena.solve import stack_a_cash as solver

    monkeypatch.setenv("POCKETARENA_CACHE", str(tmp_path))
    monkeypatch.setattr(solver, "_SOLVED", {})
    shipped = solver.shipped("touched")
    assert shipped is not None
    bars: list[bool] = []

    def build(protect: str, progress: object = None) -> solver.Solution:
        bars.append(progress is not None)
        return shipped

    monkeypatch.setattr(solver, "build", build)
    normal = run("solve", "stack-a-cash").output.splitlines()
    assert len(normal) == 3 and "Read the stored solution" in normal[2]
    quiet = run("solve", "stack-a-cash", "-q")
    assert quiet.exit_code == 0, quiet.output
    assert quiet.output.splitlines() == normal[:1]  # the verdict alone
    assert run("solve", "stack-a-cash", "--rebuild").exit_code == 0
    assert run("solve", "stack-a-cash", "--rebuild", "--quiet").exit_code == 0
    assert bars == [True, False]  # a bar, then none with -q
    verbose = run("solve", "stack-a-cash", "-v")
    assert verbose.exit_code == 0, verbose.output
    after = [line for line in verbose.output.splitlines() if line.startswith("After ")]
    assert after and "place M b2" in after[0] and "wins in 15 plies" in after[0], after
    assert sum(line.count("place ") for line in after) == 27  # every first move, once
    assert set(normal[:2]) <= set(verbose.output.splitlines())  # and the timing, which varies
    both = run("solve", "stack-a-cash", "-q", "-v")
    assert_clean_error(both, 2, "--quiet and --verbose")
