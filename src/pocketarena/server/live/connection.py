"""One WebSocket client: who it is, what it watches, and a send queue so a slow reader never
holds up the others (messages are queued and written by the client's own task).

The writer calls the server's ASGI ``send`` itself (uvicorn's, through no wrapper: see
``api.routes.ws``), not Starlette's ``WebSocket``: its state checks and the two exception
layers' wrappers of ``send`` were four Python calls more on every message (docs/scaling.md)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque

from starlette.types import Send

from pocketarena import i18n

from ..core.ratelimit import TokenBucket

log = logging.getLogger(__name__)

SEND_QUEUE_LIMIT = 256  # a client this far behind is disconnected rather than buffered forever
_ids = itertools.count(1)


class Connection:
    def __init__(
        self,
        send: Send | None,
        player_id: str | None,
        bucket: TokenBucket,
        session_id: str | None = None,
    ) -> None:
        self.id = next(_ids)
        self._send = send  # the socket's ASGI send (None: a connection without a socket)
        self.player_id = player_id
        self.session_id = session_id  # the session it acts for (closed when that ends)
        self.bucket = bucket
        self.watching: dict[str, bool] = {}  # game id -> wants the SVG board
        # The language its messages are worded in: the one the socket was opened in.
        self.locale = i18n.current()
        self.lobby = False
        # What is still to be sent, oldest first (None: close after the rest), and the
        # writer's wake-up while it waits for more: a plain deque and one future, which cost
        # a move's messages less than an asyncio.Queue's bookkeeping did.
        self.queue: deque[str | None] = deque()
        self._more: asyncio.Future[None] | None = None
        self.closed = False

    def push(self, text: str) -> None:
        """Queue a message; never blocks."""
        if self.closed:
            return
        if len(self.queue) >= SEND_QUEUE_LIMIT:
            log.warning("connection %s is not reading; closing it", self.id)
            self.close()
            return
        self.queue.append(text)
        self._wake()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.append(None)
            self._wake()

    def _wake(self) -> None:
        more = self._more
        if more is not None and not more.done():
            more.set_result(None)

    async def writer(self) -> None:
        """Send queued messages until closed (runs as the connection's own task)."""
        send = self._send
        assert send is not None
        queue = self.queue
        while True:
            if not queue:
                self._more = asyncio.get_running_loop().create_future()
                await self._more
                self._more = None
                continue
            text = queue.popleft()
            if text is None:
                break
            try:
                await send({"type": "websocket.send", "text": text})
            except Exception:  # the peer went away; the reader notices and cleans up
                self.closed = True
                break
        if self.closed:
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": 1000, "reason": ""})
