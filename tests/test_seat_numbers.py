"""A seat a person reads is counted from 1, as every face names it ("Seat 1"); data and the API keep the index.

The engine's errors carry their seats as :class:`~corazones.core.errors.Seats`:
``str(error)`` (the programmer's English, beside ``Action.play(0, ...)``)
names the index from 0, a face (``error_text``, the web's ``error_json``,
``verify``, ``replay``, a WebSocket refusal, the hint sentence) names the seat
counted from 1.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from corazones.core.actions import Action
from corazones.core.cards import card_str
from corazones.core.errors import N_, IllegalActionError, Message, RecordError, Seats, fill
from corazones.core.game import Game
from corazones.core.handlog import check_line
from corazones.core.records import dumps, make_record, verify_record
from corazones.core.rules import Rules
from corazones.i18n import error_json, error_text, translator
from corazones.players.hints import Hint, Reason, Seat
from corazones.server.client import TableClient
from corazones.server.local import LocalServer
from corazones.server.routes.ws import hint_reply
from tests.helpers import PATIENCE, RANDOM, guest, hand_entries
from tests.test_cli import run
from tests.test_handlog import moon_entry

EN = translator("en").gettext
ES = translator("es").gettext


def test_seats_read_from_1_for_people_and_from_0_for_programmers() -> None:
    e = IllegalActionError(
        N_("it is not seat {seat}'s turn to {kind}; waiting for seat(s) {seats}"),
        seat=Seats(1),
        kind="play",
        seats=Seats(0, 2),
    )
    assert str(e) == "it is not seat 1's turn to play; waiting for seat(s) 0, 2"
    assert error_text(EN, e) == "it is not seat 2's turn to play; waiting for seat(s) 1, 3"
    # the web app is sent the seats as people read them, text it shows as it is (an index is sent as a number)
    assert error_json(e)["params"] == {"seat": "2", "kind": "play", "seats": "1, 3"}
    # a seat inside a nested text follows the reader too; a pickled error (an arena worker's) keeps its seats
    outer = RecordError(
        N_("action #{number} ({action}) is illegal: {error}"), number=3, action=Action.play(1, "QS").describe(), error=e
    )
    assert str(outer).startswith("action #3 (seat 1 plays QS) is illegal: it is not seat 1's turn")
    again = pickle.loads(pickle.dumps(outer))
    assert error_text(EN, again).startswith("action #3 (seat 2 plays QS) is illegal: it is not seat 2's turn")
    assert (Seats(1).index, Seats(0, 2).indexes, str(Seats(3)), Seats(3).counted_from_1()) == (1, (0, 2), "3", "4")
    assert f"{Seats(0, 2)}" == "1, 3"  # what a face fills into a template
    assert (
        fill("seat {seat}", {"seat": Seats(0)}) == "seat 0" and str(Message("seat {seat}", seat=Seats(0))) == "seat 0"
    )
    # an Action made by hand with no seat at all is still described, never raising inside an error message
    assert f"{Seats('x')}" == "'x'" and error_text(EN, Action(Action.play(0, "QS").kind, "x", (5,)).describe())


def _record_with_a_card_not_held(tmp_path: Path) -> tuple[Path, int, int, str]:
    """A record whose second play names a card its seat does not hold: the file, action number, seat, card."""
    game = Game(Rules.preset("quick", hands=1), "seat-numbers")
    while not game.over:
        s = game.to_act()[0]
        game.apply(game.legal_actions(s)[0])
    rec: dict[str, Any] = json.loads(dumps(make_record(game)))
    i = next(k for k, a in enumerate(rec["actions"]) if "play" in a)
    rec["actions"][i + 1]["play"] = card = rec["actions"][i]["play"]  # a card already on the table
    seat = rec["actions"][i + 1]["seat"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    return path, i + 2, seat, card


def test_verify_and_replay_name_the_seat_as_the_replay_does(tmp_path: Path) -> None:
    path, number, seat, card = _record_with_a_card_not_held(tmp_path)
    said = f"action #{number} (seat {seat + 1} plays {card}) is illegal: seat {seat + 1} does not hold {card}"
    code, out = run("verify", str(path))
    assert code == 1 and f"FAIL {path}: {said}" in out, out
    code, out = run("verify", str(path), "--lang", "es")  # still English, for scripts
    assert code == 1 and f"FAIL {path}: {said}" in out, out
    code, out = run("replay", str(path), "--no-glyphs")
    assert code == 1 and f"replay stopped: {said}" in out, out
    assert f"Seat {seat + 1} passes" in out  # the seat that stops the replay is the one it printed above
    # the Python API keeps the index, as the record does
    with pytest.raises(RecordError) as info:
        verify_record(json.loads(path.read_text(encoding="utf-8")))
    assert f"(seat {seat} plays {card}) is illegal: seat {seat} does not hold {card}" in str(info.value)


def test_a_record_seat_the_table_lacks_is_named_as_data(tmp_path: Path) -> None:
    """Seat 4 of a four-seat table is no seat: the record's index is named, not a seat "5" nobody has."""
    path, _number, _seat, _card = _record_with_a_card_not_held(tmp_path)
    rec = json.loads(path.read_text(encoding="utf-8"))
    rec["actions"][0]["seat"] = 4
    path.write_text(json.dumps(rec), encoding="utf-8")
    code, out = run("verify", str(path))
    assert code == 1 and f"FAIL {path}: action #1: a seat is a whole number 0 to 3, not 4" in out, out


