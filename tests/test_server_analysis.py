"""The analysis board through a real server: from a replay position and from a typed position, in the pool."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from corazones.server.client import Api, ApiError, TableClient, drain, play_to_end
from corazones.server.local import LocalServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("server") / "corazones.db"
    with LocalServer(f"sqlite:///{db}", grace=30.0, bot_delay=0.0, lease_ttl=5.0) as srv:
        yield srv


@pytest.fixture(scope="module")
def played(server: LocalServer) -> tuple[Api, str]:
    """A guest's finished one-hand standard game against three random bots."""
    api = Api(server.base)
    api.guest("Analyst")
    info = api.create(preset="standard", options={"hands": 1, "target": None}, takeover_level="random")
    c = TableClient(api, info["id"])
    play_to_end([c], timeout=120)
    drain(c)
    c.close()
    return api, info["id"]


def test_a_replay_position_is_analysed_card_by_card(played: tuple[Api, str]) -> None:
    api, game = played
    board = api.request("POST", f"/api/games/{game}/analysis?hand=1&trick=3&played=1&worlds=8")
    assert (board["hand"], board["trick"], board["played"]) == (1, 3, 1)
    assert len(board["trick_cards"]) == 1 and len(board["cards_held"]) == 11
    cards = board["analysis"]["cards"]
    assert cards and board["analysis"]["seat"] == board["seat"] and board["analysis"]["worlds"] == 8
    assert {c["card"] for c in cards} <= set(board["cards_held"])
    assert cards[0]["loss"] == 0 and [c["value"] for c in cards] == sorted((c["value"] for c in cards), reverse=True)
    assert board["chosen"] in board["cards_held"]
    # the same point by its action number gives the same board
    again = api.request("POST", f"/api/games/{game}/analysis?step={board['step']}&worlds=8")
    assert again["analysis"] == board["analysis"] and again["chosen"] == board["chosen"]
    hindsight = api.request("POST", f"/api/games/{game}/analysis?step={board['step']}&open_hands=true")
    assert hindsight["analysis"]["open_hands"] is True


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ("", 422, "say where to analyse"),
        ("?step=0", 422, "not a card to play"),  # the pass
        ("?step=99999", 422, "step must be a number from 0 to"),
        ("?hand=2&trick=1", 422, "no card 1 of trick 1 of hand 2"),
        ("?hand=1&trick=1&worlds=5000", 422, "worlds"),
    ],
)
def test_bad_replay_positions_are_refused_with_the_reason(
    played: tuple[Api, str], query: str, status: int, words: str
) -> None:
    api, game = played
    with pytest.raises(ApiError) as e:
        api.request("POST", f"/api/games/{game}/analysis{query}")
    assert e.value.status == status
    assert words in str(e.value.detail), e.value.detail


def test_an_unknown_game_is_not_found_and_a_game_still_played_is_refused(
    server: LocalServer, played: tuple[Api, str]
) -> None:
    api, _ = played
    with pytest.raises(ApiError) as e:
        api.request("POST", "/api/games/nonesuch/analysis?step=3")
    assert e.value.status == 404
    host = Api(server.base)
    host.guest("Waiting")
    seats = [{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2
    table = host.create(preset="standard", seats=seats, my_seat=0)["id"]
    with pytest.raises(ApiError) as e:
        host.request("POST", f"/api/games/{table}/analysis?step=0")
    assert e.value.status == 409 and "seed is still secret" in e.value.detail["message"]


HANDS = [
    "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D",
    "9C 10C JC QC 8D 9D 10D 2S 3S 4S 5S 2H 3H",
    "KC AC JD QD KD AD 6S 7S 8S 9S 10S 4H 5H",
    "JS QS KS AS 6H 7H 8H 9H 10H JH QH KH AH",
]


def test_a_typed_position_is_analysed(played: tuple[Api, str]) -> None:
    api, _ = played
    position = {"rules": "standard", "hands": HANDS, "pass_direction": "hold", "scores": [10, 20, 30, 40]}
    board = api.request(
        "POST", "/api/analysis", {"position": position, "actions": [{"seat": 0, "play": "2C"}], "worlds": 6}
    )
    assert board["seat"] == 1 and board["scores"] == [10, 20, 30, 40]
    assert {c["card"] for c in board["analysis"]["cards"]} == {"9C", "10C", "JC", "QC"}
    with pytest.raises(ApiError) as e:
        api.request("POST", "/api/analysis", {"position": {**position, "hands": HANDS[:3]}})
    assert e.value.status == 422 and "cannot be analysed" in e.value.detail["message"]
    with pytest.raises(ApiError) as e:
        api.request("POST", "/api/analysis", {"position": position, "actions": [{"seat": 0, "play": "3C"}]})
    assert e.value.status == 422 and "3C" in e.value.detail["message"]
    with pytest.raises(ApiError) as e:
        api.request("POST", "/api/analysis", {"position": position, "actions": [{"seat": 0}] * 500})
    assert e.value.status == 422
