"""Ctrl-C, the same everywhere: one line saying what was kept, exit 130, never a traceback and
never silence. Each real-signal test restores SIGINT's default in the child before it starts, so
it holds even when the test run itself was started with SIGINT ignored (as under ``nohup`` or a
CI runner), where Python would otherwise inherit "ignore" and the key would do nothing."""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import run

ROOT = Path(__file__).resolve().parents[2]
STYLES = r"(?:\x1b\[[0-9;?]*[A-Za-z])*"


def default_ctrl_c() -> None:
    """In the child, before it becomes Python: SIGINT does its default again, so Python
    installs its KeyboardInterrupt handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def press_ctrl_c_after(args: list[str], started: str, cwd: Path = ROOT) -> str:
    """Run ``args`` in a terminal, press Ctrl-C once ``started`` (a pattern) shows, and return
    what it printed, having checked it stopped with 130 and no traceback."""
    import pexpect

    child = pexpect.spawn(
        sys.executable,
        args,
        cwd=str(cwd),
        env={**os.environ, "COLUMNS": "100", "PYTHONPATH": str(ROOT / "src")},
        encoding="utf-8",
        preexec_fn=default_ctrl_c,
    )
    child.expect(started, timeout=240)  # slow only on a crowded machine
    child.sendintr()
    stopped = child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=60)
    if stopped == 1:
        child.terminate(force=True)
        pytest.fail(f"no stop within 60 s of Ctrl-C; it showed: {child.before[-2000:]!r}")
    child.close()
    text = (child.after if isinstance(child.after, str) else "") + (child.before or "")
    assert child.exitstatus == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    return text


@pytest.fixture
def sigint_ignored_here() -> object:
    """The test process itself ignores SIGINT (and so would its children, left alone)."""
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.slow
def test_balance_says_what_it_kept(tmp_path: Path, sigint_ignored_here: object) -> None:
    args = ["-m", "pocketarena", "balance", "stack-a-cash", "--bot", "mcts:20000", "-n", "4"]
    args += ["--jobs", "2", "--no-plots", "--out", str(tmp_path / "b")]
    text = press_ctrl_c_after(args, rf"0{STYLES}/{STYLES}\d+{STYLES} {STYLES}games")
    assert "Interrupted: " in text and "games finished; nothing was saved" in text, text
    assert not (tmp_path / "b").exists()


@pytest.mark.slow
def test_analyze_says_what_it_kept(tmp_path: Path, sigint_ignored_here: object) -> None:
    record = tmp_path / "g.txt"
    record.write_text('[Game "stack-a-cash"]\n\nplace L b2\nplace M a1\nplace S c3\n*\n')
    args = ["-m", "pocketarena", "analyze", str(record), "--bot", "mcts:2000000"]
    args += ["--out", str(tmp_path / "notes.txt")]
    text = press_ctrl_c_after(args, "Analysing")
    assert "Interrupted: 0 of 3 decisions judged; nothing was saved." in text, text
    assert not (tmp_path / "notes.txt").exists()


@pytest.mark.slow
def test_a_benchmark_says_what_it_kept(tmp_path: Path, sigint_ignored_here: object) -> None:
    output = tmp_path / "benchmarks.md"
    args = [str(ROOT / "benchmarks" / "engine.py"), "--quick", "--seconds", "60"]
    args += ["--no-anchors", "--output", str(output)]
    text = press_ctrl_c_after(args, "Ctrl-C stops")
    assert "Interrupted: nothing was written" in text, text
    assert not output.exists()


def test_every_benchmark_stops_the_same_way() -> None:
    """Each script runs its main through ``markdown_section.run`` (the one Ctrl-C handling)."""
    scripts = [p for p in (ROOT / "benchmarks").glob("*.py") if p.name != "markdown_section.py"]
    assert len(scripts) >= 10
    for script in scripts:
        tree = ast.parse(script.read_text())
        main_block = [n for n in tree.body if isinstance(n, ast.If)][-1]
        assert "markdown_section.run(main)" in ast.unparse(main_block), script.name


def test_commands_that_keep_nothing_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C in any command that does not handle it itself: the same line, exit 130."""
    from pocketarena.cli import rules

    def stopped(_key: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(rules, "rules_text", stopped)
    result = run("rules", "flipwars")
    assert result.exit_code == 130, result.output
    assert result.output == "Interrupted: nothing was saved.\n"


def test_arena_with_nothing_finished(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from pocketarena.arena import runner

    def stop(_task: runner.GameTask) -> runner.GameResult:
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "play_task", stop)
    out = tmp_path / "run"
    args = ["--bots", "random,greedy", "-n", "2", "--jobs", "1", "--no-plots", "--out", str(out)]
    result = run("arena", "stack-a-cash", *args)
    assert result.exit_code == 130, result.output
    assert "Interrupted: 0 of 2 games finished; nothing was saved." in result.output
    assert not (out / "summary.json").exists()


def test_analyze_words_what_it_kept_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The kept part of analyze's Ctrl-C line is a catalog text worded once, as every
    command's: here each wording is marked «…», and the line has one mark inside the other."""
    from pocketarena import i18n
    from pocketarena.cli import analyze

    def stop(*_args: object, **_kwargs: object) -> object:
        raise KeyboardInterrupt

    worded = i18n.ENGINE.gettext
    monkeypatch.setattr(analyze, "analyze", stop)
    monkeypatch.setattr(
        i18n.ENGINE, "gettext", lambda text, /, **params: f"«{worded(text, **params)}»"
    )
    record = tmp_path / "g.txt"
    record.write_text('[Game "stack-a-cash"]\n\nplace L b2\nplace M a1\nplace S c3\n*\n')
    result = run("analyze", str(record), "--bot", "mcts:10", "--out", str(tmp_path / "n.txt"))
    assert result.exit_code == 130, result.output
    line = "«Interrupted: «0 of 3 decisions judged; nothing was saved.»»"
    assert line in result.output.splitlines(), result.output
    assert not (tmp_path / "n.txt").exists()


# Starts `pocketarena serve` with a Ctrl-C pressed from inside a garbage-collector callback while
# the app is built (before Uvicorn listens for signals): Python's own SIGINT handler raised
# KeyboardInterrupt inside the callback, where the interpreter prints "Exception ignored" and
# carries on, and the server then ran until killed.
CTRL_C_BEFORE_UVICORN_LISTENS = r"""
import os, signal, sys, weakref
from pocketarena.cli import serve

import pocketarena.server.main as main

real = main.create_app
class Token:
    pass

def create_app(settings):
    app = real(settings)
    token = Token()
    # The callback runs inside gc.collect(); the signal arrives there, as it did in the suite.
    # The callback runs as the token is freed, and the signal's handler runs inside it, as in
    # the suite (there in SQLAlchemy's callback, during serve's gc.collect()).
    keep = weakref.ref(token, lambda _ref: os.kill(os.getpid(), signal.SIGINT))
    del token
    return app

main.create_app = create_app
serve._serve("127.0.0.1", int(sys.argv[1]), None, None, 1, None, "warning")
print("stopped", flush=True)
"""


def test_a_ctrl_c_before_the_server_listens_for_it_is_not_lost(tmp_path: Path) -> None:
    """The README's server sometimes outlived Ctrl-C in a busy suite (2 of 16 runs): the Ctrl-C
    came while the app was being built, before Uvicorn took over SIGINT, and landed in a
    garbage-collector callback, where Python drops exceptions. A Ctrl-C that early now stops
    the server as soon as it has started, and leaves no traceback."""
    from tests import services

    done = _run_script(CTRL_C_BEFORE_UVICORN_LISTENS, str(services.free_port()), cwd=tmp_path)
    assert done.stdout.strip().endswith("stopped"), done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert "KeyboardInterrupt" not in done.stdout + done.stderr, done.stdout + done.stderr


def _run_script(script: str, *args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """A Python ``script`` run with ``args``, SIGINT's default restored in it, its data folder
    ``cwd``, its output captured; 90 s at most."""
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=cwd,
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT / "src"),
            "POCKETARENA_DATA_DIR": str(cwd),
            **env,
        },
        capture_output=True,
        text=True,
        timeout=90,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


