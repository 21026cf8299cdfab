"""Build hook for the compiled build of the engine's hot modules.

Everything about the package lives in ``pyproject.toml``; this file only adds
extension modules.  ``CORAZONES_COMPILE`` says which build to make:

* unset (or ``auto``): compile the modules in ``COMPILED`` with mypyc (part of
  mypy, which pip fetches for the build) from the same typed source, so
  ``python3 -m pip install -e .`` gives the fast engine and the expert its full
  strength per second of thought.  If no C compiler is at hand, or the
  compilation fails, the build says so and installs pure Python, which plays
  exactly the same, only slower.
* ``1``: compile, and fail the install if that is impossible.
* ``0``: pure Python.  It also deletes compiled modules left in ``src/`` by an
  earlier build, which would otherwise shadow the ``.py`` files they were built
  from (do this while editing those files, or rebuild after each edit).

The rules still live in one place: the extension files are a translation of
the ``.py`` files next to them.  ``bash scripts/build-fast.sh`` builds and
checks that the compiled build plays exactly like pure Python.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "src" / "corazones"

#: The hot path: the hand state machine, the random-playout driver, the
#: expert's playout policy and its per-deal evaluation.  Other modules stay
#: interpreted (``cards.Card`` subclasses ``int``, which mypyc cannot compile,
#: and nothing else is hot).
COMPILED = ("core/deal", "core/simulate", "players/rollout", "players/search")

#: Name of the shared library that holds the compiled code of all modules.
GROUP = "corazones.core._native"


def compiled_files() -> list[Path]:
    """Extension files a compiled build leaves in ``src/`` (editable installs build in place)."""
    names = [*COMPILED, "core/" + GROUP.rsplit(".", 1)[1] + "__mypyc"]
    return sorted(p for name in names for ext in ("so", "pyd") for p in PACKAGE.glob(f"{name}.*{ext}"))


def remove_compiled() -> None:
    for path in compiled_files():
        print(f"setup.py: removing compiled module {path.relative_to(HERE)} (plain build)", file=sys.stderr)
        path.unlink()


#: mypyc honours a class's own ``__new__`` (``Deal.clone`` relies on it) from 1.19 on.
MYPY = (1, 19)


def compiled_extensions(required: bool) -> tuple[list[object], list[str]]:
    """(extension modules, extra build requirements) for a compiled build."""
    try:
        from mypy.version import __version__ as mypy_version
        from mypyc.build import mypycify
    except ImportError:
        # First pass of an isolated build (pip asks what the build needs):
        # request mypy; pip installs it and runs this file again.
        return [], [f"mypy>={MYPY[0]}.{MYPY[1]}"]
    found = tuple(int(part) for part in mypy_version.split("+")[0].split(".")[:2])
    if found < MYPY:
        message = (
            f"the compiled build needs mypy >= {MYPY[0]}.{MYPY[1]}, found {mypy_version}; "
            "upgrade mypy, or build without --no-build-isolation so pip fetches it"
        )
        if required:
            sys.exit(message)
        print(f"setup.py: {message}; installing pure Python", file=sys.stderr)
        return [], []
    sources = [str((PACKAGE / f"{name}.py").relative_to(HERE)) for name in COMPILED]
    return list(mypycify(sources, opt_level="3", group_name=GROUP)), []


class OptionalBuildExt(build_ext):
    """Compiles the extensions; unless the compiled build was required, a failure leaves pure Python."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # no compiler, missing headers, a compiler error...
            if MODE == "1":
                raise
            print(f"setup.py: compiling failed ({e}); installing pure Python, which is slower", file=sys.stderr)
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            self.extensions = []
            remove_compiled()


MODE = os.environ.get("CORAZONES_COMPILE", "auto").strip().lower() or "auto"
if MODE not in ("auto", "0", "1"):
    sys.exit(f"CORAZONES_COMPILE={MODE!r}: use 1 (compile, or fail), 0 (pure Python) or auto (the default)")
if MODE == "0":
    remove_compiled()
    ext_modules, setup_requires = [], []
else:
    ext_modules, setup_requires = compiled_extensions(required=MODE == "1")

setup(ext_modules=ext_modules, setup_requires=setup_requires, cmdclass={"build_ext": OptionalBuildExt})
