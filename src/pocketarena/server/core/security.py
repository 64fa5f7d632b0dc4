"""Identity: ids, argon2 password hashes, and keyed hashes of client addresses."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid

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
