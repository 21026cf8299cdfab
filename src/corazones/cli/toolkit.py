"""The terminal toolkit (Typer, and the Click it carries) speaks the command line's language.

The usage line, the help panels ("Options", "Arguments", "[default: ...]"), the
error box and the parse errors ("No such option", "Missing argument") are
written by the toolkit, not by us; their Spanish is in the one catalog
(:mod:`corazones.cli.toolkit_texts` lists them for the extraction).  How each
kind is made to speak it, and why that way:

* Typer asks the standard library: ``from gettext import gettext as _``, in the
  process-wide default domain.  The standard library has no way to hand that
  domain a translations object (``install()`` only sets ``builtins._``; the
  domain reads ``.mo`` files it finds through environment variables, while our
  catalog is a ``.po`` compiled in memory and the language is ``--lang``).
  What it does have is a lookup at call time: ``gettext.gettext`` calls
  ``gettext.dgettext`` by name.  So while a command line runs, :func:`speaking`
  puts there a ``dgettext`` that answers the default domain from our catalog
  and leaves anything the catalog lacks, and every other domain, to the
  standard library's own; afterwards the original is back.  This does not
  depend on who imported Typer first, which patching ``gettext.gettext`` itself
  (bound by name into Typer's modules at their import) would.
* typer/rich_utils.py asks once, at its import, for its panel titles and help
  texts and keeps them as module constants.  Typer imports it lazily, the first
  time it draws help or an error: imported while a command speaks, the
  constants come through the hook above; imported earlier (by a previous
  command in the same process), they are set again from their msgids
  (:data:`~corazones.cli.toolkit_texts.RICH_CONSTANTS`) and set back after.
* Click's usage line and parse errors have no ``gettext`` at all.  The usage
  line's head goes to Click's own ``write_usage(prefix=...)``
  (:class:`Command`, :class:`Group`); an error is translated on its way out of
  the group (:meth:`Group.make_context`, :meth:`Group.invoke`), before Typer
  draws it: its English is read against Click's templates
  (:data:`~corazones.cli.toolkit_texts.CLICK_MESSAGES`) and worded from the
  catalog with the same parts.  A text that matches no template stays as Click
  wrote it (a newer Typer's new message is English, never wrong).

The language is settled before Click parses anything (:meth:`Group.main`): the
command line's ``--lang`` when it names a language of the catalog, else the
user's locale, as the command itself decides (``check_lang``); so a bad flag
beside ``--lang es`` is refused in Spanish.

The help pages show what the user types, not Typer's type names (``--players N``,
not ``--players <int>``; ``--help`` and every flag with nothing): each command
names its values' placeholders, and :class:`Command` and :class:`Group` settle
the rest once (:func:`_placeholders`).

Our own texts on a help page (a command's description, the command list's
summaries, each option's help, the root's exit codes) are in the catalog too,
but Typer and Click take them when the commands are defined, at import, long
before the command line is read, and ``--help`` is handled before any other
flag.  So they stay msgids on the command objects (marked with
:func:`~corazones.i18n.N_`, or made by :func:`filled_help` when they name
values such as the presets), and :class:`Command` and :class:`Group`
word them in the language spoken each time a page is drawn, then put the
msgids back (:func:`help_text`): the next page, in the same process, may be in
another language.  A command's description is therefore given as ``help=``,
not as its docstring, which the extraction would not see.

A help page's paragraphs fill the terminal's width: Typer joins the lines of a
description's first paragraph only and keeps the source's line breaks in the
others and in the epilog, so each source line would wrap on its own.  The same
step joins them (:func:`soft_breaks_joined`), after the translation, whose
line breaks are the translator's; Typer's Markdown mode would also join them,
but would read the backticks, underscores and stars of the texts as Markdown.
"""

from __future__ import annotations

