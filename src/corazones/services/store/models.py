"""The database tables (SQLAlchemy 2 declarative models).

The schema itself is created and changed only by the Alembic revisions in
``migrations/versions``; these models must describe the same tables (a test
compares them).  A feature that needs tables of its own (the score pad, for
one) adds its models in its own module on the same :class:`Base` and a new
revision, never an edit of an applied revision.

Timestamps are Unix seconds (floats) written by the server processes: the
lease logic compares them across processes on one machine or on machines
with synchronised clocks, and floats read the same in SQLite and PostgreSQL.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from corazones.services.store.looks import FOLDED_CHARS


class Base(DeclarativeBase):
    pass


class Secret(Base):
    """Server-wide secrets (the token signing key), created at first start and shared by every process."""

    __tablename__ = "secrets"
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class Player(Base):
    """A guest (name only) or an account (unique name, salted scrypt hash of the password).

    An account's ``login`` is its name case-folded (what logging in looks up) and its ``look`` the
    name as it looks (:func:`~corazones.services.store.looks.look`, revision 0005): both unique, so
    no account can pass for another by letters of another script that look the same.  An account
    registered before 0005 that looked like an older one has no ``look`` (it keeps working).

    ``token_gen`` is the generation of the player's sign-in tokens: a token is
    accepted only while it names the current one, so one write signs the
    player out on every device."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(10))
    #: 40 characters in SQLite (which enforces no length), wider in PostgreSQL since revision 0005: a
    #: 40-character name case-folded may be longer (``ß`` is ``ss``).
    login: Mapped[str | None] = mapped_column(String(40).with_variant(String(FOLDED_CHARS), "postgresql"), unique=True)
    look: Mapped[str | None] = mapped_column(String(FOLDED_CHARS), unique=True, index=True)
    password_hash: Mapped[str | None] = mapped_column(String(300))
    created: Mapped[float] = mapped_column(Float)
    #: Written into every token issued for this player; bumping it revokes them all (revision 0003).
    token_gen: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Table(Base):
    """A table and its game: rules, seats, the secret seed and its commitment, status and lease."""

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    preset: Mapped[str] = mapped_column(String(40))
    rules: Mapped[str] = mapped_column(Text)
    seats: Mapped[str] = mapped_column(Text)
    seed: Mapped[str] = mapped_column(String(100))
    commitment: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(10), index=True)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite: Mapped[str] = mapped_column(String(40))
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    takeover_level: Mapped[str] = mapped_column(String(20))
    created: Mapped[float] = mapped_column(Float)
    started: Mapped[float | None] = mapped_column(Float)
    finished: Mapped[float | None] = mapped_column(Float)
    lease_owner: Mapped[str | None] = mapped_column(String(40))
    lease_url: Mapped[str | None] = mapped_column(String(200))
    lease_expires: Mapped[float] = mapped_column(Float, default=0.0)
    #: JSON list of the player ids the host removed from their seat (revision 0003): they may not come back.
    removed: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")


class Event(Base):
    """One numbered event of a table (actions included), stored before it is sent to anyone.

    ``(table_id, seq)`` is the primary key: a process that lost its lease and
    tries to write an event number another process already wrote fails, so
    two owners can never both extend one game.
    """

    __tablename__ = "events"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    data: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float)


class Result(Base):
    """A finished game from one seat: the statistics (games, wins, points per hand, moons)."""

    __tablename__ = "results"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    score: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    hands: Mapped[int] = mapped_column(Integer)
    moons: Mapped[int] = mapped_column(Integer)
    hand_points: Mapped[str] = mapped_column(Text)
    finished: Mapped[float] = mapped_column(Float)
