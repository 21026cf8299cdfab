"""Build hook for the compiled build of the engine's hot modules.

Everything about the package lives in ``pyproject.toml``; this file only adds
extension modules.  ``CORAZONES_COMPILE`` says which build to make:

* unset (or ``auto``): compile the modules in ``COMPILED`` with mypyc (part of
  mypy, which pip fetches for the build) from the same typed source, so
  ``python3 -m pip install -e .`` gives the fast engine and the expert its full
  strength per second of thought.  If no C compiler is at hand, or the
  compilation fails, the build installs pure Python, which plays exactly the
  same, only slower.  pip shows a build's messages only with ``-v``, so the
  build also leaves a record (``corazones/core/_build.json``) and the installed
  package warns each time it starts until it is reinstalled compiled, or pure
  on purpose (``corazones --version`` tells which build runs).
* ``1``: compile, and fail the install if that is impossible.
* ``0``: pure Python.  It also deletes compiled modules left in ``src/`` by an
  earlier build, which would otherwise shadow the ``.py`` files they were built
  from (do this while editing those files, or rebuild after each edit).

The record also holds the SHA-256 of each compiled source, so a compiled module
can tell at import whether the ``.py`` beside it is still the one it was built
from (``corazones.core.native``); file times cannot, after a wheel install.

The rules still live in one place: the extension files are a translation of
the ``.py`` files next to them.  ``bash scripts/build-fast.sh`` builds and
checks that the compiled build plays exactly like pure Python.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "src" / "corazones"

#: The hot path: the hand state machine, the public game API around it, the
#: random-playout driver, the expert's playout policy and its per-deal
#: evaluation, and the ``standard`` player with the card counting it reads
#: (``knowledge``, ``heuristics``): the expert's pass models every other seat's
#: pass with it on each sampled deal, which took over half of a pass's time
#: interpreted.  Other modules stay interpreted (``cards.Card`` subclasses
#: ``int``, which mypyc cannot compile; ``actions.Action`` must hold whatever an
#: outside caller puts in it, to be refused with a reason; nothing else is hot).
COMPILED = (
    "core/deal",
    "core/game",
    "core/simulate",
    "players/knowledge",
    "players/heuristics",
    "players/standard",
    "players/rollout",
    "players/search",
)

#: Name of the shared library that holds the compiled code of all modules.
GROUP = "corazones.core._native"


def native() -> ModuleType:
    """``corazones/core/native.py`` (stdlib only), loaded by path: the one definition of the build record."""
    spec = importlib.util.spec_from_file_location("_corazones_build_native", PACKAGE / "core" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiled_files() -> list[Path]:
    """Extension files (and the build record) a compiled build leaves in ``src/`` (editable installs build in place)."""
    names = [*COMPILED, "core/" + GROUP.rsplit(".", 1)[1] + "__mypyc"]
    found = [p for name in names for ext in ("so", "pyd") for p in PACKAGE.glob(f"{name}.*{ext}")]
    return sorted(found + [p for p in [PACKAGE / "core" / native().BUILD_RECORD] if p.exists()])


def remove_compiled() -> None:
    for path in compiled_files():
        print(f"setup.py: removing {path.relative_to(HERE)} (plain build)", file=sys.stderr)
        path.unlink()


def record_build(folder: Path, reason: str | None) -> None:
    """Leave the build record in ``folder`` (``corazones/core`` of the build): compiled, or why not."""
    nat = native()
    record = nat.make_build_record(str(PACKAGE), COMPILED, compiled=reason is None, requested=MODE, reason=reason)
    path = nat.write_build_record(str(folder), record)
    outcome = "compiled" if reason is None else f"pure Python: {reason}"
    print(f"setup.py: build record {path}: {outcome}", file=sys.stderr)


#: mypyc honours a class's own ``__new__`` (``Deal.clone`` relies on it) from 1.19 on.
MYPY = (1, 19)


def compiled_extensions(required: bool) -> tuple[list[object], list[str], str | None]:
    """(extension modules, extra build requirements, why nothing is compiled) for a compiled build."""
    missing = missing_compiler()
    if missing is not None:  # say so before fetching mypy and writing C that nothing can compile
        if required:
            sys.exit(f"the compiled build needs a C compiler: {missing}")
        print(f"setup.py: {missing}; installing pure Python", file=sys.stderr)
        return [], [], missing
    try:
        from mypy.version import __version__ as mypy_version
        from mypyc.build import mypycify
    except ImportError:
        # First pass of an isolated build (pip asks what the build needs):
        # request mypy; pip installs it and runs this file again.
        return [], [f"mypy>={MYPY[0]}.{MYPY[1]}"], "mypy (mypyc) is not installed for the build"
    found = tuple(int(part) for part in mypy_version.split("+")[0].split(".")[:2])
    if found < MYPY:
        message = (
            f"the compiled build needs mypy >= {MYPY[0]}.{MYPY[1]}, found {mypy_version}; "
            "upgrade mypy, or build without --no-build-isolation so pip fetches it"
        )
        if required:
            sys.exit(message)
        print(f"setup.py: {message}; installing pure Python", file=sys.stderr)
        return [], [], message
    sources = [str((PACKAGE / f"{name}.py").relative_to(HERE)) for name in COMPILED]
    try:
        return list(mypycify(sources, opt_level="3", group_name=GROUP)), [], None
    except (Exception, SystemExit) as e:  # mypyc refuses the source (a type error, an unsupported construct)
        if required:
            raise
        message = f"mypyc could not translate the hot modules ({e})"
        print(f"setup.py: {message}; installing pure Python", file=sys.stderr)
        return [], [], message


def missing_compiler() -> str | None:
    """Why no C compiler can run (``$CC``, else the one Python was built with), or ``None`` if it is there."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC")
    if not cc:  # Windows: distutils finds MSVC itself
        return None
    exe = shlex.split(cc)[0]
    return None if shutil.which(exe) else f"no C compiler ({exe} not found)"


