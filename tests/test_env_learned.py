"""The ``learned`` level: its features come from the observation, its moves are legal everywhere, it beats random."""

from __future__ import annotations

import random
from typing import Any

import pytest

from corazones.core import Game, Kind, Rules
from corazones.players.learned import FEATURES, LearnedBot, Network, card_features, shipped_network
from corazones.players.registry import LEVELS, make_player
from tests.helpers import random_action

PRESETS = [
    ("standard", {}),
    ("kitty", {"players": 5}),
    ("black_maria", {}),
    ("auction_hearts", {}),
    ("partnership", {}),
    ("cancellation_hearts", {"players": 8}),
    ("omnibus", {}),
    ("chasse_coeur", {}),
]


def test_features_describe_each_candidate_card_and_nothing_else() -> None:
    game = Game(Rules.preset("standard"), seed=3)
    obs = game.observation(0)
    assert obs.decision is Kind.PASS
    got = card_features(obs)
    assert [c for c, _ in got] == sorted(obs.hand)
    assert all(len(f) == len(FEATURES) for _, f in got)
    rng = random.Random(1)
    while game.decision_kind() is not Kind.PLAY:
        game.apply(random_action(game, rng))
    seat = game.to_act()[0]
    play = card_features(game.observation(seat))
    assert [c for c, _ in play] == sorted(a.card for a in game.legal_actions(seat))
    assert card_features(game.observation((seat + 1) % 4)) == []  # no decision: no candidates


@pytest.mark.parametrize(("preset", "kw"), PRESETS)
def test_learned_plays_legal_moves_in_every_preset(preset: str, kw: dict[str, Any]) -> None:
    rules = Rules.preset(preset, **kw).replace(hands=1, target=None, tie_break="shared")
    game = Game(rules, seed=5)
    bots = [make_player("learned", seed=s) for s in range(rules.players)]
    while not game.over:
        seat = game.to_act()[0]
        action = bots[seat].act(game.observation(seat))
        assert game.is_legal(action), action
        game.apply(action)


def test_shipped_weights_load_and_are_the_level() -> None:
    network = shipped_network()
    assert len(network.w1[0]) == len(FEATURES) and len(network.w1) == len(network.w2)
    assert "learned" in LEVELS and isinstance(make_player("learned"), LearnedBot)
    with pytest.raises(ValueError, match="trained on other features"):
        Network.from_json({"features": ["rank"], "w1": [], "b1": [], "w2": [], "b2": 0})


def test_learned_takes_fewer_points_than_random_players() -> None:
    rules = Rules.preset("standard", hands=1, target=None, tie_break="shared")
    learned = random_pts = 0
    for d in range(40):
        game = Game(rules, seed=f"learned/{d}")
        players = [make_player("learned", seed=d)] + [make_player("random", seed=f"{d}/{s}") for s in range(1, 4)]
        while not game.over:
            seat = game.to_act()[0]
            game.apply(players[seat].act(game.observation(seat)))
        learned += game.history[-1].scores[0]
        random_pts += sum(game.history[-1].scores[1:])
    assert learned / 40 < random_pts / 120 / 2  # less than half what a random player takes


def test_features_carry_the_standard_players_judgment() -> None:
    """``standard_pick`` marks the standard player's card(s), ``standard_cost`` is 0 for its favourite."""
    from corazones.players.standard import StandardBot

    rng = random.Random(7)
    std = StandardBot(0)
    pick, cost = FEATURES.index("standard_pick"), FEATURES.index("standard_cost")
    for seed in range(6):
        game = Game(Rules.preset("standard"), seed=seed)
        while not game.over and len(game.history) == 0:
            seat = game.to_act()[0]
            obs = game.observation(seat)
            got = card_features(obs)
            if got:
                chosen = set(std.act(obs).cards)
                assert {c for c, f in got if f[pick] == 1.0} == chosen
                if obs.decision is Kind.PLAY:
                    assert min(f[cost] for _, f in got) == 0.0
            game.apply(random_action(game, rng))


def test_distilling_collects_the_experts_decisions_and_trains_on_them(tmp_path: Any) -> None:
    """A short run of scripts/distil_expert.py: one deal recorded, a network fitted to it, weights that load."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parent.parent / "scripts" / "distil_expert.py"
    data, out = tmp_path / "expert.pkl", tmp_path / "learned.json"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent / "src")}
    run = [sys.executable, str(script)]
    subprocess.run(
        [*run, "collect", "--deals", "1", "--worlds", "8", "--pass-worlds", "8", "--out", str(data)],
        check=True,
        env=env,
    )
    got = subprocess.run(
        [*run, "train", str(data), "--steps", "3", "--temperature", "10", "--eval-deals", "2", "--out", str(out)],
        check=True,
        env=env,
        capture_output=True,
        text=True,
    ).stdout
    assert "decisions to fit" in got and "paired deals" in got
    network = Network.from_json(json.loads(out.read_text()))
    assert len(network.w1[0]) == len(FEATURES)
