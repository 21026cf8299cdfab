"""Game review: a random player's decisions cost far more than the expert's, from each seat's own view."""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from corazones.cli.main import app
from corazones.core import Action, Game, Kind, Rules
from corazones.core.records import dumps, loads, make_record
from corazones.core.rules import PRESETS
from corazones.players.base import best_moon_choice
from corazones.players.expert import ExpertBot
from corazones.players.registry import make_player
from corazones.players.review import LABELS, count_decisions, label_of, review_record, stake
from corazones.players.table import play_game

from . import review_games

runner = CliRunner()
ENGLISH = {"LC_ALL": "en_US.UTF-8", "LANGUAGE": "en"}
#: A small budget keeps the tests quick; the stored games make the comparison telling.
SMALL = {"worlds": 40, "pass_worlds": 40}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_random_seat_loses_far_more_than_the_experts(preset: str) -> None:
    """In every preset: one seat played ``random``, the others the default ``expert`` (stored games)."""
    record = review_games.load(preset)
    review = review_record(record, **SMALL, hindsight=False)
    by_seat = {s.seat: s for s in review.summary}
    rand = by_seat[review_games.RANDOM_SEAT]
    experts = [s.mean_loss for seat, s in by_seat.items() if seat != review_games.RANDOM_SEAT]
    assert rand.decisions >= 8
    assert rand.mean_loss >= 3 * statistics.mean(experts), (rand.mean_loss, experts)
    assert rand.mean_loss >= LABELS[0][1] * review.stake


def test_the_experts_decisions_lose_little_against_a_larger_budget_of_itself() -> None:
    rules = Rules.preset("standard")
    game = Game(rules, seed=21)
    play_game(game, [ExpertBot(s, worlds=60, pass_worlds=60, time_limit=None) for s in range(4)], max_hands=1)
    review = review_record(make_record(game), [0, 2], worlds=240, pass_worlds=120, hindsight=False)
    for s in review.summary:
        assert s.decisions >= 6
        assert s.mean_loss < LABELS[0][1] * stake(rules)  # under the inaccuracy threshold on average
        assert s.labels["blunder"] == 0


def test_a_review_is_the_same_for_the_same_record_and_budget() -> None:
    record = review_games.load("standard")
    first = review_record(record, [1], worlds=12, pass_worlds=8)
    again = review_record(loads(dumps(record)), [1], worlds=12, pass_worlds=8)
    assert first.to_json() == again.to_json()
    assert [d.details() for d in first.decisions] == [d.details() for d in again.decisions]


def test_the_hindsight_view_never_changes_the_score() -> None:
    record = review_games.load("omnibus")
    seen = review_record(record, [1], worlds=12, pass_worlds=8)
    blind = review_record(record, [1], worlds=12, pass_worlds=8, hindsight=False)
    assert seen.to_json() == blind.to_json()
    plays = [d for d in seen.decisions if d.kind is Kind.PLAY]
    assert plays and all(d.hindsight is not None for d in plays)
    assert all(d.hindsight is None for d in seen.decisions if d.kind is not Kind.PLAY)
    assert all(d.hindsight is None for d in blind.decisions)


def test_the_json_has_the_documented_shape_and_losses_are_never_negative() -> None:
    record = review_games.load("black_maria")
    data = review_record(record, **{"worlds": 10, "pass_worlds": 6}).to_json()
    assert set(data) == {"decisions", "summary"}
    for d in data["decisions"]:
        assert list(d) == ["hand", "trick", "seat", "kind", "chosen", "best", "loss", "label", "why"]
        assert d["loss"] >= 0 and d["label"] in (None, "inaccuracy", "mistake", "blunder")
        assert (d["trick"] is None) == (d["kind"] != "play")
    assert [s["seat"] for s in data["summary"]] == [0, 1, 2]
    for s in data["summary"]:
        assert list(s) == ["seat", "decisions", "mean_loss", "total_loss"]
    json.dumps(data)


def test_progress_counts_every_valued_decision() -> None:
    record = review_games.load("hearts_1887")
    calls: list[tuple[int, int]] = []
    review = review_record(record, [0], worlds=4, pass_worlds=4, progress=lambda k, n: calls.append((k, n)))
    total = count_decisions(record, [0])
    assert total == len(review.decisions) > 0
    assert calls == [(k, total) for k in range(1, total + 1)]


def test_labels_follow_the_documented_thresholds() -> None:
    assert stake(Rules.preset("standard")) == 26
    assert stake(Rules.preset("chasse_coeur")) == 64
    assert label_of(0.5) is None
    assert label_of(0.52) == "inaccuracy"
    assert label_of(1.56) == "mistake"
    assert label_of(3.9) == "blunder"
    assert label_of(1.0, 64) is None  # the same loss means less when more is at stake


