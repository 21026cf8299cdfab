"""How the expert's playout policy plays next to ``standard``: how often it picks the same card.

The expert's search plays every sampled deal to its end with the fast mask
policy of ``corazones/players/rollout.py``, for every seat: that policy is its
model of the other players and of its own later cards.  This script plays
``--deals`` deals of four (or ``--players``) ``standard`` players and, at every
card with a choice, asks the policy (as the ``heuristic`` player, from the same
observation) which card it would play.  It prints how often the two agree, by
situation (leading, following suit, void in the suit led) and by the part of
the hand (first, middle and last third of the tricks).

It takes seconds, so it is the first check of a change to the policy; whether
the change makes the expert stronger is then for ``bench/bots.py`` to say,
over many deals (``docs/bots.md``, "Standard rules": a policy closer to
``standard`` is not stronger by itself).  Usage::

    python3 bench/policy.py                        # 200 deals, standard rules
    python3 bench/policy.py --deals 50 --rules black_maria
"""

from __future__ import annotations

import argparse
from collections import Counter

from corazones.core import Game, Kind, Rules
from corazones.core.observation import Observation
from corazones.players.heuristic_bot import HeuristicBot
from corazones.players.registry import make_player

SITUATIONS = ("lead", "follow", "void")
PARTS = ("first", "middle", "last")


def situation(obs: Observation) -> str:
    """Whether the seat leads, follows suit or is void in the suit led."""
    if not obs.trick:
        return "lead"
    led = obs.trick[0][1] // 13
    return "follow" if any(c // 13 == led for c in obs.hand) else "void"


def part(obs: Observation) -> str:
    """Which third of the hand's tricks the decision falls in."""
    tricks = len(obs.tricks) + len(obs.hand)
    return PARTS[min(2, 3 * len(obs.tricks) // max(tricks, 1))]


def agreement(rules: Rules, deals: int, seed: str) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]]]:
    """(decisions, agreements) by (situation, part) over ``deals`` deals of ``standard`` players."""
    total: Counter[tuple[str, str]] = Counter()
    same: Counter[tuple[str, str]] = Counter()
    policy = HeuristicBot(0)
    for g in range(deals):
        game = Game(rules, seed=f"{seed}/{g}")
        bots = [make_player("standard", seed=f"{seed}/{g}/{s}") for s in range(rules.players)]
        hand = game.hand_index
        while not game.over and game.hand_index == hand:
            for seat in game.to_act():
                obs = game.observation(seat)
                action = bots[seat].act(obs)
                if game.decision_kind() is Kind.PLAY and len(game.legal_actions(seat)) > 1:
                    key = (situation(obs), part(obs))
                    total[key] += 1
                    same[key] += policy.choose_play(obs) == action.card
                game.apply(action)
    return total, same


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200, help="deals of standard players (default 200)")
    ap.add_argument("--rules", default="standard", help="rules preset (default standard)")
    ap.add_argument("--players", type=int, default=None, help="players (default: the preset's)")
    ap.add_argument("--seed", default="policy", help="base seed (default 'policy')")
    ns = ap.parse_args()
    if ns.deals < 1:
        ap.error(f"--deals must be at least 1, not {ns.deals}")
    rules = Rules.preset(ns.rules, players=ns.players) if ns.players else Rules.preset(ns.rules)
    total, same = agreement(rules, ns.deals, ns.seed)
    print(f"{rules.name}, {rules.players} players, {ns.deals} deals of standard players, seed {ns.seed!r}")
    print(f"the policy plays standard's card (decisions with a choice): {', '.join(PARTS)} third of the hand, all")
    for sit in SITUATIONS:
        cells = []
        for p in PARTS:
            n = total[(sit, p)]
            cells.append(f"{same[(sit, p)] / n:6.1%} of {n:5d}" if n else f"{'-':>6} of {0:5d}")
        n_all = sum(total[(sit, p)] for p in PARTS)
        s_all = sum(same[(sit, p)] for p in PARTS)
        print(f"  {sit:6s}  " + "   ".join(cells) + (f"   | {s_all / n_all:6.1%}" if n_all else ""))
    n = sum(total.values())
    if n:
        print(f"  all     {sum(same.values()) / n:6.1%} of {n} decisions")


if __name__ == "__main__":
    main()