def short_reason(error: BaseException) -> str:
    """A one-line account of a failed compile (a compiler's command line is hundreds of characters)."""
    text = " ".join(str(error).split())
    command = re.match(r"Command '\['([^']+)'.*returned non-zero exit status (\d+)", text)
    if command:
        text = f"the C compiler {command.group(1)} failed (exit status {command.group(2)})"
    elif len(text) > 200:
        text = text[:200] + "..."
    return f"{text}; `pip install -v` shows the compiler's messages"


class OptionalBuildExt(build_ext):
    """Compiles the extensions; unless the compiled build was required, a failure leaves pure Python."""

    def run(self) -> None:
        if not self.extensions:
            super().run()
            return
        try:
            super().run()
        except Exception as e:  # no compiler, missing headers, a compiler error...
            if MODE == "1":
                raise
            reason = short_reason(e)
            print(f"setup.py: {reason}; installing pure Python, which is slower", file=sys.stderr)
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            self.extensions = []
            remove_compiled()
        else:
            reason = None
        # After run() the extension paths point where the modules went: the build tree, or src/ in place.
        record_build(Path(self.get_ext_fullpath("corazones.core.deal")).parent, reason)


class RecordingBuildPy(build_py):
    """Leaves the build record when compiling was meant but nothing could be compiled (no build_ext runs then)."""

    def run(self) -> None:
        super().run()
        if NOT_COMPILED is not None and MODE != "0":
            editable = getattr(self, "editable_mode", False)
            record_build(PACKAGE / "core" if editable else Path(self.build_lib) / "corazones" / "core", NOT_COMPILED)


MODE = os.environ.get("CORAZONES_COMPILE", "auto").strip().lower() or "auto"
if MODE not in ("auto", "0", "1"):
    sys.exit(f"CORAZONES_COMPILE={MODE!r}: use 1 (compile, or fail), 0 (pure Python) or auto (the default)")
NOT_COMPILED: str | None = None
if MODE == "0":
    remove_compiled()
    ext_modules, setup_requires = [], []
else:
    ext_modules, setup_requires, NOT_COMPILED = compiled_extensions(required=MODE == "1")

setup(
    ext_modules=ext_modules,
    setup_requires=setup_requires,
    cmdclass={"build_ext": OptionalBuildExt, "build_py": RecordingBuildPy},
)
