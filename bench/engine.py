"""Random-play throughput of the rules engine: whole deals per second and card plays per second.

A deal is the shuffle and deal, the pass (the rules' cycle: left, right,
across, hold with four players) and every trick, with uniformly random legal
choices.  Two ways of driving the engine are measured:

* ``api``  -- the public :class:`~corazones.core.game.Game` API: ``legal_actions``
  and ``apply`` with full validation, whole games one hand after another;
* ``fast`` -- :func:`corazones.core.simulate.simulate`: ``Deal.legal_mask`` and
  ``Deal.play_card`` without validation, as Monte-Carlo playouts use them.

Rates are per second of this process's CPU time (``time.process_time``), so
other work on the machine disturbs them less than wall-clock time would; the
engine runs on one core.

Cases: ``standard`` (four players) and ``cancellation8`` (Cancellation Hearts,
two decks, eight players).  The target for ``standard`` / ``fast`` is 12,000
deals per second on one core, which needs the compiled build
(``CORAZONES_COMPILE=1 python3 -m pip install -e .``, see the README); the
line ``build:`` says which one is loaded.

    python3 bench/engine.py                      # every case and mode, 3 s each
    python3 bench/engine.py --seconds 10 --mode fast --case standard
    python3 bench/engine.py --check              # fixed-seed totals, to compare two builds
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable

from corazones.core import Game, Kind, Rules
from corazones.core import deal as deal_module
from corazones.core import game as game_module
from corazones.core import simulate as simulate_module
from corazones.core.actions import Action
from corazones.core.deal import Deal
from corazones.core.native import is_compiled
from corazones.core.rules import PRESETS
from corazones.core.simulate import simulate
from corazones.players import rollout as rollout_module
from corazones.players.rollout import Context, play_out
from corazones.players.standard import StandardBot
from variants import USUAL_PLAYERS

CASES: dict[str, Callable[[], Rules]] = {
    "standard": lambda: Rules.preset("standard"),
    "cancellation8": lambda: Rules.preset("cancellation_hearts", players=8),
}
MODES = ("api", "fast")


def build_name() -> str:
    """Which build of the hot modules is loaded (``pip install -e .`` compiles them when it can)."""
    modules = (deal_module, game_module, simulate_module, rollout_module)
    if all(is_compiled(m) for m in modules):
        return "compiled (mypyc)"
    if any(is_compiled(m) for m in modules):
        return "mixed: " + ", ".join(f"{m.__name__} {'compiled' if is_compiled(m) else 'pure'}" for m in modules)
    return "pure Python"


def run_api(rules: Rules, seconds: float, seed: int) -> tuple[int, int, float]:
    """Whole games through ``Game.legal_actions`` / ``Game.apply``; (deals, plays, CPU seconds)."""
    rng = random.Random(seed)
    deals = plays = 0
    game_no = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        game = Game(rules, seed=f"bench/{seed}/{game_no}")
        game_no += 1
        while not game.over and elapsed < seconds:
            hand = game.hand_index
            while game.hand_index == hand and not game.over:
                seat = game.to_act()[0]
                kind = game.decision_kind()
                if kind is Kind.PASS:
                    action = Action.pass_cards(seat, rng.sample(game.deal.hand(seat), rules.pass_count))
                else:
                    action = rng.choice(game.legal_actions(seat))
                    if kind is Kind.PLAY:
                        plays += 1
                game.apply(action)
            deals += 1
            elapsed = time.process_time() - start
    return deals, plays, elapsed


def run_fast(rules: Rules, seconds: float, seed: int) -> tuple[int, int, float]:
    """Independent random hands through :func:`simulate`; (deals, plays, CPU seconds)."""
    deals = plays = 0
    chunk = 50
    batch = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        sim = simulate(rules, chunk, seed=f"bench/{seed}/{batch}")
        batch += 1
        deals += sim.deals
        plays += sim.plays
        elapsed = time.process_time() - start
        if elapsed < seconds / 20:
            chunk *= 2  # keep the clock out of the measurement
    return deals, plays, elapsed


#: Presets whose hands the expert's playout policy plays in :func:`check`.
POLICY_CASES = (
    ("standard", {}),
    ("black_maria", {}),
    ("omnibus", {}),
    ("spot_hearts", {}),
    ("partnership", {}),
    ("kitty", {"players": 5}),
    ("cancellation_hearts", {"players": 8}),
    ("chasse_coeur", {}),
)


def policy_totals(rules: Rules, deals: int) -> list[int]:
    """Points per seat over ``deals`` shuffled hands played to the end by the expert's playout policy."""
    totals = [0] * rules.players
    for i in range(deals):
        deck = list(rules.deck)
        random.Random(i).shuffle(deck)
        size = rules.hand_size
        hands = [deck[s * size : (s + 1) * size] for s in range(rules.players)]
        d = Deal.at_play(rules, hands, deck[rules.players * size :])
        play_out(d, Context(d))
        for s in range(rules.players):
            totals[s] += d.pts[s]
    return totals


def standard_totals(rules: Rules, hands: int) -> list[int]:
    """Every seat's score after ``hands`` hands of ``standard`` players (compiled: its pass, bids and cards)."""
    g = Game(rules.replace(target=None, hands=hands), seed=7)
    bots = [StandardBot(s) for s in range(rules.players)]
    while not g.over:
        for s in g.to_act():
            g.apply(bots[s].act(g.observation(s)))
    return list(g.scores)


def check(deals: int) -> None:
    """Print fixed-seed totals of random playouts, policy playouts and ``standard`` games; two builds must agree."""
    for name, make in CASES.items():
        sim = simulate(make(), deals, seed=1)
        print(f"{name:14s} {sim!r}")
    for name, kw in POLICY_CASES:
        print(f"policy {name:20s} {policy_totals(Rules.preset(name, **kw), deals // 4)}")
    for name in PRESETS:
        players = USUAL_PLAYERS.get(name)  # at the table size bench/variants.py plays it
        rules = Rules.preset(name, players=players) if players else Rules.preset(name)
        print(f"standard {name:20s} {standard_totals(rules, max(1, deals // 100))}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per case and mode (default 3)")
    parser.add_argument("--case", choices=[*CASES, "all"], default="all")
    parser.add_argument("--mode", choices=[*MODES, "all"], default="all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="print fixed-seed totals instead of timing")
    args = parser.parse_args(argv)
    if not args.seconds > 0:  # no time, no deal: a rate would divide by zero
        parser.error(f"--seconds must be more than 0, not {args.seconds}")

    print(f"build: {build_name()}  ({platform.python_implementation()} {platform.python_version()})")
    if args.check:
        check(2000)
        return 0
    cases = list(CASES) if args.case == "all" else [args.case]
    modes = list(MODES) if args.mode == "all" else [args.mode]
    print(f"{'case':14s} {'mode':5s} {'deals':>8s} {'cpu s':>8s} {'deals/s':>10s} {'plays/s':>12s}")
    for name in cases:
        rules = CASES[name]()
        for mode in modes:
            runner = run_api if mode == "api" else run_fast
            deals, plays, elapsed = runner(rules, args.seconds, args.seed)
            print(
                f"{name:14s} {mode:5s} {deals:8d} {elapsed:8.2f} {deals / elapsed:10,.0f} {plays / elapsed:12,.0f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
