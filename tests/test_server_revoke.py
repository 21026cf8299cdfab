"""Revoking sign-ins on a real server: "sign out everywhere" (HTTP and open WebSockets), the operator's
``corazones revoke`` (seen by the server through the database), the host removing a player from a seat;
and the store's revision 0003 applied to a database left at 0002 (SQLite and PostgreSQL), where the
players' existing tokens keep working."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from itsdangerous import URLSafeTimedSerializer
from sqlalchemy import text
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from corazones.cli.main import app as cli
from corazones.server.auth import _SALT
from corazones.server.client import Api, ApiError, TableClient, play_to_end
from corazones.server.local import LocalServer, ManualClock
from corazones.services.store import Store, make_engine
from corazones.services.store.db import MIGRATIONS
from tests.helpers import HUMAN, PATIENCE, RANDOM, guest, sqlalchemy_url


@pytest.fixture(scope="module")
def db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('revoke') / 'corazones.db'}"


@pytest.fixture(scope="module")
def server(db_url: str) -> Iterator[LocalServer]:
    # A short lease: the sweep that notices revocations made elsewhere runs every lease / 3 seconds.
    with LocalServer(db_url, bot_delay=0.0, lease_ttl=0.9, grace=30) as srv:
        yield srv


def closed_with(client: TableClient, timeout: float = PATIENCE) -> tuple[int, str, list[dict[str, Any]]]:
    """Read until the server closes the socket: the close code, its reason, and the errors said before."""
    end = time.monotonic() + timeout
    with pytest.raises(ConnectionClosed) as closed:
        while time.monotonic() < end:
            client.recv(max(0.01, end - time.monotonic()))
    rcvd = closed.value.rcvd
    assert rcvd is not None, "the server did not close the socket"
    return rcvd.code, rcvd.reason, client.errors


def refused_at_door(api: Api, table: str) -> tuple[dict[str, Any], int]:
    """Connect and say hello; the error the server answers and the code it closes with."""
    with connect(api.ws_url(table), open_timeout=PATIENCE) as ws:
        ws.send(json.dumps({"type": "hello", "token": api.token}))
        error = json.loads(ws.recv(timeout=PATIENCE))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=PATIENCE)
    assert closed.value.rcvd is not None
    return error, closed.value.rcvd.code


def status(api: Api, path: str, body: Any = None) -> int:
    try:
        api.request("POST" if body is not None else "GET", path, body)
    except ApiError as e:
        return e.status
    return 200


def test_sign_out_everywhere_closes_sockets_and_refuses_old_tokens(server: LocalServer) -> None:
    ana = guest(server, "Ana")
    table = ana.create(preset="quick", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]
    other_device = Api(server.base, ana.token)
    sock = TableClient(other_device, table)
    assert sock.seat == 0

    reply = ana.request("POST", "/api/auth/revoke", {"keep_this_device": True})
    code, reason, errors = closed_with(sock)
    assert code == 4003 and "revoked" in reason
    assert errors[-1]["code"] == "revoked" and "signed out everywhere" in errors[-1]["message"]
    assert status(other_device, "/api/me") == 401  # the old token, on HTTP, said so
    with pytest.raises(ApiError) as refused:
        other_device.request("GET", "/api/me")
    assert "not valid: malformed, expired or revoked" in refused.value.detail["message"]
    assert status(other_device, "/api/auth/refresh", {}) == 401  # and it cannot be renewed

    ana.token = reply["token"]  # kept on this device: a fresh token of the new generation
    assert ana.request("GET", "/api/me")["id"] == reply["player"]["id"]
    again = TableClient(ana, table, lang="es")  # the seat is still Ana's
    assert again.seat == 0

    done = ana.request("POST", "/api/auth/revoke", {})
    assert done["token"] is None
    code, _reason, errors = closed_with(again)
    assert (
        code == 4003
        and errors[-1]["message"] == "Se cerró su sesión en todas partes: este inicio de sesión ya no vale."
    )
    assert status(ana, "/api/me") == 401
    error, code = refused_at_door(ana, table)  # a hello with a revoked token
    assert error["code"] == "auth" and code == 1008


def test_the_operator_revokes_through_the_database(server: LocalServer, db_url: str) -> None:
    bea = guest(server, "Bea")
    pid = bea.request("GET", "/api/me")["id"]
    table = bea.create(preset="quick", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]
    sock = TableClient(bea, table)

    done = CliRunner().invoke(cli, ["revoke", str(pid), "--db", db_url])
    assert done.exit_code == 0, done.output
    assert f"player {pid}" in done.output
    code, _reason, errors = closed_with(sock)  # the server's sweep sees the new generation
    assert code == 4003 and errors[-1]["code"] == "revoked"
    assert status(bea, "/api/me") == 401

    missing = CliRunner().invoke(cli, ["revoke", "999999", "--db", db_url])
    assert missing.exit_code == 2 and "no player 999999" in missing.output


def test_the_host_removes_a_player_who_cannot_come_back(server: LocalServer) -> None:
    host, bea, carl = guest(server, "Host"), guest(server, "Bea"), guest(server, "Carl")
    table = host.create(preset="standard", seats=[HUMAN, HUMAN, RANDOM, RANDOM])["id"]
    bea.join(table, 1)
    assert host.table(table)["status"] == "playing"
    watch = TableClient(host, table)
    sock = TableClient(bea, table)
    assert sock.seat == 1

    with pytest.raises(ApiError) as e:  # only the owner may
        carl.request("POST", f"/api/tables/{table}/remove", {"seat": 1})
    assert e.value.status == 403
    with pytest.raises(ApiError) as e:
        host.request("POST", f"/api/tables/{table}/remove", {"seat": 0})
    assert e.value.status == 422 and "leave it" in e.value.detail["message"]

    info = host.request("POST", f"/api/tables/{table}/remove", {"seat": 1})
    code, reason, errors = closed_with(sock)
    assert code == 4004 and "removed" in reason and errors[-1]["code"] == "removed"
    seat = info["seats"][1]
    assert seat["player"] is None and seat["status"] == "bot"  # a bot plays it meanwhile
    watch.wait(lambda m: m["type"] == "event" and m["event"]["kind"] == "seat" and m["event"]["seat"]["seat"] == 1)

    with pytest.raises(ApiError) as e:  # Bea may not sit here again, nor connect
        bea.join(table)
    assert e.value.status == 403 and e.value.detail["code"] == "removed"
    error, code = refused_at_door(bea, table)
    assert error["code"] == "removed" and code == 4004

    with pytest.raises(ApiError) as e:  # nobody else takes it during this deal (its bot plays it) ...
        carl.join(table, 1)
    assert e.value.status == 409 and "next deal" in e.value.detail["message"]
    play_to_end([watch], timeout=PATIENCE, stop=lambda: watch.view is not None and watch.view["hand_index"] >= 1)
    assert carl.join(table, 1)["seats"][1]["player"] is not None  # ... but from the next one on, someone else may
    stored = server.hub.store.table(table)
    assert json.loads(stored.removed) == [bea.request("GET", "/api/me")["id"]]
    watch.close()


def test_revoking_through_one_process_closes_sockets_on_another(tmp_path: Path, fresh_postgres_url: str) -> None:
    """Two ``corazones serve`` processes on one PostgreSQL: the revocation is written through one,
    the player's socket is held by the other, which sees the new generation with its lease renewal."""
    from tests.test_server_processes import ServerProcess

    db = sqlalchemy_url(fresh_postgres_url)
    owner = ServerProcess(db, tmp_path / "owner.log", lease=1.5)
    try:
        other = ServerProcess(db, tmp_path / "other.log", lease=1.5)
        try:
            ana = Api(owner.base)
            ana.guest("Ana")
            table = ana.create(preset="quick", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]
            sock = TableClient(ana, table)
            through_other = Api(other.base, ana.token)
            assert through_other.request("POST", "/api/auth/revoke", {})["token"] is None
            code, _reason, errors = closed_with(sock)
            assert code == 4003 and errors[-1]["code"] == "revoked"
            assert status(ana, "/api/me") == 401 and status(through_other, "/api/me") == 401
        finally:
            other.stop()
    finally:
        owner.stop()