def test_bad_seats_and_budgets_are_refused_by_name() -> None:
    record = review_games.load("standard")
    with pytest.raises(ValueError, match="seat must be a number from 0 to 3"):
        review_record(record, [4])
    with pytest.raises(ValueError, match="worlds"):
        review_record(record, worlds=0)


def test_the_moon_choice_is_valued_exactly() -> None:
    """A shooter's choice: the better of the two is found without sampling, and named as such."""
    for seed in range(60):
        rules = Rules.preset("standard", target=60)
        game = Game(rules, seed=seed)
        play_game(game, [make_player("shooter", 0)] + [make_player("random", s) for s in (1, 2, 3)], max_hands=1)
        record = make_record(game)
        moons = [a for a in record["actions"] if "moon" in a]
        if moons:
            break
    else:
        pytest.skip("no moon in sixty hands")
    review = review_record(record, [moons[0]["seat"]], worlds=4, pass_worlds=4)
    moon = [d for d in review.decisions if d.kind is Kind.MOON]
    assert len(moon) == 1
    assert moon[0].worlds == 0 and moon[0].loss >= 0
    replayed = Game(rules, seed=record["seed"])
    for raw in record["actions"]:
        if "moon" in raw:
            break
        from corazones.core.records import action_of

        replayed.apply(action_of(raw, 1))
    best = best_moon_choice(replayed.observation(moons[0]["seat"]))
    if moon[0].chosen.value == best:
        assert moon[0].loss == 0


# ------------------------------------------------------------------ the command
def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=ENGLISH)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    return result.exit_code, flat, result.stdout


def test_review_command_prints_the_json_the_issue_asks_for() -> None:
    path = str(review_games.path("standard"))
    code, _flat, out = run("review", path, "--seat", "2", "--json", "--worlds", "8", "--pass-worlds", "4")
    assert code == 0
    data = json.loads(out)
    assert {d["seat"] for d in data["decisions"]} == {1}
    assert [s["seat"] for s in data["summary"]] == [1]
    assert all(isinstance(d["why"], str) and d["why"] for d in data["decisions"])


def test_review_command_reads_as_a_report_in_spanish_too() -> None:
    path = str(review_games.path("standard"))
    code, flat, _out = run("review", path, "--seat", "2", "--worlds", "8", "--pass-worlds", "4")
    assert code == 0 and "Review:" in flat and "mean loss" in flat
    code, flat, _out = run("review", path, "--seat", "2", "--worlds", "8", "--pass-worlds", "4", "--lang", "es")
    assert code == 0 and "pérdida media" in flat


def test_review_command_exit_codes(tmp_path: Path) -> None:
    path = str(review_games.path("standard"))
    assert run("review", str(tmp_path / "missing.json"))[0] == 2
    code, flat, _ = run("review", path, "--seat", "7")
    assert code == 2 and "seat must be a number from 1 to 4, not 7" in flat
    assert run("review", path, "--worlds", "0")[0] == 2
    for flag in ("--worlds", "--pass-worlds"):  # a budget that would run for days is refused, not started
        code, flat, _ = run("review", path, flag, "10001")
        assert code == 2 and "must be a number from 1 to 10,000, not 10001" in flat, flat
    code, flat, _ = run("replay", path, "--worlds", str(10**30))
    assert code == 2 and "must be a number from 1 to 10,000" in flat, flat
    record = review_games.load("standard")
    actions = record["actions"]
    assert isinstance(actions, list)
    actions[5] = dict(actions[5], seat=(actions[5]["seat"] + 1) % 4)  # out of turn
    bad = tmp_path / "bad.json"
    bad.write_text(dumps(record), encoding="utf-8")
    code, flat, _ = run("review", str(bad), "--worlds", "2", "--pass-worlds", "2")
    assert code == 1 and "action #6" in flat


def test_bids_are_valued_through_the_rest_of_the_auction() -> None:
    record = review_games.load("auction_hearts")
    review = review_record(record, worlds=8, pass_worlds=4, hindsight=False)
    bids = [d for d in review.decisions if d.kind is Kind.BID]
    assert bids and all(d.options >= 2 and d.loss >= 0 for d in bids)
    assert {d.chosen.value for d in bids} >= {0}
    assert all(d.best.kind is Kind.BID for d in bids)


def test_the_report_words_a_bid_as_a_bid() -> None:
    """A bid is "bid 2" or "no bid" in the report, never a bare amount ("seat 0: 2 ...; better 0")."""
    from corazones.cli.render import Seats
    from corazones.cli.review_cmd import action_text
    from corazones.core.actions import Action

    for lang, bid, none in (("en", "bid 2", "no bid"), ("es", "puja 2", "no puja")):
        names = Seats(lang, 4)
        assert action_text(Action(Kind.BID, 0, value=2), names, True) == bid
        assert action_text(Action(Kind.BID, 0, value=0), names, True) == none


