"""The README's Python examples run as written (doctest), and .ci/run runs its test command."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

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
