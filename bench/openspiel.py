"""The public ``Game`` API beside OpenSpiel's C++ ``hearts`` driven from Python, in one run.

Both play whole random deals of the same game (four players, pass, Q♠ 13,
hearts 1, moon adds 26 to the others: ``rules_from_openspiel()``) from a
Python loop with uniformly random legal choices:

* ``corazones`` -- ``Game.legal_actions`` / ``Game.apply`` (every action
  validated: a play object from ``legal_actions`` against ``Deal.legal_mask``,
  anything else the full way), a pass as one ``Action`` of three cards;
* ``openspiel`` -- ``state.legal_actions()`` / ``state.apply_action()``
  (chance outcomes for the pass direction and the 52 dealt cards, passes card
  by card), as OpenSpiel's own Python examples drive it.

Rates are whole deals per second of this process's CPU time.  The two
engines take turns (``--rounds``, each engine ``--seconds`` a round), so load
from other work on the machine falls on both alike; the last line gives the
median of the rounds' ratios.  OpenSpiel is optional (``pip install
open_spiel``); without it only Corazones is timed.

    python3 bench/openspiel.py
    python3 bench/openspiel.py --seconds 10 --rounds 5
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from corazones.core import Game, Kind
from corazones.core import deal as deal_module
from corazones.core import game as game_module
from corazones.core.actions import Action
from corazones.core.native import is_compiled
from corazones.core.openspiel import rules_from_openspiel


def run_corazones(seconds: float, seed: int) -> tuple[int, float]:
    rules = rules_from_openspiel().replace(hands=1, target=None, tie_break="shared")
    rng = random.Random(seed)
    deals = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        game = Game(rules, seed=f"bench/{seed}/{deals}")
        while not game.over:
            seat = game.to_act()[0]
            if game.decision_kind() is Kind.PASS:
                game.apply(Action.pass_cards(seat, rng.sample(game.deal.hand(seat), rules.pass_count)))
            else:
                actions = game.legal_actions(seat)
                game.apply(actions[rng.randrange(len(actions))])
        deals += 1
        elapsed = time.process_time() - start
    return deals, elapsed


def run_openspiel(seconds: float, seed: int) -> tuple[int, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    deals = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
        deals += 1
        elapsed = time.process_time() - start
    return deals, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per engine (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of both engines in turn (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not args.seconds > 0:  # no time, no deal: a rate would divide by zero
        parser.error(f"--seconds must be more than 0, not {args.seconds}")
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, not {args.rounds}")
    compiled = [is_compiled(m) for m in (deal_module, game_module)]
    build = "compiled (mypyc)" if all(compiled) else "mixed" if any(compiled) else "pure Python"
    print(f"{platform.python_implementation()} {platform.python_version()}; corazones build: {build}")
    print(f"{'round':5s} {'engine':12s} {'deals':>8s} {'cpu s':>7s} {'deals/s':>9s}")
    ratios = []
    for r in range(1, args.rounds + 1):
        rates = {}
        for name, run in (("corazones", run_corazones), ("openspiel", run_openspiel)):
            got = run(args.seconds, args.seed + r)
            if got is None:
                print(f"{r:<5d} {name:12s} (not installed: pip install open_spiel)")
                continue
            deals, elapsed = got
            rates[name] = deals / elapsed
            print(f"{r:<5d} {name:12s} {deals:8d} {elapsed:7.2f} {rates[name]:9,.0f}", flush=True)
        if len(rates) == 2:
            ratios.append(rates["corazones"] / rates["openspiel"])
    if ratios:
        shown = ", ".join(f"{x:.2f}" for x in ratios)
        print(f"corazones / openspiel: median {statistics.median(ratios):.2f} (rounds: {shown})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
