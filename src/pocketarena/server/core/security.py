"""Identity: signed session cookies (guests and accounts) and argon2 password hashes."""

from __future__ import annotations

import secrets
import uuid

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from itsdangerous import BadSignature, URLSafeSerializer

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


class SessionSigner:
    """Signs the session cookie: the player id, so nobody can forge another player's."""

    def __init__(self, secret_key: str) -> None:
        self._serializer = URLSafeSerializer(secret_key, salt="pocketarena-session")

    def dumps(self, player_id: str) -> str:
        return self._serializer.dumps({"p": player_id})

    def loads(self, cookie: str | None) -> str | None:
        """The player id in a cookie, or None if it is missing, forged or malformed."""
        if not cookie or len(cookie) > 512:
            return None
        try:
            data = self._serializer.loads(cookie)
        except BadSignature:
            return None
        pid = data.get("p") if isinstance(data, dict) else None
        if isinstance(pid, str) and len(pid) == 32 and all(c in "0123456789abcdef" for c in pid):
            return pid
        return None


def default_guest_name(player_id: str) -> str:
    return f"Guest {player_id[:4]}"
