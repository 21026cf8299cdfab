"""Which build of the engine runs: pure Python or the compiled one.

``python3 -m pip install -e .`` compiles the hot modules (``core.deal``,
``core.simulate``, ``players.rollout`` and ``players.search``, see
``setup.py``) with mypyc into extension files next to their sources, where
Python prefers them over the ``.py`` files.  ``CORAZONES_COMPILE=0 python3 -m
pip install -e .`` removes them again.  This module lets the bench say which
build it measures, and lets a compiled module notice that its source was
edited after it was built (it would silently run the old code).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import warnings
from types import ModuleType


def is_compiled_file(path: str) -> bool:
    """True when a module's ``__file__`` is a compiled extension rather than Python source."""
    return not path.endswith((".py", ".pyc"))


def is_compiled(module: ModuleType) -> bool:
    """True when ``module`` was loaded from a compiled extension rather than its ``.py`` file."""
    return is_compiled_file(getattr(module, "__file__", None) or ".py")


def source_of(path: str) -> str:
    """The ``.py`` file next to the extension file ``path`` (``deal.cpython-311-...so`` -> ``deal.py``)."""
    folder, name = os.path.split(path)
    return os.path.join(folder, name.split(".", 1)[0] + ".py")


def extension_file(module_name: str) -> str | None:
    """The compiled extension file of ``module_name`` in its package folder, if one is there.

    Found from the package rather than the module's ``__file__``: a compiled
    module first imported from compiled code of another package gets a wrong
    ``__file__`` (the shared library's folder joined with its dotted path).
    """
    package, _, leaf = module_name.rpartition(".")
    spec = importlib.util.find_spec(package) if package else None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, leaf + suffix)
            if os.path.exists(path):
                return path
    return None


def stale_extension(module_name: str) -> str | None:
    """The compiled extension of ``module_name`` if it is older than its source (the old code runs), else ``None``."""
    path = extension_file(module_name)
    if path is None:
        return None
    try:
        return path if os.path.getmtime(source_of(path)) > os.path.getmtime(path) else None
    except OSError:
        return None


def warn_if_stale(module_name: str) -> None:
    """Warn when the compiled extension of ``module_name`` is older than the source it was built from."""
    path = stale_extension(module_name)
    if path is not None:
        source = source_of(path)
        warnings.warn(
            f"{source} was changed after its compiled module {os.path.basename(path)} was built, "
            "so the old code runs; rebuild with `python3 -m pip install -e .` or go back to pure Python "
            "with `CORAZONES_COMPILE=0 python3 -m pip install -e .`",
            RuntimeWarning,
            stacklevel=2,
        )
