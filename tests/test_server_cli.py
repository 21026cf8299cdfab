"""`corazones serve`: bad options and an unreachable database are one-line usage errors (exit 2)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corazones.cli.main import app
from tests.helpers import flat, says


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


def revoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["revoke", "1", *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("db", "shown"),
    [
        ("postgresql+psycopg://bob:hunter2@127.0.0.1:1/none", "'postgresql+psycopg://bob:***@127.0.0.1:1/none'"),
        ("postgresql://bob:hunter2@127.0.0.1:notaport/none", "'postgresql+psycopg://bob:***@127.0.0.1:notaport/none'"),
        (
            "postgresql://bob@127.0.0.1:1/none?password=hunter2",
            "'postgresql+psycopg://bob@127.0.0.1:1/none?password=***'",
        ),
        ("postgresql://bob:hun%40ter2@127.0.0.1:1/none", "'postgresql+psycopg://bob:***@127.0.0.1:1/none'"),
        ("postgresql://bob:hunter2@x@127.0.0.1:1/none", "'postgresql+psycopg://bob:***@127.0.0.1:1/none'"),
    ],
)
def test_a_refused_database_url_never_shows_its_password(db: str, shown: str) -> None:
    for command in (run, revoke):
        code, out = command("--port", "0", "--db", db) if command is run else command("--db", db)
        text = flat(out)
        assert code == 2, out
        assert "cannot open the database" in text and shown in text, text
        assert "hunter2" not in text and "hun@ter2" not in text and "ter2" not in text, text
        assert "Traceback" not in out


def test_an_at_sign_in_the_password_is_explained() -> None:
    code, out = run("--port", "0", "--db", "postgresql://bob:hunter2@x@127.0.0.1:1/none")
    assert code == 2 and "holds an @: write it as %40" in flat(out), out


@pytest.mark.parametrize("db", ["sqlite:///:memory:", "sqlite://", "sqlite:///file::memory:?uri=true"])
def test_an_in_memory_database_is_refused(db: str) -> None:
    """A server's games must outlive it, and each thread would see its own empty in-memory database."""
    for command in (run, revoke):
        code, out = command("--port", "0", "--db", db) if command is run else command("--db", db)
        text = flat(out)
        assert code == 2, out
        assert "in-memory database, which keeps nothing" in text, text
        assert "Traceback" not in out and "no such table" not in out


def test_an_sqlite_file_whose_folder_is_missing_or_a_folder_is_refused_in_words(tmp_path: Path) -> None:
    code, out = run("--port", "0", "--db", str(tmp_path / "nowhere" / "corazones.db"))
    assert code == 2 and says(out, f"the folder {tmp_path / 'nowhere'} does not exist"), out
    assert not (tmp_path / "nowhere").exists()
    code, out = run("--port", "0", "--db", f"sqlite:///{tmp_path}")
    assert code == 2 and says(out, f"{tmp_path} is a folder; give a file in it"), out


