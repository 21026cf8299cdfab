"""Open connections per client address on a real server: a score-pad follower waiting for a change counts
with the table WebSockets, so one address cannot hold thousands of waiting requests; the address is
the forwarded one when the request comes through a trusted proxy (here the loopback, which a LocalServer
trusts unless told otherwise; `corazones serve` trusts none unless told)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from corazones.server.client import Api
from corazones.server.local import LocalServer
from corazones.server.routes.pad import WAIT
from tests.helpers import PATIENCE


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("addresses") / "corazones.db"
    with LocalServer(f"sqlite:///{db}", bot_delay=0.0, ws_per_address=2) as srv:
        yield srv


def get(server: LocalServer, path: str, address: str, timeout: float = 30) -> tuple[int, Any]:
    """GET ``path`` as if through a proxy for client ``address``: the status and the JSON answer."""
    req = urllib.request.Request(server.base + path, headers={"X-Forwarded-For": address})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def wait_for(check: Any, timeout: float = PATIENCE) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_pad_followers_count_against_the_address_with_the_websockets(server: LocalServer) -> None:
    made = Api(server.base).request("POST", "/api/pads", {"preset": "standard", "options": {}, "names": list("ABCD")})
    pad = made["id"]
    follow = f"/api/pads/{pad}?after=1"
    answers: list[tuple[int, Any]] = []
    waiting = [
        threading.Thread(target=lambda a=a: answers.append(get(server, follow, a)))
        for a in ("10.0.0.1", "10.0.0.1", "10.0.0.2")
    ]
    for t in waiting:
        t.start()
    wait_for(lambda: server.hub.admission.addresses == {"10.0.0.1": 2, "10.0.0.2": 1})

    # A third follower from the same address is answered at once, and says why in both languages.  "At
    # once" is "without the wait": nothing changes the pad meanwhile, so a follower let in would be answered
    # only after WAIT seconds (a bound that holds however slow this machine is, unlike a few seconds).
    started = time.monotonic()
    status, body = get(server, follow, "10.0.0.1")
    assert status == 429 and time.monotonic() - started < WAIT
    assert body["detail"]["code"] == "rate_limited"
    assert body["detail"]["reason"] == {
        "template": "Too many connections from your address: at most {n}.",
        "params": {"n": 2},
    }
    # So is a table WebSocket from that address: both share the limit.
    with connect(
        server.base.replace("http", "ws") + "/ws/tables/nope", additional_headers={"X-Forwarded-For": "10.0.0.1"}
    ) as ws:
        error = json.loads(ws.recv(timeout=PATIENCE))
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=PATIENCE)
    assert error["code"] == "rate_limited" and "at most 2" in error["message"]
    # Reading without waiting is not a held connection.
    assert get(server, f"/api/pads/{pad}", "10.0.0.1")[0] == 200

    # A change ends every wait, and the addresses are free again.
    _add_hand(server, pad, made["key"])
    for t in waiting:
        t.join(timeout=PATIENCE)
    assert sorted(s for s, _ in answers) == [200, 200, 200] and all(b["version"] == 2 for _, b in answers)
    wait_for(lambda: server.hub.admission.addresses == {})


def _add_hand(server: LocalServer, pad: str, key: str) -> None:
    body = json.dumps({"counts": [3, 4, 6, 0], "cards": {"QS": [2]}}).encode()
    req = urllib.request.Request(
        f"{server.base}/api/pads/{pad}/hands",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "X-Pad-Key": key},
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        assert resp.status == 200


def test_a_pad_page_over_the_limit_still_follows_by_reading(browser: Any, server: LocalServer) -> None:
    """Two followers hold this address's connections; a third page is refused the wait (429) and
    reads the pad every few seconds instead, so it still shows a new hand."""
    made = Api(server.base).request("POST", "/api/pads", {"preset": "standard", "options": {}, "names": list("ABCD")})
    pad, stop = made["id"], threading.Event()

    def hold() -> None:  # a follower of its own, waiting after whatever version is current
        while not stop.is_set():
            version = get(server, f"/api/pads/{pad}", "127.0.0.1")[1]["version"]
            get(server, f"/api/pads/{pad}?after={version}", "127.0.0.1")

    holders = [threading.Thread(target=hold, daemon=True) for _ in range(2)]
    for t in holders:
        t.start()
    try:
        wait_for(lambda: server.hub.admission.addresses.get("127.0.0.1") == 2)
        context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server.base)
        page = context.new_page()
        refused: list[str] = []
        page.on("response", lambda r: refused.append(r.url) if r.status == 429 else None)
        page.goto(f"/pad/#{pad}")
        page.wait_for_selector(".pad-table")
        _add_hand(server, pad, made["key"])
        page.wait_for_function(
            "() => document.querySelectorAll('.pad-table tbody tr').length === 1", timeout=PATIENCE * 1000
        )
        assert refused and all("after=" in url for url in refused)  # it was refused the wait, not the read
        context.close()
    finally:
        stop.set()
        _add_hand(server, pad, made["key"])  # ends the holders' waits
        for t in holders:
            t.join(timeout=30)
