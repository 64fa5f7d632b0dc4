"""The services the tests use are there on a bare machine: with nothing listening at the
configured addresses, the database tests run against a PostgreSQL the tests start, and the
Redis fixture gives a Redis the tests start (see tests/services.py)."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import redis

from tests import services
from tests.conftest import chromium_path
from tests.server import conftest as server_conftest

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


def test_the_defaults_are_the_projects_own() -> None:
    """Not the ``test`` database or Redis database 0 that a person's other work may use."""
    from sqlalchemy.engine import make_url

    assert make_url(services.DEFAULT_POSTGRES).database == "pocketarena_test"
    assert services.DEFAULT_REDIS.rsplit("/", 1)[1] not in ("", "0")


def test_a_missing_test_database_is_created(postgres_url: str) -> None:
    from sqlalchemy.engine import make_url

    name = f"pocketarena_test_{uuid.uuid4().hex[:8]}"
    url = make_url(postgres_url).set(database=name).render_as_string(hide_password=False)
    assert services.postgres_answers(url) is not None
    try:
        services.ensure_database(url)
        assert services.postgres_answers(url) is None
        services.ensure_database(url)  # there already: nothing to do
    finally:
        with services._connect(postgres_url) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def test_keys_under_a_tests_prefix_are_deleted_after_it(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    try:
        with services.redis_prefix(redis_url, "test-services") as prefix:
            client.set(f"{prefix}:a", "1")
            client.hset(f"{prefix}:nodes:b", "x", "1")
            client.set("unrelated-" + prefix, "kept")
        assert list(client.scan_iter(f"{prefix}:*")) == []
        assert client.get("unrelated-" + prefix) == b"kept"
    finally:
        client.delete("unrelated-" + prefix)
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
        f"postgresql+psycopg://postgres@127.0.0.1:{services.free_port()}/pocketarena_test"
    )
    env["POCKETARENA_TEST_REDIS_URL"] = f"redis://127.0.0.1:{services.free_port()}/13"
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


def test_without_a_browser_the_browser_tests_say_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No browser: a skip with one line saying so; in CI a failure, never a skip."""
    monkeypatch.setenv("POCKETARENA_CHROMIUM", str(tmp_path / "no-such-chromium"))
    assert services.chromium() is None
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        chromium_path.__wrapped__()  # type: ignore[attr-defined]
    assert "no Chromium found" in str(skipped.value) and "\n" not in str(skipped.value)
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="in CI every test must run"):
        chromium_path.__wrapped__()  # type: ignore[attr-defined]
    browser_fixture = inspect.signature(server_conftest.browser.__wrapped__)  # type: ignore[attr-defined]
    assert "chromium_path" in browser_fixture.parameters


def test_a_browser_is_found_where_people_have_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "chromium"
    fake.write_text("")
    monkeypatch.setenv("POCKETARENA_CHROMIUM", str(fake))
    assert services.chromium() == str(fake)
    monkeypatch.delenv("POCKETARENA_CHROMIUM")
    monkeypatch.setenv("PATH", str(tmp_path))
    fake.chmod(0o755)
    found = services.chromium()  # Playwright's own if installed, else the one on PATH
    assert found is not None and Path(found).exists()


def test_ci_runs_with_ci_set() -> None:
    """.ci/run sets CI, so a missing browser or service fails there instead of skipping."""
    assert "export CI=1" in (ROOT / ".ci" / "run").read_text().splitlines()
