"""Build hook for the optional compiled build of the engine's hot modules.

Everything about the package lives in ``pyproject.toml``; this file only adds
extension modules, and only when asked:

* ``python3 -m pip install -e .`` installs pure Python, as always.  It also
  deletes compiled modules left in ``src/`` by an earlier compiled build, which
  would otherwise shadow the ``.py`` files they were built from.
* ``CORAZONES_COMPILE=1 python3 -m pip install -e .`` compiles the modules in
  ``COMPILED`` with mypyc (part of mypy, fetched for the build if missing) from
  the same typed source.  The rules still live in one place: the extension
  files are a translation of the ``.py`` files next to them.

``bash scripts/build-fast.sh`` wraps the second command and checks the result.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
CORE = HERE / "src" / "corazones" / "core"

#: The hot path: the hand state machine and the random-playout driver.  Other
#: modules stay interpreted (``cards.Card`` subclasses ``int``, which mypyc
#: cannot compile, and nothing else is hot).
COMPILED = ("deal", "simulate")

#: Name of the shared library that holds the compiled code of all modules.
GROUP = "corazones.core._native"


def compiled_files() -> list[Path]:
    """Extension files a compiled build leaves in ``src/`` (editable installs build in place)."""
    names = [*COMPILED, GROUP.rsplit(".", 1)[1] + "__mypyc"]
    return sorted(p for name in names for ext in ("so", "pyd") for p in CORE.glob(f"{name}.*{ext}"))


def remove_compiled() -> None:
    for path in compiled_files():
        print(f"setup.py: removing compiled module {path.relative_to(HERE)} (plain build)", file=sys.stderr)
        path.unlink()


#: mypyc honours a class's own ``__new__`` (``Deal.clone`` relies on it) from 1.19 on.
MYPY = (1, 19)


def compiled_extensions() -> tuple[list[object], list[str]]:
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
        sys.exit(
            f"the compiled build needs mypy >= {MYPY[0]}.{MYPY[1]}, found {mypy_version}; "
            "upgrade mypy, or build without --no-build-isolation so pip fetches it"
        )
    sources = [str((CORE / f"{name}.py").relative_to(HERE)) for name in COMPILED]
    return list(mypycify(sources, opt_level="3", group_name=GROUP)), []


if os.environ.get("CORAZONES_COMPILE", "") == "1":
    ext_modules, setup_requires = compiled_extensions()
else:
    remove_compiled()
    ext_modules, setup_requires = [], []

setup(ext_modules=ext_modules, setup_requires=setup_requires)
