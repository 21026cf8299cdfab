#!/usr/bin/env bash
# The compiled build, required (CORAZONES_COMPILE=1: fail rather than fall back to pure Python):
# the modules in setup.py's COMPILED (core/deal.py, core/game.py, core/simulate.py, the standard player
# with players/knowledge.py and players/heuristics.py, players/rollout.py and players/search.py) compiled with mypyc from
# the same typed source (see setup.py), then proof that it plays exactly like pure Python, and its
# speed.  A plain `python3 -m pip install -e .` also compiles, but installs pure Python when it cannot
# (the package then warns when it starts: see corazones/core/_build.json);
# `CORAZONES_COMPILE=0 python3 -m pip install -e .` goes back to pure Python on purpose.  Extra
# arguments go to pip.
set -euo pipefail
cd "$(dirname "$0")/.."
CORAZONES_COMPILE=1 python3 -m pip install -q --disable-pip-version-check -e . "$@"

echo "== compiled modules"
python3 - <<'PY'
import random
import sys

from corazones.core import Rules, deal, game, simulate
from corazones.core.native import is_compiled, stale_extension
from corazones.players import heuristics, knowledge, rollout, search, standard

HOT = (deal, game, simulate, knowledge, heuristics, standard, rollout, search)
for module in HOT:
    print(f"{module.__name__:26s} {module.__file__}")
if not all(is_compiled(m) for m in HOT):
    sys.exit("the compiled modules did not load; see the pip output above")
if any(stale_extension(m.__name__) for m in HOT):
    sys.exit("a compiled module does not match its source (see corazones/core/_build.json)")
position = simulate.deal_random(Rules.preset("standard"), random.Random(1))
if position.clone().h1 != position.h1:
    sys.exit("Deal.clone() does not copy the hand in the compiled build")
PY

echo "== same results as pure Python"
pure_tree=$(mktemp -d)
trap 'rm -rf "$pure_tree"' EXIT
cp -r src/corazones "$pure_tree/"
find "$pure_tree" \( -name '*.so' -o -name '*.pyd' \) -delete
pure=$(PYTHONPATH="$pure_tree" python3 bench/engine.py --check | tail -n +2)
fast=$(python3 bench/engine.py --check | tail -n +2)
if [ "$pure" != "$fast" ]; then
    echo "the compiled build plays differently from pure Python:"
    diff <(echo "$pure") <(echo "$fast") || true
    exit 1
fi
echo "$fast"

echo "== speed"
python3 bench/engine.py --mode fast --seconds 2
