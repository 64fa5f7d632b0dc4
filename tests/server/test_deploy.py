"""What docs/deploy.md has an operator run: HAProxy's configuration rendered for N servers
(valid for ``haproxy -c``, one line per server, access logs on), ``wait-healthy``, and the
systemd units in deploy/ (they parse, and start real ``pocketarena`` commands with options
that exist)."""

from __future__ import annotations

import configparser
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from pocketarena.cli.main import app as cli_app
from pocketarena.server.haproxy import render
from tests.services import unavailable

from .serving import Served

DEPLOY = Path(__file__).parents[2] / "deploy"
UNITS = sorted(DEPLOY.glob("*.service"))


def _haproxy() -> str:
    found = shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if os.access("/usr/sbin/haproxy", os.X_OK) else None
    )
    if found is None:
        unavailable("no haproxy found (apt-get install haproxy)")
    assert found is not None
    return found


@pytest.mark.parametrize("count", [1, 3, 8])
def test_the_balancer_config_names_each_server_once_and_haproxy_accepts_it(
    tmp_path: Path, count: int
) -> None:
    servers = [f"10.0.0.{11 + i // 2}:{8001 + i % 2}" for i in range(count)]
    args = ["haproxy-config", *(x for s in servers for x in ("--server", s))]
    result = CliRunner().invoke(cli_app, args)
    assert result.exit_code == 0, result.output
    text = result.output
    lines = [line.split() for line in text.splitlines() if line.strip().startswith("server ")]
    assert [line[2] for line in lines] == servers and all(line[3] == "check" for line in lines)
    assert "option httplog" in text and "log stdout" in text
    config = tmp_path / "haproxy.cfg"
    config.write_text(text)
    checked = subprocess.run(
        [_haproxy(), "-c", "-f", str(config)], capture_output=True, text=True, timeout=30
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_bad_server_lists_are_refused_in_one_line() -> None:
    for args, words in (
        ([], "--server"),
        (["--server", "10.0.0.1"], "is not host:port"),
        (["--server", "10.0.0.1:0"], "port must be 1 to 65535"),
        (["--server", "10.0.0.1:99999"], "port must be 1 to 65535"),
        (["--server", "a b:80"], "is not host:port"),
        (["--server", "[zz::1]:80"], "is not host:port"),
        (["--server", "[::g]:80"], "is not host:port"),
        (["--server", "h:1", "--server", "h:1"], "named twice"),
        (["--server", "h:1", "--listen", "8080"], "is not [address]:port"),
        (["--server", "h:1", "--log", ""], "one HAProxy log target"),
    ):
        result = CliRunner().invoke(cli_app, ["haproxy-config", *args])
        assert result.exit_code == 2 and words in result.output, (args, result.output)
        assert "Traceback" not in result.output
    assert render(["[::1]:8001"], listen="[::]:8080").count("server s1 [::1]:8001 check") == 1


def test_wait_healthy_waits_for_a_starting_server(tmp_path: Path) -> None:
    server = Served(tmp_path, f"sqlite:///{tmp_path / 'arena.sqlite3'}")
    waiting = subprocess.Popen(
        [sys.executable, "-m", "pocketarena", "wait-healthy", server.url, "--timeout", "90"],
        env={**server.env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    server.start()
    try:
        out, _ = waiting.communicate(timeout=120)
        assert waiting.returncode == 0 and "healthy" in out, out
    finally:
        waiting.kill()
        server.stop()
    result = CliRunner().invoke(
        cli_app, ["wait-healthy", server.url, "--timeout", "0.5"], catch_exceptions=False
    )
    assert result.exit_code == 1 and "not healthy after 0.5 s" in result.output
    result = CliRunner().invoke(cli_app, ["wait-healthy", "127.0.0.1:8001"])
    assert result.exit_code == 2 and "not an http://" in result.output


def _unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read_string(path.read_text())
    return parser


def test_the_units_start_real_commands_and_restart() -> None:
    assert {p.name for p in UNITS} == {"pocketarena-server@.service", "pocketarena-worker.service"}
    group: Any = typer.main.get_command(cli_app)
    for path in UNITS:
        unit = _unit(path)
        assert set(unit.sections()) == {"Unit", "Service", "Install"}, path.name
        service = unit["Service"]
        assert service["Restart"] == "always" and service["EnvironmentFile"]
        argv = shlex.split(service["ExecStart"].replace("%i", "8001"))
        assert argv[0].endswith("/pocketarena"), argv
        command = group.commands[argv[1]]
        options = {opt for p in command.params for opt in p.opts}
        given = [a for a in argv[2:] if a.startswith("--")]
        assert given and set(given) <= options, (path.name, set(given) - options)
        # And the command takes them (a dry parse, nothing started).
        command.make_context(argv[1], argv[2:], resilient_parsing=False)


def test_systemd_finds_nothing_wrong_with_the_units(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        unavailable("systemd-analyze is not installed (apt-get install systemd)")
    binary = Path(sys.executable).parent / "pocketarena"
    if not binary.exists():
        unavailable("no pocketarena script beside this Python to point the units at")
    for path in UNITS:
        # The units as installed, pointing at this checkout's pocketarena.
        text = path.read_text().replace("/opt/pocketarena/bin/pocketarena", str(binary))
        (tmp_path / path.name).write_text(text)
    for name in ("pocketarena-server@8001.service", "pocketarena-worker.service"):
        result = subprocess.run(
            [analyze, "verify", "--man=no", str(tmp_path / name)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        problems = [
            line
            for line in (result.stdout + result.stderr).splitlines()
            if "pocketarena" in line and "is not executable" not in line
        ]
        assert result.returncode == 0 and not problems, result.stdout + result.stderr