@pytest.mark.parametrize(
    ("args", "env", "flag", "word"),
    [
        (
            ("--forwarded-allow-ips", "garbage"),
            {},
            "--forwarded-allow-ips",
            "'garbage' is not an IP address or network",
        ),
        (("--forwarded-allow-ips", "10.0.0.0/33"), {}, "--forwarded-allow-ips", "'10.0.0.0/33' is not an IP"),
        (("--forwarded-allow-ips", "10.0.0.1/24"), {}, "--forwarded-allow-ips", "'10.0.0.1/24' is not an IP"),
        (("--forwarded-allow-ips", "127.0.0.1,*"), {}, "--forwarded-allow-ips", "'*' is not an IP address"),
        ((), {"FORWARDED_ALLOW_IPS": "proxy.local"}, "FORWARDED_ALLOW_IPS", "'proxy.local' is not an IP"),
        (("--public-url", "cards.example.org"), {}, "--public-url", "is not an address a browser opens"),
        (("--public-url", "ftp://cards.example.org"), {}, "--public-url", "is not an address a browser opens"),
        (("--public-url", "http://x.org:99999"), {}, "--public-url", "is not an address a browser opens"),
        (("--public-url", "https://" + "x" * 200 + ".org"), {}, "--public-url", "at most 200 characters"),
        (("--public-url", "https://x.org/hearts"), {}, "--public-url", "has a path; the web app is served at the root"),
        (("--token-days", "inf"), {}, "--token-days", "must be a finite number, not inf"),
        (("--lease", "inf"), {}, "--lease", "must be a finite number, not inf"),
        (("--grace", "inf"), {}, "--grace", "must be a finite number, not inf"),
        (("--host", "nohost.invalid"), {}, "--host", "cannot listen on nohost.invalid"),
        (("--host", "192.0.2.77"), {}, "--host", "cannot listen on 192.0.2.77"),
    ],
)
def test_serve_refuses_what_it_cannot_use_naming_the_flag(
    args: tuple[str, ...], env: dict[str, str], flag: str, word: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    started: list[object] = []
    monkeypatch.setattr("corazones.server.run.serve", lambda *a, **k: started.append(a))
    result = CliRunner().invoke(app, ["serve", "--port", "0", *args], env=env)
    text = flat(result.output)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{flag}'" in text and word in text, text
    assert not started and "Traceback" not in result.output


def test_serve_runs_with_what_it_was_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An IPv6 host is listened on and named in brackets; the proxies reach the settings as uvicorn reads them;
    every interface without --public-url is told that the links name this machine only."""
    from corazones.server.settings import Settings

    calls: list[tuple[object, ...]] = []
    monkeypatch.setattr("corazones.server.run.serve", lambda *a, **k: calls.append(a))
    db = str(tmp_path / "c.db")
    result = CliRunner().invoke(
        app, ["serve", "--host", "::1", "--port", "0", "--db", db, "--forwarded-allow-ips", " 10.0.0.2 , ::1 "]
    )
    assert result.exit_code == 0, result.output
    assert "serving at http://[::1]:0/" in result.output and "Note:" not in result.output
    settings, host, _port, _level, proxies = calls[0]
    assert isinstance(settings, Settings) and settings.public_url == "http://[::1]:0" and host == "::1"
    assert proxies == settings.trusted_proxies == "10.0.0.2,::1"
    result = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0", "--port", "0", "--db", db])
    assert result.exit_code == 0, result.output
    assert "the invite and record links name http://127.0.0.1:0, which only this machine reaches" in flat(result.output)
    result = CliRunner().invoke(
        app, ["serve", "--host", "0.0.0.0", "--port", "0", "--db", db, "--public-url", "https://cards.example.org/"]
    )
    assert result.exit_code == 0 and "Note:" not in result.output, result.output
    assert calls[-1][0].public_url == "https://cards.example.org"  # type: ignore[attr-defined]


def test_the_guard_trusts_a_proxy_exactly_when_uvicorn_does() -> None:
    """Exempt from the per-address cap only a proxy whose X-Forwarded-For uvicorn believes."""
    from uvicorn.middleware.proxy_headers import _TrustedHosts

    from corazones.server.guard import Trust

    for spec in ("10.0.0.1/24", "10.0.0.0/24", "127.0.0.1,*", "*", "127.0.0.1,::1", "", "10.0.0.5"):
        for address in ("10.0.0.5", "1.2.3.4", "127.0.0.1", "::1"):
            assert (address in Trust(spec)) == (address in _TrustedHosts(spec)), (spec, address)


def test_revoke_on_a_mistyped_database_path_makes_no_database(tmp_path: Path) -> None:
    missing = tmp_path / "typo.db"
    code, out = revoke("--db", str(missing))
    assert code == 2 and says(out, f"there is no database at '{missing}'"), out
    assert not missing.exists()
