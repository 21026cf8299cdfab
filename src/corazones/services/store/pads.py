"""Score pads kept by the server: one row per pad, its JSON (the core's pad format) and a version.

A pad is small (what was entered, never the totals), so it is stored whole and
replaced on each change; ``version`` counts changes, which lets a page ask
"anything newer than version N?" and lets two phones editing at once fail
cleanly instead of overwriting each other (the write names the version it
read).  Anyone with the pad's id may read it; changing it needs the key, kept
only as its SHA-256.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import Float, Integer, String, Text, select, update
from sqlalchemy.orm import Mapped, mapped_column

from corazones.services.store.models import Base
from corazones.services.store.repo import Store


class PadRecord(Base):
    """A score pad: its JSON, how many times it changed, and the hash of the key that may change it."""

    __tablename__ = "pads"
    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64))
    data: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float, index=True)


@dataclass(frozen=True, slots=True)
class StoredPad:
    id: str
    data: str
    version: int


class PadConflict(Exception):
    """The pad changed since it was read (another phone wrote first)."""


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def new_pad(store: Store, data: str) -> tuple[str, str]:
    """Store a new pad; return its id (to share) and its key (to change it)."""
    pad_id = secrets.token_urlsafe(9)
    key = secrets.token_urlsafe(18)
    now = time.time()
    with store.session.begin() as s:
        s.add(PadRecord(id=pad_id, key_hash=_hash(key), data=data, version=1, created=now, updated=now))
    return pad_id, key


def get_pad(store: Store, pad_id: str) -> StoredPad | None:
    with store.session() as s:
        row = s.get(PadRecord, pad_id)
        return None if row is None else StoredPad(row.id, row.data, row.version)


def pad_version(store: Store, pad_id: str) -> int | None:
    with store.session() as s:
        return s.scalar(select(PadRecord.version).where(PadRecord.id == pad_id))


def key_matches(store: Store, pad_id: str, key: str) -> bool:
    with store.session() as s:
        stored = s.scalar(select(PadRecord.key_hash).where(PadRecord.id == pad_id))
    return stored is not None and hmac.compare_digest(stored, _hash(key))


def save_pad(store: Store, pad_id: str, data: str, read_version: int) -> int:
    """Replace the pad's JSON if it is still at ``read_version``; the new version, or :class:`PadConflict`."""
    with store.session.begin() as s:
        done = s.execute(
            update(PadRecord)
            .where(PadRecord.id == pad_id, PadRecord.version == read_version)
            .values(data=data, version=read_version + 1, updated=time.time())
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise PadConflict(pad_id)
    return read_version + 1
