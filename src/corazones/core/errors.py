"""Errors raised by the core.  Every message names what was wrong and what is allowed.

A core error speaks to people (a card typed at the line game, an option on the
web, a score pad row), but the core translates nothing: it imports nothing
above it.  So an error carries an English *template* with ``{named}``
placeholders and the *parameters* that fill it; ``str(error)`` is the English
sentence (for logs, records and callers that read it), and a face shows
``corazones.i18n.error_text(gettext, error)``, the template translated and
then filled.  Templates are marked with :func:`N_` so Babel extracts them into
the one catalog (``babel.cfg``); they hold no format specs or conversions
(``{n:,}``, ``{x!r}``) because the web app fills the same templates with a
plain ``{name}`` replacement: quoted values are formatted into the
parameters before, and a size or a limit is a :class:`Count`, which each face
groups in its language (``10,000``, ``10.000``).

A parameter is shown as it is (card strings, numbers, names quoted from the
input) unless it is itself a :class:`Message` or a :class:`CorazonesError`, a
text for people that the face translates the same way before filling the
outer template (the reason a card may not be played, the error under a record
line), a :class:`Count`, or :class:`Seats`.

Seats: the engine and its data count them from 0 (records, JSON,
``Action.seat``, observations), people from 1, as at a table and as every
face names them ("Seat 1" is index 0).  A seat a sentence names is a
:class:`Seats` parameter, so each reader gets its own count from the one
error: ``str(error)``, for programmers and logs beside the API, names the
index (``seat 0 does not hold 2C``, as ``Action.play(0, ...)`` said), and a
face (``error_text``) names the seat counted from 1 (``seat 1 does not hold
2C``, the seat the table calls "Seat 1"), and ``error_json`` sends the web
app that same text, which the page shows as it is.  A sentence
about the data itself (``a seat is a whole number 0 to 3``, ``hands[2]``)
names the index as the data holds it, a plain ``int``.
"""

from __future__ import annotations

from typing import Any


def N_(message: str) -> str:
    """Mark an English template for the catalog without translating it (the face translates it)."""
    return message


def fill(template: str, params: dict[str, Any]) -> str:
    """``template`` with its placeholders filled: the English ``str()`` of an error or a message.

    A template without parameters is shown as it is.  :class:`Seats` are
    filled in as indexes from 0, the numbers the Python API uses; a face fills
    the same template with the seats counted from 1 (:meth:`Seats.counted_from_1`).
    """
    if not params:
        return template
    return template.format(**{k: str(v) if isinstance(v, Seats) else v for k, v in params.items()})


class Message:
    """A text for people inside another one: an English template and its parameters, translated where shown."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return fill(self.template, self.params)

    def __repr__(self) -> str:
        return f"Message({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.template, self.params) == (other.template, other.params)

    def __hash__(self) -> int:
        return hash(self.template)


class Plural(Message):
    """Words that follow a count (``1 point``, ``2 points``) inside another text: English singular and plural.

    ``n`` picks the form and fills ``{n}``; a face translates it with
    ``ngettext`` (:func:`corazones.i18n.error_text`), so each language applies
    its own plural rule.  Babel extracts ``Plural("...", "...", n)`` as a plural
    entry of the catalog (``babel.cfg``), so the templates are written here
    without :func:`N_`.
    """

    __slots__ = ("n", "plural")

    def __init__(self, singular: str, plural: str, n: int, /, **params: Any) -> None:
        super().__init__(singular, n=n, **params)
        self.plural = plural
        self.n = n

    def __str__(self) -> str:
        return fill(self.template if self.n == 1 else self.plural, self.params)

    def __repr__(self) -> str:
        return f"Plural({self.template!r}, {self.plural!r}, {self.n!r})"


class Count:
    """A number inside a text for people, grouped as the language it is shown in groups digits.

    ``str()`` is English (``10,000``); a face shows it in its language
    (:func:`corazones.i18n.error_text`: ``10.000`` in Spanish, where
    ``10,000`` would read as ten), and the wire form is the number itself,
    which the web app groups the same way.  For sizes, limits and counts;
    a seat is :class:`Seats`, a port or a card's rank stays a plain ``int``.
    """

    __slots__ = ("n",)

    def __init__(self, n: int, /) -> None:
        self.n = n

    def __str__(self) -> str:
        return f"{self.n:,}"

    def __repr__(self) -> str:
        return f"Count({self.n!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Count) and self.n == other.n

    def __hash__(self) -> int:
        return hash(self.n)


class Seats:
    """One seat or several named by a text: their indexes from 0, which people read counted from 1.

    Filled into a template by a face (``format``, as
    :func:`corazones.i18n.error_text` fills every parameter) it is the number
    people read and every face names seats by: ``Seats(0)`` is ``1``,
    ``Seats(0, 2)`` is ``1, 3`` ("Seat 1" is index 0); so is what
    :func:`corazones.i18n.error_json` sends the web app.  As a value (``str``)
    and in the core's own English ``str(error)`` (:func:`fill`, for
    programmers beside the API) it is the indexes, ``0, 2``, as the data and
    ``Action.seat`` count them.
    """

    __slots__ = ("indexes",)

    def __init__(self, *indexes: int) -> None:
        self.indexes = indexes

    @property
    def index(self) -> int:
        """The first (usually the only) seat's index, from 0."""
        return self.indexes[0]

    def __str__(self) -> str:
        """The indexes from 0 (``0, 2``), as the API and the data count them."""
        return ", ".join(str(i) if type(i) is int else repr(i) for i in self.indexes)

    def counted_from_1(self) -> str:
        """The seats as people read them (``1, 3``); a value that is no index (an Action made by hand) as given."""
        return ", ".join(str(i + 1) if type(i) is int and i >= 0 else repr(i) for i in self.indexes)

    def __format__(self, spec: str) -> str:
        return format(self.counted_from_1(), spec)

    def __repr__(self) -> str:
        return f"Seats({', '.join(map(repr, self.indexes))})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seats) and self.indexes == other.indexes

    def __hash__(self) -> int:
        return hash(self.indexes)


class CorazonesError(Exception):
    """Base class of every error the core raises on bad input.

    ``template`` is an English sentence with ``{placeholders}`` (marked with
    :func:`N_`), ``params`` fills them; ``str(error)`` is the English sentence.
    An error rebuilt from its English text alone (``CorazonesError(str(e))``)
    keeps that text as a template without parameters.  A pickled error (one
    raised in a worker process of the arena) keeps its template, parameters
    and any attribute of a subclass, so it is still shown translated.
    """

    def __init__(self, template: str = "", /, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(fill(template, params))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuilt, (type(self), self.template, self.params), dict(self.__dict__))


def _rebuilt(cls: type[CorazonesError], template: str, params: dict[str, Any]) -> CorazonesError:
    """An unpickled error: its template and parameters, whatever its class's own ``__init__`` takes."""
    error = cls.__new__(cls)
    CorazonesError.__init__(error, template, **params)
    return error


class CardError(CorazonesError, ValueError):
    """A card string or card set that cannot be parsed or is inconsistent."""


class RulesError(CorazonesError, ValueError):
    """An unknown preset or option, or an impossible combination of options."""


class IllegalActionError(CorazonesError, ValueError):
    """An action that the rules do not allow now; the state is left untouched."""


class RecordError(CorazonesError, ValueError):
    """A game record or hand log that is malformed or does not replay."""


class SeedError(CorazonesError, ValueError):
    """A game seed that is neither a bounded whole number nor a short string of text."""
