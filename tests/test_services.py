"""The services the tests use are there on a bare machine: with nothing listening at the
configured addresses, the database tests run against a PostgreSQL the tests start, and the
Redis fixture gives a Redis the tests start (see tests/services.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import redis

from tests import services

ROOT = Path(__file__).resolve().parents[1]
DATABASE_TESTS = "tests/server/test_storage.py"


def test_redis_url_gives_a_redis_of_our_own_keys(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    key = f"pocketarena-test:{uuid.uuid4().hex}"
    try:
        client.set(key, "heads", ex=60)
        assert client.get(key) == b"heads"
    finally:
        client.delete(key)
        client.close()


def bare_machine() -> tuple[list[str], dict[str, str]]:
    """How to run a command as on a fresh machine: no POCKETARENA_* settings, and a network of
    its own with only the loopback (a new network namespace, so nothing listens at
    127.0.0.1:5432 or :6379). Where a namespace cannot be made (unshare and ip need root), the
    configured addresses are closed ports instead."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POCKETARENA_", "PYTEST_"))}
    prefix = ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$@"', "bare"]
    try:
        probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=10).returncode
    except (OSError, subprocess.TimeoutExpired):
        probe = 1
    if probe == 0:
        return prefix, env
    env["POCKETARENA_TEST_DATABASE_URL"] = (
        f"postgresql+psycopg://postgres@127.0.0.1:{services.free_port()}/test"
    )
    env["POCKETARENA_TEST_REDIS_URL"] = f"redis://127.0.0.1:{services.free_port()}/0"
    return [], env


def test_on_a_bare_machine_the_database_tests_run_on_a_server_they_start(tmp_path: Path) -> None:
    """With nothing answering at the configured addresses, the PostgreSQL tests and the Redis
    fixture still run, two test processes sharing one throwaway server of each kind."""
    prefix, env = bare_machine()
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "-n", "2"]
        + ["--basetemp", str(tmp_path / "inner"), "-k", "postgresql or redis", DATABASE_TESTS]
        + ["tests/test_services.py::test_redis_url_gives_a_redis_of_our_own_keys"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    out = done.stdout
    assert done.returncode == 0, out[-4000:] + done.stderr[-2000:]
    assert "PostgreSQL: a throwaway server" in out and "Redis: a throwaway server" in out
    passed = re.search(r"(\d+) passed", out)
    assert passed and int(passed.group(1)) >= 5, out[-2000:]
    assert "skipped" not in out


@pytest.mark.parametrize("ci", [False, True])
def test_without_a_browser_the_browser_tests_say_so(tmp_path: Path, ci: bool) -> None:
    """No browser: one line saying so and a skip; in CI a failure, never a skip."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_") and k != "CI"}
    env["POCKETARENA_CHROMIUM"] = str(tmp_path / "no-such-chromium")
    if ci:
        env["CI"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "-p", "no:xdist"]
        + [
            "--basetemp",
            str(tmp_path / "inner"),
            "tests/server/test_browser.py::test_coins_land_when_a_person_slaps",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    out = done.stdout
    reason = [line for line in out.splitlines() if "no Chromium found" in line]
    if ci:
        assert done.returncode != 0 and "1 error" in out, out[-3000:]
        assert "in CI every test must run" in out
    else:
        assert done.returncode == 0 and "1 skipped" in out, out[-3000:]
        assert len(reason) == 1 and reason[0].startswith("SKIPPED"), out[-3000:]


def test_ci_runs_with_ci_set() -> None:
    """.ci/run sets CI, so a missing browser or service fails there instead of skipping."""
    assert "export CI=1" in (ROOT / ".ci" / "run").read_text().splitlines()
