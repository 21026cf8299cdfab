"""Identity: signed tokens for guests and accounts, scrypt password hashes.

A token is the player's id and its time of issue, signed with a secret kept
in the database, so every server process sharing the database accepts every
token and a restart logs nobody out.  A token expires ``max_age`` after it
was issued (a copied or stolen token stops working by itself); the web app
renews its token on every visit, so a regular player never notices.

Passwords are never stored: only a salted ``hashlib.scrypt`` hash (the
standard library's memory-hard KDF) and its parameters.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from itsdangerous import BadSignature, URLSafeTimedSerializer

from corazones.core.text import safe_name
from corazones.server.schema import LIMITS

_SALT = "corazones-player-token"
_N, _R, _P = 2**14, 8, 1


class Tokens:
    def __init__(self, secret: str, max_age: float) -> None:
        self._s = URLSafeTimedSerializer(secret, salt=_SALT)
        self.max_age = max(1, round(max_age))  # whole seconds, as itsdangerous counts them

    def issue(self, player_id: int) -> str:
        return self._s.dumps({"p": player_id})

    def player_id(self, token: str) -> int | None:
        """The player a token names, or None when it is not one of ours or has expired."""
        try:
            data = self._s.loads(token, max_age=self.max_age)
        except BadSignature:  # SignatureExpired is one too
            return None
        pid = data.get("p") if isinstance(data, dict) else None
        return pid if isinstance(pid, int) and not isinstance(pid, bool) else None


def new_secret() -> str:
    return secrets.token_urlsafe(48)


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    b64 = base64.b64encode
    return f"scrypt${_N}${_R}${_P}${b64(salt).decode()}${b64(digest).decode()}"


def check_password(password: str, stored: str | None) -> bool:
    if not stored:
        return False
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        want = base64.b64decode(digest)
        got = hashlib.scrypt(
            password.encode("utf-8"), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p), dklen=len(want)
        )
    except (ValueError, TypeError):
        return False
    return kind == "scrypt" and hmac.compare_digest(got, want)


def clean_name(name: str) -> str:
    """A display name safe for any face: no control or bidi characters, one line, clipped."""
    return safe_name(name, LIMITS["name_chars"], empty="")
