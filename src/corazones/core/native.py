"""Which build of the engine runs: pure Python or the compiled one.

``python3 -m pip install .`` (or ``-e .``) compiles the hot modules
(``core.deal``, ``core.game``, ``core.simulate``, the ``standard`` player with
``players.knowledge`` and ``players.heuristics``, ``players.rollout`` and ``players.search``,
see ``setup.py``) with mypyc into extension files next to their sources, where
Python prefers them over the ``.py`` files.  ``CORAZONES_COMPILE=0 python3 -m
pip install -e .`` removes them again.  This module lets the bench say which
build it measures, lets a compiled module notice that its source was edited
after it was built (it would silently run the old code), and makes a failed
compile visible: pip shows a build's messages only with ``-v``, so the build
leaves a record (``_build.json``, next to this file) that the package reads
when it starts.

The record holds the SHA-256 of every source the build compiled.  Staleness is
decided by comparing contents, not file times: a wheel install gives every
file the moment it was unpacked, so times say nothing there.  Reading the
package's own small record file is the one I/O this core module does.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import warnings
from collections.abc import Iterable
from types import ModuleType
from typing import Any

#: The build record's file name, in the ``corazones/core`` folder of the installed package.
BUILD_RECORD = "_build.json"

#: The format of the build record (``setup.py`` writes it through ``make_build_record``).
RECORD_FORMAT = 1

#: At most this many bytes of a build record are read (it is a few hundred).
_RECORD_LIMIT = 64 * 1024

_HERE = os.path.dirname(os.path.abspath(__file__))


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


def source_digest(path: str) -> str:
    """SHA-256 (hex) of a file's bytes: what a build record remembers of each compiled source."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def make_build_record(
    package_dir: str, modules: Iterable[str], *, compiled: bool, requested: str, reason: str | None = None
) -> dict[str, Any]:
    """The record a build leaves beside the compiled modules (``setup.py`` calls this).

    ``modules`` are paths below ``package_dir`` without ``.py`` (``"core/deal"``); their digests
    are taken only for a compiled build.  ``reason`` says why a build that tried to compile did not.
    """
    import platform

    sources = {m: source_digest(os.path.join(package_dir, m + ".py")) for m in modules} if compiled else {}
    return {
        "format": RECORD_FORMAT,
        "compiled": compiled,
        "requested": requested,
        "reason": reason,
        "python": platform.python_version(),
        "sources": sources,
    }


def write_build_record(folder: str, record: dict[str, Any]) -> str:
    """Write ``record`` as ``folder/_build.json``; returns the path."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, BUILD_RECORD)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    return path


def build_record(folder: str | None = None) -> dict[str, Any] | None:
    """The build record of the package in ``folder`` (default: this package), or ``None``.

    ``None`` when there is none (a build that did not try to compile, or one by an older
    ``setup.py``) or when it cannot be read: the record only ever adds a warning.
    """
    path = os.path.join(folder or _HERE, BUILD_RECORD)
    try:
        with open(path, encoding="utf-8") as f:
            data = json.loads(f.read(_RECORD_LIMIT))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT or not isinstance(data.get("sources"), dict):
        return None
    return data


def module_key(module_name: str) -> str:
    """``corazones.core.deal`` -> ``core/deal``: how a build record names a compiled module."""
    return module_name.split(".", 1)[-1].replace(".", "/")


def is_stale(extension: str, recorded_digest: str | None) -> bool:
    """True when the source next to ``extension`` is not the source it was compiled from.

    With the digest the build recorded, the contents decide.  Without one (a build by an
    older ``setup.py``) the file times do, which is right only in a source checkout.
    """
    source = source_of(extension)
    try:
        if recorded_digest is not None:
            return source_digest(source) != recorded_digest
        return os.path.getmtime(source) > os.path.getmtime(extension)
    except OSError:  # no source beside the extension: nothing to compare
        return False


def stale_extension(module_name: str) -> str | None:
    """The compiled extension of ``module_name`` if its source changed since it was built (the old code runs)."""
    path = extension_file(module_name)
    if path is None:
        return None
    record = build_record()
    digest = record["sources"].get(module_key(module_name)) if record else None
    return path if is_stale(path, digest if isinstance(digest, str) else None) else None


def warn_if_stale(module_name: str) -> None:
    """Warn when the compiled extension of ``module_name`` was built from other source than the ``.py`` beside it."""
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


def build_failure(record: dict[str, Any] | None = None) -> str | None:
    """Why the install meant to compile the engine and did not, or ``None`` (compiled, or pure on purpose)."""
    record = build_record() if record is None else record
    if not record or record.get("compiled") or record.get("requested") == "0":
        return None
    return str(record.get("reason") or "unknown reason")


def warn_if_build_failed() -> None:
    """Say, once per process, that the install could not compile the engine (pip hides the build's own message)."""
    reason = build_failure()
    if reason is not None:
        warnings.warn(
            f"corazones was installed without its compiled engine ({reason}); it runs as pure Python, which plays "
            "the same but thinks slower. Reinstall with a C compiler and the Python headers present to compile it, "
            "or with CORAZONES_COMPILE=0 to choose pure Python (which also silences this)",
            RuntimeWarning,
            stacklevel=3,
        )


if __name__ == "corazones.core.native":  # not when setup.py loads this file by path
    warn_if_build_failed()
