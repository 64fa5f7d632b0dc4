"""What starting the program costs: CPU seconds (user + system, the process and the children it
waited for) of the commands a user types, each beside a bare interpreter's start in the same run.

Every command a user types, every server and bot worker a cluster starts, and every process the
tests start pays this, so it is measured as a user runs it: ``python -m pocketarena ARGS`` in a
fresh process. ``serve`` is timed from its start until ``/healthz`` answers, then stopped with
SIGTERM (its bot workers included). Medians of ``--runs`` runs, taken in turn (one round runs
every command once) so a busy moment falls on all of them alike. The package's bytecode is
compiled first, as a user's first run writes it (``--as-is`` measures the tree as it is: with
PYTHONDONTWRITEBYTECODE set nothing writes it, and every start compiles the sources again).

    python benchmarks/startup.py --runs 7 --write
"""

from __future__ import annotations

import argparse
import compileall
import datetime as dt
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import markdown_section  # benchmarks/markdown_section.py, beside this script
from server_load import free_port  # beside this script too

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "benchmarks.md"
START = "<!-- startup:start -->"
END = "<!-- startup:end -->"
PACKAGE = ROOT / "src" / "pocketarena"

# (label, arguments after ``python``); the first is the anchor every other is divided by
COMMANDS: list[tuple[str, list[str]]] = [
    ("interpreter start (`python -c pass`, the anchor)", ["-c", "pass"]),
    ("`import pocketarena` (the engine)", ["-c", "import pocketarena"]),
    ("`pocketarena --version`", ["-m", "pocketarena", "--version"]),
    ("`pocketarena --help`", ["-m", "pocketarena", "--help"]),
    ("`pocketarena games`", ["-m", "pocketarena", "games"]),
    ("`pocketarena rules stack-a-cash`", ["-m", "pocketarena", "rules", "stack-a-cash"]),
]
SERVE = "`pocketarena serve` until `/healthz` answers, then stopped"


def cpu_of(argv: list[str], env: dict[str, str]) -> float:
    """CPU seconds of one run of ``python ARGV`` to its end."""
    proc = subprocess.Popen(
        [sys.executable, *argv], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"python {' '.join(argv)} failed with exit status {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def serve_cpu(env: dict[str, str], timeout: float = 120.0) -> float:
    """CPU seconds of a server on a fresh SQLite file from its start until it answers, and its
    stop."""
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        argv = ["-m", "pocketarena", "serve", "--port", str(port), "--log-level", "warning"]
        argv += ["--database-url", f"sqlite:///{folder}/startup.db"]
        proc = subprocess.Popen(
            [sys.executable, *argv], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    raise SystemExit("the server did not start") from None
                time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0
        return usage.ru_utime + usage.ru_stime


def bytecode_state() -> str:
    """Whether the package's modules have their bytecode beside them (Python compiles a module
    on every import that finds none, and writes none where PYTHONDONTWRITEBYTECODE is set)."""
    sources = list(PACKAGE.rglob("*.py"))
    compiled = sum(
        1
        for s in sources
        if any((s.parent / "__pycache__").glob(f"{s.stem}.{sys.implementation.cache_tag}*.pyc"))
    )
    return f"{compiled} of {len(sources)} modules of the package have bytecode"


def section(rows: list[tuple[str, list[float]]], runs: int, command: str, note: str) -> str:
    anchor = statistics.median(rows[0][1])
    lines = [
        START,
        "## Starting the program: CPU a command costs before it does anything",
        "",
        f"- Command: `{command}`",
        f"- Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; load average {os.getloadavg()[0]:.1f} at the end",
        f"- Date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC; {note}",
        f"- Medians of {runs} runs, CPU seconds (user + system), each command a fresh process;"
        " the ratio is to the bare interpreter's start measured in the same rounds.",
        "",
        "| what starts | CPU s (median) | runs | x interpreter start |",
        "| --- | ---: | ---: | ---: |",
    ]
    for label, xs in rows:
        median = statistics.median(xs)
        lines.append(f"| {label} | {median:.3f} | {len(xs)} | {median / anchor:.1f} |")
    lines.append(END)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (default 5)")
    parser.add_argument("--no-serve", action="store_true", help="leave the server out")
    parser.add_argument("--as-is", action="store_true", help="do not compile the bytecode first")
    parser.add_argument("--write", action="store_true", help="write the section into --output")
    parser.add_argument("--output", type=Path, default=DOCS, help="default docs/benchmarks.md")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if not args.as_is:
        compileall.compile_dir(PACKAGE, quiet=2)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    measured: dict[str, list[float]] = {label: [] for label, _ in COMMANDS}
    if not args.no_serve:
        measured[SERVE] = []
    for _ in range(args.runs):
        for label, python_args in COMMANDS:
            measured[label].append(cpu_of(python_args, env))
        if not args.no_serve:
            measured[SERVE].append(serve_cpu(env))
    rows = list(measured.items())
    for label, xs in rows:
        print(f"{statistics.median(xs):7.3f} s  {label}")
    if args.write:
        command = "python benchmarks/startup.py " + " ".join(sys.argv[1:] if argv is None else argv)
        text = section(rows, args.runs, command.strip(), bytecode_state())
        markdown_section.write_section(args.output, text, START, END)
        print(f"wrote the startup section of {args.output}")
    return 0


if __name__ == "__main__":
    markdown_section.run(main)
