"""Stored game reviews: a finished game's review of one seat, computed once and kept.

The review itself is :mod:`corazones.players.review`; this floor keeps its
result (``Review.full_json``: each decision with its figures, reasons as
templates, the labelled summary) in the ``reviews`` table, so the replay
viewer can show it again, and a player's profile averages the mean losses.
The first review stored for a seat stays (a second save is ignored): a
review is deterministic for its record and budget.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy.exc import IntegrityError

from corazones.players.review import Review
from corazones.services.store.ratings import ReviewRow
from corazones.services.store.repo import Store


def save_review(store: Store, table_id: str, seat: int, review: Review) -> dict[str, Any]:
    """Keep the review of ``seat`` (unless one is kept already); the stored JSON."""
    summary = next((s for s in review.summary if s.seat == seat), None)
    data = review.full_json()
    row = ReviewRow(
        table_id=table_id,
        seat=seat,
        worlds=review.worlds,
        pass_worlds=review.pass_worlds,
        decisions=0 if summary is None else summary.decisions,
        mean_loss=0.0 if summary is None else summary.mean_loss,
        data=json.dumps(data),
        created=time.time(),
    )
    try:
        with store.session.begin() as s:
            s.add(row)
    except IntegrityError:  # another process stored it first: keep that one
        pass
    stored = get_review(store, table_id, seat)
    assert stored is not None
    return stored


def get_review(store: Store, table_id: str, seat: int) -> dict[str, Any] | None:
    """The stored review of a seat, or ``None``."""
    with store.session() as s:
        row = s.get(ReviewRow, (table_id, seat))
    return None if row is None else json.loads(row.data)