def _tally(n: int, mean: float, givers: dict[tuple[int, int], int]) -> Any:
    from corazones.players.review import _Tally

    t = _Tally(values=[mean] * n, points=0.0)
    for (card, seat), k in givers.items():
        t.took[card] = t.took.get(card, 0) + k
        t.givers[(card, seat)] = k
    return t


def _first_choice_of_cards(preset: str) -> tuple[Any, Action, Action]:
    """A game of ``preset`` (seed 3) played by ``standard`` to the first card choice of two or more: the
    observation of the seat to play, and its lowest and highest legal cards as the chosen and the best."""
    game = Game(Rules.preset(preset), seed=3)
    while game.decision_kind() is not Kind.PLAY or len(game.observation(game.to_act()[0]).legal) < 2:
        seat = game.to_act()[0]
        game.apply(make_player("standard", seat).act(game.observation(seat)))
    me = game.to_act()[0]
    obs = game.observation(me)
    cards = [a.cards[0] for a in obs.legal]
    return obs, Action.play(me, cards[0]), Action.play(me, cards[-1])


def test_a_reason_names_a_giver_only_with_what_that_seat_gave() -> None:
    """Q♠ taken 54% of the time after 4♠, from three seats: seat 3 gave it as often after either card (24%, 22%).

    The reason must not say "4♠ let seat 3 give you Q♠ on 54%": it names seat 2, whose giving made the
    difference, with its own shares (20% against 8%); and when no single seat does, it says "you took".
    """
    from corazones.core.cards import parse_card
    from corazones.players.review import _why

    obs, chosen, best = _first_choice_of_cards("standard")
    me = obs.seat
    qs = parse_card("QS")
    others = [(me + k) % 4 for k in (1, 2, 3)]
    tc = _tally(50, -9.0, {(qs, others[2]): 12, (qs, others[1]): 10, (qs, others[0]): 5})
    tb = _tally(50, -5.7, {(qs, others[2]): 11, (qs, others[1]): 4, (qs, others[0]): 4})
    why = _why(obs, Kind.PLAY, chosen, best, tc, tb, 3.3, 26.0)
    first = why[0]
    assert "give you" in first.template
    assert first.params["seat"] == others[1] and (first.params["worse"], first.params["better"]) == (20, 8)

    tc = _tally(50, -9.0, {(qs, others[2]): 10, (qs, others[1]): 9, (qs, others[0]): 8})
    tb = _tally(50, -5.7, {(qs, others[2]): 7, (qs, others[1]): 6, (qs, others[0]): 5})
    first = _why(obs, Kind.PLAY, chosen, best, tc, tb, 3.3, 26.0)[0]
    assert first.template.startswith("after {chosen} you took")
    assert (first.params["worse"], first.params["better"]) == (54, 36)
    assert "seat" not in first.params


def test_a_record_that_ends_in_an_illegal_action_is_refused_before_any_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Off a terminal (no progress bar) too: a bad last action is said at once, not after the whole review."""
    from corazones.core.errors import RecordError
    from corazones.players import review as module

    record = review_games.load("standard")
    actions = record["actions"]
    assert isinstance(actions, list)
    actions[-1] = dict(actions[-1], seat=(actions[-1]["seat"] + 1) % 4)  # out of turn

    def searched(*args: object) -> None:
        raise AssertionError("a decision was valued before the record was checked")

    monkeypatch.setattr(module, "_review_one", searched)
    with pytest.raises(RecordError, match=f"action #{len(actions)} "):
        review_record(record, worlds=2, pass_worlds=2)


def test_a_reason_gives_the_points_only_when_the_better_option_takes_fewer() -> None:
    """ "3♦ was better: about 13.5 points expected against 13.0" says the opposite of what it means."""
    from corazones.players.review import _why

    for preset in ("partnership", "hearts_1887"):
        obs, chosen, best = _first_choice_of_cards(preset)
        tc, tb = _tally(40, -15.0, {}), _tally(40, -13.6, {})
        tc.points, tb.points = 40 * 13.0, 40 * 13.5  # the better card takes more of the hand's points
        first = _why(obs, Kind.PLAY, chosen, best, tc, tb, 1.4, 26.0)[0]
        assert first.template == "{best} was better for the game as a whole", (preset, first)
        tb.points = 40 * 11.0  # and fewer: the figures say why
        first = _why(obs, Kind.PLAY, chosen, best, tc, tb, 1.4, 26.0)[0]
        assert "expected against" in first.template, (preset, first)
