"""Where the test run's CPU goes: a pytest plugin that writes each test's CPU seconds, and a
summary of them by file.

    CPUPROF_DIR=/tmp/cpu PYTHONPATH=benchmarks .venv/bin/python -m pytest -n 2 -p cpu_per_test
    python benchmarks/cpu_per_test.py /tmp/cpu            # the files that cost most, first

Each worker writes one JSON line a test: ``self`` (the pytest process, all its threads),
``children`` (subprocesses it waited for), ``tree`` and ``wall``. ``tree`` is what to judge a
test by: the CPU of the worker and of every process it started, Chromium's and the servers'
included, whatever became of their parents (a process killed with -9 leaves its children to
init, and Chromium's renderers are reaped by its own zygote late), read from a cgroup-v1
``cpuacct`` group of the worker's own, so it needs root and that hierarchy
(``/sys/fs/cgroup/cpuacct``); elsewhere it is left out. Servers that ran before the tests
(PostgreSQL, Redis) are not counted.
"""

from __future__ import annotations

import collections
import json
import os
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import markdown_section  # benchmarks/markdown_section.py, beside this script
import pytest

CGROUPS = Path("/sys/fs/cgroup/cpuacct")


class _Recorder:
    def __init__(self) -> None:
        self.out: IO[str] | None = None
        self.group: Path | None = None

    def start(self) -> None:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        folder = Path(os.environ.get("CPUPROF_DIR", "."))
        folder.mkdir(parents=True, exist_ok=True)
        self.out = open(folder / f"cpu-{worker}-{os.getpid()}.jsonl", "a", encoding="utf-8")  # noqa: SIM115
        group = CGROUPS / f"pocketarena_tests_{worker}_{os.getpid()}"
        try:
            group.mkdir(exist_ok=True)
            (group / "cgroup.procs").write_text(str(os.getpid()))
            self.group = group
        except OSError:
            self.group = None  # not root, or no cgroup-v1 cpuacct: no tree figure

    def tree(self) -> float | None:
        if self.group is None:
            return None
        return int((self.group / "cpuacct.usage").read_text()) / 1e9


_recorder = _Recorder()


def _own_and_children() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    if _recorder.out is None:
        _recorder.start()
    own, children = _own_and_children()
    tree, wall = _recorder.tree(), time.monotonic()
    yield
    own_after, children_after = _own_and_children()
    tree_after = _recorder.tree()
    line = {
        "id": item.nodeid,
        "self": own_after - own,
        "children": children_after - children,
        "tree": None if tree is None or tree_after is None else tree_after - tree,
        "wall": time.monotonic() - wall,
    }
    assert _recorder.out is not None
    _recorder.out.write(json.dumps(line) + "\n")
    _recorder.out.flush()


def pytest_unconfigure(config: pytest.Config) -> None:
    """Leave the worker's group (back to the root one) and remove it once nothing is in it."""
    if _recorder.group is None:
        return
    try:
        (CGROUPS / "cgroup.procs").write_text(str(os.getpid()))
        _recorder.group.rmdir()
    except OSError:
        pass  # a process the tests started still runs in it


def by_file(folder: Path) -> list[tuple[str, dict[str, float]]]:
    """Each test file's sums (self, children, tree, wall, tests), the costliest first."""
    sums: dict[str, dict[str, float]] = collections.defaultdict(
        lambda: dict.fromkeys(("self", "children", "tree", "wall", "tests"), 0.0)
    )
    for path in sorted(folder.glob("cpu-*.jsonl")):
        for text in path.read_text(encoding="utf-8").splitlines():
            line: dict[str, Any] = json.loads(text)
            total = sums[line["id"].split("::")[0]]
            for key in ("self", "children", "wall"):
                total[key] += line[key]
            total["tree"] += line["tree"] if line["tree"] is not None else 0.0
            total["tests"] += 1
    return sorted(sums.items(), key=lambda kv: -(kv[1]["tree"] or kv[1]["self"]))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python benchmarks/cpu_per_test.py FOLDER (the CPUPROF_DIR of a run)")
        return 2
    files = by_file(Path(argv[0]))
    if not files:
        print(f"no cpu-*.jsonl in {argv[0]}: run pytest with -p cpu_per_test and CPUPROF_DIR first")
        return 1
    totals = {k: sum(f[k] for _, f in files) for k in ("self", "children", "tree", "wall")}
    print(
        f"{len(files)} files: tree {totals['tree']:.0f} CPU s, pytest {totals['self']:.0f}, "
        f"waited-for children {totals['children']:.0f}, wall {totals['wall']:.0f} s"
    )
    print(f"{'tree':>8} {'pytest+':>8} {'wall':>8} {'tests':>5}  file")
    for name, f in files:
        print(
            f"{f['tree']:8.1f} {f['self'] + f['children']:8.1f} {f['wall']:8.1f} {f['tests']:5.0f}  {name}"
        )
    return 0


if __name__ == "__main__":
    markdown_section.run(main)
