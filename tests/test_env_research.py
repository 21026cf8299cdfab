"""What a researcher relies on: seeded resets with positions, masks only for the agent to act, random pass
directions, the illegal-action convention, the perfect-recall information state and the privileged state."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the env extra is not installed (pip install 'corazones[env]')")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

from corazones.core import Game, Rules
from corazones.core.position import Position
from corazones.env import HeartsEnv, hearts_v0
from corazones.env.encoding import INFO_FIELDS, InfoStateEncoding
from corazones.env.vector import HeartsVector

DOCS = Path(__file__).parent.parent / "docs" / "env.md"


def positions_of(rules: Rules, seeds: range) -> list[Position]:
    games = [Game(rules, seed=s) for s in seeds]
    return [
        Position(rules, tuple(tuple(g.deal.hand(s)) for s in range(rules.players)), tuple(g.deal.kitty), g.dealer)
        for g in games
    ]


STANDARD_POSITIONS = positions_of(Rules.preset("standard"), range(1, 6))


# ------------------------------------------------------------------ 1. positions and seeds
def test_the_seed_chooses_the_position_reproducibly() -> None:
    env = hearts_v0.raw_env(positions=STANDARD_POSITIONS)
    hands = []
    for seed in (0, 0, 3, 3):
        env.reset(seed=seed)
        hands.append(env.game.observation(0).hand)
    assert hands[0] == hands[1] and hands[2] == hands[3]
    seen = set()
    for seed in range(30):
        env.reset(seed=seed)
        seen.add(env.game.observation(0).hand)
    assert seen == {p.hands[0] for p in STANDARD_POSITIONS}  # every position is reachable
    gym = HeartsEnv(opponents="random", positions=STANDARD_POSITIONS)
    first = [gym.reset(seed=5)[0], gym.reset(seed=5)[0]]
    assert np.array_equal(*first)


@pytest.mark.parametrize("positions", [None, STANDARD_POSITIONS], ids=["dealt", "positions"])
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_and_gymnasium_checks_pass_with_and_without_positions(positions: Any) -> None:
    kw = {"positions": positions}
    api_test(hearts_v0.env(**kw), num_cycles=1000)
    seed_test(lambda: hearts_v0.env(**kw), num_cycles=300)
    parallel_api_test(hearts_v0.parallel_env(**kw), num_cycles=1000)
    check_env(HeartsEnv(opponents="random", illegal="random", **kw))


# ------------------------------------------------------------------ 2. masks
def test_only_the_agent_to_act_has_a_non_zero_mask() -> None:
    env = hearts_v0.raw_env()
    env.reset(seed=0)
    rng = random.Random(0)
    for _ in range(80):
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            assert (mask.sum() > 0) == (agent == env.agent_selection), agent
        env.step(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist()))


# ------------------------------------------------------------------ 3. pass direction of one-deal episodes
def test_one_deal_episodes_can_draw_the_pass_direction_from_the_seed() -> None:
    default = hearts_v0.raw_env(hands=1)
    directions = set()
    for seed in range(12):
        default.reset(seed=seed)
        directions.add(default.game.deal.pass_direction)
    assert directions == {"left"}  # the default: the rules' cycle, whose first hand passes left
    env = hearts_v0.raw_env(hands=1, pass_direction="random")
    drawn = []
    for seed in range(40):
        env.reset(seed=seed)
        drawn.append(env.game.deal.pass_direction)
        env.reset(seed=seed)
        assert env.game.deal.pass_direction == drawn[-1]
    assert set(drawn) == {"left", "right", "across", "hold"}
    assert 4 <= drawn.count("hold") <= 18
    vec = HeartsVector(8, hands=1, pass_direction="random")
    vec.reset(seed=2)
    assert len({t.game.deal.pass_direction for t in vec.tables if t.game is not None}) > 1
    with pytest.raises(ValueError, match="pass_direction = 'up' is not allowed; one of: rules, random"):
        hearts_v0.raw_env(pass_direction="up")


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_random_pass_directions_pass_the_api_and_seed_tests() -> None:
    api_test(hearts_v0.env(hands=1, pass_direction="random"), num_cycles=300)
    seed_test(lambda: hearts_v0.env(hands=1, pass_direction="random"), num_cycles=300)


# ------------------------------------------------------------------ 4. illegal actions
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_terminate_on_illegal_actions_follows_pettingzoo() -> None:
    def run(env: Any) -> list[tuple[str, float, bool, bool]]:
        env.reset(seed=1)
        rng = random.Random(1)
        for _ in range(20):
            env.step(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist()))
        offender = env.agent_selection
        bad = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
        env.step(bad)
        out = []
        for agent in env.agent_iter():
            _, reward, term, trunc, _ = env.last()
            out.append((agent, reward, term, trunc))
            env.step(None)
        assert out and all(term for _, _, term, _ in out)
        assert {a: r for a, r, _, _ in out}[offender] == -5.0
        return out

    ours = run(hearts_v0.env(illegal="terminate", illegal_reward=-5))
    theirs = run(TerminateIllegalWrapper(hearts_v0.raw_env(), illegal_reward=-5))
    assert sorted(ours) == sorted(theirs)
    assert sum(r for _, r, _, _ in ours) == -5.0
    api_test(hearts_v0.env(illegal="terminate"), num_cycles=300)
    with pytest.raises(ValueError, match="illegal = 'ignore' is not allowed; one of: raise, terminate, random"):
        hearts_v0.raw_env(illegal="ignore")
    strict = hearts_v0.raw_env()
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="player_0 is passing"):
        strict.step(57)


# ------------------------------------------------------------------ 5. docs
def test_one_hand_ends_a_tied_game_unless_quick() -> None:
    """``hands=1`` ends on a tie (the agreed hands are played); only ``quick`` plays another hand."""
    rules = Rules.preset("standard", hands=1)
    for seed in range(400):
        env = hearts_v0.raw_env(rules=rules)
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        game = env.game
        if len(game.winners) > 1:
            assert len(game.history) == 1
            break
    else:
        pytest.fail("no tie in 400 random deals")
    text = " ".join(DOCS.read_text().split())
    assert "with the default `play_on` a tie for lowest plays another hand" not in text
    assert "`hands=1` alone is one deal" in text


def test_docs_say_how_openspiel_histories_come_back() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from corazones.core.openspiel import card_from_openspiel, game_from_openspiel, openspiel_history

    game = pyspiel.load_game("hearts")
    state = game.new_initial_state()
    rng = random.Random(3)
    while len(state.history()) < 80:
        state.apply_action(rng.choice(state.legal_actions()))
    history = state.history()
    back = openspiel_history(game_from_openspiel(history))
    assert back != history  # the deal is not kept in the order it was dealt
    deal = [sorted(history[1 + p : 53 : 4], key=card_from_openspiel) for p in range(4)]
    canonical = [history[0], *(deal[i % 4][i // 4] for i in range(52))]
    passes = [sorted(history[53 + 3 * s : 56 + 3 * s], key=card_from_openspiel) for s in range(4)]
    canonical += [c for p in passes for c in p] + history[65:]
    assert back == canonical
    text = " ".join(DOCS.read_text().split())
    assert "openspiel_history(game) == history)    # back again (True" not in text
    assert "each seat's dealt cards come back lowest first" in text


# ------------------------------------------------------------------ 6. information state and privileged state
def test_the_information_state_keeps_the_order_of_the_tricks_and_their_winners() -> None:
    env = hearts_v0.raw_env(observation="info_state")
    env.reset(seed=4)
    enc = env.encoding
    assert isinstance(enc, InfoStateEncoding) and enc.size == 747 + 52 + 13 * 7 * 52 + 13 * 4
    assert env.observation_space("player_0")["observation"].shape == (enc.size,)
    rng = random.Random(4)
    for _ in range(12 + 4 * 5 + 2):  # passes, five tricks, two cards of the sixth
        env.step(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist()))
    seat = 1
    obs = env.game.observation(seat)
    f = enc.decode(env.observe("player_1")["observation"])
    compact = hearts_v0.raw_env()
    compact.reset(seed=4)
    assert f["hand"].tolist() == enc.decode(enc.encode(obs))["hand"].tolist()
    dealt = Game(Rules.preset("standard"), seed=env.game.seed).deal.hand(seat)
    assert np.flatnonzero(f["dealt"]).tolist() == sorted(dealt) or f["dealt"].sum() == 13
    tricks = f["tricks"].reshape(13, 7, 52)
    for i, t in enumerate(obs.tricks):
        lead = (t.leader - seat) % 4
        for k, (_, card) in enumerate(t.plays):
            assert tricks[i, lead + k, card] == 1
        assert f["winners"].reshape(13, 4)[i, (t.winner - seat) % 4] == 1
    current = tricks[len(obs.tricks)]
    lead = (obs.trick_leader - seat) % 4
    assert [int(np.flatnonzero(current[lead + k])[0]) for k in range(len(obs.trick))] == [c for _, c in obs.trick]
    assert tricks.sum() == 4 * 5 + 2 and f["winners"].sum() == 5
    assert (
        (enc.low <= env.observe("player_1")["observation"]) & (env.observe("player_1")["observation"] <= enc.high)
    ).all()
    assert [field.name for field in INFO_FIELDS] == ["dealt", "tricks", "winners"]


def test_the_information_state_reads_only_the_observation() -> None:
    """Seat 0's tensor is the same whoever holds the cards it cannot see, after the same tricks."""
    rules = Rules.preset("standard", passes=("hold",))
    # seat 0 all clubs, 1 diamonds, 2 spades, 3 hearts; then swap two hidden cards (AD, AS) between seats 1 and 2
    suits = [[s * 13 + r for r in range(13)] for s in (0, 1, 2, 3)]
    swapped = [list(h) for h in suits]
    swapped[1][12], swapped[2][12] = swapped[2][12], swapped[1][12]
    envs = []
    for hands in (suits, swapped):
        env = hearts_v0.raw_env(rules=rules, observation="info_state")
        env.reset(seed=1, options={"position": Position.of(rules, [sorted(h) for h in hands], dealer=3)})
        for card in (0, 13, 26, 39, 1):  # 2C 2D 2S 2H, then 3C: nobody has played the swapped aces
            env.step(card)
        envs.append(env)
    a, b = (e.observe("player_0")["observation"] for e in envs)
    assert np.array_equal(a, b)
    assert not np.array_equal(envs[0].observe("player_2")["observation"], envs[1].observe("player_2")["observation"])


