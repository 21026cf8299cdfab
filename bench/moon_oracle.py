"""What knowing the shooter is worth: expert defenders told which ``moonshot`` is aiming (measurement only).

A bound, not a player.  It plays ``bench/moon.py``'s boards of
``expert/moonshot`` (the same seeds, seats and rotations, both sides with the
time limit off), but each expert is told, at every card it searches, which
``moonshot`` seat's last decision chose the moon plan (its ``aiming`` flag)
while that seat's moon is still open (no other seat has a point): its moon
watch then names that seat at the full level, so the search plays every
sampled deal against that seat's moon.  The moonshots pass first, so their
plans are known from the first card; the experts' passes are their own (the
pass search has no watch).  With ``--no-oracle`` the experts play exactly as in
``bench/moon.py`` (the same boards come out move for move), which is the check
that the harness plays the arena's boards.

No bot can read another's ``aiming`` at a table: this tells how far a perfect
reading of the shooter from its play could take today's card-play defence,
and so whether a better reading is worth building (``docs/bots.md``).

    python3 bench/moon_oracle.py --boards 100                    # seed moon, both cores
    python3 bench/moon_oracle.py --boards 100 --charge 0.5 --stoppers
"""

from __future__ import annotations

import argparse
import csv
import math
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from corazones.core import Game, Rules
from corazones.players.expert import ExpertBot
from corazones.players.heuristics import View
from corazones.players.moonshot import MoonshotBot
from corazones.services.arena import ArenaConfig


class Told(ExpertBot):
    """An expert whose moon watch is told which moonshot is aiming (see the module text)."""

    def __init__(self, seed: str, shooters: list[tuple[int, MoonshotBot]], oracle: bool, **kwargs: Any) -> None:
        super().__init__(seed, time_limit=None, **kwargs)
        self.shooters = shooters
        self.oracle = oracle

    def _watch(self, view: View) -> tuple[int, float]:
        if self.oracle:
            pts = view.obs.points_taken
            for seat, bot in self.shooters:
                if bot.aiming and not any(pts[s] for s in range(len(pts)) if s != seat):
                    return seat, 1.0
        return super()._watch(view)


def play_board(task: tuple[str, int, int, bool, float, bool, int]) -> tuple[int, int, float, float, int]:
    """(board, rotation, experts' mean points, moonshots' mean points, 1 if a moonshot shot the moon)."""
    seed, board, rot, oracle, charge, stoppers, worlds = task
    budget: dict[str, int] = {"worlds": worlds, "pass_worlds": 2 * worlds} if worlds else {}
    cfg = ArenaConfig(("expert", "moonshot"), Rules.preset("standard"), boards=board + 1, seed=seed)
    owners = cfg.owners(rot)
    game = Game(cfg.board_rules(board), seed=cfg.board_seed(board))
    shooters: list[tuple[int, MoonshotBot]] = []
    players: list[ExpertBot] = []
    for s in range(4):
        if owners[s] == 1:
            bot = MoonshotBot(cfg.bot_seed(board, rot, s), time_limit=None, **budget)
            shooters.append((s, bot))
            players.append(bot)
        else:
            players.append(
                Told(cfg.bot_seed(board, rot, s), shooters, oracle, moon_charge=charge, stoppers=stoppers, **budget)
            )
    while not game.over and game.hand_index < 1:
        for seat in sorted(game.to_act(), key=lambda s: owners[s] == 0):  # moonshots first in the pass
            game.apply(players[seat].act(game.observation(seat)))
    result = game.history[0]
    mine = [result.scores[s] for s in range(4) if owners[s] == 0]
    theirs = [result.scores[s] for s in range(4) if owners[s] == 1]
    moon = int(result.shooter is not None and owners[result.shooter] == 1)
    return board, rot, sum(mine) / len(mine), sum(theirs) / len(theirs), moon


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--seed", default="moon")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-oracle", action="store_true", help="the experts are not told (plays as bench/moon.py)")
    ap.add_argument("--charge", type=float, default=0.0, help="the experts' moon_charge (default 0, today's)")
    ap.add_argument("--stoppers", action="store_true", help="the experts' playout defenders keep their stoppers")
    ap.add_argument("--out", help="write every deal (board, rotation, both sides' mean points, moon) to this CSV file")
    ap.add_argument("--worlds", type=int, default=0, help="sampled deals a card for every bot (default: the levels')")
    args = ap.parse_args(argv)
    for name in ("boards", "jobs"):  # no board gives no figure; no process plays none
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, not {getattr(args, name)}")
    tasks = [
        (args.seed, b, rot, not args.no_oracle, args.charge, args.stoppers, args.worlds)
        for b in range(args.boards)
        for rot in (0, 1)
    ]
    with ProcessPoolExecutor(args.jobs) as ex:
        rows = list(ex.map(play_board, tasks))
    if args.out:
        with open(args.out, "x", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow(["board", "rotation", "expert", "moonshot", "moon"])
            out.writerows(rows)
    moons = sum(r[4] for r in rows)
    adv: dict[int, float] = {}
    for board, _rot, mine, theirs, _moon in rows:
        adv[board] = adv.get(board, 0.0) + (theirs - mine) / 2
    xs = list(adv.values())
    mean = sum(xs) / len(xs)
    half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in xs) / max(1, len(xs) - 1) / len(xs))
    told = "told who aims" if not args.no_oracle else "not told"
    print(
        f"expert ({told}, charge {args.charge}, stoppers {args.stoppers}) vs moonshot, seed {args.seed}: "
        f"{moons} moons suffered in {len(rows)} deals = {moons / len(rows):.1%}; "
        f"advantage {mean:+.2f} points/deal (95% CI {mean - half:+.2f} to {mean + half:+.2f})"
    )
    for board, rot, mine, theirs, moon in rows:
        if moon:
            print(f"  moon: board {board}, rotation {rot} (experts {mine:.1f}, moonshots {theirs:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
