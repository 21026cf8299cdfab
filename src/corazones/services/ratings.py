"""Ratings of online players, per rule family, with OpenSkill's Weng-Lin models.

Every finished game with at least one human is rated (:func:`rate_table`):
the seats' finishing order (:func:`ranks_of`: lowest score first, most
chips first under a chip settlement, the winners first, sides ranked together
in partnerships) goes to OpenSkill's Plackett-Luce model
(``openskill.models.PlackettLuce``, a Weng-Lin Bayesian rating for
free-for-all and team games), which moves each human's mean ``mu`` and
narrows their uncertainty ``sigma``.  The mathematics is the library's.

Families.  A rating means something only among games of the same kind, so
each preset belongs to a family (:data:`FAMILIES`): the Black Lady games
(standard, kitty, quick, spot and eagle hearts, Black Jack), Black Maria,
Omnibus, Partnership, the chip games (Hoyle 1887, Auction Hearts), the
hearts-only games without passing (Plain Hearts), Cancellation Hearts,
Cuatro Jotas, Chasse-Cœur.  A player has one rating per family.

Bots.  Bots play rated games at fixed strengths (:data:`BOT_RATINGS`): they
sit in the model with their calibrated rating, and their own update is
thrown away, so a rating means the same thing whoever one plays.  The
figures come from whole games between levels (``bench/ratings.py``: each
level rated as one player over those games, then shifted so that
``standard`` sits at 25, the rating a new player starts with; see
``docs/review.md``).  A game is rated for the humans seated at its start: a
seat a bot took over for a human who left counts as that human's (leaving is
losing), and a player who took a seat during the game is not rated for it.

Games with fewer than two humans count.  With bots at fixed, calibrated
strengths, a game of one human against three bots measures that human
against known opponents as well as a game against people does; refusing
such games would leave a small server without ratings.  Beating weak bots
moves a rating little, since the model expects it.  A game without humans
is not rated.

Recomputable.  :func:`recompute` forgets every rating and rates every
finished game again in the order they finished, from the stored tables and
their events alone.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import delete, func, select

from corazones.core.actions import Action
from corazones.core.game import Game
from corazones.core.rules import Rules
from corazones.services.store.models import Player, Result, Table
from corazones.services.store.ratings import Rating, RatingEvent, ReviewRow
from corazones.services.store.repo import Store

#: The model: Plackett-Luce, the Weng-Lin model for rankings of any number of sides.
MODEL = PlackettLuce()
#: A new player's rating.
START_MU = float(MODEL.mu)
START_SIGMA = float(MODEL.sigma)

#: The family of each preset; a table whose preset is missing here is rated in ``other``.
FAMILIES: dict[str, str] = {
    "standard": "standard",
    "black_lady": "standard",
    "kitty": "standard",
    "quick": "standard",
    "spot_hearts": "standard",
    "eagle_hearts": "standard",
    "black_jack": "standard",
    "black_maria": "black_maria",
    "omnibus": "omnibus",
    "partnership": "partnership",
    "hearts_1887": "chips",
    "auction_hearts": "chips",
    "arnold_2011": "plain",
    "cancellation_hearts": "cancellation",
    "four_jacks": "four_jacks",
    "chasse_coeur": "chasse_coeur",
}
OTHER = "other"

#: Each bot level's fixed rating (mu, sigma), calibrated by ``bench/ratings.py`` (see the module text and
#: ``docs/review.md``): 800 two-hand standard games between neighbouring levels (200 a pair) and 300
#: between ``standard`` and ``expert``, fitted in 20 shuffled orders and averaged, shifted so that
#: ``standard`` is at 25.
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "expert": (26.2, 1.66),
    "standard": (25.0, 1.54),
    "learned": (25.0, 1.82),
    "shooter": (22.8, 1.85),
    "beginner": (18.1, 1.72),
    "random": (-0.7, 2.21),
}


def family_of(preset: str) -> str:
    """The rating family of a preset (``other`` for one not in :data:`FAMILIES`)."""
    return FAMILIES.get(preset, OTHER)


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown and ranked: ``mu - 3 sigma``, what the player is very likely at least worth."""
    return mu - 3.0 * sigma


def ranks_of(game: Game) -> list[int]:
    """Each seat's finishing place (0 first; equal places tie): winners first, then by standing.

    Standing is the side's total score (lower is better), or its chips
    (more is better) under a chip settlement; partners share their side's
    place.
    """
    r = game.rules
    chips = r.settlement in ("chips_1887", "chips_pool")
    teams = r.teams
    key: list[tuple[int, float]] = []
    for team in teams:
        won = any(s in game.winners for s in team)
        standing = -sum(game.chips[s] for s in team) if chips else sum(game.scores[s] for s in team)
        key.append((0 if won else 1, float(standing)))
    order = sorted(set(key))
    team_rank = [order.index(k) for k in key]
    out = [0] * r.players
    for i, team in enumerate(teams):
        for s in team:
            out[s] = team_rank[i]
    return out


