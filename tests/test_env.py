"""The learning environments: PettingZoo's own API and seed tests, the encoding, rewards, passes, bots, batches."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the env extra is not installed (pip install 'corazones[env]')")

import gymnasium
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from corazones.core import Game, Rules, card_str, parse_card
from corazones.core.position import Position
from corazones.env import ENV_ID, HeartsEnv, hearts_v0
from corazones.env.encoding import FIELDS, Encoding
from corazones.env.vector import HeartsVector

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
ISSUE_PRESETS = [
    ("standard", {}),
    ("kitty", {"players": 5}),
    ("black_maria", {}),
    ("auction_hearts", {}),
    ("partnership", {}),
    ("cancellation_hearts", {"players": 8}),
]


@pytest.mark.parametrize(("preset", "kw"), ISSUE_PRESETS)
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_and_seed_tests_pass(preset: str, kw: dict[str, Any]) -> None:
    api_test(hearts_v0.env(preset, **kw), num_cycles=1000)
    seed_test(lambda: hearts_v0.env(preset, **kw), num_cycles=300)


def play_out(env: Any, rng: random.Random) -> dict[str, float]:
    """Random legal actions to the end of the game; the total reward of each agent."""
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return totals


@pytest.mark.parametrize(("preset", "kw"), [*ISSUE_PRESETS, ("hearts_1887", {}), ("omnibus", {"target": 40})])
def test_deal_rewards_add_up_to_the_final_standing(preset: str, kw: dict[str, Any]) -> None:
    env = hearts_v0.raw_env(preset, **kw)
    env.reset(seed=4)
    game = env.game
    totals = play_out(env, random.Random(4))
    rules = game.rules
    for s in range(rules.players):
        if rules.settlement in ("chips_1887", "chips_pool"):
            assert totals[f"player_{s}"] == game.chips[s] - rules.stake
        else:
            assert totals[f"player_{s}"] == -game.totals()[rules.team_of(s)]


def test_game_rewards_pay_the_winners_once_at_the_end() -> None:
    env = hearts_v0.raw_env("standard", reward="game", target=30)
    env.reset(seed=9)
    game = env.game
    totals = play_out(env, random.Random(9))
    assert {a for a, r in totals.items() if r == 1.0} == {f"player_{s}" for s in game.winners}
    assert sorted(totals.values()) == [0.0] * (4 - len(game.winners)) + [1.0] * len(game.winners)


def test_a_pass_is_picked_card_by_card_and_reaches_the_game_whole() -> None:
    env = hearts_v0.raw_env("standard")
    env.reset(seed=1)
    enc = env.encoding
    assert env.agent_selection == "player_0"
    hand = list(env.game.observation(0).hand)
    for i, card in enumerate(hand[:3]):
        assert env.agent_selection == "player_0"
        obs = env.observe("player_0")
        assert obs["action_mask"][card] == 1 and obs["action_mask"][52:].sum() == 0
        assert enc.decode(obs["observation"])["picked"].sum() == i
        env.step(card)
        assert env.game.deal.passes[0] is None or i == 2
    assert env.game.deal.passes[0] == tuple(hand[:3])
    assert env.agent_selection == "player_1"
    with pytest.raises(ValueError, match=r"player_1 is passing: pick one of the cards left in hand, not card 2C"):
        env.step(parse_card("2C")) if parse_card("2C") not in env.game.observation(1).hand else env.step(200)
    with pytest.raises(ValueError, match="not 200 \\(not an action; actions are 0 to 57\\)"):
        env.step(200)


def test_bids_named_suits_and_moon_choices_are_actions() -> None:
    auction = hearts_v0.raw_env("auction_hearts")
    auction.reset(seed=2)
    obs = auction.observe(auction.agent_selection)
    enc = auction.encoding
    assert enc.actions == 58 + 25 * 4 + 1
    assert obs["action_mask"][58] == 1 and obs["action_mask"][:58].sum() == 0  # no bid, or 1..chips
    auction.step(58 + 3)  # bid 3
    assert auction.game.deal.bids == [(1, 3)] or auction.game.deal.bids[-1][1] == 3
    for _ in range(3):
        auction.step(58)  # everyone else passes the bid
    declarer = auction.agent_selection
    mask = auction.observe(declarer)["action_mask"]
    assert mask[52:56].tolist() == [1, 1, 1, 1] and mask.sum() == 4
    auction.step(52 + 1)  # diamonds
    assert auction.game.deal.penalty_suit == 1
    # a moon choice: with Q♠ the only penalty card, whoever takes it has taken them all
    moon = hearts_v0.raw_env("standard", hearts="none")
    moon.reset(seed=1)
    rng = random.Random(0)
    while moon.game.deal.phase != "moon":
        mask = moon.observe(moon.agent_selection)["action_mask"]
        assert mask[56:58].sum() == 0
        moon.step(rng.choice(np.flatnonzero(mask).tolist()))
    shooter = moon.game.deal.shooter
    assert moon.agent_selection == f"player_{shooter}"
    assert moon.observe(moon.agent_selection)["action_mask"].tolist() == [0] * 56 + [1, 1]
    moon.step(57)  # add to the others
    assert moon.game.history[0].moon_choice == "add_to_others"


def test_the_encoding_reads_only_the_observation() -> None:
    """Seat 0's vector does not change when the cards hidden from it are dealt differently.

    (Who holds 2♣ stays: that seat is seen to lead.)
    """
    rules = Rules.preset("standard", passes=("hold",))
    game = Game(rules, seed=3)
    hands = [list(game.deal.hand(s)) for s in range(4)]
    rng = random.Random(5)
    two = parse_card("2C")
    others = [c for h in hands[1:] for c in h if c != two]
    rng.shuffle(others)
    swapped = [hands[0]]
    for h in hands[1:]:
        take = len(h) - (two in h)
        swapped.append(sorted(others[:take] + [two] * (two in h)))
        others = others[take:]
    enc = Encoding(rules)
    a = hearts_v0.raw_env(rules=rules)
    b = hearts_v0.raw_env(rules=rules)
    a.reset(seed=1, options={"position": Position.of(rules, hands, dealer=game.dealer)})
    b.reset(seed=1, options={"position": Position.of(rules, swapped, dealer=game.dealer)})
    assert np.array_equal(a.observe("player_0")["observation"], b.observe("player_0")["observation"])
    assert not np.array_equal(a.observe("player_1")["observation"], b.observe("player_1")["observation"])
    assert enc.size == a.observe("player_0")["observation"].shape[0]


def test_fields_hold_what_was_seen_from_the_seat() -> None:
    # OpenSpiel-like deal: seat 0 all clubs, 1 diamonds, 2 spades, 3 hearts; no pass
    rules = Rules.preset("standard", passes=("hold",))
    suits = [" ".join(f"{r}{s}" for r in RANKS) for s in "CDSH"]
    env = hearts_v0.raw_env(rules=rules)
    env.reset(seed=1, options={"position": Position.of(rules, suits, dealer=3)})
    for card in ("2C", "2D", "2S", "2H", "3C"):
        env.step(parse_card(card))
    f = env.encoding.decode(env.observe("player_2")["observation"])
    # relative seats for seat 2: seat 2 -> 0, seat 3 -> 1, seat 0 -> 2, seat 1 -> 3
    assert f["played"].reshape(4, 52)[2, parse_card("2C")] == 1 and f["played"].reshape(4, 52)[1, parse_card("2H")] == 1
    assert f["trick"].reshape(4, 52)[2, parse_card("3C")] == 1 and f["trick"].sum() == 1
    assert f["leader"].tolist() == [0, 0, 1, 0]
    assert f["void"].reshape(4, 4)[:, 0].tolist() == [1, 1, 0, 1]  # seats 2, 3, 1 did not follow clubs
    assert f["points"][2] == pytest.approx(1 / 26) and f["hand_sizes"][2] == pytest.approx(11 / 13)
    assert f["decision"].tolist() == [0, 0, 0, 0, 0, 1]  # seat 1 is to play, not seat 2
    assert f["card_values"][parse_card("QS")] == 1.0 and f["dealer"].tolist() == [0, 1, 0, 0]
    assert f["hand"].sum() == 12


def test_two_decks_are_encoded_as_counts() -> None:
    env = hearts_v0.raw_env("cancellation_hearts", players=8)
    env.reset(seed=3)
    for agent in env.possible_agents:
        seat = env.agent_name_mapping[agent]
        hand = env.game.observation(seat).hand
        plane = env.encoding.decode(env.observe(agent)["observation"])["hand"]
        assert plane.sum() == len(hand) and plane.max() <= 2
        assert all(plane[c] == hand.count(c) for c in hand)


def test_docs_table_is_the_encoding() -> None:
    text = (Path(__file__).parent.parent / "docs" / "env.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\S+) \|", text, re.M)
    enc = Encoding(Rules.preset("standard"))
    assert [(name, int(off), size) for name, off, size in rows] == [
        (f.name, enc.offsets[f.name], f.size.replace("*", "×")) for f in FIELDS
    ]
    assert f"{enc.size} numbers" in text


def test_render_modes_show_the_seat_to_act(capsys: pytest.CaptureFixture[str]) -> None:
    ansi = hearts_v0.raw_env("standard", render_mode="ansi")
    ansi.reset(seed=1)
    text = ansi.render()
    assert text is not None and text.startswith("Hand 1 of standard") and "Seat 0 to choose: pass cards" in text
    human = hearts_v0.raw_env("standard", render_mode="human", lang="es")
    human.reset(seed=1)
    human.step(int(np.flatnonzero(human.observe("player_0")["action_mask"])[0]))
    shown = capsys.readouterr().out
    assert "Mano 1 de standard" in shown
    with pytest.raises(ValueError, match="render_mode = 'rgb' is not allowed"):
        hearts_v0.raw_env(render_mode="rgb")
    with pytest.raises(ValueError, match="reward = 'moon' is not allowed; one of: deal, game"):
        hearts_v0.raw_env(reward="moon")


def test_resets_take_chosen_deals() -> None:
    rules = Rules.preset("standard")
    deals = [Game(rules, seed=s) for s in (1, 2)]
    positions = [Position(rules, tuple(tuple(g.deal.hand(s)) for s in range(4)), dealer=g.dealer) for g in deals]
    env = hearts_v0.raw_env(rules=rules, positions=positions)
    for i in range(6):
        env.reset(seed=i)
        assert env.game.observation(2).hand in (positions[0].hands[2], positions[1].hands[2])
    for p in positions:  # a chosen one, in order
        env.reset(options={"position": p})
        assert env.game.observation(2).hand == p.hands[2]
    env.reset(seed=0, options={"position": positions[1], "single_deal": True})
    assert env.game.rules.hands == 1
    five = Game(Rules.preset("omnibus", players=5), seed=1)
    other = Position.of(five.rules, [five.deal.hand(s) for s in range(5)])
    with pytest.raises(ValueError, match="the position is for 5 players; the environment has 4"):
        env.reset(options={"position": other})


# ------------------------------------------------------------------ Gymnasium
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_env_passes_the_checker_and_plays_against_bots() -> None:
    check_env(HeartsEnv(opponents="random", illegal="random"))
    env = gymnasium.make(ENV_ID, opponents=["beginner", "standard", "random"], seat=2)
    obs, info = env.reset(seed=3)
    total, done, steps = 0.0, False, 0
    while not done:
        assert obs.shape == env.observation_space.shape
        action = int(np.flatnonzero(info["action_mask"])[-1])
        obs, reward, done, _, info = env.step(action)
        total += reward
        steps += 1
    game = env.unwrapped.table.game
    assert total == -game.scores[2] and game.over
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        HeartsEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="opponents must name 3 bots"):
        HeartsEnv(opponents=["random"])
    strict = HeartsEnv(opponents="random")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="player_0 is passing"):
        strict.step(57)


def test_gymnasium_env_is_reproducible_from_its_seed() -> None:
    runs = []
    for _ in range(2):
        env = HeartsEnv(opponents="standard", target=30)
        obs, info = env.reset(seed=12)
        trace = [obs.copy()]
        done = False
        while not done:
            obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            trace.append(np.append(obs, reward))
        runs.append(np.concatenate(trace))
    assert np.array_equal(runs[0], runs[1])


# --------------------------------------------------------------------- batches
def test_vector_self_play_steps_every_game_and_restarts_finished_ones() -> None:
    vec = HeartsVector(6, "black_maria", target=20)
    obs, mask = vec.reset(seed=5)
    assert obs.shape == (6, vec.observation_size) and mask.shape == (6, vec.action_size)
    rng = np.random.default_rng(0)
    totals = np.zeros((6, 3))
    finished = 0
    for _ in range(400):
        acting = vec.seats.copy()
        for i in range(6):
            assert mask[i].any() and vec.tables[i].seat() == acting[i]
        obs, mask, rewards, dones = vec.step([rng.choice(np.flatnonzero(m)) for m in mask])
        assert rewards.shape == (6, 3) and dones.shape == (6,)
        totals += rewards
        finished += int(dones.sum())
    assert finished > 0 and totals.sum() < 0


def test_vector_against_bots_matches_the_single_env_shapes_and_is_seeded() -> None:
    def run() -> np.ndarray:
        vec = HeartsVector(3, opponents="beginner", seat=1)
        obs, mask = vec.reset(seed=7)
        out = [obs]
        for _ in range(60):
            obs, mask, rewards, _ = vec.step([int(np.flatnonzero(m)[0]) for m in mask])
            assert rewards.shape == (3,) and (vec.seats == 1).all()
            out.append(obs)
        return np.stack(out)

    assert np.array_equal(run(), run())
    with pytest.raises(ValueError, match="step needs 3 actions"):
        vec = HeartsVector(3, opponents="beginner")
        vec.reset(seed=1)
        vec.step([0])
    assert card_str(0) == "2C"
