"""The web app after its table's owner dies, in Chromium, with two ``corazones serve`` processes on one
PostgreSQL: the page came from one process, was sent (``moved``) to the other, which owned the
table; that owner is killed.  The app tries the dead address once, then the page's own address
again, and plays on there once that process has adopted the table (instead of retrying the dead
address for ever)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from corazones.server.client import Api
from tests.helpers import HUMAN, PATIENCE, RANDOM, sqlalchemy_url
from tests.test_server_processes import ServerProcess, processes  # noqa: F401 (a fixture)


def test_the_web_app_falls_back_to_its_own_address_when_the_moved_target_dies(
    tmp_path: Path,
    browser: Any,
    processes: list[ServerProcess],  # noqa: F811
    fresh_postgres_url: str,
) -> None:
    db = sqlalchemy_url(fresh_postgres_url)
    owner = ServerProcess(db, tmp_path / "owner.log", lease=1.5)
    front = ServerProcess(db, tmp_path / "front.log", lease=1.5)
    processes += [owner, front]
    api = Api(owner.base)
    player = api.guest("Pat")["player"]
    table = api.create(preset="standard", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]

    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=front.base)
    context.add_init_script(
        "localStorage.setItem('corazones.speed', 'instant'); localStorage.setItem('corazones.lang', 'en');"
        f"localStorage.setItem('corazones.token', '{api.token}');"
        f"localStorage.setItem('corazones.player', JSON.stringify({{id: {player['id']}, name: 'Pat'}}));"
    )
    page = context.new_page()
    page.set_default_timeout(PATIENCE * 1000)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"/#/table/{table}")
    page.wait_for_function("() => window.__corazones && window.__corazones.table && window.__corazones.table.connected")
    owner_port, front_port = f":{owner.port}/", f":{front.port}/"
    assert any(owner_port in u for u in sockets), sockets  # sent to the owner by `moved`
    hand = page.evaluate("window.__corazones.table.view.hand")

    owner.kill()
    died = len(sockets)
    page.wait_for_function("() => window.__corazones.table.connected === false")
    started = time.monotonic()
    page.wait_for_function("() => window.__corazones.table.connected === true", timeout=PATIENCE * 1000)
    after = sockets[died:]
    assert any(front_port in u for u in after), after
    assert front_port in after[-1], after  # connected at the page's own address
    # the dead address was tried only until a connection to it failed (once per `moved` pointing there,
    # which the survivor sends until the dead owner's lease expires), not for ever
    assert sum(owner_port in u for u in after) <= 1 + int((time.monotonic() - started) / 0.3), after
    assert sorted(page.evaluate("window.__corazones.table.view.hand")) == sorted(hand)
    context.close()
