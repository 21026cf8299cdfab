"""Open tables do not pile up: a table nobody started and nobody is connected to expires, and one
client address may create only so many unfinished tables."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from corazones.server.client import Api, ApiError, TableClient
from corazones.server.local import LocalServer
from tests.helpers import HUMAN, PATIENCE, RANDOM, guest


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("expiry") / "corazones.db"
    # No proxy is trusted, so this machine's address is a client's like any other.
    with LocalServer(
        f"sqlite:///{db}",
        forwarded_allow_ips="192.0.2.1",
        bot_delay=0.0,
        lease_ttl=0.6,
        open_table_idle_minutes=1.5 / 60,
        tables_per_address=4,
    ) as srv:
        yield srv


def gone(api: Api, table: str) -> bool:
    try:
        api.table(table)
    except ApiError as e:
        return e.status == 404
    return False


def test_an_open_table_nobody_is_at_expires(server: LocalServer) -> None:
    ana = guest(server, "Ana")
    left_alone = ana.create(preset="standard", seats=[HUMAN, HUMAN, RANDOM, RANDOM])["id"]
    watched = ana.create(preset="standard", seats=[HUMAN, HUMAN, RANDOM, RANDOM])["id"]
    playing = ana.create(preset="standard", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]  # started at once
    watcher = TableClient(ana, watched)
    deadline = time.monotonic() + PATIENCE
    while not gone(ana, left_alone) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert gone(ana, left_alone)
    assert left_alone not in {t["id"] for t in ana.request("GET", "/api/tables")}
    assert server.hub.store.table(left_alone).status == "expired"
    bea = guest(server, "Bea")
    with pytest.raises(ApiError) as e:
        bea.join(left_alone)
    assert e.value.status == 404
    # one with somebody connected stays, and so does a game in progress (its seats are its players')
    assert ana.table(watched)["status"] == "open" and ana.table(playing)["status"] == "playing"
    watcher.close()


def test_tables_per_address_are_capped(server: LocalServer) -> None:
    # Four guests from this one address; the earlier test's tables count too (they are unfinished).
    made = 0
    refused = None
    for name in ("Cy", "Di", "Ed"):
        api = guest(server, name)
        for _ in range(2):
            try:
                api.create(preset="standard", seats=[HUMAN, RANDOM, RANDOM, RANDOM])
                made += 1
            except ApiError as e:
                refused = e
                break
        if refused:
            break
    assert refused is not None and refused.status == 429
    assert "your address" in refused.detail["message"]
