"""How a seat is named for people, in every face that shows a record's seats (the web's ``playerName`` in
``server/static/js/names.js`` follows the same rule).

People count seats from 1, as at a table, while a record counts them from 0:
an unnamed seat (``seat 0`` in the record) is "Seat 1", and a web table's bot
(``standard bot``) is "Bot N", so three bots of one level are told apart.  It
sits here, below the faces, because the command line and the terminal app both
name seats this way and may not import each other.
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: A record's default name for a seat (``seat 0`` …, counted from 0) and a web table's bot (``standard bot``).
DEFAULT_SEAT = re.compile(r"seat \d+")
BOT_SEAT = re.compile(r"[a-z_]+ bot")


def seat_name(gettext: Callable[[str], str], raw: object, seat: int, person: Callable[[str], str] = str) -> str:
    """Seat ``seat``'s name: "Seat N" or "Bot N" counted from 1 in ``gettext``'s language, else the
    person's name as ``person`` shows it (made safe and clipped by a face that prints it as it is)."""
    text = raw if isinstance(raw, str) else ""
    if not text or DEFAULT_SEAT.fullmatch(text):
        return gettext("Seat {n}").format(n=seat + 1)
    if BOT_SEAT.fullmatch(text):
        return gettext("Bot {n}").format(n=seat + 1)
    return person(text)