import contextlib
import gettext
import inspect
import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from typer._click.core import Command as ClickCommand
from typer._click.core import Context
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer._click.formatting import HelpFormatter
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from corazones.cli.flags import FlagRefused
from corazones.cli.toolkit_texts import (
    CLICK_MESSAGES,
    CONVERSION_REASONS,
    HELP_OPTION,
    RICH_CONSTANTS,
    USAGE,
    USAGE_PIECES,
)
from corazones.core.errors import Message
from corazones.i18n import LANGS, error_text, pick_lang, translator

_stdlib_dgettext = gettext.dgettext
_stdlib_dngettext = gettext.dngettext
#: The language the toolkit speaks now; None outside a command line (the standard library untouched).
_speaking: str | None = None


def _dgettext(domain: str, message: str) -> str:
    if _speaking is not None and domain == gettext.textdomain():
        text = translator(_speaking).gettext(message)
        if text != message:
            return text
    return _stdlib_dgettext(domain, message)


def _dngettext(domain: str, msgid1: str, msgid2: str, n: int) -> str:
    if _speaking is not None and domain == gettext.textdomain():
        text = translator(_speaking).ngettext(msgid1, msgid2, n)
        if text not in (msgid1, msgid2):
            return text
    return _stdlib_dngettext(domain, msgid1, msgid2, n)


def _set_rich_constants(lang: str | None) -> None:
    rich_utils = sys.modules.get("typer.rich_utils")
    if rich_utils is None:  # not imported yet: its import will ask gettext, which answers in the language of then
        return
    tr = translator(lang or LANGS[0])
    for name, msgid in RICH_CONSTANTS.items():
        setattr(rich_utils, name, tr.gettext(msgid))


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """The toolkit speaks ``lang`` inside the block; the language before (or the untouched stdlib) after it."""
    global _speaking
    before = _speaking
    _speaking = lang
    gettext.dgettext, gettext.dngettext = _dgettext, _dngettext
    _set_rich_constants(lang)
    try:
        yield
    finally:
        _speaking = before
        if before is None:
            gettext.dgettext, gettext.dngettext = _stdlib_dgettext, _stdlib_dngettext
        _set_rich_constants(before)


def spoken_lang() -> str:
    """The language the toolkit speaks now: the command line's (:func:`requested_lang`), else the locale's.

    For what is printed before the command's flags are parsed (``--version``,
    eager, runs while the root's ``--lang`` may still be unread).
    """
    return _speaking or pick_lang(None)


def requested_lang(args: Sequence[str]) -> str:
    """The language a command line asks for: its last ``--lang`` if the catalog has it, else the locale's.

    Read from the words before Click parses them, so that Click's own errors are
    worded in it; a ``--lang`` the catalog lacks is refused by the command in the
    locale's language, so that is the one spoken here too.
    """
    asked: str | None = None
    words = iter(args)
    for word in words:
        if word == "--":
            break
        if word == "--lang":
            asked = next(words, None)
        elif word.startswith("--lang="):
            asked = word.partition("=")[2]
    return asked if asked in LANGS else pick_lang(None)


def _pattern(template: str) -> re.Pattern[str]:
    pieces = re.split(r"\{(\w+)\}", template)  # literal, name, literal, name, ..., literal
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(pieces)), re.DOTALL)


#: Click's templates, those with the most fixed words first ("No such option: {option} (Possible options: ...)"
#: must be tried before "No such option: {option}", which would take the rest as the option).
_TEMPLATES = sorted(((t, _pattern(t)) for t in CLICK_MESSAGES), key=lambda tp: -len(re.sub(r"\{\w+\}", "", tp[0])))
_EXACT = frozenset(CONVERSION_REASONS)


def toolkit_text(text: str) -> str:
    """``text``, a message as Click or Typer word it in English, in the language spoken now.

    A text that reads like one of Click's templates is that template from the
    catalog, filled with the same parts (each translated the same way: the
    reason under "Invalid value for"); a conversion reason is looked up as it
    is; anything else is returned unchanged.
    """
    for template, pattern in _TEMPLATES:
        found = pattern.fullmatch(text)
        if found:
            parts = {name: toolkit_text(part) for name, part in found.groupdict().items()}
            return gettext.gettext(template).format(**parts)
    return gettext.gettext(text) if text in _EXACT else text


