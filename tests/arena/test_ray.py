"""Arena and balance studies as Ray tasks: the same results as the local pool, a clear message
without Ray, and Ctrl-C without a traceback from any worker."""

from __future__ import annotations

import importlib.util
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pocketarena.records import load
from tests.arena.interrupt import interrupt_arena
from tests.cli.helpers import assert_clean_error, run
from tests.services import unavailable

INSTALL = "pip install 'pocketarena[ray]'"


@pytest.fixture
def ray_installed() -> None:
    if importlib.util.find_spec("ray") is None:
        unavailable(f"Ray is not installed ({INSTALL})")


@pytest.fixture
def ray_running(ray_installed: None) -> Iterator[None]:
    """One Ray instance for the commands of a test (they use it rather than start their own,
    as they would inside a Ray job): starting Ray takes seconds."""
    import ray

    ray.init(
        num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING
    )
    try:
        yield
    finally:
        ray.shutdown()


def outcome(data: dict[str, Any]) -> Any:
    """A report without what depends on the machine (time, speed, processes, dates)."""
    drop = {"seconds", "jobs", "started", "finished", "seconds_per_move", "think", "date"}
    if isinstance(data, dict):
        return {k: outcome(v) for k, v in data.items() if k not in drop}
    if isinstance(data, list):
        return [outcome(v) for v in data]
    return data


def records(folder: Path) -> dict[str, tuple[Any, ...]]:
    """Each saved game: its moves, result and seed (not when it was played)."""
    games = {p.name: load(p) for p in sorted((folder / "records").iterdir())}
    return {name: (r.moves, r.result, r.scores, r.seed) for name, r in games.items()}


def test_ray_plays_the_same_games_as_the_local_pool(tmp_path: Path, ray_running: None) -> None:
    common = ["--bots", "random,greedy,mcts:30", "--games", "2", "--seed", "11", "--no-plots"]
    local = run("arena", "coin-age", *common, "--jobs", "1", "--out", str(tmp_path / "local"))
    assert local.exit_code == 0, local.output
    ray = run("arena", "coin-age", *common, "--jobs", "2", "--ray", "--out", str(tmp_path / "ray"))
    assert ray.exit_code == 0, ray.output
    summary = [json.loads((tmp_path / d / "summary.json").read_text()) for d in ("local", "ray")]
    assert summary[1]["games"] == 6
    assert outcome(summary[0]) == outcome(summary[1])
    assert records(tmp_path / "local") == records(tmp_path / "ray")

    # A Swiss: each round paired from the last one's results, the same on Ray.
    common = ["--kind", "swiss", "--rounds", "3", "--bots", "random,greedy,easy,mcts:30,mcts:20"]
    local = run("arena", "stack-a-cash", *common, "--jobs", "1", "--out", str(tmp_path / "sl"))
    assert local.exit_code == 0, local.output
    ray = run(
        "arena", "stack-a-cash", *common, "--ray", "--jobs", "2", "--out", str(tmp_path / "sr")
    )
    assert ray.exit_code == 0, ray.output
    swiss = [json.loads((tmp_path / d / "summary.json").read_text()) for d in ("sl", "sr")]
    assert swiss[0]["games"] == 6 and outcome(swiss[0]) == outcome(swiss[1])

    common = ["--bot", "greedy", "--games", "3", "--seed", "4", "--no-plots", "--no-records"]
    local = run("balance", "stack-a-cash", *common, "--jobs", "1", "--out", str(tmp_path / "bl"))
    assert local.exit_code == 0, local.output
    ray = run(
        "balance", "stack-a-cash", *common, "--ray", "--jobs", "2", "--out", str(tmp_path / "br")
    )
    assert ray.exit_code == 0, ray.output
    balance = [json.loads((tmp_path / d / "balance.json").read_text()) for d in ("bl", "br")]
    assert len(balance[0]["variants"]) == 2
    assert outcome(balance[0]) == outcome(balance[1])


@pytest.mark.parametrize("command", ["arena", "balance"])
def test_without_ray_the_message_says_how_to_install_it(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a)
    )
    out = tmp_path / "x"
    for flags in (["--ray"], ["--ray-address", "10.0.0.5:6379"]):
        result = run(command, "stack-a-cash", *flags, "--out", str(out))
        assert_clean_error(result, 2, "Ray is not installed", INSTALL)
    assert not out.exists()
    result = run(command, "stack-a-cash", "--ray-address", " ", "--out", str(out))
    assert_clean_error(result, 2, "--ray-address needs an address")


def test_ctrl_c_stops_the_ray_workers_without_a_traceback(
    tmp_path: Path, ray_installed: None
) -> None:
    interrupt_arena(tmp_path / "run", "--ray")


def test_an_address_nobody_answers_at_is_refused_at_once(ray_installed: None) -> None:
    import socket

    import pocketarena as pa
    from pocketarena.arena import make_tasks, run_tasks
    from pocketarena.arena.runner import RayUnavailable

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    tasks = make_tasks(pa.load("stack-a-cash"), ["random", "greedy"], games=2, seed=1)
    with pytest.raises(RayUnavailable, match="cannot reach the Ray cluster at '127.0.0.1:"):
        run_tasks(tasks, ray=f"127.0.0.1:{port}")
    with pytest.raises(RayUnavailable, match="cannot read the Ray address"):
        run_tasks(tasks, ray="nowhere")


def test_a_cluster_lost_during_the_run_is_said_in_one_line(
    tmp_path: Path, ray_running: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cluster whose head stops under a run (the raylet gone: what ``ray.get`` raises then)
    ends the command with one error line, not Ray's traceback."""
    import ray
    import ray.exceptions

    real_get = ray.get
    answered: list[object] = []

    def get_until_the_raylet_dies(ref: object, *args: object, **kwargs: object) -> object:
        if answered:
            raise ray.exceptions.LocalRayletDiedError()
        answered.append(ref)
        return real_get(ref, *args, **kwargs)

    monkeypatch.setattr(ray, "get", get_until_the_raylet_dies)
    out = tmp_path / "run"
    result = run("arena", "stack-a-cash", "--games", "4", "--ray", "--jobs", "2", "--out", str(out))
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    errors = [x for x in result.output.splitlines() if x.startswith("error: ")]
    assert len(errors) == 1, result.output
    assert "lost the Ray cluster at 'local' during the run" in errors[0], errors[0]
    assert "raylet died" in errors[0], errors[0]
