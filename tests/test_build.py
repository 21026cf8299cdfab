"""The build record: a compiled module is called stale only when its source really changed, and an
install that could not compile says so when the package starts (pip hides the build's own output)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from corazones.core import deal, game, simulate
from corazones.core.native import (
    BUILD_RECORD,
    build_failure,
    build_record,
    extension_file,
    is_compiled,
    is_stale,
    make_build_record,
    module_key,
    source_digest,
    write_build_record,
)
from corazones.players import heuristics, knowledge, rollout, search, standard

ROOT = Path(__file__).resolve().parent.parent
HOT = (deal, game, simulate, knowledge, heuristics, standard, rollout, search)
EXT = "deal.cpython-311-x86_64-linux-gnu.so"


def _package(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A package folder with a source, a stand-in extension file and the record of a build of that source."""
    core = tmp_path / "core"
    core.mkdir()
    source = core / "deal.py"
    source.write_text("X = 1\n")
    ext = core / EXT
    ext.write_bytes(b"\x7fELF compiled from X = 1")
    write_build_record(str(core), make_build_record(str(tmp_path), ["core/deal"], compiled=True, requested="auto"))
    return core, source, ext


def test_unpacked_wheel_times_do_not_make_a_fresh_build_stale(tmp_path: Path) -> None:
    """A wheel install unpacks the .py after the .so: newer by time, yet the very source that was compiled."""
    core, source, ext = _package(tmp_path)
    os.utime(ext, (1_000_000, 1_000_000))
    os.utime(source, (2_000_000, 2_000_000))
    record = build_record(str(core))
    assert record is not None and record["compiled"] is True
    assert not is_stale(str(ext), record["sources"]["core/deal"])


def test_an_edited_source_is_stale_whatever_its_time(tmp_path: Path) -> None:
    core, source, ext = _package(tmp_path)
    source.write_text("X = 2\n")
    os.utime(source, (1_000_000, 1_000_000))
    os.utime(ext, (2_000_000, 2_000_000))  # older source, newer extension: times alone would say fresh
    record = build_record(str(core))
    assert record is not None
    assert is_stale(str(ext), record["sources"]["core/deal"])


def test_without_a_record_file_times_decide(tmp_path: Path) -> None:
    """A build by an older setup.py left no digests: then (in a source checkout) times are all there is."""
    _core, source, ext = _package(tmp_path)
    os.utime(ext, (2_000_000, 2_000_000))
    os.utime(source, (1_000_000, 1_000_000))
    assert not is_stale(str(ext), None)
    os.utime(source, (3_000_000, 3_000_000))
    assert is_stale(str(ext), None)


def test_an_extension_without_its_source_is_not_stale(tmp_path: Path) -> None:
    _core, source, ext = _package(tmp_path)
    source.unlink()
    assert not is_stale(str(ext), "0" * 64)


@pytest.mark.parametrize(
    "content",
    ["", "not json", "[]", '{"format": 99, "sources": {}}', '{"format": 1}', "{" * 100_000],
)
def test_an_unreadable_record_is_ignored(tmp_path: Path, content: str) -> None:
    (tmp_path / BUILD_RECORD).write_text(content)
    assert build_record(str(tmp_path)) is None


def test_build_failure_only_when_compiling_was_meant() -> None:
    failed = make_build_record(".", [], compiled=False, requested="auto", reason="no C compiler (cc not found)")
    assert build_failure(failed) == "no C compiler (cc not found)"
    assert build_failure(make_build_record(".", [], compiled=False, requested="0")) is None
    assert build_failure({"compiled": True, "requested": "auto"}) is None


def test_record_names_match_modules() -> None:
    assert module_key("corazones.core.deal") == "core/deal"
    assert module_key("corazones.players.rollout") == "players/rollout"


@pytest.mark.skipif(not all(is_compiled(m) for m in HOT), reason="the pure Python build is installed")
def test_the_installed_build_recorded_each_compiled_source() -> None:
    """The compiled build in use left a record whose digests are those of the sources beside it."""
    record = build_record()
    assert record is not None, f"no {BUILD_RECORD} beside the compiled modules: rebuild with pip install"
    assert record["compiled"] is True
    for m in HOT:
        path = extension_file(m.__name__)
        assert path is not None
        source = Path(path).parent / (m.__name__.rsplit(".", 1)[1] + ".py")
        assert record["sources"][module_key(m.__name__)] == source_digest(str(source)), f"{m.__name__} is stale"


@pytest.mark.integration
@pytest.mark.slow
def test_a_real_install_without_a_compiler_says_so_when_it_starts(tmp_path: Path) -> None:
    """pip install . (not editable) with no C compiler: pure Python, and the package itself reports why.

    Builds a wheel from a copy of the source with CC naming a missing compiler (the build then
    skips mypyc), installs it into a folder and imports it from there.
    """
    src = tmp_path / "src"
    shutil.copytree(
        ROOT / "src", src / "src", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "_build.json")
    )
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    env = {**os.environ, "CC": str(tmp_path / "no-such-cc"), "CORAZONES_COMPILE": "auto", "PIP_NO_INPUT": "1"}
    env.pop("PYTHONPATH", None)
    target = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "-w", str(tmp_path / "wheel"), str(src)], env=env, check=True, timeout=300
    )
    wheels = list((tmp_path / "wheel").glob("corazones-*.whl"))
    subprocess.run(
        [*pip, "install", "--no-deps", "--target", str(target), str(wheels[0])], env=env, check=True, timeout=120
    )

    record = json.loads((target / "corazones" / "core" / BUILD_RECORD).read_text())
    assert record["compiled"] is False and "no C compiler" in record["reason"]
    assert not list(target.rglob("*.so"))
    probe = "import corazones.core.deal as d, corazones.core.native as n; print(d.__file__, n.build_failure())"
    env["PYTHONPATH"] = str(target)
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(str(target / "corazones" / "core" / "deal.py"))
    assert "installed without its compiled engine (no C compiler" in done.stderr
    assert "CORAZONES_COMPILE=0" in done.stderr
    assert done.stderr.count("RuntimeWarning") == 1, done.stderr  # once, and no false stale warnings


def test_version_says_which_build_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import corazones.core.native as native
    from corazones import __version__
    from corazones.cli.version import version_text

    monkeypatch.setattr(native, "is_compiled", lambda module: False)
    monkeypatch.setattr(native, "build_failure", lambda: "no C compiler (cc not found)")
    assert version_text("en") == (
        f"corazones {__version__} (pure Python: the install could not compile the engine: no C compiler (cc not found))"
    )
    assert "la instalación no pudo compilar el motor" in version_text("es")
    monkeypatch.setattr(native, "build_failure", lambda: None)
    assert version_text("en") == f"corazones {__version__} (pure Python engine)"
    monkeypatch.setattr(native, "is_compiled", lambda module: True)
    assert version_text("es") == f"corazones {__version__} (motor compilado)"


def test_version_option(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from corazones.cli.main import app

    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.setenv(var, "C")
    done = CliRunner().invoke(app, ["--version"])
    assert done.exit_code == 0, done.output
    build = "compiled engine" if all(is_compiled(m) for m in HOT) else "pure Python"
    assert done.output.startswith("corazones ") and build in done.output
