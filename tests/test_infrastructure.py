"""The shared fixtures for real components work: Chromium opens a page, PostgreSQL answers a query.

These are the canaries for the integration suites built on them: when Chromium or
PostgreSQL is missing or broken on a machine, these say so first and plainly.
"""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def local_site(tmp_path: Path) -> Iterator[str]:
    """An HTTP server on 127.0.0.1 serving one page from a temporary folder."""
    (tmp_path / "index.html").write_text(
        "<!doctype html><html><head><meta charset=utf-8><title>Corazones canary</title></head>"
        "<body><p id=p>♥ ok</p></body></html>",
        encoding="utf-8",
    )

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    finally:
        server.shutdown()
        server.server_close()


def test_chromium_opens_a_local_page(browser: Any, local_site: str) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(local_site)
        assert page.title() == "Corazones canary"
        assert page.locator("#p").inner_text() == "♥ ok"
    finally:
        context.close()


def test_postgres_answers(postgres_url: str) -> None:
    import psycopg

    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
        version = conn.execute("SHOW server_version_num").fetchone()
        assert version is not None and int(version[0]) >= 150000


def test_fresh_postgres_databases_are_separate(fresh_postgres_url: str, postgres_url: str) -> None:
    import psycopg

    assert fresh_postgres_url != postgres_url
    with psycopg.connect(fresh_postgres_url) as conn:
        conn.execute("CREATE TABLE only_here (x int)")
        conn.execute("INSERT INTO only_here VALUES (7)")
        assert conn.execute("SELECT x FROM only_here").fetchone() == (7,)
    with psycopg.connect(postgres_url) as conn:
        found = conn.execute("SELECT to_regclass('only_here')").fetchone()
        assert found == (None,)


def test_a_missing_component_skips_locally_and_fails_when_required(monkeypatch: pytest.MonkeyPatch) -> None:
    """CI sets CORAZONES_REQUIRE_*=1: a component it installed but cannot use must fail the run, not skip."""
    from tests.helpers import unavailable

    monkeypatch.delenv("CORAZONES_REQUIRE_POSTGRES", raising=False)
    with pytest.raises(pytest.skip.Exception, match="PostgreSQL unavailable: no initdb"):
        unavailable("PostgreSQL", "no initdb", "CORAZONES_REQUIRE_POSTGRES")
    monkeypatch.setenv("CORAZONES_REQUIRE_POSTGRES", "1")
    with pytest.raises(pytest.fail.Exception, match="CORAZONES_REQUIRE_POSTGRES=1 requires it"):
        unavailable("PostgreSQL", "no initdb", "CORAZONES_REQUIRE_POSTGRES")


def test_the_browser_leaves_no_event_loop_behind_for_the_next_module(tmp_path: Path, chromium_path: str) -> None:
    """Playwright's sync API keeps an asyncio loop running while started: a later module's asyncio.run
    (Textual's pilot) must not meet it, so the fixture has to end with its module."""
    (tmp_path / "conftest.py").write_text("from tests.conftest import browser, chromium_path  # noqa: F401\n")
    (tmp_path / "test_a_browser.py").write_text(
        "def test_page(browser):\n    browser.new_context().close()\n", encoding="utf-8"
    )
    (tmp_path / "test_b_asyncio.py").write_text(
        "import asyncio\n\ndef test_run():\n    asyncio.run(asyncio.sleep(0))\n", encoding="utf-8"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CORAZONES_CHROMIUM": chromium_path}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-p", "no:randomly", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
