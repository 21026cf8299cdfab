"""The compiled build (setup.py, mypyc) plays exactly like the pure Python source it was built from."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from corazones.core import deal, game, simulate
from corazones.core.native import extension_file, is_compiled, stale_extension
from corazones.players import heuristics, knowledge, rollout, search, standard

ROOT = Path(__file__).resolve().parent.parent
HOT = (deal, game, simulate, knowledge, heuristics, standard, rollout, search)


def _check_output(pythonpath: Path | None) -> str:
    env = {"PATH": "/usr/bin:/bin"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "engine.py"), "--check"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=ROOT,
    ).stdout
    return out.split("\n", 1)[1]  # the first line names the build


@pytest.mark.integration
@pytest.mark.skipif(not all(is_compiled(m) for m in HOT), reason="the pure Python build is installed")
def test_compiled_modules_play_like_their_source(tmp_path: Path) -> None:
    pure = tmp_path / "pure"
    shutil.copytree(Path(deal.__file__).parent.parent, pure / "corazones")
    for ext in ("*.so", "*.pyd"):
        for f in (pure / "corazones").rglob(ext):
            f.unlink()
    assert _check_output(None) == _check_output(pure)


def test_hot_modules_are_not_older_than_their_source() -> None:
    """A compiled module built before its source was edited would run the old code."""
    for m in HOT:
        if is_compiled(m):
            assert extension_file(m.__name__) is not None
            assert stale_extension(m.__name__) is None, (
                f"{m.__name__} changed after it was compiled: rebuild with `python3 -m pip install -e .`"
            )
