"""Reviews and ratings through a real server: a rated game against bots, its review in the worker pool."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from corazones.server.client import Api, ApiError, TableClient, drain, play_to_end
from corazones.server.local import LocalServer
from tests.helpers import PATIENCE


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("server") / "corazones.db"
    with LocalServer(f"sqlite:///{db}", grace=30.0, bot_delay=0.0, lease_ttl=5.0) as srv:
        yield srv


def _played(server: LocalServer, name: str) -> tuple[Api, str, int]:
    """A guest's finished one-hand standard game against three random bots: (api, game id, player id)."""
    api = Api(server.base)
    api.guest(name)
    info = api.create(preset="standard", options={"hands": 1, "target": None}, takeover_level="random")
    c = TableClient(api, info["id"])
    player = c.snapshot["table"]["seats"][0]["player"]
    play_to_end([c], timeout=120)
    drain(c)
    c.close()
    return api, info["id"], player


def test_a_finished_game_is_rated_and_shows_on_the_leaderboard_and_profile(server: LocalServer) -> None:
    api, game, player = _played(server, "Rated")
    changes = api.request("GET", f"/api/games/{game}/ratings")
    assert changes["family"] == "standard"
    assert [c["seat"] for c in changes["changes"]] == [0]
    change = changes["changes"][0]
    assert change["player"] == player and change["change"] == round(change["after"] - change["before"], 2)
    board = api.request("GET", "/api/ratings/standard")
    assert player in [r["player"] for r in board["players"]]
    profile = api.request("GET", f"/api/players/{player}/profile")
    assert profile["games"] == 1 and len(profile["history"]) == 1
    assert profile["ratings"][0]["family"] == "standard" and profile["ratings"][0]["games"] == 1
    families = api.request("GET", "/api/ratings")
    assert {"standard", "black_maria", "chips"} <= {f["family"] for f in families["families"]}
    assert families["bots"]["expert"]["mu"] > families["bots"]["random"]["mu"]
    with pytest.raises(ApiError) as e:
        api.request("GET", "/api/ratings/nonsense")
    assert e.value.status == 404 and "families" in e.value.detail["message"]


def test_a_review_runs_in_the_pool_with_progress_and_is_stored(server: LocalServer) -> None:
    api, game, player = _played(server, "Reviewed")
    with pytest.raises(ApiError) as e:
        api.request("GET", f"/api/games/{game}/review?seat=0")
    assert e.value.status == 404
    with pytest.raises(ApiError) as e:
        api.request("POST", f"/api/games/{game}/review?seat=9")
    assert e.value.status == 422
    started = api.request("POST", f"/api/games/{game}/review?seat=0&worlds=4&pass_worlds=4")
    assert started["status"] in ("running", "done")
    seen = []
    deadline = time.monotonic() + PATIENCE * 2
    while True:
        got = api.request("GET", f"/api/games/{game}/review?seat=0")
        seen.append(got)
        if got["status"] != "running":
            break
        assert time.monotonic() < deadline, seen[-1]
        time.sleep(0.2)
    assert got["status"] == "done", got
    review = got["review"]
    assert review["worlds"] == 4 and review["summary"][0]["seat"] == 0
    assert review["decisions"] and all(d["seat"] == 0 for d in review["decisions"])
    first = review["decisions"][0]
    assert {"hand", "trick", "kind", "chosen", "best", "loss", "label", "why", "hindsight"} <= set(first)
    assert all("template" in r for r in first["why"])  # reasons for the web app to translate
    # asked again: the stored review, at once
    assert api.request("POST", f"/api/games/{game}/review?seat=0")["review"] == review
    # every seat at once: the one reviewed, the others nobody asked about
    seats = api.request("GET", f"/api/games/{game}/reviews")["seats"]
    assert seats == [{"status": "done", "review": review}, None, None, None]
    profile = api.request("GET", f"/api/players/{player}/profile")
    assert profile["mean_review_loss"] == round(review["summary"][0]["mean_loss"], 3)


def test_a_review_nobody_asked_for_names_the_seat_as_the_table_does(server: LocalServer) -> None:
    """The 404 a page polling a review can get (a restarted server, another process behind the proxy) names
    the seat counted from 1, as the table and the replay name it ("Seat 1" is index 0), in its English
    message and in the reason the page translates."""
    api, game, _player = _played(server, "Unasked")
    with pytest.raises(ApiError) as e:
        api.request("GET", f"/api/games/{game}/review?seat=0")
    assert e.value.status == 404
    assert e.value.detail["message"] == "nobody has asked for a review of seat 1 of this game"
    assert e.value.detail["reason"]["params"] == {"seat": "1"}


def test_reviews_at_once_are_bounded_and_the_rest_wait(server: LocalServer) -> None:
    api, game, _player = _played(server, "Busy")
    first = api.request("POST", f"/api/games/{game}/review?seat=1")
    second = api.request("POST", f"/api/games/{game}/review?seat=2")
    assert first["status"] == second["status"] == "running"
    with pytest.raises(ApiError) as e:
        api.request("POST", f"/api/games/{game}/review?seat=3")
    assert e.value.status == 429 and "reviewing other games" in e.value.detail["message"]
    deadline = time.monotonic() + PATIENCE * 2
    for seat in (1, 2):
        while api.request("GET", f"/api/games/{game}/review?seat={seat}")["status"] == "running":
            assert time.monotonic() < deadline
            time.sleep(0.3)
    assert api.request("POST", f"/api/games/{game}/review?seat=3&worlds=2&pass_worlds=2")["status"] in (
        "running",
        "done",
    )


def test_a_game_is_rated_for_who_sat_at_its_start_not_for_who_finished_it(server: LocalServer) -> None:
    """Leaving is no way out of a loss, and stepping into a seat mid-game earns nobody its rating."""
    leaver = Api(server.base)
    leaver.guest("Leaver")
    info = leaver.create(preset="standard", options={"hands": 8, "target": None}, takeover_level="random")
    table = info["id"]
    c = TableClient(leaver, table)
    first = c.snapshot["table"]["seats"][0]["player"]
    leaver.request("POST", f"/api/tables/{table}/leave")  # during the first deal: a bot plays seat 0 on
    c.close()
    joiner = Api(server.base)
    joiner.guest("Joiner")
    j = TableClient(joiner, table)  # watching: seat 0 is free to others from the next deal on
    j.send({"type": "sit", "seat": 0})
    reply = j.wait(lambda m: m["type"] in ("error", "snapshot"))
    if reply["type"] == "error":
        assert reply["code"] == "seat_taken", reply
        j.wait(lambda m: m["type"] == "event" and m["event"]["kind"] == "hand_start")
        j.send({"type": "sit", "seat": 0})
        j.wait(lambda m: m["type"] == "snapshot")
    assert j.seat == 0
    second = j.snapshot["table"]["seats"][0]["player"]
    assert second != first
    play_to_end([j], timeout=120)
    drain(j)
    j.close()
    deadline = time.monotonic() + PATIENCE
    while not (changes := joiner.request("GET", f"/api/games/{table}/ratings")["changes"]):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert [(ch["seat"], ch["player"]) for ch in changes] == [(0, first)]
    assert joiner.request("GET", f"/api/players/{first}/profile")["games"] == 1
    assert joiner.request("GET", f"/api/players/{second}/profile")["games"] == 0
    listed = joiner.request("GET", f"/api/games?player={first}")
    assert [g["id"] for g in listed] == [table] and "Leaver" in listed[0]["players"]
    assert joiner.request("GET", f"/api/games?player={second}") == []
