"""The engine benchmark runs (``--quick``, a tiny budget) and writes only its own section.
Nothing here times anything: speed is the benchmark's business, not a test's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pocketarena as pa

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "engine.py"
REAL_GAMES = dict(pa.GAMES)  # taken before the tests register Coin Race in this process


def test_quick_benchmark_writes_its_section(tmp_path: Path) -> None:
    output = tmp_path / "benchmarks.md"
    output.write_text("# Benchmarks\n\nSomeone else's section.\n")
    command = [sys.executable, str(SCRIPT), "--quick", "--seconds", "0.01", "--output", str(output)]
    for _ in range(2):  # the second run replaces the section instead of adding one
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert done.returncode == 0, done.stderr
    text = output.read_text()
    assert text.startswith("# Benchmarks\n\nSomeone else's section.\n")
    assert text.count("<!-- engine:start -->") == 1 and text.count("<!-- engine:end -->") == 1
    section = text.split("<!-- engine:start -->")[1].split("<!-- engine:end -->")[0]
    assert "- Command: `python benchmarks/engine.py --quick --seconds 0.01 --output" in section
    assert "- Machine: " in section and "- Date: " in section and "pinned to CPU" in section
    assert "Wallet Battles >= 40,000" in section
    for game_id, cls in REAL_GAMES.items():
        for options in cls.VARIANTS:
            label = ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items()) or "default"
            assert f"| {game_id} | {label} |" in section
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        assert "Anchors missing: OpenSpiel is not installed" in section
    else:
        for anchor in ("Python tic-tac-toe", "C++ tic-tac-toe", "C++ backgammon"):
            assert f"| OpenSpiel {anchor} |" in section


def test_quick_benchmark_writes_nothing_by_default(tmp_path: Path) -> None:
    command = [
        sys.executable,
        str(SCRIPT),
        "--quick",
        "--seconds",
        "0.01",
        "--no-anchors",
        "--games",
        "nope",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2 and "unknown game 'nope'" in done.stdout


def test_startup_benchmark_writes_its_section(tmp_path: Path) -> None:
    """benchmarks/startup.py runs each command and a server once and writes only its section,
    every figure beside the interpreter's start."""
    output = tmp_path / "benchmarks.md"
    output.write_text("# Benchmarks\n\nSomeone else's section.\n")
    script = ROOT / "benchmarks" / "startup.py"
    command = [sys.executable, str(script), "--runs", "1", "--write", "--output", str(output)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    text = output.read_text()
    assert text.startswith("# Benchmarks\n\nSomeone else's section.\n")
    section = text.split("<!-- startup:start -->")[1].split("<!-- startup:end -->")[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[0] == "| what starts | CPU s (median) | runs | x interpreter start |"
    labels = [row.split(" | ")[0] for row in rows[1:]]
    assert labels[0].startswith("| interpreter start") and rows[1].endswith("| 1 | 1.0 |")
    assert any("`pocketarena --help`" in label for label in labels)
    assert any("`pocketarena serve`" in label for label in labels)
    for row in rows[1:]:
        assert float(row.split(" | ")[1]) > 0, row
    assert "modules of the package have bytecode" in section
    bad = subprocess.run([*command[:2], "--runs", "0"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "--runs must be at least 1" in bad.stderr


def test_the_per_test_cpu_plugin_counts_a_subprocess_and_sums_by_file(tmp_path: Path) -> None:
    """benchmarks/cpu_per_test.py as a pytest plugin writes a line a test, with the CPU of a
    process the test started; its summary adds them up by file, the costliest first."""
    tests = tmp_path / "t"
    tests.mkdir()
    spin = "import time\\nend = time.process_time() + 0.3\\nwhile time.process_time() < end: pass"
    (tests / "test_spin.py").write_text(
        "import subprocess, sys\n\n"
        "def test_spin():\n"
        f"    subprocess.run([sys.executable, '-c', '{spin}'], check=True)\n\n"
        "def test_idle():\n    pass\n"
    )
    (tests / "test_other.py").write_text("def test_nothing():\n    pass\n")
    out = tmp_path / "cpu"
    env = {**os.environ, "CPUPROF_DIR": str(out), "PYTHONPATH": str(ROOT / "benchmarks")}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "cpu_per_test", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [*command, str(tests)], capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [json.loads(x) for f in out.glob("cpu-*.jsonl") for x in f.read_text().splitlines()]
    spun = next(x for x in lines if x["id"].endswith("test_spin"))
    assert len(lines) == 3 and spun["children"] >= 0.25, lines
    if spun["tree"] is not None:  # root with cgroup-v1 cpuacct, as on this project's machines
        assert spun["tree"] >= 0.25, spun
    script = ROOT / "benchmarks" / "cpu_per_test.py"
    summary = subprocess.run(
        [sys.executable, str(script), str(out)], capture_output=True, text=True
    )
    assert summary.returncode == 0, summary.stderr
    rows = summary.stdout.splitlines()
    assert rows[0].startswith("2 files: ") and rows[2].endswith("test_spin.py"), rows
    empty = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "t")], capture_output=True, text=True
    )
    assert empty.returncode == 1 and "no cpu-*.jsonl" in empty.stdout
