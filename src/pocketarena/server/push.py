"""Web Push (``pywebpush``): the server's VAPID key pair (made at the first start, kept in the
data folder beside the secret key, readable by its owner only), and sending a notification to
one browser's subscription, encrypted to its keys (RFC 8291, aes128gcm)."""

from __future__ import annotations

import asyncio
import base64
import importlib
import json
import logging
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02

from .core.config import Settings, private_file

log = logging.getLogger(__name__)
VAPID_FILE = "vapid_private.pem"
TTL_S = 86400 * 2  # a push service keeps a message this long for a browser that is away
TIMEOUT_S = 15.0
GONE = (404, 410)  # the push service forgot the subscription: it is dropped


def vapid_keys(settings: Settings) -> Vapid02:
    """The server's VAPID key pair: ``settings.vapid_private_key`` (a PEM file), or the one in
    the data folder, made there (0600) at the first start."""
    path = Path(settings.vapid_private_key or settings.data_dir / VAPID_FILE)

    def make() -> bytes:
        pair = Vapid02()
        pair.generate_keys()
        return bytes(pair.private_pem())

    pem = private_file(path, make) if not settings.vapid_private_key else path.read_bytes()
    return Vapid02.from_pem(pem)


def application_server_key(keys: Vapid02) -> str:
    """The public key as browsers take it (``applicationServerKey``): the uncompressed P-256
    point, base64url without padding."""
    raw = keys.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


class Pusher:
    """Sends notifications signed with the server's VAPID keys."""

    def __init__(self, keys: Vapid02, subject: str) -> None:
        self.keys = keys
        self.subject = subject
        self.public_key = application_server_key(keys)

    async def send(self, subscription: dict[str, Any], payload: dict[str, Any]) -> bool:
        """Send ``payload`` (JSON) to one subscription; False when the push service says the
        subscription is gone (drop it). Other failures raise."""
        # pywebpush (and aiohttp under it) at the first notification, not at every server
        # start (a quarter of a second of CPU each), and in a thread: the event loop goes on.
        await asyncio.to_thread(importlib.import_module, "pywebpush")
        from pywebpush import WebPushException, webpush_async

        try:
            await webpush_async(
                subscription,
                json.dumps(payload, ensure_ascii=False),
                vapid_private_key=self.keys,
                vapid_claims={"sub": self.subject},
                ttl=TTL_S,
                timeout=TIMEOUT_S,
            )
        except WebPushException as e:
            if e.response is not None and getattr(e.response, "status", None) in GONE:
                return False
            raise
        return True
