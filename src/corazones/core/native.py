"""Which build of the engine runs: pure Python or the optional compiled one.

``python3 -m pip install -e .`` compiles the hot modules (``core.deal``,
``core.simulate`` and ``players.rollout``, see ``setup.py``) with mypyc into
extension files next to their sources, where Python prefers them over the
``.py`` files.  ``CORAZONES_COMPILE=0 python3 -m pip install -e .`` removes
them again.  This module lets the bench
say which build it measures, and lets a compiled module notice that its
source was edited after it was built (it would silently run the old code).
"""

from __future__ import annotations

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
            "so the old code runs; rebuild with `python3 -m pip install -e .` or go back to pure Python "
            "with `CORAZONES_COMPILE=0 python3 -m pip install -e .`",
            RuntimeWarning,
            stacklevel=2,
        )
