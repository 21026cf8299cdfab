"""Expert against standard in every preset, in duplicate, with the 95% interval (not a timed test).

Each preset is played at its usual player count (Cancellation Hearts with 8,
the kitty with 5, the rest at the preset's own count); ``--deals`` boards of
one deal each, every board replayed with the seats rotated, so both levels
hold the same cards.  The script prints one Markdown row per preset: the
expert's advantage (standard's points per deal minus the expert's; positive
= expert better; chips lost per deal under the chip settlements) with its
CI, both levels' figures, the moons, and the expert's move time.

Target (issue "Stop the moon, and be expert in every variant"): the expert
beats standard with the CI clear of 0 in every preset.  A row marks ``yes``
when the CI is above 0, ``no`` when it is below, ``?`` when it straddles 0; the last
line counts the presets where it is clearly ahead (the exit status is 0 either way:
the table is the result).

    python3 bench/variants.py --deals 200                      # every preset
    python3 bench/variants.py --deals 400 --presets omnibus,black_maria
    python3 bench/variants.py --deals 500 --out runs/variants   # journaled: run it again to go on

With ``--out DIR`` each preset keeps its arena journal in ``DIR/<preset>/boards.jsonl``
(:mod:`corazones.services.arena_journal`) and a run always goes on from it:
hours of play survive an interruption, and a larger ``--deals`` extends the
boards already played (the first boards of a seed are always the same).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from corazones.core import Rules
from corazones.core.rules import PRESETS
from corazones.services.arena import ArenaConfig, run_arena
from corazones.services.arena_journal import FILE_NAME

#: Player counts other than the preset's own (RULES.md: Cancellation is the game for six to eleven, usually
#: eight; the kitty variant is usually played by five, so that a kitty is left over).
USUAL_PLAYERS: dict[str, int] = {"cancellation_hearts": 8, "kitty": 5}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200, help="boards per preset (each played in every rotation)")
    ap.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets (default: all)")
    ap.add_argument("--pair", default="expert:standard", help="A:B levels to compare (default expert:standard)")
    ap.add_argument("--seed", default="variants", help="base seed (default 'variants')")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all CPUs)")
    ap.add_argument("--out", type=Path, default=None, help="keep boards in OUT/<preset>/, go on from them")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error(f"--deals must be at least 1, not {args.deals}")
    a, sep, b = args.pair.partition(":")
    if not sep or not a or not b:
        ap.error(f"--pair: {args.pair!r} must look like A:B, e.g. expert:standard")
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    unknown = [p for p in presets if p not in PRESETS]
    if unknown:
        ap.error(f"--presets: unknown {', '.join(unknown)}; presets: {', '.join(PRESETS)}")
    print(
        f"| preset | players | boards | {a} better by (95% CI) | beats? | {a} | {b} "
        f"| moons {a} shot/suffered | {a} move p95 |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    behind = 0
    for name in presets:
        players = USUAL_PLAYERS.get(name, Rules.preset(name).players)
        rules = Rules.preset(name, players=players)
        config = ArenaConfig((a, b), rules, boards=args.deals, seed=f"{args.seed}/{name}")
        journal = None
        if args.out is not None:
            (args.out / name).mkdir(parents=True, exist_ok=True)
            journal = args.out / name / FILE_NAME
        result = run_arena(config, workers=args.workers, journal=journal, resume=True)
        pa, pb = result.players
        adv = result.gap(b, a)  # points(B) - points(A): positive = A better
        verdict = "yes" if adv.low > 0 else "no" if adv.high < 0 else "?"
        behind += verdict != "yes"
        print(
            f"| {name} | {players} | {adv.n} | {adv.mean:+.2f} ({adv.low:+.2f} to {adv.high:+.2f}) | {verdict} | "
            f"{pa.points_per_deal.mean:.2f} | {pb.points_per_deal.mean:.2f} | {pa.moons_shot}/{pa.moons_suffered} | "
            f"{pa.move_time_p95 * 1e3:.0f} ms |",
            flush=True,
        )
    print(f"{a} clearly ahead (CI above 0) in {len(presets) - behind} of {len(presets)} presets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
