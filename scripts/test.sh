#!/usr/bin/env bash
# The whole test suite: installs what it needs, then lint, types and tests.
set -euo pipefail
cd "$(dirname "$0")/.."
lap_start=$SECONDS
lap() { echo "   ($((SECONDS - lap_start)) s)"; lap_start=$SECONDS; }
echo "== install (.[dev])"
python3 -m pip install -q --disable-pip-version-check -e '.[dev]'
lap
echo "== ruff"
python3 -m ruff check src tests bench
python3 -m ruff format --check src tests bench
lap
echo "== mypy (strict on core and players)"
python3 -m mypy
lint-imports
lap
echo "== tsc (the web app's JSDoc types, tsconfig.json)"
# The TypeScript version is pinned in package.json and package-lock.json (npm ci installs exactly it).
if command -v npm >/dev/null; then
    npm ci --no-audit --no-fund --loglevel=error
    npx --no-install tsc -p tsconfig.json
elif [ "${CORAZONES_REQUIRE_NPM:-0}" = 1 ]; then
    echo "npm not found (CORAZONES_REQUIRE_NPM=1 requires it: apt-get install npm)" >&2
    exit 1
else
    echo "npm not found: the web app's types are not checked (set CORAZONES_REQUIRE_NPM=1 to make this a failure)"
fi
lap
echo "== pytest"
python3 -m pytest -n "${PYTEST_WORKERS:-2}" "$@"
lap