class _WordedUsageError(UsageError):
    """A usage error already worded in the command's language; Typer draws it like any other (exit 2)."""


def _worded(error: UsageError) -> UsageError:
    """``error`` as the user should read it: a new usage error in the language spoken, or ``error`` itself.

    Our own refusals are already in the command's language; the error that
    stands for "no arguments: show the help" is not a message at all.
    """
    if isinstance(error, FlagRefused | NoArgsIsHelpError | _WordedUsageError):
        return error
    english = error.format_message()
    shown = toolkit_text(english)
    if shown == english:
        return error
    worded = _WordedUsageError(shown, error.ctx)
    worded.exit_code = error.exit_code
    return worded


@contextlib.contextmanager
def _errors_worded() -> Iterator[None]:
    try:
        yield
    except UsageError as e:
        worded = _worded(e)
        if worded is e:
            raise
        raise worded from e


def _usage(command: ClickCommand, ctx: Context, formatter: HelpFormatter) -> None:
    pieces = [gettext.gettext(p) if p in USAGE_PIECES else p for p in command.collect_usage_pieces(ctx)]
    formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=gettext.gettext(USAGE))


class _Argument(TyperArgument):
    """An argument the help names by its placeholder alone (``FILE``), without Typer's ``<str>`` beside it.

    Typer shows an argument's metavar in the name column and its type in the next
    one; an option's metavar replaces its type.  Given a placeholder, the
    argument reads like an option: the type column stays empty.
    """

    def display_type_rich(self, ctx: Context) -> str | None:
        return None if self.metavar is not None else super().display_type_rich(ctx)


def _placeholders(params: Sequence[object]) -> None:
    """The help shows what the user types, never Typer's type names (``<int>``, ``<list[str]>``, ``<bool>``).

    Each option and argument that takes a value names its placeholder where it
    is declared (``metavar="N"``, ``metavar="FILE"``); here, once for every
    command, a flag gets none (``--auto``, not ``--auto <bool>``) and an
    argument's placeholder stands alone (:class:`_Argument`).  A value option
    declared without one still shows ``<type>``, which the CLI tests refuse.
    Placeholders stay English in every language (they are what the user types),
    like the names our refusals give them (``Invalid value for 'FILE'``); the
    descriptions beside them are translated (:func:`help_text`).
    """
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""
        elif type(param) is TyperArgument:
            param.__class__ = _Argument


def _help_option(option: TyperOption | None) -> TyperOption | None:
    """Click makes ``--help`` once per command and keeps it: its text is worded again each time it is asked for."""
    if option is not None:
        option.help = gettext.gettext(HELP_OPTION)
        _placeholders([option])
    return option


#: A line kept on its own: a list item (``- x``, ``* x``, ``• x``, ``1. x``, ``2) x``) or an indented example.
_OWN_LINE = re.compile(r"^(\s|[-*•+]\s|\d+[.)]\s)")


def soft_breaks_joined(text: str | None) -> str | None:
    """``text`` with each paragraph on one line, so that the help wraps it at the terminal's width.

    A paragraph is the text between blank lines; the line breaks inside it are
    the docstring's, not the reader's.  A paragraph that shows lines on purpose
    keeps them: one marked ``\\b`` (Click's "do not rewrap") or one with a list
    item or an indented example.  Whatever follows ``\\f`` (Click's "the help
    ends here") is left as it is.
    """
    if not text:
        return text
    shown, cut, rest = inspect.cleandoc(text).partition("\f")
    body = shown.rstrip("\n")
    paragraphs = re.split(r"\n(?:[ \t]*\n)+", body)
    return "\n\n".join(_one_line(p) for p in paragraphs) + shown[len(body) :] + cut + rest


