"""The README's Python examples run as written (doctest), and .ci/run runs its test command."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def test_readme_examples_run() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0


def test_ci_runs_the_readme_test_command() -> None:
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(), flags=re.S)
    test_command = next(b.strip() for b in blocks if "pytest" in b)
    # A fresh machine needs the venv, every test extra and the test run, in one line.
    assert test_command.startswith("python3 -m venv .venv && .venv/bin/pip install")
    assert "test" in test_command and "rl" in test_command
    assert test_command.endswith(".venv/bin/python -m pytest -n 2")
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_command in ci
    start_command = next(b.strip() for b in blocks if "pocketarena play" in b)
    assert start_command.endswith(".venv/bin/pocketarena play stack-a-cash")


# -- every command of "On the command line" runs as printed ------------------------------------
def command_lines() -> list[str]:
    """The ``pocketarena …`` block's commands, comments cut, in the README's order."""
    block = next(
        b
        for b in re.findall(r"```bash\n(.*?)```", README.read_text(), flags=re.S)
        if b.startswith("pocketarena games")
    )
    lines = [re.sub(r"\s+#\s.*$", "", line).strip() for line in block.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


# What the test changes, and why: sizes (a tournament of 20 games a pairing, 50 a map) and
# ports and services (8000 and the README's PostgreSQL and Redis may belong to someone else on
# this machine) — never the command's words otherwise.
SMALLER = {"--games 20": "--games 1", "--games 50": "--games 1", "--workers 4": "--workers 2"}
SERVICES = ("postgresql+psycopg://postgres@127.0.0.1:5432/pocketarena", "redis://127.0.0.1:6379/0")
# Keys of the commands below that need a file made by an earlier README line.
MADE_BY = {"game.json": "--save game.json", "notes.txt": "--out notes.txt"}
PLAY_INPUT = "1\n1\n1\nquit\n"  # a few moves (refused harmlessly where a throw is due)


def test_the_readme_lists_the_commands_tested_here() -> None:
    lines = command_lines()
    assert len(lines) >= 20
    assert {line.split()[0] for line in lines} == {"pocketarena", "python"}
    assert sum("serve" in line.split()[:2] for line in lines) == 3


def _line(part: str) -> str:
    return next(line for line in command_lines() if part in line)


# The files the README lines of MADE_BY made so far in this process (each line's own test, or
# _prepare), by name: a later line that reads one gets a copy instead of the lines run again
# (game.json is read by five lines; notes.txt's analysis took 31 s of a loaded full run twice).
MADE: dict[str, bytes] = {}


def _keep_made(line: str, folder: Path) -> None:
    """Keep the file ``line`` (one of MADE_BY's) has just made in ``folder``."""
    for name, maker in MADE_BY.items():
        if maker in line and (folder / name).is_file():
            MADE[name] = (folder / name).read_bytes()


def _prepare(line: str, folder: Path) -> None:
    """Make the files ``line`` reads: a copy of the one made before, else by running the
    README lines that make them."""
    for name, maker in MADE_BY.items():
        if name in line.split() and maker not in line and not (folder / name).exists():
            _prepare(_line(maker), folder)
            if name not in MADE:
                result = _run_inside(_line(maker), folder)
                assert result.exit_code == 0, result.output
                _keep_made(_line(maker), folder)
            (folder / name).write_bytes(MADE[name])


def _run_inside(line: str, folder: Path) -> Any:
    from tests.cli.helpers import run

    for big, small in SMALLER.items():
        line = line.replace(big, small)
    words = shlex.split(line)
    assert words[0] == "pocketarena"
    keys = PLAY_INPUT if words[1] == "play" else "q\n"
    before = Path.cwd()
    os.chdir(folder)
    try:
        return run(*words[1:], input=keys)
    finally:
        os.chdir(before)


IN_PROCESS = [
    line
    for line in command_lines()
    if line.startswith("pocketarena ")
    and line.split()[1] not in ("serve", "worker")
    and "--ray-address" not in line
]


@pytest.mark.slow
@pytest.mark.parametrize("line", IN_PROCESS, ids=lambda line: " ".join(line.split()[1:4]))
def test_each_readme_command_runs_as_printed(
    line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # games saved by default
    _prepare(line, tmp_path)
    result = _run_inside(line, tmp_path)
    assert result.exit_code == 0, result.output
    assert "error:" not in result.output and "Traceback" not in result.output, result.output
    _keep_made(line, tmp_path)


@pytest.mark.slow
def test_the_ray_cluster_line(tmp_path: Path) -> None:
    """``--ray-address auto`` joins the Ray cluster this machine belongs to: without the extra
    it says how to install it, without a cluster that there is none, in one line each."""
    import importlib.util

    from tests.cli.helpers import assert_clean_error

    line = _line("--ray-address auto")
    result = _run_inside(line, tmp_path)
    if importlib.util.find_spec("ray") is None:
        assert_clean_error(result, 2, "pip install 'pocketarena[ray]'")
    elif result.exit_code != 0:
        # No cluster here, or (tests running side by side) another test's Ray instance was found
        # and stopped under this run: either is said in one line, after the progress bar.
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        errors = [x for x in result.output.splitlines() if x.startswith("error: ")]
        assert len(errors) == 1, result.output
        assert any(
            said in errors[0]
            for said in (
                "cannot reach the Ray cluster at 'auto'",
                "lost the Ray cluster at 'auto' during the run",
            )
        ), errors[0]


def _serve_and_stop(args: list[str], ready: str, env: dict[str, str], cwd: Path) -> str:
    """Start the program, wait for ``ready`` in what it prints, press Ctrl-C (SIGINT), and
    return its output, having checked that it stopped cleanly."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "pocketarena", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines: list[str] = []
    assert proc.stdout is not None
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout or []), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while ready not in "".join(lines):
            assert proc.poll() is None, "".join(lines)
            assert time.monotonic() < deadline, "".join(lines)
            time.sleep(0.2)
        time.sleep(1)  # serving: the start-up line comes before the socket opens
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:  # say how far the stop got (which lines it printed)
            pytest.fail(f"still running 60 s after Ctrl-C; it printed:\n{''.join(lines)}")
        reader.join(timeout=10)
        seen = "".join(lines)
        assert code in (0, 130), seen
        assert "Traceback" not in seen, seen
        return seen
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.slow
@pytest.mark.parametrize(
    "part",
    [
        "serve --port",
        "serve --trusted",
        "serve --database-url",
        "worker",
    ],
)
def test_the_servers_in_the_readme_start_and_stop(
    part: str, tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    from sqlalchemy import create_engine, text

    from tests import services

    line = _line(f"pocketarena {part}")
    for big, small in SMALLER.items():
        line = line.replace(big, small)
    line = line.replace(SERVICES[0], postgres_url).replace(SERVICES[1], redis_url)
    words = shlex.split(line)[1:]
    port = str(services.free_port())
    if "--port" in words:
        words[words.index("--port") + 1] = port
    elif words[0] == "serve":
        words += ["--port", port]
    schema = f"readme_{uuid.uuid4().hex[:8]}"
    with services.redis_prefix(redis_url, "test-readme") as prefix:
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT / "src"),
            "POCKETARENA_DATA_DIR": str(tmp_path),
            "POCKETARENA_REDIS_PREFIX": prefix,
        }
        if postgres_url in words:  # its tables in a schema of this test's own
            env["POCKETARENA_DATABASE_SCHEMA"] = schema
        ready = "Bot worker for the cluster" if words[0] == "worker" else f":{port}"
        try:
            _serve_and_stop(words, ready, env, tmp_path)
        finally:
            engine = create_engine(postgres_url)
            with engine.begin() as conn:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            engine.dispose()


@pytest.mark.slow
@pytest.mark.parametrize("script", ["benchmarks/engine.py", "scripts/probe_hardening.py"])
def test_the_python_lines_run(script: str, tmp_path: Path) -> None:
    """The benchmark at its smallest, writing to a copy (as printed it rewrites
    docs/benchmarks.md); the probes against a throwaway server, as printed."""
    line = _line(f"python {script}")
    assert line == f"python {script}"
    extra = ["--quick", "--seconds", "0.01", "--no-anchors", "--output", str(tmp_path / "b.md")]
    if "probe" in script:
        extra = ["--quick"]  # every probe, smaller: 20 s instead of 70 in a busy suite
    args = [sys.executable, str(ROOT / script), *extra]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "Traceback" not in done.stderr


# -- install hints --------------------------------------------------------------------------
def test_install_hints_say_both_forms() -> None:
    """Every hint to install an extra says the released form and the one from a clone."""
    hint = re.compile(r"pip install 'pocketarena\[(\w+)\]'")
    seen = 0
    for path in (ROOT / "src" / "pocketarena").rglob("*.py"):
        for line_no, line in enumerate(path.read_text().splitlines(), 1):
            found = hint.search(line)
            if found is None or line.lstrip().startswith(("#", '"""')) or "``" in line:
                continue  # docstrings and comments name the extra; messages are read by people
            seen += 1
            nearby = "\n".join(path.read_text().splitlines()[line_no - 1 : line_no + 2])
            assert f"pip install -e '.[{found.group(1)}]'" in nearby, f"{path}:{line_no}"
    assert seen >= 3


def test_research_lists_the_jax_extra_one_way() -> None:
    import tomllib

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]["jax"]
    names = [re.split(r"[<>=\[]", spec)[0] for spec in extra]
    research = (ROOT / "docs" / "research.md").read_text()
    lines = {line.strip() for line in research.splitlines() if "[jax]" in line and "pip" in line}
    assert len(lines) == 1, lines
    assert lines.pop().split("# ")[1].startswith(", ".join(names))


def test_contributing_installs_what_the_tests_need() -> None:
    """The same extras as the README's test command (which CI runs)."""
    readme = re.search(r"pip install -q -e '(\.\[[^']+\])'", README.read_text())
    contributing = re.search(
        r"pip install -q -e '(\.\[[^']+\])'", (ROOT / "docs" / "contributing.md").read_text()
    )
    assert readme and contributing
    assert contributing.group(1) == readme.group(1)
