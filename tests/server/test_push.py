"""Web Push end to end: a local push service (a thread here) checks each request's VAPID
signature (RFC 8292) against the server's public key and decrypts the payload (RFC 8291,
aes128gcm, ``http_ece``) with the keys a browser would hold; a subscription the push service
says is gone (410) is dropped; the VAPID keys are made once, readable by their owner only."""

from __future__ import annotations

import base64
import json
import os
import stat
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from fastapi.testclient import TestClient

from pocketarena.server.main import create_app
from pocketarena.server.push import VAPID_FILE

from .conftest import make_settings, second_client
from .serving import free_port
from .test_delivery import send, wait_due
from .test_friends import account

SUBJECT = "mailto:ops@example.org"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """What a browser keeps of its subscription: the key pair and auth secret the payload is
    encrypted to."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def keys(self) -> dict[str, str]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64(point), "auth": b64(self.auth)}


class PushService:
    """Answers POST /push/<name> with 201 after checking the VAPID header and decrypting the
    body for the browser of that name; POST /gone/<name> with 410."""

    def __init__(self, server_key: str) -> None:
        self.server_key = server_key
        self.browsers: dict[str, Browser] = {}
        self.received: list[tuple[str, dict[str, Any]]] = []
        self.refused: list[str] = []
        self.port = free_port()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                kind, name = self.path.strip("/").split("/")
                if kind == "gone":
                    self.send_response(410)
                else:
                    problem = service.check(self.headers, body, name)
                    self.send_response(400 if problem else 201)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def check(self, headers: Any, body: bytes, name: str) -> str | None:
        scheme, _, params = headers["Authorization"].partition(" ")
        fields = dict(p.split("=", 1) for p in params.split(","))
        if scheme != "vapid" or fields.get("k") != self.server_key:
            self.refused.append("not our server's key")
            return "key"
        head, claims, signature = fields["t"].split(".")
        raw = unb64(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(fields["k"]))
        try:
            point.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            self.refused.append("bad signature")
            return "signature"
        said = json.loads(unb64(claims))
        if said["aud"] != f"http://127.0.0.1:{self.port}" or said["sub"] != SUBJECT:
            self.refused.append(f"claims {said}")
            return "claims"
        if not time.time() < said["exp"] <= time.time() + 86400:
            self.refused.append("expiry")
            return "expiry"
        browser = self.browsers[name]
        plain = http_ece.decrypt(
            body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm"
        )
        self.received.append((name, json.loads(plain)))
        return None

    def subscription(self, name: str, gone: bool = False) -> dict[str, Any]:
        self.browsers[name] = Browser()
        path = "gone" if gone else "push"
        endpoint = f"http://127.0.0.1:{self.port}/{path}/{name}"
        return {"endpoint": endpoint, "keys": self.browsers[name].keys()}

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(tmp_path, vapid_subject=SUBJECT, public_url="http://testserver")
    with TestClient(create_app(settings)) as c:
        yield c


@pytest.fixture
def service(app_client: TestClient) -> Iterator[PushService]:
    found = PushService(app_client.get("/api/push/key").json()["key"])
    yield found
    found.close()


def test_a_push_arrives_encrypted_and_signed_and_gone_ones_are_dropped(
    app_client: TestClient, service: PushService, tmp_path: Path
) -> None:
    ann, bob = app_client, second_client(app_client)
    account(ann, "ann")
    bob_id = account(bob, "bob")
    bob.post("/api/settings", json={"language": "es"})
    for sub in (service.subscription("phone"), service.subscription("old", gone=True)):
        assert bob.put("/api/me/push", json=sub).status_code == 204
    assert bob.get("/api/me/notices").json()["push_browsers"] == 2
    ann.post("/api/challenges", json={"player": "bob", "game": "flipwars"})
    wait_due(bob, bob_id, 1)
    send(bob)
    for _ in range(100):
        if service.received:
            break
        time.sleep(0.05)
    assert service.refused == []
    ((name, payload),) = service.received
    assert name == "phone"
    assert payload["body"] == "ann te desafía a FlipWars"
    assert payload["url"] == f"http://testserver/players/{bob_id}"
    # the push service said the old browser's subscription is gone: it is dropped
    assert bob.get("/api/me/notices").json()["push_browsers"] == 1
    # push switched off for challenges: nothing more is pushed
    bob.put("/api/me/notices/channels", json={"challenge": {"push": False}})
    ann.post("/api/challenges", json={"player": "bob", "game": "coin-age"})
    wait_due(bob, bob_id, 2)
    send(bob)
    time.sleep(0.3)
    assert len(service.received) == 1
    # unsubscribing this browser
    phone = service.subscription("phone")["endpoint"]
    assert bob.request("DELETE", "/api/me/push", json={"endpoint": phone}).status_code == 204
    assert bob.get("/api/me/notices").json()["push_browsers"] == 0
    # the key pair: made once, readable by its owner only, the same after a restart
    key_file = tmp_path / VAPID_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    with TestClient(create_app(make_settings(tmp_path))) as again:
        assert again.get("/api/push/key").json()["key"] == service.server_key


def test_bad_subscriptions_are_refused(app_client: TestClient, service: PushService) -> None:
    guest, bob = app_client, second_client(app_client)
    sub = service.subscription("x")
    assert guest.put("/api/me/push", json=sub).status_code == 403
    account(bob, "bob")
    r = bob.put("/api/me/push", json={**sub, "endpoint": "ftp://push.example/abc"})
    assert r.status_code == 400 and "http" in r.json()["detail"]
    assert bob.put("/api/me/push", json={"endpoint": sub["endpoint"]}).status_code == 422
    short = {**sub, "keys": {"p256dh": "x", "auth": "y"}}
    assert bob.put("/api/me/push", json=short).status_code == 422
    assert bob.get("/api/me/notices").json()["push_browsers"] == 0
    assert bob.get("/push-worker.js").headers["content-type"].startswith("text/javascript")
