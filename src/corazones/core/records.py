"""Game records: a documented JSON document that replays to the identical game.

A record holds the rules (every option), the seed and every decision in the
order it was applied, plus each hand's result and the final standing so a
reader (or :func:`verify_record`) can check the scores without trusting the
program that wrote them.  The format is described in ``docs/records.md``.

Serialisation is canonical (:func:`dumps`): the same game gives the same
bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from corazones.core.actions import Action
from corazones.core.errors import CorazonesError, RecordError
from corazones.core.game import Game
from corazones.core.observation import HandResult
from corazones.core.rules import Rules

FORMAT = "corazones-record"
VERSION = 1


def make_record(game: Game, players: list[str] | None = None) -> dict[str, Any]:
    """The JSON-ready record of ``game`` so far (finished or not)."""
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "players": players if players is not None else [f"seat {i}" for i in range(game.rules.players)],
        "actions": [a.to_json() for a in game.actions],
        "hands": [h.to_json() for h in game.history],
        "final": {
            "over": game.over,
            "scores": list(game.scores),
            "chips": list(game.chips),
            "pool": game.pool,
            "winners": list(game.winners),
        },
    }
    return rec


def dumps(record: dict[str, Any]) -> str:
    """Canonical JSON text of a record: one action per line, stable key order."""
    head = {k: v for k, v in record.items() if k not in ("actions", "hands")}
    lines = ["{"]
    for k, v in head.items():
        if k == "final":
            continue
        lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    lines.append('  "actions": [')
    acts = record.get("actions", [])
    for i, a in enumerate(acts):
        lines.append("    " + json.dumps(a, ensure_ascii=False) + ("," if i < len(acts) - 1 else ""))
    lines.append("  ],")
    lines.append('  "hands": [')
    hands = record.get("hands", [])
    for i, h in enumerate(hands):
        lines.append("    " + json.dumps(h, ensure_ascii=False) + ("," if i < len(hands) - 1 else ""))
    lines.append("  ],")
    lines.append(f'  "final": {json.dumps(record.get("final", {}), ensure_ascii=False)}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def loads(text: str) -> dict[str, Any]:
    """Parse record text; :class:`RecordError` if it is not a Corazones record."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not a Corazones game record: the top level must be an object with format = {FORMAT!r}")
    if data.get("version") != VERSION:
        raise RecordError(f"record version {data.get('version')!r} is not supported; this program reads {VERSION}")
    for key in ("rules", "seed", "actions"):
        if key not in data:
            raise RecordError(f"record has no {key!r}")
    if not isinstance(data["actions"], list):
        raise RecordError("record 'actions' must be a list")
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise RecordError(f"record 'seed' must be a whole number or a string, not {seed!r}")
    return data


def rules_of(record: dict[str, Any]) -> Rules:
    try:
        return Rules.from_dict(record["rules"])
    except CorazonesError as e:
        raise RecordError(f"record rules: {e}") from None


@dataclass(frozen=True, slots=True)
class Step:
    """One replayed action with the game state after it."""

    index: int
    action: Action
    game: Game


def replay_steps(record: dict[str, Any]) -> Iterator[Step]:
    """Replay a record action by action (each validated); yields after every action.

    Raises :class:`RecordError` naming the first action that is malformed or illegal.
    """
    game = Game(rules_of(record), record["seed"])
    for i, raw in enumerate(record["actions"]):
        try:
            action = Action.from_json(raw)
        except RecordError as e:
            raise RecordError(f"action #{i + 1}: {e}") from None
        try:
            game.apply(action)
        except CorazonesError as e:
            raise RecordError(f"action #{i + 1} ({action}) is illegal: {e}") from None
        yield Step(i, action, game)


def replay(record: dict[str, Any]) -> Game:
    """The game a record describes, replayed and validated."""
    game = Game(rules_of(record), record["seed"])
    for step in replay_steps(record):
        game = step.game
    return game


def verify_record(record: dict[str, Any]) -> Game:
    """Replay and check every action and every recorded score.

    Returns the replayed game; raises :class:`RecordError` naming the first
    discrepancy (an illegal action, a hand result or final score that differs).
    """
    game = replay(record)
    recorded = record.get("hands", [])
    if not isinstance(recorded, list):
        raise RecordError("record 'hands' must be a list")
    if len(recorded) != len(game.history):
        raise RecordError(f"record lists {len(recorded)} finished hands; replay gives {len(game.history)}")
    for want, got in zip(recorded, game.history, strict=True):
        _compare_hand(want, got)
    final = record.get("final")
    if isinstance(final, dict):
        for key, value in (
            ("over", game.over),
            ("scores", list(game.scores)),
            ("chips", list(game.chips)),
            ("pool", game.pool),
            ("winners", list(game.winners)),
        ):
            if key in final and final[key] != value:
                raise RecordError(f"final {key}: record says {final[key]!r}, the rules give {value!r}")
    return game


def _compare_hand(want: Any, got: HandResult) -> None:
    if not isinstance(want, dict):
        raise RecordError(f"hand {got.index + 1}: entry must be an object")
    have = got.to_json()
    for key, value in have.items():
        if key in want and want[key] != value:
            raise RecordError(f"hand {got.index + 1}: {key}: record says {want[key]!r}, the rules give {value!r}")