def test_dealt_cards_are_the_seats_hand_before_the_pass() -> None:
    env = hearts_v0.raw_env(observation="info_state")
    env.reset(seed=6)
    before = {s: sorted(env.game.observation(s).hand) for s in range(4)}
    rng = random.Random(6)
    for _ in range(12 + 9):
        env.step(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist()))
        for s in range(4):
            dealt = env.encoding.decode(env.observe(f"player_{s}")["observation"])["dealt"]
            assert np.flatnonzero(dealt).tolist() == before[s] and dealt.sum() == 13


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_info_state_envs_pass_the_checks() -> None:
    api_test(hearts_v0.env(observation="info_state"), num_cycles=300)
    check_env(HeartsEnv(opponents="random", illegal="random", observation="info_state"))
    with pytest.raises(ValueError, match="observation = 'full' is not allowed; one of: compact, info_state"):
        hearts_v0.raw_env(observation="full")


def test_the_privileged_state_is_off_by_default_and_holds_every_hand() -> None:
    env = hearts_v0.raw_env()
    env.reset(seed=2)
    with pytest.raises(ValueError, match="privileged"):
        env.state()
    assert not hasattr(env, "state_space")
    kitty = hearts_v0.raw_env("kitty", players=5, privileged_state=True)
    kitty.reset(seed=2)
    state = kitty.state()
    assert kitty.state_space.contains(state)
    size = kitty.encoding.size
    for s in range(5):
        block = kitty.encoding.decode(state[s * size : (s + 1) * size])
        assert np.flatnonzero(block["hand"]).tolist() == sorted(kitty.game.observation(s).hand)
    assert np.flatnonzero(state[5 * size :]).tolist() == sorted(kitty.game.deal.kitty) and kitty.game.deal.kitty
    # the agents' own observations are unchanged by it
    assert np.array_equal(kitty.observe("player_1")["observation"], state[size : 2 * size])


def test_docs_table_is_the_information_state() -> None:
    import re

    text = DOCS.read_text()
    names = "|".join(f.name for f in INFO_FIELDS)
    rows = re.findall(rf"^\| `({names})` \| (\S+) \|", text, re.M)
    assert rows == [(f.name, f.size.replace("*", "×").replace("-", "−")) for f in INFO_FIELDS]
    enc = InfoStateEncoding(Rules.preset("standard"))
    assert f"{enc.size:,} numbers" in text
