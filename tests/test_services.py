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

import redis

from tests import services

ROOT = Path(__file__).resolve().parents[1]
DATABASE_TESTS = "tests/server/test_storage.py"
# A command's prefix that runs it in an empty network namespace with the loopback up.
BARE = ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$@"', "bare"]


def test_redis_url_gives_a_redis_of_our_own_keys(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    key = f"pocketarena-test:{uuid.uuid4().hex}"
    try:
        client.set(key, "heads", ex=60)
        assert client.get(key) == b"heads"
    finally:
        client.delete(key)
        client.close()


def run_tests(tmp_path: Path, *args: str, env: dict[str, str], prefix: list[str]) -> str:
    """Run pytest in a fresh process; its output (the test must pass there)."""
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs"]
        + ["--basetemp", str(tmp_path / "inner"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    return done.stdout


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("POCKETARENA_")}
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("PYTEST_XDIST_WORKER_COUNT", None)
    return env


def test_on_a_bare_machine_the_database_tests_run_on_a_server_they_start(tmp_path: Path) -> None:
    """No POCKETARENA_TEST_* settings and a network of its own with only the loopback (a new
    network namespace: nothing listens at 127.0.0.1:5432 or :6379), as on a fresh machine: the
    PostgreSQL tests and the Redis fixture still run, two test processes sharing one throwaway
    server of each kind."""
    try:
        probe = subprocess.run([*BARE, "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as e:
        probe = subprocess.CompletedProcess([], 1, b"", str(e).encode())
    if probe.returncode != 0:
        services.unavailable(
            "cannot make an empty network namespace here (unshare -n and ip need root): "
            + probe.stderr.decode(errors="replace").strip()
        )
    out = run_tests(
        tmp_path,
        "-n",
        "2",
        "-k",
        "postgresql or redis",
        DATABASE_TESTS,
        "tests/test_services.py::test_redis_url_gives_a_redis_of_our_own_keys",
        env=clean_env(),
        prefix=BARE,
    )
    assert "PostgreSQL: a throwaway server" in out and "Redis: a throwaway server" in out
    passed = re.search(r"(\d+) passed", out)
    assert passed and int(passed.group(1)) >= 5, out[-2000:]
    assert "skipped" not in out and "error" not in out.lower().split("warnings summary")[0]


def test_a_configured_database_nobody_answers_at_is_replaced(tmp_path: Path) -> None:
    """The same without a network namespace: the configured address is a closed port."""
    env = clean_env()
    env["POCKETARENA_TEST_DATABASE_URL"] = (
        f"postgresql+psycopg://postgres@127.0.0.1:{services.free_port()}/test"
    )
    out = run_tests(
        tmp_path,
        DATABASE_TESTS,
        "-k",
        "postgresql and guests_are_created_once",
        env=env,
        prefix=[],
    )
    assert "PostgreSQL: a throwaway server" in out and "1 passed" in out


def test_ci_runs_with_ci_set() -> None:
    """.ci/run sets CI, so a missing browser or service fails there instead of skipping."""
    assert "export CI=1" in (ROOT / ".ci" / "run").read_text().splitlines()
