"""The checks every JSON reader of the core shares: whole numbers, seats and unknown fields.

Records, hand logs, actions, positions, rules and OpenSpiel histories arrive
as parsed JSON (or as Python values built by hand).  Each reader names the
field it is looking at in its own words (``players[3]``, ``expect.shooter``,
``dealer``) and raises its own error class; what they share is the test
itself, written here once:

* a whole number is an ``int`` that is not a ``bool`` (``True`` is ``1`` to
  Python, never to a reader of JSON): :func:`is_whole`, :func:`is_whole_in`;
* a seat is a whole number from 0 to the last seat: :func:`seat`;
* an object holds only the fields the format knows: :func:`refuse_unknown`.

``fail`` is how the reader raises: its error class (``RecordError``,
``PositionError``, ...), or any function taking a template and its parameters
(the hand-log checker's verdict); the templates keep the field path the
reader gives as ``where``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any, TypeGuard

from corazones.core.errors import N_, Message
from corazones.core.limits import key_of, show

#: How a reader raises: its error class, or a function that makes the exception from a template and parameters.
Fail = Callable[..., BaseException]

#: The default wording of a value that is not a seat (the readers that had their own keep theirs).
SEAT = N_("{where} must be a seat 0 to {last}, not {value}")
UNKNOWN_FIELDS = N_("{where}: unknown field(s) {unknown}; fields: {fields}")


def is_whole(value: object) -> TypeGuard[int]:
    """``value`` is a whole number as JSON means it: an ``int``, and not ``True`` or ``False``."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_whole_in(value: object, low: int | None = None, high: int | None = None) -> TypeGuard[int]:
    """``value`` is a whole number from ``low`` to ``high`` (either end open when ``None``)."""
    return is_whole(value) and (low is None or value >= low) and (high is None or value <= high)


def seat(
    value: object,
    players: int,
    where: str | Message,
    fail: Fail,
    template: str = SEAT,
    shown: Callable[[Any], str] = show,
) -> int:
    """``value`` as a seat of a table of ``players``; else ``fail(template, where=, last=, value=)``."""
    if not is_whole_in(value, 0, players - 1):
        raise fail(template, where=where, last=players - 1, value=shown(value))
    return int(value)


def seat_or_none(value: object, *args: Any, **kwargs: Any) -> int | None:
    """:func:`seat` (with the same arguments after ``value``), where ``null`` (``None``) stands for no seat."""
    return None if value is None else seat(value, *args, **kwargs)


def unknown(data: Iterable[Any], fields: Collection[str]) -> list[Any]:
    """The keys of ``data`` that are not among ``fields``, in their order."""
    return [k for k in data if k not in fields]


def refuse_unknown(
    data: Iterable[Any],
    fields: Collection[str],
    where: str | Message | None,
    fail: Fail,
    template: str = UNKNOWN_FIELDS,
) -> None:
    """Raise ``fail`` naming every key of ``data`` that is not one of ``fields``, and the fields there are.

    The message is ``{where}: unknown field(s) ...``, or without ``where`` when
    it is ``None`` (the top level of a document); ``template`` is a reader's own
    wording with the same placeholders.
    """
    extra = unknown(data, fields)
    if not extra:
        return
    params: dict[str, Any] = {"unknown": ", ".join(map(key_of, extra)), "fields": ", ".join(fields)}
    if where is None:
        if template == UNKNOWN_FIELDS:
            template = N_("unknown field(s) {unknown}; fields: {fields}")
    else:
        params["where"] = where
    raise fail(template, **params)
