"""A server as ``pocketarena serve --port N`` runs it, but with its date (``create_app``'s
``now``: moves, turn-based deadlines, notifications) read from the file named by
``POCKETARENA_TEST_DATE_FILE``, which the test moves on: days of turns pass in a cluster of
real processes without waiting for them. Run by path (``python calendar_server.py --port N``);
it imports nothing from the tests."""

from __future__ import annotations

import argparse
import os
from datetime import datetime
from pathlib import Path

import uvicorn

from pocketarena.server.core.config import Settings
from pocketarena.server.core.websocket import WebSocketProtocol
from pocketarena.server.main import create_app


class DateFile:
    """The date written in a file (ISO 8601), read at every call: every process reading the
    same file lives on the same day."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self) -> datetime:
        return datetime.fromisoformat(self.path.read_text().strip())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args()
    settings = Settings.from_env()
    app = create_app(settings, now=DateFile(Path(os.environ["POCKETARENA_TEST_DATE_FILE"])))
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=args.port,
        log_level=args.log_level,
        ws_per_message_deflate=settings.ws_compression,
        ws=WebSocketProtocol,
        proxy_headers=False,
    )


if __name__ == "__main__":
    main()