# ------------------------------------------------------------------- the migration


def _database_at_0002(url: str) -> dict[str, Any]:
    """A database as a server of revision 0002 left it: a secret, a player, a table."""
    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002_pads")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO secrets (key, value) VALUES ('token', 'old-secret')"))
        conn.execute(text("INSERT INTO players (name, kind, created) VALUES ('Old', 'guest', 1.0)"))
        pid = conn.execute(text("SELECT id FROM players WHERE name = 'Old'")).scalar_one()
        conn.execute(
            text(
                "INSERT INTO tables (id, name, preset, rules, seats, seed, commitment, status, private, invite,"
                " takeover_level, created, lease_expires) VALUES ('t1', 'n', 'standard', '{}', '[]', 's',"
                " 'c', 'open', false, 'i', 'standard', 1.0, 0.0)"
            )
        )
        version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    engine.dispose()
    assert version == "0002_pads"
    return {"player": pid}


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_revision_0003_upgrades_a_0002_database(dialect: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    if dialect == "sqlite":
        url = f"sqlite:///{tmp_path}/old.db"
    else:
        url = sqlalchemy_url(request.getfixturevalue("fresh_postgres_url"))
    old = _database_at_0002(url)
    store = Store(url).migrate()
    try:
        with store.engine.connect() as conn:
            # Upgraded through 0003 to the newest revision, whatever later revisions exist.
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() >= "0003_revocation"
            assert conn.execute(text("SELECT removed FROM tables WHERE id = 't1'")).scalar_one() == "[]"
        player = store.player(old["player"])
        assert player is not None and player.token_gen == 0
        assert store.revoke_tokens(old["player"]) == 1
        assert store.token_gens([old["player"], 424242]) == {old["player"]: 1}
        assert store.revoke_tokens(424242) is None
    finally:
        store.close()


def test_tokens_issued_before_0003_still_work_after_the_upgrade(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/old.db"
    old = _database_at_0002(url)
    token = URLSafeTimedSerializer("old-secret", salt=_SALT).dumps({"p": old["player"]})  # no generation in it
    with LocalServer(url, bot_delay=0.0) as srv:
        api = Api(srv.base, token)
        assert api.request("GET", "/api/me")["name"] == "Old"
        api.request("POST", "/api/auth/revoke", {})
        assert status(api, "/api/me") == 401


# ------------------------------------------------------------------- in the browser


def _page(browser: Any, server: LocalServer, api: Api, table: str) -> Any:
    """A phone-sized page signed in as ``api``'s guest, showing ``table``."""
    me = api.request("GET", "/api/me")
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server.base)
    context.add_init_script(
        "localStorage.setItem('corazones.speed', 'instant'); localStorage.setItem('corazones.lang', 'en');"
        f"localStorage.setItem('corazones.token', '{api.token}');"
        f"localStorage.setItem('corazones.player', JSON.stringify({json.dumps(me)}));"
    )
    page = context.new_page()
    page.set_default_timeout(PATIENCE * 1000)
    page.goto(f"/#/table/{table}")
    return page


def test_the_host_removes_a_player_in_the_web_app(browser: Any, server: LocalServer) -> None:
    host, bea = guest(server, "Host"), guest(server, "Bea")
    table = host.create(preset="quick", seats=[HUMAN, HUMAN, RANDOM, RANDOM])["id"]
    bea.join(table, 1)
    hosts, beas = _page(browser, server, host, table), _page(browser, server, bea, table)
    beas.wait_for_selector(".hand-zone")
    remove = hosts.locator('[data-seat="1"] .seat-remove')
    assert hosts.locator('[data-seat="0"] .seat-remove').count() == 0  # not on the host's own seat
    assert beas.locator(".seat-remove").count() == 0  # only the host sees it
    remove.click()
    hosts.click("#remove-confirm")
    beas.wait_for_selector("#conn-banner:has-text('The host removed you from this table.')")
    hosts.wait_for_function("() => !document.querySelector('[data-seat=\"1\"] .seat-remove')")
    time.sleep(1)  # no reconnection: the banner stays and Bea stays out
    assert beas.is_visible("#conn-banner") and server.hub.tables[table].seats[1].player is None
    hosts.context.close()
    beas.context.close()


def test_signing_out_other_devices_keeps_this_browser_at_its_table(browser: Any, server: LocalServer) -> None:
    """Two tabs of one browser share the token: the lobby tab signs the other devices out and keeps a
    fresh token; the table tab's socket is closed (4003) and says hello again with the fresh one."""
    ana = guest(server, "Ana")
    table = ana.create(preset="quick", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]
    elsewhere = TableClient(Api(server.base, ana.token), table)  # another device with the same sign-in
    at_table = _page(browser, server, ana, table)
    at_table.wait_for_selector(".hand-zone")
    lobby = at_table.context.new_page()
    lobby.goto("/")
    lobby.click("#sign-out-others")
    lobby.wait_for_selector("#toast:has-text('Signed out on every other device.')")
    code, _reason, _errors = closed_with(elsewhere)
    assert code == 4003
    fresh = lobby.evaluate("localStorage.getItem('corazones.token')")
    assert fresh != ana.token and status(Api(server.base, fresh), "/api/me") == 200
    # The table tab is back in its seat with the fresh token, and says nothing about signing out.
    conns = server.hub.tables[table].conns
    end = time.monotonic() + PATIENCE
    while not any(c.token_gen == 1 for c in list(conns)):  # its new connection, with the new generation
        assert time.monotonic() < end, "the table tab did not come back"
        time.sleep(0.05)
    at_table.wait_for_function("() => window.__corazones.table.connected && window.__corazones.table.seat === 0")
    assert "signed out" not in (at_table.inner_text("#conn-banner") or "")
    at_table.context.close()


def test_a_revoked_token_does_not_spend_its_players_write_budget(tmp_path: Path) -> None:
    """HTTP writes are counted per player; a request with a revoked token (say a stolen one, still
    correctly signed) counts per address instead, so it cannot lock the player out with 429s."""
    clock = ManualClock()  # stands still: the budget of 4 does not refill while a loaded machine sends
    with (
        LocalServer(f"sqlite:///{tmp_path}/w.db", bot_delay=0.0, http_writes_per_minute=4, clock=clock) as srv,
        clock.frozen(),
    ):
        ana = guest(srv, "Ana")  # that write was counted per address (no token yet)
        stolen = ana.token
        ana.token = ana.request("POST", "/api/auth/revoke", {"keep_this_device": True})["token"]  # 1 of Ana's 4
        old = Api(srv.base, stolen)
        assert [status(old, "/api/auth/refresh", {}) for _ in range(5)] == [401, 401, 401, 429, 429]
        assert [status(ana, "/api/auth/refresh", {}) for _ in range(3)] == [200, 200, 200]  # Ana's 3 left
        assert status(ana, "/api/auth/refresh", {}) == 429
