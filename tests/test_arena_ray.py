"""The arena on a real local Ray gives exactly the local backend's results.

One test and one Ray start on purpose: starting Ray takes seconds, and two
Rays starting at the same time under pytest-xdist would only compete for the
two cores.  The arena joins the running Ray and must leave it running; the
test shuts it down.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corazones.cli.main import app
from corazones.core import Rules
from corazones.services.arena import ArenaConfig, run_arena

ray = pytest.importorskip("ray", reason="the ray backend needs the 'ray' extra (in the dev extra too)")

pytestmark = pytest.mark.ray


def test_ray_backend_matches_local(tmp_path: Path) -> None:
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        # deals, three contenders, through the command line
        args = ["arena", "random", "random", "random", "--deals", "9", "--seed", "ray", "-q"]
        r = CliRunner().invoke(app, [*args, "--backend", "ray", "--out", str(tmp_path / "ray")])
        assert r.exit_code == 0, r.output
        assert ray.is_initialized(), "the arena must not shut down a Ray it did not start"
        r = CliRunner().invoke(app, [*args, "-j", "1", "--out", str(tmp_path / "local")])
        assert r.exit_code == 0, r.output
        by_ray = json.loads((tmp_path / "ray" / "results.json").read_text())
        local = json.loads((tmp_path / "local" / "results.json").read_text())
        assert by_ray["run"]["backend"] == "ray"
        assert by_ray["gaps"] == local["gaps"]
        timed = ("move_time_mean_s", "move_time_p95_s")
        assert [{k: v for k, v in p.items() if k not in timed} for p in by_ray["players"]] == [
            {k: v for k, v in p.items() if k not in timed} for p in local["players"]
        ]
        ray_rows = (tmp_path / "ray" / "results.csv").read_text().splitlines()
        local_rows = (tmp_path / "local" / "results.csv").read_text().splitlines()
        assert len(ray_rows) == 1 + 9 * 3 * 4
        # every column but the last (measured move time)
        assert [row.rsplit(",", 1)[0] for row in ray_rows] == [row.rsplit(",", 1)[0] for row in local_rows]

        # whole games through the API, with progress
        config = ArenaConfig(("random", "random"), Rules.preset("standard"), boards=4, mode="games", seed="g")
        done: list[int] = []
        remote = run_arena(config, backend="ray", progress=lambda d, t: done.append(d))
        here = run_arena(config, workers=1)
        assert done[-1] == 4
        assert remote.outcome() == here.outcome()
        assert remote.players[0].win_rate == here.players[0].win_rate

        # a run journaled on local processes goes on on Ray, and gives the unbroken run's results
        journal = tmp_path / "boards.jsonl"
        run_arena(ArenaConfig(("random", "beginner"), Rules.preset("standard"), boards=3, seed="j"), journal=journal)
        longer = ArenaConfig(("random", "beginner"), Rules.preset("standard"), boards=7, seed="j")
        resumed = run_arena(longer, backend="ray", journal=journal, resume=True)
        assert resumed.extra == {"resumed_boards": 3}
        assert resumed.outcome() == run_arena(longer, workers=1).outcome()
        assert len(journal.read_text().splitlines()) == 1 + 7
    finally:
        ray.shutdown()
    assert not ray.is_initialized()