def rate(
    ratings: Sequence[tuple[float, float] | None], ranks: Sequence[int], teams: Sequence[Sequence[int]] | None = None
) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after a game: ``ratings`` per seat (``None``: a new player), ``ranks`` per seat.

    ``teams`` groups seats into sides (default: every seat alone); a side's
    place is its first seat's rank.
    """
    n = len(ratings)
    sides = [list(t) for t in teams] if teams is not None else [[s] for s in range(n)]
    objs = [MODEL.rating() if r is None else MODEL.rating(mu=r[0], sigma=r[1]) for r in ratings]
    after = MODEL.rate([[objs[s] for s in side] for side in sides], ranks=[ranks[side[0]] for side in sides])
    out: list[tuple[float, float]] = [(0.0, 0.0)] * n
    for side, new in zip(sides, after, strict=True):
        for s, obj in zip(side, new, strict=True):
            out[s] = (float(obj.mu), float(obj.sigma))
    return out


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One human seat of a rated game: the rating before and after (shown at the game's end)."""

    seat: int
    player_id: int
    family: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    def to_json(self) -> dict[str, Any]:
        before = ordinal(self.mu_before, self.sigma_before)
        after = ordinal(self.mu_after, self.sigma_after)
        return {
            "seat": self.seat,
            "player": self.player_id,
            "family": self.family,
            "before": round(before, 2),
            "after": round(after, 2),
            "change": round(after - before, 2),
            "mu": round(self.mu_after, 3),
            "sigma": round(self.sigma_after, 3),
        }


def _change(e: RatingEvent) -> RatingChange:
    return RatingChange(e.seat, e.player_id, e.family, e.mu_before, e.sigma_before, e.mu_after, e.sigma_after)


def replay_table(row: Table, store: Store) -> Game:
    """The finished game of a stored table, rebuilt from its actions."""
    game = Game(Rules.from_dict(json.loads(row.rules)), row.seed)
    for ev in store.events(row.id, 0, ("action",)):
        game.apply(Action.from_json(ev.data["action"]))
    return game


def seat_players(
    row: Table, store: Store, at_start: list[tuple[int | None, str]] | None = None
) -> list[tuple[int | None, str]]:
    """Per seat: the human who held it when the game started (``None`` for a bot seat) and the bot level that stands in.

    A game belongs to the people seated at its start (:func:`players_at_start`): one who left
    during the game is rated on how their seat finished, its bot playing on for them, so leaving is
    no way out of a loss; one who took a seat during the game is not rated for it, so nobody can step
    into a seat that is already winning and collect its rating.  ``at_start``: those players when the
    caller has read them already (None: read here).
    """
    seats = json.loads(row.seats)
    start = at_start if at_start is not None else players_at_start(store, row.id)
    out: list[tuple[int | None, str]] = []
    for i, s in enumerate(seats):
        level = s.get("level") or row.takeover_level
        out.append((start[i][0] if start is not None and i < len(start) else _human(s), str(level)))
    return out


def players_at_start(store: Store, table_id: str) -> list[tuple[int | None, str]] | None:
    """Per seat, the human player id (None: a bot) and name the stored ``game_start`` event seated.

    None before the game started.  The game's results and ratings go to these players, whoever
    holds the seats at its end.
    """
    start = store.events(table_id, 0, ("game_start",))
    if not start:
        return None
    return [(_human(s), str(s.get("name") or "")) for s in start[0].data.get("seats", [])]


def _human(seat: dict[str, Any]) -> int | None:
    player = seat.get("player") if seat.get("kind") == "human" else None
    return player if isinstance(player, int) else None


def changes(store: Store, table_id: str) -> list[RatingChange]:
    """The rating changes a game made (empty: not rated, or not yet)."""
    with store.session() as s:
        rows = s.scalars(select(RatingEvent).where(RatingEvent.table_id == table_id).order_by(RatingEvent.seat))
        return [_change(e) for e in rows]


def rate_table(store: Store, table_id: str, at_start: list[tuple[int | None, str]] | None = None) -> list[RatingChange]:
    """Rate a finished game once (a second call returns the first's changes); empty when no human played.

    Runs in one transaction: the humans' rows are read for update, so two
    processes finishing games of the same player one after the other do not
    lose an update; the unique (table, seat) row makes a game rated once.
    ``at_start``: :func:`players_at_start` when the caller has read it already (the server, storing
    the results at the game's end), so that the stored ``game_start`` is read once (None: read here).
    """
    done = changes(store, table_id)
    if done:
        return done
    row = store.table(table_id)
    if row is None or row.status != "finished":
        return []
    seats = seat_players(row, store, at_start)
    if not any(p is not None for p, _ in seats):
        return []
    game = replay_table(row, store)
    if not game.over:
        return []
    return _rate(store, row, game, seats)


