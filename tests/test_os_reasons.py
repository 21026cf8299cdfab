"""The system's reason under a refusal ("Permission denied") is in the refusal's language.

Real command lines: a missing input, an output folder that cannot be written
into and a busy port are refused with the reason translated by its errno under
``--lang es`` (or a Spanish locale for ``serve``, which has no ``--lang``), in
English under ``--lang en``; an errno the catalog lacks keeps the system's words.
"""

from __future__ import annotations

import errno
import socket
from pathlib import Path

import pytest

from corazones.core.errors import Message
from corazones.i18n import error_json, error_text, translator
from corazones.i18n.oserrors import REASONS, os_reason
from tests.helpers import unwritable_folder
from tests.test_toolkit_i18n import ENGLISH, SPANISH, run


def spanish(reason: int) -> str:
    return translator("es").gettext(REASONS[reason])


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "/no/such/folder/game.json"],
        ["verify", "/no/such/folder/game.json"],
        ["pad", "--load", "/no/such.json"],
    ],
)
def test_a_missing_input_is_refused_with_the_reason_in_the_chosen_language(args: list[str]) -> None:
    code, out = run(*args, "--lang", "es")
    assert code == 2 and "no se puede leer" in out and f": {spanish(errno.ENOENT)}" in out, out
    assert "No such file or directory" not in out
    code, out = run(*args, "--lang", "en")
    assert code == 2 and "cannot read" in out and ": No such file or directory" in out, out


@pytest.mark.parametrize("args", [["play", "--auto", "--record"], ["pad", "--save"], ["pad", "--csv"]])
def test_an_unwritable_output_is_refused_with_the_reason_in_the_chosen_language(
    args: list[str], tmp_path: Path
) -> None:
    folder, reason = unwritable_folder(tmp_path)
    assert reason in REASONS, errno.errorcode.get(reason)
    target = str(folder / "out.json")
    code, out = run(*args, target, "--lang", "es")
    if reason == errno.ENOENT:  # /proc (as root): a folder that is there and takes no new file says so
        assert code == 2 and f"'{target}': la carpeta '{folder}' no admite archivos nuevos" in out, out
        code, out = run(*args, target, "--lang", "en")
        assert code == 2 and f"'{target}': folder '{folder}' does not take new files" in out, out
        return
    assert code == 2 and f"no se puede escribir en '{target}': {spanish(reason)}" in out, out
    code, out = run(*args, target, "--lang", "en")
    assert code == 2 and f"cannot write to '{target}': {REASONS[reason]}" in out, out


def test_a_busy_port_is_refused_in_the_locales_language() -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = str(busy.getsockname()[1])
        code, out = run("serve", "--host", "127.0.0.1", "--port", port, env=SPANISH)
        assert code == 2 and f"127.0.0.1:{port}: {spanish(errno.EADDRINUSE)}" in out, out
        code, out = run("serve", "--host", "127.0.0.1", "--port", port, env=ENGLISH)
        assert code == 2 and f"127.0.0.1:{port}: Address already in use" in out, out


def test_an_errno_outside_the_table_keeps_the_systems_words() -> None:
    known = os_reason(OSError(errno.EROFS, "whatever the C library says"))
    assert known == Message("Read-only file system")
    assert error_text(translator("es").gettext, known) == spanish(errno.EROFS)
    assert error_json(Message("cannot write to {path}: {why}", path="x", why=known))["params"]["why"] == {
        "template": "Read-only file system",
        "params": {},
    }
    other = OSError(errno.ECONNRESET, "Connection reset by peer")
    assert os_reason(other) == "Connection reset by peer"
    assert os_reason(OSError("no errno at all")) == "no errno at all"
