"""A real ``pocketarena serve`` in a subprocess, for tests of the command and of crashes: it
runs in a process group of its own (a terminal's Ctrl-C reaches the whole group), and every
process it starts carries a marker in its environment so none can hide after it dies."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx

SRC = Path(__file__).parents[2] / "src"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def marked_processes(marker: str) -> list[int]:
    """Processes whose environment holds ``marker`` (the server, its workers, their helpers)."""
    found = []
    needle = f"POCKETARENA_TEST_MARK={marker}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":  # a zombie has ended; only its exit status is left
                    found.append(int(entry.name))
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


class Served:
    def __init__(self, data_dir: Path, database_url: str, **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.marker = uuid.uuid4().hex
        self.env = {
            **os.environ,
            "POCKETARENA_DATA_DIR": str(data_dir),
            "POCKETARENA_BOT_MIN_DELAY_MS": "0",
            "POCKETARENA_TEST_MARK": self.marker,
            "PYTHONPATH": str(SRC),
            **env,
        }
        self.database_url = database_url
        self.proc: subprocess.Popen[str] | None = None

    def start(self, timeout: float = 60.0) -> Served:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pocketarena",
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                self.database_url,
                "--log-level",
                "warning",
            ],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                httpx.get(f"{self.url}/api/catalog", timeout=2)
                return self
            except httpx.TransportError:
                if self.proc.poll() is not None:
                    raise AssertionError(f"the server stopped: {self.output()}") from None
                if time.monotonic() > deadline:
                    raise AssertionError("the server did not start") from None
                time.sleep(0.1)

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30)

    def signal_group(self, sig: signal.Signals) -> None:
        """As a terminal does for Ctrl-C: the signal goes to every process of the group."""
        assert self.proc is not None
        os.killpg(self.proc.pid, sig)

    def wait(self, timeout: float = 30.0) -> int:
        assert self.proc is not None
        return self.proc.wait(timeout=timeout)

    def output(self) -> str:
        assert self.proc is not None
        if self.proc.poll() is None:
            return ""
        return self.proc.stdout.read() if self.proc.stdout else ""

    def leftovers(self, within: float = 10.0) -> list[int]:
        """Marked processes still alive after ``within`` seconds (none, if all is well)."""
        deadline = time.monotonic() + within
        while (alive := marked_processes(self.marker)) and time.monotonic() < deadline:
            time.sleep(0.1)
        return alive

    def stop(self) -> None:
        """Whatever happened, leave nothing running."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        for pid in marked_processes(self.marker):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
