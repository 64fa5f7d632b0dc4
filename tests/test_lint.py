"""The code stays as STYLE asks: ruff-clean and ruff-formatted, and mypy --strict clean on the
engine, the bots and the research interfaces (the files pyproject.toml lists)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATHS = ["src", "tests", "benchmarks", "scripts"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_finds_nothing() -> None:
    done = run("ruff", "check", *PATHS)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_kept() -> None:
    done = run("ruff", "format", "--check", *PATHS)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_on_the_engine() -> None:
    done = run("mypy", "--cache-dir", str(ROOT / ".mypy_cache"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout
