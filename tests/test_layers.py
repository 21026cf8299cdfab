"""The command line launches the other faces without importing them until a command starts one.

``lint-imports`` (the contracts in pyproject.toml) keeps the floors of
docs/architecture.md and lets the command line's launch imports cross from
one face to another; these tests hold those imports to what the contract's
comment promises: inside the command that launches the face, never at the top
of a module, so that importing the command line loads no other face.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import corazones.cli

OTHER_FACES = ("corazones.tui", "corazones.server", "corazones.env")


def _is_face(module: str) -> bool:
    return any(module == face or module.startswith(face + ".") for face in OTHER_FACES)


def test_importing_the_command_line_loads_no_other_face() -> None:
    code = (
        "import sys, corazones.cli.main\n"
        f"faces = {OTHER_FACES!r}\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith(faces))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == ""


def test_the_command_line_imports_another_face_only_inside_a_function() -> None:
    top_level: list[str] = []
    for path in sorted(Path(corazones.cli.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:  # module level only: an import inside a function runs when the command does
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.If | ast.Try):  # an import under `if TYPE_CHECKING` or `try` is still top level
                names = [
                    n.module if isinstance(n, ast.ImportFrom) and n.module else a.name
                    for n in ast.walk(node)
                    if isinstance(n, ast.Import | ast.ImportFrom)
                    for a in (n.names if isinstance(n, ast.Import) else n.names[:1])
                ]
            top_level += [f"{path.name}: {m}" for m in names if _is_face(m)]
    assert top_level == []
