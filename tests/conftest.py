"""Shared test helpers: random legal play through the public API, and real Chromium and PostgreSQL fixtures."""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

from corazones.services.store import Store
from tests.helpers import (
    find_chromium,
    find_postgres_bin,
    free_port,
    launch_chromium,
    sqlalchemy_url,
    unavailable,
)

# ---------------------------------------------------------------------------
# Real components for integration tests: headless Chromium and PostgreSQL.
#
# Locally a missing component skips the tests that need it, with the reason;
# CI (.ci/run) installs both and sets CORAZONES_REQUIRE_BROWSER=1 and
# CORAZONES_REQUIRE_POSTGRES=1, which turn that skip into a failure, so a
# broken installation can never pass as "all green, some skipped".
# See docs/testing.md.
# ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Path of a Chromium for Playwright's ``executable_path`` (Playwright cannot download its own here)."""
    path = find_chromium()
    if path is None:
        unavailable("Chromium", "no /usr/bin/chromium (apt-get install chromium)", "CORAZONES_REQUIRE_BROWSER")
    assert path is not None
    return path


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[Any]:
    """A headless Chromium (Playwright sync API) shared by a test module; open pages in your own context:
    ``context = browser.new_context(); page = context.new_page()`` and close the context when done.

    Module scope, not session: while Playwright's sync API is started, its event loop runs in
    this thread, so ``asyncio.run`` (Textual's pilot, the pad's terminal tests) would fail in
    any test that the same worker ran in between."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright", "the playwright package is not installed", "CORAZONES_REQUIRE_BROWSER")
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright, chromium_path)
        try:
            yield chromium
        finally:
            chromium.close()


def _postgres_user() -> dict[str, Any]:
    """``subprocess`` arguments that run PostgreSQL as a non-root user (it refuses to run as root)."""
    if os.geteuid() != 0:
        return {}
    import pwd

    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            entry = pwd.getpwnam(name)
            return {"user": entry.pw_uid, "group": entry.pw_gid}
    return {"user": 65534, "group": 65534}


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A real PostgreSQL server for this test process, started empty and removed afterwards.

    ``initdb`` into a temporary folder, ``pg_ctl`` on a free port of 127.0.0.1, trust
    authentication, user ``corazones``, database ``corazones``.  The value is a libpq URL
    (``postgresql://corazones@127.0.0.1:PORT/corazones``) for ``psycopg.connect``; SQLAlchemy
    wants ``postgresql+psycopg://...`` (see ``sqlalchemy_url``).  Tests sharing it should use
    their own tables or the ``fresh_postgres_url`` fixture, which makes a new database each.
    """
    bin_dir = find_postgres_bin()
    if bin_dir is None:
        unavailable("PostgreSQL", "no initdb/pg_ctl (apt-get install postgresql)", "CORAZONES_REQUIRE_POSTGRES")
    assert bin_dir is not None
    as_user = _postgres_user()
    # Not under pytest's tmp_path: its root-only parent folders would be closed to the server's user.
    root = tempfile.mkdtemp(prefix="corazones-pg-")
    data = os.path.join(root, "data")
    if as_user:
        os.chown(root, as_user["user"], as_user["group"])
    env = {**os.environ, "LC_ALL": "C", "TZ": "UTC"}

    def run(*cmd: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=root, timeout=120, **as_user)

    try:
        done = run(os.path.join(bin_dir, "initdb"), "-D", data, "-U", "corazones", "--auth=trust", "-E", "UTF8")
        if done.returncode != 0:
            pytest.fail(f"initdb failed:\n{done.stdout}\n{done.stderr}", pytrace=False)
        for _attempt in range(3):  # a free port can be taken between choosing it and starting the server
            port = free_port()
            options = f"-h 127.0.0.1 -p {port} -k {root} -c fsync=off -c full_page_writes=off"
            log = os.path.join(root, "log")
            done = run(os.path.join(bin_dir, "pg_ctl"), "-D", data, "-l", log, "-o", options, "-w", "-t", "60", "start")
            if done.returncode == 0:
                break
        else:
            with open(os.path.join(root, "log"), errors="replace") as log:
                pytest.fail(f"pg_ctl start failed:\n{done.stdout}\n{done.stderr}\n{log.read()}", pytrace=False)
        try:
            createdb = os.path.join(bin_dir, "createdb")
            done = run(createdb, "-h", "127.0.0.1", "-p", str(port), "-U", "corazones", "corazones")
            if done.returncode != 0:
                pytest.fail(f"createdb failed:\n{done.stdout}\n{done.stderr}", pytrace=False)
            yield f"postgresql://corazones@127.0.0.1:{port}/corazones"
        finally:
            run(os.path.join(bin_dir, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(root, ignore_errors=True)


_database_numbers = itertools.count(1)


@pytest.fixture
def fresh_postgres_url(postgres_url: str) -> Iterator[str]:
    """A new, empty database on the session's server for one test (dropped afterwards)."""
    try:
        import psycopg
    except ImportError:
        unavailable("psycopg", "the psycopg package is not installed", "CORAZONES_REQUIRE_POSTGRES")
    name = f"t{os.getpid()}_{next(_database_numbers)}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = postgres_url.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


#: Fixtures that start a real browser or PostgreSQL: a test that asks for one is an integration test.
INTEGRATION_FIXTURES = frozenset({"browser", "chromium_path", "postgres_url", "fresh_postgres_url"})


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[Store]:
    """A migrated store on SQLite and on a fresh PostgreSQL database (the store tests run on both)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/store.db"
    else:
        url = sqlalchemy_url(request.getfixturevalue("fresh_postgres_url"))
    s = Store(url).migrate()
    try:
        yield s
    finally:
        s.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``integration`` every test that needs a browser, PostgreSQL or Ray (``-m "not integration"``
    is the fast loop); tests that start a process of their own carry the mark where they are written."""
    for item in items:
        uses = set(getattr(item, "fixturenames", ()))
        if uses & INTEGRATION_FIXTURES or item.get_closest_marker("ray") is not None:
            item.add_marker(pytest.mark.integration)