def _rate(store: Store, row: Table, game: Game, seats: list[tuple[int | None, str]]) -> list[RatingChange]:
    family = family_of(row.preset)
    finished = row.finished if row.finished is not None else time.time()
    out: list[RatingChange] = []
    with store.session.begin() as s:
        current: dict[int, Rating | None] = {}
        for player, _level in seats:
            if player is not None and player not in current:
                current[player] = s.get(Rating, (player, family), with_for_update=True)
        before: list[tuple[float, float]] = []
        for player, level in seats:
            if player is None:
                before.append(BOT_RATINGS.get(level, BOT_RATINGS["standard"]))
            else:
                r = current[player]
                before.append((START_MU, START_SIGMA) if r is None else (r.mu, r.sigma))
        after = rate(before, ranks_of(game), game.rules.teams)
        for seat, (player, _level) in enumerate(seats):
            if player is None:
                continue
            (mu0, s0), (mu1, s1) = before[seat], after[seat]
            r = current[player]
            if r is None:
                r = Rating(player_id=player, family=family, mu=mu1, sigma=s1, games=1, updated=finished)
                s.add(r)
                current[player] = r
            else:
                r.mu, r.sigma, r.games, r.updated = mu1, s1, r.games + 1, finished
            s.add(
                RatingEvent(
                    table_id=row.id,
                    seat=seat,
                    player_id=player,
                    family=family,
                    mu_before=mu0,
                    sigma_before=s0,
                    mu_after=mu1,
                    sigma_after=s1,
                    finished=finished,
                )
            )
            out.append(RatingChange(seat, player, family, mu0, s0, mu1, s1))
    return out


def recompute(store: Store) -> int:
    """Forget every rating and rate every finished game again, oldest first; the number of games rated."""
    with store.session.begin() as s:
        s.execute(delete(RatingEvent))
        s.execute(delete(Rating))
    with store.session() as s:
        ids = [r[0] for r in s.execute(select(Table.id).where(Table.status == "finished").order_by(Table.finished))]
    return sum(1 for tid in ids if rate_table(store, tid))


def leaderboard(store: Store, family: str, limit: int = 50) -> list[dict[str, Any]]:
    """The players of a family, best first by :func:`ordinal`."""
    q = (
        select(Rating, Player.name)
        .join(Player, Player.id == Rating.player_id)
        .where(Rating.family == family)
        .order_by((Rating.mu - 3.0 * Rating.sigma).desc(), Rating.player_id)
        .limit(limit)
    )
    with store.session() as s:
        rows = list(s.execute(q))
    return [
        {
            "rank": i + 1,
            "player": r.player_id,
            "name": name,
            "rating": round(ordinal(r.mu, r.sigma), 2),
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "games": r.games,
        }
        for i, (r, name) in enumerate(rows)
    ]


def profile(store: Store, player_id: int) -> dict[str, Any] | None:
    """A player's ratings per family, rating history, games, wins, moons and mean review loss."""
    player = store.player(player_id)
    if player is None:
        return None
    stats = store.stats(player_id)
    with store.session() as s:
        ratings = list(s.scalars(select(Rating).where(Rating.player_id == player_id).order_by(Rating.family)))
        history = list(
            s.scalars(
                select(RatingEvent)
                .where(RatingEvent.player_id == player_id)
                .order_by(RatingEvent.finished, RatingEvent.id)
            )
        )
        loss_q = (
            select(func.count(), func.avg(ReviewRow.mean_loss))
            .select_from(ReviewRow)
            .join(Result, (Result.table_id == ReviewRow.table_id) & (Result.seat == ReviewRow.seat))
            .where(Result.player_id == player_id)
        )
        reviewed, mean_loss = s.execute(loss_q).one()
    return {
        "player": {"id": player.id, "name": player.name, "kind": player.kind},
        "ratings": [
            {
                "family": r.family,
                "rating": round(ordinal(r.mu, r.sigma), 2),
                "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3),
                "games": r.games,
            }
            for r in ratings
        ],
        "history": [
            {
                "game": e.table_id,
                "family": e.family,
                "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(e.finished)),
                "rating": round(ordinal(e.mu_after, e.sigma_after), 2),
                "change": round(ordinal(e.mu_after, e.sigma_after) - ordinal(e.mu_before, e.sigma_before), 2),
            }
            for e in history
        ],
        "games": stats.games,
        "wins": stats.wins,
        "moons": stats.moons,
        "reviewed_games": int(reviewed or 0),
        "mean_review_loss": None if mean_loss is None else round(float(mean_loss), 3),
    }
