"""Ratings per rule family on a real SQLite file and a real PostgreSQL: rated once, recomputable."""

from __future__ import annotations

import json
import time

from corazones.core import PRESETS, Game, Rules
from corazones.players.registry import make_player
from corazones.players.review import review_record
from corazones.players.table import play_game
from corazones.services import ratings
from corazones.services.ratings import BOT_RATINGS, START_MU, family_of, ranks_of, rate, rate_table, recompute
from corazones.services.reviews import get_review, save_review
from corazones.services.store import Store
from corazones.services.store.ratings import Rating

from . import review_games


def finished_table(
    store: Store, tid: str, seats: list[dict[str, object]], preset: str = "standard", seed: int = 1
) -> Game:
    """A table finished as the server leaves one: its row, every action as an event, the results."""
    rules = Rules.preset(preset, hands=1, target=None) if preset != "partnership" else Rules.preset(preset, hands=1)
    game = Game(rules, seed=str(seed))
    play_game(game, [make_player("standard", s) for s in range(rules.players)])
    store.add_table(
        id=tid,
        name=tid,
        preset=preset,
        rules=json.dumps(rules.to_dict()),
        seats=json.dumps(seats),
        seed=str(seed),
        commitment="c" * 64,
        status="playing",
        private=False,
        invite="i",
        owner_id=None,
        takeover_level="standard",
        created=time.time(),
        lease_expires=0.0,
    )
    store.append_events(tid, [(i + 1, "action", {"action": a.to_json()}) for i, a in enumerate(game.actions)])
    results = []
    for s, seat in enumerate(seats):
        results.append(
            {
                "seat": s,
                "player_id": seat.get("player") if seat["kind"] == "human" else None,
                "name": str(seat.get("name", "")),
                "score": game.scores[s],
                "won": s in game.winners,
                "hands": len(game.history),
                "moons": sum(1 for h in game.history if h.shooter == s),
                "hand_points": "[]",
            }
        )
    store.finish(tid, results)
    return game


def human(player: int, name: str = "p") -> dict[str, object]:
    return {"kind": "human", "player": player, "name": name, "level": None}


BOT = {"kind": "bot", "level": "standard", "player": None, "name": ""}


def test_places_follow_the_standing_winners_first_and_partners_together() -> None:
    game = Game(Rules.preset("standard", hands=1, target=None), seed=3)
    play_game(game, [make_player("standard", s) for s in range(4)])
    ranks = ranks_of(game)
    assert all(ranks[w] == 0 for w in game.winners)
    for a in range(4):
        for b in range(4):
            if game.scores[a] < game.scores[b]:
                assert ranks[a] < ranks[b]
    team = Game(Rules.preset("partnership", hands=1), seed=3)
    play_game(team, [make_player("standard", s) for s in range(4)])
    r = ranks_of(team)
    assert r[0] == r[2] and r[1] == r[3] and r[0] != r[1]
    chips = Game(Rules.preset("hearts_1887", hands=1), seed=3)
    play_game(chips, [make_player("standard", s) for s in range(4)])
    c = ranks_of(chips)
    for a in range(4):
        for b in range(4):
            if chips.chips[a] > chips.chips[b] and a not in chips.winners and b not in chips.winners:
                assert c[a] < c[b]


def test_the_model_moves_the_winner_up_and_the_last_down() -> None:
    after = rate([None, None, None, None], [0, 1, 2, 3])
    assert after[0][0] > START_MU > after[3][0]
    assert all(sigma < ratings.START_SIGMA for _, sigma in after)
    # beating a far stronger opponent gains more than beating a weaker one
    strong = rate([None, BOT_RATINGS["expert"]], [0, 1])[0][0]
    weak = rate([None, BOT_RATINGS["random"]], [0, 1])[0][0]
    assert strong > weak > START_MU


def test_families_group_the_presets() -> None:
    assert family_of("standard") == family_of("spot_hearts") == "standard"
    assert family_of("black_maria") == "black_maria" and family_of("auction_hearts") == "chips"
    assert family_of("my_house_rules") == "other"
    assert set(ratings.FAMILIES) == set(PRESETS)  # every preset has its family


def test_a_game_is_rated_once_and_bots_keep_their_fixed_rating(store: Store) -> None:
    a = store.add_player("Ana", "guest").id
    b = store.add_player("Bea", "guest").id
    game = finished_table(store, "t1", [human(a, "Ana"), BOT, human(b, "Bea"), BOT])
    first = rate_table(store, "t1")
    assert [c.seat for c in first] == [0, 2]
    again = rate_table(store, "t1")
    assert again == first
    board = ratings.leaderboard(store, "standard")
    assert {r["player"] for r in board} == {a, b}
    assert [r["rating"] for r in board] == sorted((r["rating"] for r in board), reverse=True)
    assert all(r["games"] == 1 for r in board)
    ranks = ranks_of(game)
    better, worse = (a, b) if ranks[0] < ranks[2] else (b, a)
    if ranks[0] != ranks[2]:
        assert board[0]["player"] == better and board[1]["player"] == worse
    with store.session() as s:
        assert s.query(Rating).count() == 2  # nobody rates the bots


def test_games_without_humans_are_not_rated_and_one_human_is(store: Store) -> None:
    finished_table(store, "bots", [BOT, BOT, BOT, BOT])
    assert rate_table(store, "bots") == []
    solo = store.add_player("Solo", "guest").id
    finished_table(store, "solo", [human(solo), BOT, BOT, BOT], seed=2)
    assert len(rate_table(store, "solo")) == 1


def test_ratings_are_recomputed_from_the_stored_games(store: Store) -> None:
    a = store.add_player("Ana", "guest").id
    b = store.add_player("Bea", "guest").id
    for k in range(3):
        finished_table(store, f"g{k}", [human(a), BOT, human(b), BOT], seed=10 + k)
        rate_table(store, f"g{k}")
    finished_table(store, "bm", [human(a), human(b), BOT], preset="black_maria", seed=7)
    rate_table(store, "bm")
    before = ratings.profile(store, a)
    assert recompute(store) == 4
    after = ratings.profile(store, a)
    assert before == after
    assert before is not None
    assert {r["family"] for r in before["ratings"]} == {"standard", "black_maria"}
    assert len(before["history"]) == 4 and before["games"] == 4


def test_profile_has_games_wins_moons_and_the_mean_review_loss(store: Store) -> None:
    a = store.add_player("Ana", "guest").id
    finished_table(store, "t", [human(a), BOT, BOT, BOT], seed=5)
    rate_table(store, "t")
    prof = ratings.profile(store, a)
    assert prof is not None and prof["mean_review_loss"] is None and prof["games"] == 1
    assert len(prof["history"]) == 1 and prof["history"][0]["game"] == "t"
    record = review_games.load("standard")
    review = review_record(record, [0], worlds=4, pass_worlds=4)
    stored = save_review(store, "t", 0, review)
    assert stored["summary"][0]["seat"] == 0 and get_review(store, "t", 0) == stored
    assert save_review(store, "t", 0, review_record(record, [0], worlds=5, pass_worlds=5)) == stored  # first kept
    prof = ratings.profile(store, a)
    assert prof is not None and prof["mean_review_loss"] == round(review.summary[0].mean_loss, 3)
    assert prof["reviewed_games"] == 1
    assert ratings.profile(store, 10_000) is None
