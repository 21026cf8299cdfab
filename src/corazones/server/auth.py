"""Identity: signed tokens for guests and accounts, scrypt password hashes.

A token is the player's id and its time of issue, signed with a secret kept
in the database, so every server process sharing the database accepts every
token and a restart logs nobody out.  A token expires ``max_age`` after it
was issued (a copied or stolen token stops working by itself); the web app
renews its token on every visit, so a regular player never notices.

A token also names the player's *token generation* (``players.token_gen``):
the server accepts it only while that is still the player's generation, so
bumping it revokes every token of one player at once ("sign out everywhere",
``corazones revoke``).  Tokens from before generations existed read as 0.

Passwords are never stored: only a salted ``hashlib.scrypt`` hash (the
standard library's memory-hard KDF) and its parameters.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import unicodedata

from itsdangerous import BadSignature, URLSafeTimedSerializer

from corazones.core.text import has_visible, safe_name
from corazones.i18n import LANGS, translator
from corazones.players.registry import LEVEL_NAMES, LEVELS
from corazones.server.schema import LIMITS
from corazones.services.store.looks import skeleton

_WORD_RE = re.compile(r"[\w']+")

_SALT = "corazones-player-token"
_N, _R, _P = 2**14, 8, 1


class Tokens:
    def __init__(self, secret: str, max_age: float) -> None:
        self._s = URLSafeTimedSerializer(secret, salt=_SALT)
        self.max_age = max(1, round(max_age))  # whole seconds, as itsdangerous counts them

    def issue(self, player_id: int, gen: int = 0) -> str:
        return self._s.dumps({"p": player_id, "g": gen} if gen else {"p": player_id})

    def identity(self, token: str) -> tuple[int, int] | None:
        """The player a token names and its token generation, or None when it is not one of ours or has
        expired (whether the generation is still the player's is for the caller to check, in the store)."""
        try:
            data = self._s.loads(token, max_age=self.max_age)
        except BadSignature:  # SignatureExpired is one too
            return None
        if not isinstance(data, dict):
            return None
        pid, gen = data.get("p"), data.get("g", 0)
        if not isinstance(pid, int) or not isinstance(gen, int) or isinstance(pid, bool) or isinstance(gen, bool):
            return None
        return pid, gen

    def player_id(self, token: str) -> int | None:
        """The player a token names (signature and age checked, not revocation), or None."""
        found = self.identity(token)
        return None if found is None else found[0]


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
    """A display name safe for any face: no control, bidi or invisible characters (zero-width spaces
    and joiners, soft hyphens: Unicode's format characters), one line, clipped.

    Compatibility forms are folded first (NFKC: full-width ``ｓｅａｔ`` is ``seat``), so two names that
    look the same are the same name.
    """
    folded = unicodedata.normalize("NFKC", name)
    visible = "".join(c for c in folded if unicodedata.category(c) != "Cf")
    # a name of nothing but blanks (a Hangul filler, the blank braille pattern) is no name at all
    return safe_name(visible, LIMITS["name_chars"], empty="") if has_visible(visible) else ""


def legacy_login_name(name: str) -> str:
    """The login key an account registered before :func:`clean_name` dropped invisible characters was
    stored under (so such an account can still log in)."""
    return safe_name(name, LIMITS["name_chars"], empty="").casefold()


#: Words that name a machine player in any language, whatever its level.
_MACHINE_WORDS = ("bot", "bots", "ai", "ia", "cpu")


def _fold(text: str) -> tuple[str, ...]:
    """The words of ``text`` as :func:`impersonates` compares them: as they look (:func:`skeleton`), case-folded."""
    return tuple(_WORD_RE.findall(skeleton(text).casefold()))


def _reserved_phrases() -> frozenset[tuple[str, ...]]:
    """Every way a bot level can be written: each level of the registry by its own name and by the name
    each face shows it under, in every language the faces speak (``cazador de luna``), also run together
    (``moonshooter``); and the machine words."""
    names: set[str] = set(_MACHINE_WORDS)
    for level in LEVELS:
        names.add(level)
        shown = LEVEL_NAMES.get(level)
        if shown is not None:
            names.update(translator(lang).gettext(shown) for lang in LANGS)
    phrases = {_fold(n) for n in names}
    phrases |= {("".join(p),) for p in phrases if len(p) > 1}
    return frozenset(p for p in phrases if p)


_BOT_PHRASES = _reserved_phrases()
_SEAT_RE = re.compile(r"^(seat|asiento|player|jugador|jugadora|p)\s*#?\s*\d+$")
_CARD_RE = re.compile(r"^(10|[2-9tjqka])\s*[cdsh♠♥♦♣♤♡♢♧]$")


def _only_bot_levels(words: tuple[str, ...]) -> bool:
    """Whether ``words`` are nothing but reserved phrases one after another (``expert``, ``moon shooter``,
    ``estándar cazador de luna``): a name of them alone would read as a bot's label."""
    longest = max(map(len, _BOT_PHRASES))
    fits = [True] + [False] * len(words)  # fits[i]: the first i words are reserved phrases
    for i in range(1, len(words) + 1):
        fits[i] = any(fits[i - n] and words[i - n : i] in _BOT_PHRASES for n in range(1, min(longest, i) + 1))
    return bool(words) and fits[-1]


def impersonates(name: str) -> bool:
    """Whether a (cleaned) name could be taken for a bot, a seat or a card at a table: it has the word
    "bot", is only bot levels, as the registry or a face names them in any language ("expert",
    "moon shooter", "cazador de luna"), a seat ("seat 1", "asiento 2") or a card
    ("QS", "10♥"), in whatever letters look like them (:func:`~corazones.services.store.looks.skeleton`)."""
    key = " ".join(skeleton(name).casefold().split())
    words = _fold(name)
    if "bot" in words or "bots" in words:
        return True
    if _only_bot_levels(words):
        return True
    return bool(_SEAT_RE.match(key) or _CARD_RE.match(key))
