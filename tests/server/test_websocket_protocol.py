"""The server's WebSocket protocol: uvicorn's, with the messages it sends compressed at zlib's
level 1 (``server.core.websocket``)."""

from __future__ import annotations

import asyncio
import json
import zlib

from uvicorn.config import Config
from uvicorn.server import ServerState

from pocketarena.server.core.websocket import WebSocketProtocol

HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: arena\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    b"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
)


async def _app(scope: object, receive: object, send: object) -> None:
    raise AssertionError("not called")


def _sent_frame(deflate: bool, text: bytes) -> tuple[str, bytes]:
    """The extensions header the protocol answers a browser's offer with, and the bytes of the
    frame it sends for ``text``."""

    async def run() -> tuple[str, bytes]:
        config = Config(app=_app, ws_per_message_deflate=deflate, ws_max_size=64 * 1024)
        conn = WebSocketProtocol(config, ServerState(), {}).conn
        conn.receive_data(HANDSHAKE)
        response = conn.accept(conn.events_received()[0])  # type: ignore[arg-type]
        conn.send_response(response)
        conn.data_to_send()
        conn.send_text(text)
        return response.headers.get("Sec-WebSocket-Extensions", ""), b"".join(conn.data_to_send())

    return asyncio.run(run())


def _deflated(text: bytes, level: int) -> bytes:
    """``text`` as permessage-deflate sends it: a window of 2^12, memLevel 5, sync-flushed,
    without the flush's last four bytes."""
    c = zlib.compressobj(level, zlib.DEFLATED, -12, 5)
    return (c.compress(text) + c.flush(zlib.Z_SYNC_FLUSH))[:-4]


def test_messages_are_compressed_at_level_1_with_uvicorns_window() -> None:
    text = json.dumps({"type": "state", "legal": [f"place L {n}" for n in range(200)]}).encode()
    extensions, frame = _sent_frame(True, text)
    assert extensions == (
        "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12"
    )
    assert frame[0] == 0xC1  # FIN, RSV1 (compressed), a text frame
    assert frame.endswith(_deflated(text, 1))
    assert _deflated(text, 1) != _deflated(text, 6)  # the level shows in the bytes
    assert not frame.endswith(_deflated(text, 6))


def test_compression_switched_off_stays_off() -> None:
    text = b'{"type":"pong"}'
    extensions, frame = _sent_frame(False, text)
    assert extensions == ""
    assert frame == b"\x81" + bytes([len(text)]) + text
