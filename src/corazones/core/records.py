"""Game records: a documented JSON document that replays to the identical game.

A record holds the rules (every option), the seed and every decision in the
order it was applied, plus each hand's result and the final standing, so a
reader (or :func:`verify_record`) can check the scores without trusting the
program that wrote them.  The format is described field by field in
``docs/records.md``.

Serialisation is canonical (:func:`dumps`): the same game gives the same
bytes, and ``dumps(loads(text)) == text`` for any text :func:`dumps` wrote.

Reading is strict on purpose: an unknown field, a card written as a number or
a missing hand result is refused with a message naming the field and what is
allowed, because a record that silently means something else is worse than
one that does not load.  Records come from strangers too (the web server), so
every size is bounded (:mod:`corazones.core.limits`) and a hostile document
gets the same one-line :class:`RecordError` as a damaged one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Final

from corazones.core.actions import ACTION_KEYS, KIND_WORDS, Action
from corazones.core.commitment import check, check_seed, commit, is_commitment
from corazones.core.errors import N_, CorazonesError, Count, Message, RecordError, Seats
from corazones.core.game import Game
from corazones.core.limits import MAX_RECORD_ACTIONS, MAX_RECORD_BYTES, check_json, check_name, parse_json, show
from corazones.core.observation import HandResult
from corazones.core.replay import Step, rebuild, rebuild_steps
from corazones.core.rules import Rules
from corazones.core.validate import is_whole, refuse_unknown

FORMAT = "corazones-record"
#: The version written.  Version 2 added the optional ``commitment``; version 1 records are still read.
VERSION = 2
VERSIONS = (1, 2)

#: Top-level fields in their canonical order; ``players`` and ``commitment`` are optional on reading.
FIELDS = ("format", "version", "rules", "seed", "commitment", "players", "actions", "hands", "final")
_REQUIRED = ("format", "version", "rules", "seed", "actions", "hands", "final")
#: Fields of ``final``, in order.
FINAL_FIELDS = ("over", "scores", "chips", "pool", "winners")
#: The one-of keys of an action object (besides ``seat``).
ACTION_KINDS = ACTION_KEYS


def make_record(game: Game, players: list[str] | None = None) -> dict[str, Any]:
    """The JSON-ready record of ``game`` so far (finished or not).

    ``players`` names the seats (default ``seat 0`` ...); a record of an
    unfinished game is valid and replays to the same unfinished position.
    """
    n = game.rules.players
    if game.from_position:  # a record replays from the seed, which did not deal this game's cards
        raise RecordError(
            N_(
                "this game was started from a position (corazones.core.position.start_game), not dealt from its "
                "seed, so a record would replay to a different game; keep the position and the actions instead"
            )
        )
    if len(game.actions) > MAX_RECORD_ACTIONS:  # never write a record that cannot be read back
        raise RecordError(
            N_("this game has {count} actions; a record holds at most {most}"),
            count=Count(len(game.actions)),
            most=Count(MAX_RECORD_ACTIONS),
        )
    names = [f"seat {i}" for i in range(n)] if players is None else list(players)
    if len(names) != n:
        raise RecordError(N_("players must name each of the {n} seats, not {value}"), n=n, value=show(players))
    for i, name in enumerate(names):
        check_name(name, f"players[{i}]")  # never write a record that cannot be read back
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "commitment": game.commitment,
        "players": names,
        "actions": [a.to_json() for a in game.actions],
        "hands": [h.to_json() for h in game.history],
        "final": final_of(game),
    }


def final_of(game: Game) -> dict[str, Any]:
    """The ``final`` object of a record: where the game stands after its last action."""
    return {
        "over": game.over,
        "scores": list(game.scores),
        "chips": list(game.chips),
        "pool": game.pool,
        "winners": list(game.winners),
    }


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _brief(value: Any) -> str:
    """JSON text of a value for a message, cut short (a record's values can be long)."""
    text = _json(value)
    return text if len(text) <= 200 else text[:197] + "..."


def dumps(record: dict[str, Any]) -> str:
    """Canonical JSON text of a record: fixed field order, one action and one hand per line.

    One action per line keeps records readable and makes a ``diff`` of two
    records point at the first decision where they part.
    """
    refuse_unknown(record, FIELDS, None, RecordError, _UNKNOWN)
    lines = ["{"]
    for key in FIELDS:
        if key not in record:
            continue
        value = record[key]
        if key in ("actions", "hands") and isinstance(value, list):
            if not value:
                lines.append(f'  "{key}": [],')
                continue
            lines.append(f'  "{key}": [')
            lines.extend("    " + _json(v) + ("," if i < len(value) - 1 else "") for i, v in enumerate(value))
            lines.append("  ],")
        else:
            lines.append(f"  {_json(key)}: {_json(value)},")
    lines[-1] = lines[-1].removesuffix(",")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:  # never write a record that cannot be read back
        raise RecordError(
            N_("this record would be {size} bytes; a record is at most {most}"),
            size=Count(size),
            most=Count(MAX_RECORD_BYTES),
        )
    return text


def loads(text: str) -> dict[str, Any]:
    """Parse record text and check its shape; :class:`RecordError` says what is wrong.

    The text may be at most :data:`~corazones.core.limits.MAX_RECORD_BYTES`
    long; numbers, strings and nesting are bounded as
    :func:`~corazones.core.limits.parse_json` says.  The actions themselves
    are checked one by one when the record is replayed, so that an error
    names the first bad action.
    """
    return check_shape(parse_json(text, Message(N_("a game record")), MAX_RECORD_BYTES))


#: A top-level field a record does not have.
_UNKNOWN: Final = N_("unknown record field(s) {unknown}; fields: {fields}")


def check_shape(data: Any) -> dict[str, Any]:
    """Check the top level of a parsed record (fields, their types, sizes, the rules); return it."""
    check_json(data)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(
            N_("not a Corazones game record: the top level must be an object with format = {format}"),
            format=repr(FORMAT),
        )
    version = data.get("version")
    if not is_whole(version) or version not in VERSIONS:
        raise RecordError(
            N_("record version {version} is not supported; this program reads versions {versions}"),
            version=show(version),
            versions=", ".join(map(str, VERSIONS)),
        )
    refuse_unknown(data, FIELDS, None, RecordError, _UNKNOWN)
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise RecordError(
            N_("record has no {missing}; required fields: {fields}"),
            missing=", ".join(missing),
            fields=", ".join(_REQUIRED),
        )
    seed_of(data)
    if "commitment" in data:
        if version < 2:
            raise RecordError(N_("record 'commitment' came with version 2; a version 1 record has none"))
        if not is_commitment(data["commitment"]):
            raise RecordError(
                N_("record 'commitment' must be 64 lowercase hexadecimal digits (SHA-256), not {value}"),
                value=show(data["commitment"]),
            )
    rules = rules_of(data)
    players = data.get("players")
    if players is not None:
        if not isinstance(players, list) or len(players) != rules.players:
            raise RecordError(
                N_("record 'players' must list {n} seat names (strings), not {value}"),
                n=rules.players,
                value=show(players),
            )
        for i, name in enumerate(players):
            check_name(name, f"record players[{i}]")
    for key in ("actions", "hands"):
        if not isinstance(data[key], list):
            raise RecordError(
                N_("record {key} must be a list, not {kind}"), key=repr(key), kind=type(data[key]).__name__
            )
    if len(data["actions"]) > MAX_RECORD_ACTIONS:
        raise RecordError(
            N_("record has {count} actions; a record holds at most {most}"),
            count=Count(len(data["actions"])),
            most=Count(MAX_RECORD_ACTIONS),
        )
    for i, h in enumerate(data["hands"], 1):
        if not isinstance(h, dict):
            raise RecordError(N_("hand {hand}: a hand result must be an object, not {value}"), hand=i, value=show(h))
    final = data["final"]
    if not isinstance(final, dict):
        raise RecordError(
            N_("record 'final' must be an object with {fields}, not {value}"),
            fields=", ".join(FINAL_FIELDS),
            value=show(final),
        )
    _check_fields(final, FINAL_FIELDS, "final")
    return data


def _check_fields(obj: dict[str, Any], fields: tuple[str, ...], where: str | Message) -> None:
    refuse_unknown(obj, fields, where, RecordError)
    missing = [k for k in fields if k not in obj]
    if missing:
        raise RecordError(
            N_("{where}: missing field(s) {missing}; fields: {fields}"),
            where=where,
            missing=", ".join(missing),
            fields=", ".join(fields),
        )


def rules_of(record: dict[str, Any]) -> Rules:
    """The :class:`Rules` a record was played under; :class:`RecordError` naming a bad option."""
    if not isinstance(record, dict) or "rules" not in record:
        raise RecordError(N_("not a Corazones game record: it has no 'rules'"))
    try:
        rules = Rules.from_dict(record["rules"])
        if record.get("version") == 1 and rules.tie_break == "play_on" and rules.hands is not None:
            # version 1 played a tie on after the agreed hands too; its records keep that meaning
            rules = rules.replace(tie_break="play_on_always")
        return rules
    except CorazonesError as e:
        raise RecordError(N_("record rules: {error}"), error=e) from None
    except (TypeError, ValueError) as e:  # a value of a type no option takes
        raise RecordError(N_("record rules: {error}"), error=show(str(e))) from None


def seed_of(record: dict[str, Any]) -> int | str:
    """The record's seed; :class:`RecordError` if it is not a bounded whole number or string."""
    if not isinstance(record, dict) or "seed" not in record:
        raise RecordError(N_("not a Corazones game record: it has no 'seed'"))
    try:
        return check_seed(record["seed"])
    except CorazonesError as e:
        raise RecordError(N_("record 'seed': {error}"), error=e) from None


def action_of(raw: Any, number: int, players: int | None = None) -> Action:
    """Parse action ``#number`` (1-based) of a record, strictly (:meth:`Action.from_json`).

    Cards must be strings (``"QS"``): JSON numbers and ``true`` would
    otherwise read as card indexes.  The declared suit is a letter.  Given
    the table's ``players``, a seat it lacks is refused here, as the data
    it is (``a seat is a whole number 0 to 3, not 5``, the record's index),
    rather than as a move of a seat counted from 1 that no table has.
    """
    try:
        action = Action.from_json(raw)
        if players is not None and action.seat >= players:
            raise RecordError(
                N_("a seat is a whole number 0 to {last}, not {value}"), last=players - 1, value=action.seat
            )
    except CorazonesError as e:
        raise RecordError(N_("action #{number}: {error}"), number=number, error=e) from None
    return action


def replay_steps(record: dict[str, Any]) -> Iterator[Step]:
    """Replay a record action by action (each validated); yields after every action.

    Raises :class:`RecordError` naming the first action that is malformed or
    illegal (``action #k``, counted from 1).  The same :class:`Game` object is
    yielded every time, advanced in place (:func:`corazones.core.replay.rebuild_steps`).
    """
    yield from rebuild_steps(*_replay_inputs(record), RecordError)


def replay(record: dict[str, Any]) -> Game:
    """The game a record describes, replayed with every action validated."""
    return rebuild(*_replay_inputs(record), RecordError)


def _replay_inputs(record: dict[str, Any]) -> tuple[Rules, int | str, Iterator[Action]]:
    """What a replay of ``record`` starts from: its rules, its seed, and its actions read one by one (each
    checked as data, its seat against the table, by :func:`action_of`)."""
    record = check_shape(record)
    rules = rules_of(record)
    return rules, seed_of(record), (action_of(raw, i + 1, rules.players) for i, raw in enumerate(record["actions"]))


def verify_record(record: dict[str, Any]) -> Game:
    """Replay and check every action and every recorded result, in game order.

    Each hand result is compared as soon as its hand ends, so the error names
    the FIRST discrepancy: an illegal action (``action #k``), a hand result
    field that differs (``hand h``), a hand result too many or too few, or a
    final field.  Returns the replayed game.
    """
    record = check_shape(record)
    commitment = record.get("commitment")
    if commitment is not None and not check(seed_of(record), commitment):
        raise RecordError(
            N_("commitment: the record says {said}, but its seed gives {got}; the seed is not the one committed to"),
            said=str(commitment),
            got=commit(seed_of(record)),
        )
    recorded: list[Any] = record["hands"]
    checked = 0
    game: Game | None = None
    last = 0
    for step in replay_steps(record):
        game = step.game
        last = step.index + 1
        while checked < len(game.history):
            if checked >= len(recorded):
                raise RecordError(
                    N_("hand {hand} ends at action #{number}, but the record lists only {results}"),
                    hand=checked + 1,
                    number=last,
                    results=_count(len(recorded), _HAND_RESULTS),
                )
            compare_hand(recorded[checked], game.history[checked], last)
            checked += 1
    if game is None:
        game = Game(rules_of(record), seed_of(record))
    if len(recorded) > checked:
        raise RecordError(
            N_("the record lists {results}, but its {actions} finish only {hands}{waiting}"),
            results=_count(len(recorded), _HAND_RESULTS),
            actions=_count(last, _ACTIONS),
            hands=_count(checked, _HANDS),
            waiting=_waiting(game),
        )
    final = record["final"]
    want_over = final.get("over")
    if want_over is True and not game.over:
        raise RecordError(
            N_("final over: the record says the game is over, but it is not after its {count} actions{waiting}"),
            count=last,
            waiting=_waiting(game),
        )
    have = final_of(game)
    for key in FINAL_FIELDS:
        if not _same(final[key], have[key]):
            raise RecordError(
                N_("final {key}: the record says {said}, the rules give {got}"),
                key=key,
                said=_brief(final[key]),
                got=_brief(have[key]),
            )
    return game


#: A count of things in a message: the template for one and for several.
_HAND_RESULTS: Final = (N_("{n} hand result"), N_("{n} hand results"))
_ACTIONS: Final = (N_("{n} action"), N_("{n} actions"))
_HANDS: Final = (N_("{n} hand"), N_("{n} hands"))


def _count(n: int, forms: tuple[str, str]) -> Message:
    return Message(forms[0] if n == 1 else forms[1], n=n)


def _waiting(game: Game) -> Message:
    if game.over:
        return Message(N_("; the game is over"))
    kind = game.decision_kind()
    return Message(
        N_("; the game still waits for {kind} from seat(s) {seats}"),
        kind=KIND_WORDS[kind] if kind else Message(N_("nothing")),
        seats=Seats(*game.to_act()),
    )


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: ``true`` is not ``1`` and ``1.0`` is not ``1``."""
    return _json(a) == _json(b)


def compare_hand(want: Any, got: HandResult, action_no: int | None = None) -> None:
    """Raise :class:`RecordError` at the first field of a recorded hand result that differs."""
    where = (
        Message(N_("hand {hand} (ended by action #{number})"), hand=got.index + 1, number=action_no)
        if action_no is not None
        else Message(N_("hand {hand}"), hand=got.index + 1)
    )
    if not isinstance(want, dict):
        raise RecordError(N_("{where}: a hand result must be an object, not {value}"), where=where, value=show(want))
    have = got.to_json()
    _check_fields(want, tuple(have), where)
    for key, value in have.items():
        if not _same(want[key], value):
            raise RecordError(
                N_("{where}: {key}: the record says {said}, the rules give {got}"),
                where=where,
                key=key,
                said=_brief(want[key]),
                got=_brief(value),
            )
