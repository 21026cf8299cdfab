"""Seed commitments: show a hash of the seed before play, the seed after.

The seed fixes every shuffle, so whoever knows it knows every hidden hand.  A
game can still be checked and reproduced if the seed is kept secret until the
end and only its *commitment* is shown at the start: a SHA-256 over a
domain-separated encoding of the seed.  Afterwards anyone holding the revealed
seed can recompute the commitment (:func:`check`) and so confirm that the
shuffles were fixed before the first card was dealt.

The encoding is ``"corazones-seed-v1:" + seed_text(seed)`` in UTF-8, where
:func:`seed_text` is the seed's text exactly as the shuffles use it (decimal
for a whole number).  The prefix keeps these hashes apart from any other
SHA-256 a program might publish.  A commitment hides the seed only if the
seed cannot be guessed: the default seed of :class:`~corazones.core.game.Game`
is 128 random bits; a seed a person picks (``42``) is found by trying.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any, Final

from corazones.core.errors import N_, Count, SeedError
from corazones.core.limits import MAX_INT_DIGITS, MAX_SEED_LENGTH, bad_text, show

#: Domain separation: the version of this encoding.
PREFIX: Final = "corazones-seed-v1:"
#: A commitment is this many lowercase hexadecimal digits (SHA-256).
LENGTH: Final = 64

_INT_LIMIT: Final = 10**MAX_INT_DIGITS


def check_seed(seed: Any) -> int | str:
    """``seed`` if it can seed a game; :class:`SeedError` naming what is allowed otherwise.

    A seed is a whole number of at most :data:`~corazones.core.limits.MAX_INT_DIGITS`
    digits or a string of at most :data:`~corazones.core.limits.MAX_SEED_LENGTH`
    characters without control characters.
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise SeedError(N_("a seed must be a whole number or a string, not {value}"), value=show(seed))
    if isinstance(seed, int):
        if abs(seed) >= _INT_LIMIT:
            raise SeedError(N_("a seed has at most {most} digits, not {value}"), most=MAX_INT_DIGITS, value=show(seed))
        return int(seed)
    if len(seed) > MAX_SEED_LENGTH:
        raise SeedError(
            N_("a seed string has at most {most} characters, not {got}"), most=MAX_SEED_LENGTH, got=Count(len(seed))
        )
    why = bad_text(seed)
    if why is not None:
        raise SeedError(N_("the seed {value} holds {why}"), value=show(seed), why=why)
    return str(seed)


def seed_from_text(text: str) -> int | str:
    """A seed as a person types it (``--seed``): digits, after one minus sign or none, are a whole number.

    Anything else is a string seed.  Digits stay a number however many there
    are, so too many of them are refused as such (:class:`SeedError`) rather
    than taken as text past some length, and ``int()`` never reads a huge text.
    """
    digits = text.removeprefix("-")
    if not digits.isdecimal():
        return text
    if len(digits) > MAX_INT_DIGITS:
        raise SeedError(N_("a seed has at most {most} digits, not {value}"), most=MAX_INT_DIGITS, value=show(text))
    return int(text)


def seed_text(seed: int | str) -> str:
    """The seed as the shuffles read it: decimal digits for a number, the string itself otherwise."""
    return str(check_seed(seed))


def commit(seed: int | str) -> str:
    """The commitment to ``seed``: 64 lowercase hex digits of SHA-256(``PREFIX`` + seed text)."""
    return hashlib.sha256((PREFIX + seed_text(seed)).encode("utf-8")).hexdigest()


def is_commitment(value: Any) -> bool:
    """Whether ``value`` has the form of a commitment (64 lowercase hex digits)."""
    return isinstance(value, str) and len(value) == LENGTH and all(c in "0123456789abcdef" for c in value)


def check(seed: int | str, commitment: str) -> bool:
    """Whether ``commitment`` is the commitment to ``seed`` (False for anything malformed)."""
    if not is_commitment(commitment):
        return False
    try:
        expected = commit(seed)
    except SeedError:
        return False
    return hmac.compare_digest(expected, commitment)
