"""Which build of the engine runs: pure Python or the optional compiled one.

``CORAZONES_COMPILE=1 python3 -m pip install -e .`` compiles the hot modules
(``deal`` and ``simulate``, see ``setup.py``) with mypyc into extension files
next to their sources, where Python prefers them over the ``.py`` files.  A
plain ``pip install -e .`` removes them again.  This module lets the bench
say which build it measures, and lets a compiled module notice that its
source was edited after it was built (it would silently run the old code).
"""

from __future__ import annotations

import os
import warnings
from types import ModuleType


def is_compiled(module: ModuleType) -> bool:
    """True when ``module`` was loaded from a compiled extension rather than its ``.py`` file."""
    return not (getattr(module, "__file__", None) or "").endswith((".py", ".pyc"))


def source_of(path: str) -> str:
    """The ``.py`` file next to the extension file ``path`` (``deal.cpython-311-...so`` -> ``deal.py``)."""
    folder, name = os.path.split(path)
    return os.path.join(folder, name.split(".", 1)[0] + ".py")


def warn_if_stale(path: str) -> None:
    """Warn when the extension file ``path`` is older than the source it was built from."""
    source = source_of(path)
    try:
        stale = os.path.getmtime(source) > os.path.getmtime(path)
    except OSError:
        return
    if stale:
        warnings.warn(
            f"{source} was changed after its compiled module {os.path.basename(path)} was built, "
            "so the old code runs; rebuild with `bash scripts/build-fast.sh` or go back to pure Python "
            "with `python3 -m pip install -e .`",
            RuntimeWarning,
            stacklevel=2,
        )
