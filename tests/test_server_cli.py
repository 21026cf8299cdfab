"""`corazones serve`: bad options and an unreachable database are one-line usage errors (exit 2)."""

from __future__ import annotations

import socket

from typer.testing import CliRunner

from corazones.cli.main import app


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["serve", *args])
    return result.exit_code, result.output


def test_a_port_in_use_is_a_usage_error() -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        code, out = run("--port", str(busy.getsockname()[1]))
    assert code == 2 and "cannot listen on 127.0.0.1" in " ".join(out.split())


def test_bad_options_are_usage_errors() -> None:
    for args, word in (
        (("--port", "70000"), "not a port"),
        (("--grace", "-1"), "0 or more seconds"),
        (("--bot-workers", "0"), "at least 1"),
        (("--write-limit", "0"), "at least 1"),
        (("--log-level", "loud"), "unknown level"),
        (("--db", "postgresql+psycopg://nobody@127.0.0.1:1/none"), "cannot open the database"),
        (("--db", "nosuchdriver://x"), "cannot open the database"),
    ):
        code, out = run(*args)
        assert code == 2, (args, out)
        assert word in " ".join(out.split()), (args, out)
        assert "Traceback" not in out
