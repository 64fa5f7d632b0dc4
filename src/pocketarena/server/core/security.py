"""Identity: ids, argon2 password hashes, and keyed hashes of client addresses."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import uuid
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


def new_player_id() -> str:
    return uuid.uuid4().hex


_ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no look-alikes


def new_game_id() -> str:
    """8 characters from 56: about 2^46 ids, short enough to read out, hard to guess."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(8))


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


def address_hash(secret_key: str, address: str) -> str:
    """What is kept of a client address (to count its games): a keyed hash, so the database
    holds no address in the clear."""
    return hmac.new(secret_key.encode(), address.encode(), hashlib.sha256).hexdigest()[:32]


def default_guest_name(player_id: str) -> str:
    return f"Guest {player_id[:4]}"


def signed_token(secret_key: str, purpose: str, data: dict[str, Any]) -> str:
    """``data`` (JSON) with a keyed signature, for a link that acts without signing in (an
    email's verification or unsubscribe link): base64url payload, a dot, the signature.
    ``purpose`` keeps a token of one kind from serving as another."""
    payload = base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode())
    body = payload.decode().rstrip("=")
    return body + "." + _signature(secret_key, purpose, body)


def read_token(secret_key: str, purpose: str, token: str) -> dict[str, Any] | None:
    """The data of a token made by ``signed_token`` for ``purpose``, or None if it is not
    one (altered, truncated, of another purpose)."""
    if not isinstance(token, str) or len(token) > 2000 or token.count(".") != 1:
        return None
    body, signature = token.split(".")
    if not hmac.compare_digest(signature, _signature(secret_key, purpose, body)):
        return None
    try:
        data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _signature(secret_key: str, purpose: str, body: str) -> str:
    mac = hmac.new(secret_key.encode(), f"{purpose}:{body}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode()
