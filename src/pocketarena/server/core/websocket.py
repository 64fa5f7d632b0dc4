"""Uvicorn's WebSocket protocol (``websockets``' sans-I/O implementation) with cheaper
compression of what the server sends.

Uvicorn offers permessage-deflate with ``websockets``' settings (a window of 2^12, memLevel 5)
and zlib's default level, 6. Every state message is compressed again for each socket (each
has its own compression context), which was the largest single cost of a move in the load
benchmark; at level 1 a state message takes about 40% less time to compress for 20-30% more
bytes (docs/scaling.md). Everything else, the window the browser compresses its own
messages with included, is uvicorn's.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

LEVEL = 1  # zlib's compression level for the messages the server sends
WINDOW_BITS = 12  # uvicorn's (and websockets') choice, both ways
MEM_LEVEL = 5


def deflate() -> ServerPerMessageDeflateFactory:
    """The permessage-deflate extension the server offers."""
    return ServerPerMessageDeflateFactory(
        server_max_window_bits=WINDOW_BITS,
        client_max_window_bits=WINDOW_BITS,
        compress_settings={"memLevel": MEM_LEVEL, "level": LEVEL},
    )


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """Pass as ``ws=`` to ``uvicorn.run``; ``ws_per_message_deflate=False`` still turns
    compression off."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if config.ws_per_message_deflate:
            # Made before any byte arrived (connection_made comes later): nothing has used
            # uvicorn's protocol object yet.
            self.conn = ServerProtocol(
                extensions=[deflate()], max_size=config.ws_max_size, logger=self.conn.logger
            )
