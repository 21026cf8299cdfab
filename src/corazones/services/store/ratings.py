"""Tables of the ratings and the game reviews (revision 0004_ratings).

``ratings`` holds each player's current rating per rule family;
``rating_events`` one row per rated seat of a finished game, the rating
before and after, which is the history a profile charts and what makes
rating a game idempotent (one row per table and seat).  ``reviews`` keeps a
finished game's review of one seat (the review's JSON and its summary), so
it is computed once.  Everything here can be recomputed from the stored
games (:func:`corazones.services.ratings.recompute`).
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from corazones.services.store.models import Base


class Rating(Base):
    """A player's current rating in one family: OpenSkill's mean and uncertainty, and games rated."""

    __tablename__ = "ratings"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    family: Mapped[str] = mapped_column(String(24), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class RatingEvent(Base):
    """One seat of one rated game: who, in which family, the rating before and after."""

    __tablename__ = "rating_events"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_rating_events_table_seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    family: Mapped[str] = mapped_column(String(24))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    finished: Mapped[float] = mapped_column(Float, index=True)


class ReviewRow(Base):
    """A stored review of one seat of a finished game (``data`` is ``Review.to_json`` with details)."""

    __tablename__ = "reviews"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    worlds: Mapped[int] = mapped_column(Integer)
    pass_worlds: Mapped[int] = mapped_column(Integer)
    decisions: Mapped[int] = mapped_column(Integer)
    mean_loss: Mapped[float] = mapped_column(Float)
    data: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float)
