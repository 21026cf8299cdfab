"""Shared test helpers: random legal play through the public API, and real Chromium and PostgreSQL fixtures."""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from corazones.core import Action, Game, Kind


def random_action(game: Game, rng: random.Random) -> Action:
    """A uniformly random legal action for the first seat that must act."""
    seat = game.to_act()[0]
    if game.decision_kind() is Kind.PASS:
        hand = game.deal.hand(seat)
        return Action.pass_cards(seat, rng.sample(hand, game.rules.pass_count))
    return rng.choice(game.legal_actions(seat))


def play_random(game: Game, rng: random.Random, max_hands: int | None = None) -> Game:
    stop = None if max_hands is None else game.hand_index + max_hands
    while not game.over and (stop is None or game.hand_index < stop):
        game.apply(random_action(game, rng))
    return game


#: Seconds to wait for something that should come at once (a reply, a close, a page element, a server's
#: count settling): an upper bound, never a pause.  Generous, because a machine under heavy load (two
#: cores shared with long measurements) can take many seconds for what takes milliseconds alone; only a
#: failing test ever waits that long.  A test that counts a rate-limited budget freezes the limits' clock
#: instead (``corazones.server.local.ManualClock``): there, time passing is what must not matter.
PATIENCE = 60.0


#: Where the browser tests leave their screenshots, to be looked at by a person after a run.
SHOTS = Path(__file__).resolve().parent.parent / "results" / "screenshots"
#: When this test process started: a screenshot older than that is from an earlier run.
_STARTED = time.time()
_cleared = False


def save_screenshot(page: Any, name: str, *, full_page: bool = False) -> None:
    """Save a screenshot as ``results/screenshots/NAME.png``, first clearing the earlier runs' ones.

    Several test modules (and several xdist workers) write into the one folder at once, so a module
    must never clear it wholesale: only files older than this process are stale, and another worker may
    remove the same stale file first.
    """
    global _cleared
    SHOTS.mkdir(parents=True, exist_ok=True)
    if not _cleared:
        _cleared = True
        for old in SHOTS.glob("*.png"):
            with contextlib.suppress(FileNotFoundError):
                if old.stat().st_mtime < _STARTED:
                    old.unlink()
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


# ---------------------------------------------------------------------------
# Real components for integration tests: headless Chromium and PostgreSQL.
#
# Locally a missing component skips the tests that need it, with the reason;
# CI (.ci/run) installs both and sets CORAZONES_REQUIRE_BROWSER=1 and
# CORAZONES_REQUIRE_POSTGRES=1, which turn that skip into a failure, so a
# broken installation can never pass as "all green, some skipped".
# See docs/testing.md.
# ---------------------------------------------------------------------------

#: Flags a headless Chromium needs here: running as root (no sandbox), no GPU,
#: and nothing that reaches out to the network on its own (updates, sync, QUIC).
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def _unavailable(what: str, reason: str, require_var: str) -> None:
    """Skip (locally) or fail (when ``require_var=1``, as in CI) because ``what`` is not available."""
    message = f"{what} unavailable: {reason}"
    if os.environ.get(require_var) == "1":
        pytest.fail(f"{message} ({require_var}=1 requires it)", pytrace=False)
    pytest.skip(f"{message} (set {require_var}=1 to make this a failure)")


def find_chromium() -> str | None:
    """The Chromium executable: $CORAZONES_CHROMIUM, else Debian's /usr/bin/chromium, else one on PATH."""
    candidates = [os.environ.get("CORAZONES_CHROMIUM", ""), "/usr/bin/chromium"]
    candidates += [shutil.which(name) or "" for name in ("chromium", "chromium-browser", "google-chrome")]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Path of a Chromium for Playwright's ``executable_path`` (Playwright cannot download its own here)."""
    path = find_chromium()
    if path is None:
        _unavailable("Chromium", "no /usr/bin/chromium (apt-get install chromium)", "CORAZONES_REQUIRE_BROWSER")
    assert path is not None
    return path


def launch_chromium(playwright: Any, executable_path: str, **kwargs: Any) -> Any:
    """Launch headless Chromium through a started Playwright with the flags it needs here (see CHROMIUM_ARGS)."""
    args = [*CHROMIUM_ARGS, *kwargs.pop("args", ())]
    return playwright.chromium.launch(executable_path=executable_path, headless=True, args=args, **kwargs)


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
        _unavailable("Playwright", "the playwright package is not installed", "CORAZONES_REQUIRE_BROWSER")
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright, chromium_path)
        try:
            yield chromium
        finally:
            chromium.close()


def find_postgres_bin() -> str | None:
    """The folder with ``initdb`` and ``pg_ctl``: $CORAZONES_PG_BIN, PATH, else the newest /usr/lib/postgresql/*/bin."""
    folders = [os.environ.get("CORAZONES_PG_BIN", "")]
    initdb = shutil.which("initdb")
    if initdb:
        folders.append(os.path.dirname(os.path.realpath(initdb)))
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    folders += sorted(versions, key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0, reverse=True)
    for folder in folders:
        if folder and all(os.access(os.path.join(folder, tool), os.X_OK) for tool in ("initdb", "pg_ctl")):
            return folder
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
        _unavailable("PostgreSQL", "no initdb/pg_ctl (apt-get install postgresql)", "CORAZONES_REQUIRE_POSTGRES")
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
        _unavailable("psycopg", "the psycopg package is not installed", "CORAZONES_REQUIRE_POSTGRES")
    name = f"t{os.getpid()}_{next(_database_numbers)}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = postgres_url.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def sqlalchemy_url(libpq_url: str) -> str:
    """The SQLAlchemy spelling (psycopg 3 driver) of a ``postgresql://`` URL from ``postgres_url``."""
    return libpq_url.replace("postgresql://", "postgresql+psycopg://", 1)
