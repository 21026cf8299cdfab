"""Seed commitments: a hash shown before play, the seed after, checked by anyone (core/commitment.py)."""

from __future__ import annotations

import hashlib
import json
import random
import re

import pytest

from corazones.core import Game, RecordError, Rules
from corazones.core.commitment import PREFIX, check, commit, is_commitment, seed_text
from corazones.core.errors import SeedError
from corazones.core.records import dumps, loads, make_record, replay, verify_record
from tests.helpers import play_random, random_action


def test_commitment_is_sha256_of_the_domain_separated_seed_text() -> None:
    assert PREFIX == "corazones-seed-v1:"
    assert commit(42) == hashlib.sha256(b"corazones-seed-v1:42").hexdigest()
    assert commit("ñandú") == hashlib.sha256("corazones-seed-v1:ñandú".encode()).hexdigest()
    assert commit(-7) == hashlib.sha256(b"corazones-seed-v1:-7").hexdigest()
    assert is_commitment(commit(1)) and len(commit(1)) == 64
    assert commit(1) != commit(2) and commit("1") != commit(" 1")


def test_a_number_and_its_decimal_string_deal_the_same_game_and_commit_the_same() -> None:
    """The shuffles read the seed's text, so 5 and "5" are one game; the commitment says so too."""
    a, b = Game(Rules.preset("standard"), seed=5), Game(Rules.preset("standard"), seed="5")
    assert a.deal.hand(0) == b.deal.hand(0) and a.draw == b.draw
    assert a.commitment == b.commitment == commit(5) and seed_text(5) == "5"


def test_check_accepts_the_right_seed_only() -> None:
    c = commit("table-7")
    assert check("table-7", c)
    assert not check("table-8", c)
    assert not check("table-7", c.upper()), "the form is lowercase hex, as written"
    assert not check("table-7", c[:-1])
    assert not check("table-7", None)  # type: ignore[arg-type]
    assert not check(True, c)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [True, 1.5, None, [1], 10**40, "x" * 257, "a\nb", "\x1b[2J", "\ud800"])
def test_seeds_that_cannot_seed_a_game_are_refused(seed: object) -> None:
    with pytest.raises(SeedError):
        seed_text(seed)  # type: ignore[arg-type]
    if seed is not None:
        with pytest.raises(SeedError):
            Game(Rules.preset("standard"), seed=seed)  # type: ignore[arg-type]


def test_the_default_seed_is_128_random_bits_written_as_hex() -> None:
    seeds = {Game().seed for _ in range(20)}
    assert len(seeds) == 20
    for seed in seeds:
        assert isinstance(seed, str) and re.fullmatch(r"[0-9a-f]{32}", seed)
    game = Game()
    text = dumps(make_record(game))
    assert json.loads(text)["seed"] == game.seed, "a string: exact in every JSON reader, JavaScript included"
    assert replay(loads(text)).deal.hand(0) == game.deal.hand(0)


def test_no_observation_reveals_the_seed_or_the_hand_seeds() -> None:
    """The seed fixes every hidden card, so no observation may carry it (nor a hand's shuffle seed)."""
    game = Game(Rules.preset("omnibus", players=5))
    rng = random.Random(1)
    secrets = [str(game.seed), game.hand_seed(0), game.hand_seed(1)]
    assert not any("seed" in name for name in type(game.observation(0)).__dataclass_fields__)
    while not game.over and game.hand_index < 2:
        for seat in range(5):
            obs = game.observation(seat)
            text = json.dumps(obs.to_json()) + repr(obs)
            assert not any(s in text for s in secrets)
        game.apply(random_action(game, rng))


def test_records_carry_the_commitment_and_verify_checks_it() -> None:
    game = play_random(Game(Rules.preset("quick"), seed="round-1"), random.Random(2))
    record = make_record(game)
    assert record["version"] == 2 and record["commitment"] == commit("round-1")
    text = dumps(record)
    assert list(json.loads(text))[:5] == ["format", "version", "rules", "seed", "commitment"]
    verify_record(loads(text))
    wrong = loads(text)
    wrong["seed"] = "round-2"
    with pytest.raises(
        RecordError, match=r"^commitment: the record says [0-9a-f]{64}, but its seed gives [0-9a-f]{64}"
    ):
        verify_record(wrong)


def test_version_1_records_without_a_commitment_are_still_read() -> None:
    game = play_random(Game(Rules.preset("standard", hands=2, target=None), seed=9), random.Random(9))
    record = make_record(game)
    record["version"] = 1
    del record["commitment"]
    text = dumps(record)
    assert dumps(loads(text)) == text, "an old record keeps its bytes"
    assert verify_record(loads(text)).scores == game.scores


def test_a_version_1_record_keeps_its_tie_rule_after_the_agreed_hands() -> None:
    """Version 1 played ties on after a fixed number of hands (play_on); its records still replay so."""
    rules = Rules.preset("standard", hands=1, target=None, tie_break="play_on_always")
    for seed in range(200):
        game = play_random(Game(rules, seed=seed), random.Random(seed))
        if len(game.history) > 1:
            break
    else:
        raise AssertionError("no tie after one hand in 200 seeds")
    record = make_record(game)
    record["version"] = 1
    del record["commitment"]
    record["rules"]["tie_break"] = "play_on"
    assert verify_record(loads(dumps(record))).winners == game.winners
    record["version"] = 2
    with pytest.raises(RecordError, match="is illegal: the game is over"):
        verify_record(loads(dumps(record)))