def test_a_hand_log_verdict_counts_seats_from_1(tmp_path: Path) -> None:
    entry = hand_entries("standard", {}, seed=5, hands=1)[0]
    plays = entry["plays"]
    plays[1], plays[2] = plays[2], plays[1]  # the second seat plays the third seat's card
    line = json.dumps(entry)
    verdict = check_line(line)
    assert not verdict.ok and verdict.message.startswith("play #2 (trick 1, seat ")
    seat = int(verdict.message.split("seat ")[1].split(" ")[0])  # the message keeps the index (API, data)
    path = tmp_path / "log.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    code, out = run("verify", str(path))
    assert code == 1
    assert f"line 1: FAIL illegal: play #2 (trick 1, seat {seat + 1} plays {plays[1]}): seat {seat + 1} " in out, out


def test_a_moon_verdict_names_the_shooter_from_1(tmp_path: Path) -> None:
    entry = moon_entry()  # the record's seat 0 takes every penalty card
    entry["moon_choice"] = "add_to_others"
    assert check_line(json.dumps(entry)).message.endswith("; seat 0 shot the moon (add_to_others)")  # the index
    path = tmp_path / "moon.jsonl"
    path.write_text(json.dumps(entry) + "\n", encoding="utf-8")
    code, out = run("verify", str(path))
    assert code == 0 and "line 1: ok, points [0, 26, 26, 26]; seat 1 shot the moon (add_to_others)" in out, out
    entry["moon_choice"] = None
    path.write_text(json.dumps(entry) + "\n", encoding="utf-8")
    code, out = run("verify", str(path))
    assert code == 1 and "line 1: FAIL malformed: seat 1 shot the moon and these rules let the shooter choose" in out


def test_the_hint_sentence_counts_seats_from_1() -> None:
    hint = Hint(Action.play(0, "2C"), (Reason(N_("the trick goes to {seat} for now"), {"seat": Seat(2)}),))
    reply = hint_reply(hint, "standard", "en").model_dump()
    assert reply["reason"] == "the trick goes to seat 3 for now"
    assert reply["reasons"][0]["params"] == {"seat": {"seat": 2}}  # the structured reason keeps the index
    assert "asiento 3" in hint_reply(hint, "standard", "es").model_dump()["reason"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("seats") / "corazones.db"
    with LocalServer(f"sqlite:///{db}", bot_delay=0.0) as srv:
        yield srv


def test_the_web_refuses_another_seats_move_naming_both_seats_from_1(server: LocalServer) -> None:
    ana = guest(server, "Ana")
    info = ana.create(preset="quick", seats=[{"kind": "human"}, RANDOM, RANDOM, RANDOM])
    a = TableClient(ana, info["id"], lang="en")
    try:
        hand = a.view["hand"]
        a.act({"seat": 2, "pass": hand[:3]})
        bad = a.wait(lambda m: m["type"] == "error", timeout=PATIENCE)
        assert (bad["code"], bad["message"]) == ("not_your_seat", "You play seat 1, not seat 3.")
        a.act({"play": hand[0]})  # a play during the pass: the engine's reason, seats from 1
        bad = a.wait(lambda m: m["type"] == "error" and m["code"] == "illegal", timeout=PATIENCE)
        assert "waits for pass from seat(s) 1" in bad["message"], bad["message"]
    finally:
        a.close()


def test_an_illegal_move_refused_to_a_player_names_the_seat_from_1() -> None:
    g = Game(Rules.preset("standard", pass_count=0, passes=("hold",)), seed=1)
    seat = g.to_act()[0]
    other = (seat + 1) % 4
    card = g.deal.hand(other)[0]
    with pytest.raises(IllegalActionError) as info:
        g.apply(Action.play(seat, card))
    assert error_text(EN, info.value) == f"seat {seat + 1} does not hold {card_str(card)}"
    assert str(info.value) == f"seat {seat} does not hold {card_str(card)}"
