"""What the run-time protocol check costs a broadcast, in-process: the hub's EventLog.broadcast against
``json.dumps`` of the same dictionaries (no check at all).

Every action of a few random games of standard Hearts is broadcast to three connections (seats 0 and 1
and a spectator), views included, as ``EventLog.broadcast`` does it (each message a schema model,
``corazones.server.outgoing``); the other way sends the same messages as plain dictionaries through
``json.dumps``.  Both must put the same JSON on the wire (checked first).  The web load bench
(``bench/web_load.py``) measures the whole server, where a few tens of microseconds are lost in the
noise of a shared machine; this one measures only the difference, taking the fastest of ``--runs``.

    nice -n 19 python3 bench/broadcast.py --runs 30
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import time
from collections.abc import Callable
from typing import Any

from corazones.core.actions import Action
from corazones.core.game import Game
from corazones.core.rules import Rules
from corazones.server.events import EventLog, Stored
from corazones.server.outgoing import event_body
from corazones.server.table import Conn, SeatState, TableRuntime
from corazones.server.views import public_view, redact, seat_view

Step = tuple[TableRuntime, list[tuple[str, dict[str, Any]]]]


def steps(games: int, every: int, sink: list[str]) -> list[Step]:
    """Every ``every``-th action of ``games`` random games: the table just after it, and its events."""
    out: list[Step] = []
    n = 0
    for gi in range(games):
        game = Game(Rules.preset("standard"), f"bench-{gi}")
        rng = random.Random(gi)
        while not game.over:
            obs = game.observation(game.to_act()[0])
            action: Action = rng.choice(list(obs.legal)) if obs.legal else _a_pass(game, rng)
            done = game.apply(action)
            trick = done.trick.to_json() if done.trick is not None else None
            events = [("action", {"kind": "action", "action": action.to_json(), "by": "human", "trick": trick})]
            if done.hand is not None:
                events.append(("hand_end", {"kind": "hand_end", "result": done.hand.to_json()}))
            if n % every == 0:
                out.append((_table(copy.deepcopy(game), sink), events))
            n += 1
    return out


def _a_pass(game: Game, rng: random.Random) -> Action:
    seat = game.to_act()[0]
    obs = game.observation(seat)
    cards = rng.sample(sorted(obs.hand), obs.rules.pass_count)
    return Action.pass_cards(seat, cards)


def _table(game: Game, sink: list[str]) -> TableRuntime:
    t = TableRuntime(
        id="bench", name="bench", preset="standard", rules=game.rules, seed="s", commitment="c", status="playing",
        private=False, invite="i", owner=1, takeover_level="standard", created=0.0,
        seats=[SeatState("human") for _ in range(game.rules.players)],
    )  # fmt: skip
    t.game = game
    for seat in (0, 1, None):
        t.conns.add(Conn(1, "p", "guest", "en", sink.append, lambda code, why: None, seat=seat))
    return t


def plain_json(t: TableRuntime, events: list[tuple[str, dict[str, Any]]]) -> None:
    """The same broadcast with dictionaries and ``json.dumps``: no check (the floor)."""
    assert t.game is not None
    texts: dict[int | None, list[str]] = {}
    last = len(events) - 1
    for conn in list(t.conns):
        key = conn.seat
        if key not in texts:
            view = public_view(t.game) if key is None else seat_view(t.game, key)
            lines = []
            for i, (_kind, d) in enumerate(events):
                message = {"type": "event", "table": t.id, "seq": i, "event": redact(d, key)}
                lines.append(json.dumps({**message, "view": view if i == last else None}, separators=(",", ":")))
            texts[key] = lines
        for line in texts[key]:
            conn.send(line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3, help="random games of standard Hearts (default 3)")
    ap.add_argument("--runs", type=int, default=20, help="runs of each way; the fastest counts (default 20)")
    args = ap.parse_args()
    for name in ("games", "runs"):  # nothing broadcast, or never timed, gives no figure
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, not {getattr(args, name)}")
    sink: list[str] = []
    work = steps(args.games, 4, sink)
    log = EventLog.__new__(EventLog)  # broadcast reads the table only

    def schema(t: TableRuntime, events: list[tuple[str, dict[str, Any]]]) -> None:
        log.broadcast(t, [Stored(i, kind, d, event_body(d)) for i, (kind, d) in enumerate(events)], True)

    ways: dict[str, Callable[[TableRuntime, list[tuple[str, dict[str, Any]]]], None]] = {
        "json.dumps, no check": plain_json,
        "schema models (EventLog.broadcast)": schema,
    }
    wire = []
    for way in ways.values():
        sink.clear()
        for t, events in work:
            way(t, events)
        wire.append(sorted(json.dumps(json.loads(x), sort_keys=True) for x in sink))
    assert wire[0] == wire[1], "the two ways put different JSON on the wire"
    best = dict.fromkeys(ways, float("inf"))
    for _ in range(args.runs):
        for name, way in ways.items():
            sink.clear()
            started = time.perf_counter()
            for t, events in work:
                way(t, events)
            best[name] = min(best[name], (time.perf_counter() - started) / len(work))
    print(f"{len(work)} actions broadcast to 2 seats and a spectator, views included; fastest of {args.runs} runs:")
    for name, seconds in best.items():
        print(f"  {name}: {seconds * 1e6:.0f} us per action")


if __name__ == "__main__":
    main()
