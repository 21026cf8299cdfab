"""Refusing a flag's value in the user's language: the flag, the value and what is allowed.

A usage error is shown by the terminal toolkit as ``Invalid value for
'--flag': <why>`` under the command's usage line, and exits 2.  The why is
a :class:`FlagError`, a core-style error (an English template marked ``N_``
and its parameters, or a core error as it was raised), so it is translated
from the one catalog like every other refusal; :class:`FlagRefused` is the
toolkit's exception that carries it with the language and frames it in that
language too.  ``str()`` of either stays English (logs, callers).

The language is the command's ``--lang`` when it is valid, else the root's
(``corazones --lang es rules``), else the user's locale
(:func:`corazones.i18n.pick_lang`): :func:`check_lang`.  Every command and the
root take ``--lang`` (:data:`LangOpt`), so that a user who learnt it on one
command finds it on all.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Annotated, Any, NoReturn

import typer

from corazones.core.errors import CorazonesError, Count
from corazones.core.text import safe_line
from corazones.i18n import LANGS, N_, error_text, pick_lang, translator

#: Options several commands share, declared once so that their flag, placeholder and help agree.
PlayersOpt = Annotated[
    int | None, typer.Option("--players", "-n", metavar="N", help=N_("Number of players (default: the preset's)"))
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", metavar="NAME=VALUE", help=N_("Override an option: name=value (repeatable)")),
]
#: ``--lang``'s placeholder: the languages of the catalog (``en|es``).
LANG_METAVAR = "|".join(LANGS)
LangOpt = Annotated[
    str | None, typer.Option(metavar=LANG_METAVAR, help=N_("Language: en or es (default: from your locale, else en)"))
]

#: The frame around the why, as the toolkit words it (translated with the why).
INVALID_FOR = N_("Invalid value for {flag}: {error}")
#: A count flag below 1 (``--hands 0``); the frame names the flag.
AT_LEAST_ONE = N_("must be at least 1, not {value}")
#: ``--seat`` of ``replay`` and ``review`` out of the record's seats.  Seats are typed as people count them and as
#: every screen names them ("Seat 1" …, from 1); a record and a review's JSON keep the index from 0.
SEAT_RANGE = N_("seat must be a number from 1 to {last}, not {value}")


def check_budget(flag: str, lang: str, value: int, most: int) -> None:
    """Refuse a count of sampled deals below 1 or above ``most`` (a review's ``--worlds``, ``--pass-worlds``)."""
    if not 1 <= value <= most:
        refuse(flag, lang, N_("must be a number from 1 to {most}, not {value}"), most=Count(most), value=value)


class FlagError(CorazonesError, ValueError):
    """A flag's value the command cannot use: a template naming the value and what is allowed."""


class FlagRefused(typer.BadParameter):
    """The toolkit's usage error (exit 2) for ``flag``, showing ``error`` in ``lang``.

    ``error`` is anything :func:`corazones.i18n.error_text` shows: a
    :class:`FlagError`, or the core's own error (a rules option out of range,
    a seed too long), whose template and parameters are kept as they are.
    """

    def __init__(self, flag: str, error: object, lang: str = "en") -> None:
        self.flag = flag
        self.error = error
        self.lang = lang
        super().__init__(str(error), param_hint=f"'{flag}'")

    def format_message(self) -> str:
        gettext = translator(self.lang).gettext
        why = error_text(gettext, self.error)
        return gettext(INVALID_FOR).format(flag=f"'{self.flag}'", error=why)


def refuse(flag: str, lang: str, template: str, /, **params: Any) -> NoReturn:
    """Stop the command with a usage error for ``flag``: ``template`` filled with ``params``, in ``lang``."""
    raise FlagRefused(flag, FlagError(template, **params), lang)


#: The root's ``--lang`` of the command line being run, as parsed: set by the group while it runs the command
#: (:meth:`corazones.cli.toolkit.Group.invoke`), None outside one.
ROOT_LANG: ContextVar[object] = ContextVar("corazones_root_lang", default=None)


def given_lang(lang: str | None) -> str | None:
    """The ``--lang`` a command was given: its own, else the root's (``corazones --lang es rules``), else None.

    The root's is read from the parsed command line (the root's parameters,
    :data:`ROOT_LANG`), so it reaches every command without each repeating it, and a
    command's own ``--lang``, being more specific, wins.  None means "not
    asked for": the caller falls back on the locale, or (the full-screen game)
    on the choice the user saved.
    """
    if lang is not None:
        return lang
    root = ROOT_LANG.get()
    return root if isinstance(root, str) else None


def check_lang(lang: str | None) -> str:
    """The language a command speaks: :func:`given_lang` if the catalog has it; without one, the user's locale.

    A language the catalog lacks is refused in the locale's language: the one asked for cannot be spoken.
    """
    asked = given_lang(lang)
    if asked is None:
        return pick_lang(None)
    if asked not in LANGS:
        refuse(
            "--lang",
            pick_lang(None),
            N_("unknown language {lang}; languages: {langs}"),
            lang=quoted(asked, 20),
            langs=", ".join(LANGS),
        )
    return asked


def quoted(value: object, limit: int = 40) -> str:
    """A value typed on the command line, quoted for a message: made safe for the terminal and clipped."""
    return repr(safe_line(str(value), limit))
