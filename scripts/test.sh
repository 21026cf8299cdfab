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
echo "== pytest"
python3 -m pytest -n "${PYTEST_WORKERS:-2}" "$@"
lap
