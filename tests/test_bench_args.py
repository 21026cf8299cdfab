"""The bench scripts refuse arguments that leave nothing to measure, as a usage error, before any work.

A rate over no time, a mean over no game or a search with no sampled deal
used to end in a ``ZeroDivisionError`` or a library traceback (or print
``inf``) after seconds of setup; argparse's own error (exit status 2) names
the argument and what it may be.  No timing is run here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("script", "args", "message"),
    [
        ("engine.py", ["--seconds", "0"], "--seconds must be more than 0, not 0.0"),
        ("openspiel.py", ["--seconds", "0"], "--seconds must be more than 0, not 0.0"),
        ("openspiel.py", ["--rounds", "0"], "--rounds must be at least 1, not 0"),
        ("env.py", ["--seconds", "0"], "--seconds must be more than 0, not 0.0"),
        ("env.py", ["--batch", "0"], "--batch must be at least 1, not 0"),
        ("review.py", ["--pass-worlds", "0"], "--pass-worlds must be at least 1, not 0"),
        ("review.py", ["--games", "0"], "--games must be at least 1, not 0"),
        ("broadcast.py", ["--runs", "0"], "--runs must be at least 1, not 0"),
        ("broadcast.py", ["--games", "0"], "--games must be at least 1, not 0"),
        ("moon_oracle.py", ["--boards", "0"], "--boards must be at least 1, not 0"),
        ("levels.py", ["--hands", "0"], "--hands must be at least 1, not 0"),
        ("levels.py", ["--deals", "0"], "--deals must be at least 1, not 0"),
        ("expert.py", ["--worlds", "0"], "--worlds must be at least 1, not 0"),
    ],
)
def test_a_bench_run_with_nothing_to_measure_is_a_usage_error(script: str, args: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"{script}: error: {message}" in done.stderr