# The same for `pocketarena worker`: the Ctrl-C comes from inside a finalizer callback after the
# start line, while the worker's code is imported (before its event loop listens for signals).
CTRL_C_BEFORE_THE_WORKER_LISTENS = r"""
import os, signal, sys, weakref
from pocketarena.cli import serve

class Token:
    pass

class PressWhileImporting:
    def find_spec(self, name, path=None, target=None):
        if name == "pocketarena.server.worker":
            token = Token()
            keep = weakref.ref(token, lambda _ref: os.kill(os.getpid(), signal.SIGINT))
            del token
        return None  # the import itself goes on as usual

sys.meta_path.insert(0, PressWhileImporting())
try:
    serve.worker(database_url=None, redis_url=sys.argv[1], bots=1, health_port=None)
except BaseException as e:  # typer.Exit(130) or a clean return
    print("exit", getattr(e, "exit_code", e))
print("stopped", flush=True)
"""


def test_a_ctrl_c_before_the_worker_listens_for_it_is_not_lost(
    tmp_path: Path, redis_url: str
) -> None:
    """As for serve: the README's worker outlived Ctrl-C in a busy suite after session 15's
    fix, once in a full run; its start line comes before heavy imports and the event loop."""
    from tests import services

    with services.redis_prefix(redis_url, "test-interrupt") as prefix:
        done = _run_script(
            CTRL_C_BEFORE_THE_WORKER_LISTENS,
            redis_url,
            cwd=tmp_path,
            POCKETARENA_REDIS_PREFIX=prefix,
        )
    assert done.stdout.strip().endswith("stopped"), done.stdout + done.stderr
    assert "KeyboardInterrupt" not in done.stdout + done.stderr, done.stdout + done.stderr