def _one_line(paragraph: str) -> str:
    lines = paragraph.splitlines()
    if paragraph.startswith("\b") or any(_OWN_LINE.match(line) for line in lines[1:]):
        return paragraph
    return " ".join(line.strip() for line in lines)


#: Every help text made by :func:`filled_help`: its template and values, by its English (made once each, at import).
_FILLED: dict[str, Message] = {}


def filled_help(template: str, /, **params: Any) -> str:
    """A help text that names values known at import (``Preset: {presets}``), English for Typer, worded when shown.

    ``template`` is the msgid (marked :func:`~corazones.i18n.N_`).  Typer takes
    help texts as plain ``str`` (an option's is even copied, by
    ``inspect.cleandoc``), so the English goes to Typer and the template with
    its values is kept here, by that English, where :func:`help_text` finds it.
    """
    message = Message(template, **params)
    text = str(message)
    _FILLED[text] = message
    return text


def help_text(text: str | None) -> str | None:
    """One of our help texts as a page shows it: in the language spoken now, each paragraph on one line.

    ``text`` is the English the command was defined with: a msgid, or a text
    made by :func:`filled_help`, whose template is one; a text the catalog
    lacks (a docstring of a command defined elsewhere) is shown as it is.
    """
    if not text:
        return text
    gettext_ = translator(_speaking or LANGS[0]).gettext
    filled = _FILLED.get(text)
    return soft_breaks_joined(error_text(gettext_, filled) if filled is not None else gettext_(text))


#: The attributes of a command that hold a help text of ours (a parameter's is ``help``).
_COMMAND_TEXTS = ("help", "epilog", "short_help")


@contextlib.contextmanager
def _help_worded(command: ClickCommand) -> Iterator[None]:
    """While a page is drawn: ``command``'s texts, its parameters' and its commands' summaries worded for it.

    The objects are set back to the msgids afterwards, so that every page is
    worded from the English, whatever language the previous one was in.
    """
    holders: list[tuple[object, str]] = [(command, name) for name in _COMMAND_TEXTS]
    holders += [(param, "help") for param in command.params if hasattr(param, "help")]
    for sub in getattr(command, "commands", {}).values():  # the command list shows their summaries
        holders += [(sub, "help"), (sub, "short_help")]
    kept = [(holder, name, getattr(holder, name)) for holder, name in holders]
    try:
        for holder, name, text in kept:
            setattr(holder, name, help_text(text))
        yield
    finally:
        for holder, name, text in kept:
            setattr(holder, name, text)


class _Worded(ClickCommand):
    """What a command and the group share: placeholders for values, and a usage line and ``--help`` page worded
    in the language spoken.  Listed before Typer's class, so Typer draws the page with the texts it sets."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _placeholders(self.params)

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        with _help_worded(self):
            super().format_help(ctx, formatter)

    def format_usage(self, ctx: Context, formatter: HelpFormatter) -> None:
        _usage(self, ctx, formatter)

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        return _help_option(super().get_help_option(ctx))


class Command(_Worded, TyperCommand):
    """A command whose usage line and ``--help`` are worded in the language spoken, with placeholders for values."""


class Group(_Worded, TyperGroup):
    """The ``corazones`` group: settles the language first, and words the toolkit's texts and errors in it."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        with speaking(requested_lang(sys.argv[1:] if args is None else args)):
            return super().main(args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra)

    def make_context(
        self, info_name: str | None, args: list[str], parent: Context | None = None, **extra: Any
    ) -> Context:
        with _errors_worded():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Context) -> Any:
        from corazones.cli.exits import CLOSED_PIPE, silence_stdout

        try:
            with _errors_worded():
                return super().invoke(ctx)
        except BrokenPipeError:  # the reader went away (``| head``): stop quietly, not "does not check"
            silence_stdout()
            ctx.exit(CLOSED_PIPE)
