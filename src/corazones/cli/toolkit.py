"""The terminal toolkit (Typer, and the Click it carries) speaks the command line's language.

Everything here goes through public interfaces: Typer's command classes
(``typer.core.TyperCommand``, ``TyperGroup``, given as ``cls=``), the methods
Click documents for overriding (``format_help``, ``format_usage``,
``get_help_option``, ``make_context``, ``invoke``, ``main``), the public
attributes of parameters and errors, Rich to draw, and the standard library's
``gettext``.  No private module of Typer or Click is imported and no module
constant of theirs is rewritten, so Typer has no upper version bound here.

* The help page is ours (:meth:`_Worded.format_help`): the usage line, the
  description, the panels of arguments, options and commands (each with its
  ``[default: ...]``) and the epilog, drawn with Rich from the command objects
  and worded from the one catalog in the language spoken.  Typer's own Rich
  help reads its panel titles once, when its module is imported, so it could
  only ever speak the first language of a process; the app is therefore made
  with ``rich_markup_mode=None`` and Typer's help is not used.
* Click's parse errors ("No such option", "Missing argument") are English
  without ``gettext`` in the Click Typer carries.  Each is read, on its way out
  of the group (:meth:`Group.make_context`, :meth:`Group.invoke`), from its
  public ``format_message()`` against Click's templates
  (:data:`~corazones.cli.toolkit_texts.CLICK_MESSAGES`) and worded from the
  catalog with the same parts; then it is drawn here, usage line, hint and
  error box, and the command line ends with its exit code.  A text that matches
  no template stays as Click wrote it (a newer Click's new message is English,
  never wrong).
* Typer's few words of its own that it asks ``gettext`` for when it needs them
  ("No such command", "Aborted!") come from the catalog through the standard
  library's lookup: while a command line runs, :func:`speaking` puts in
  ``gettext.dgettext`` a function that answers the default domain from our
  catalog and leaves anything else to the standard library; afterwards the
  original is back.

The language is settled before Click parses anything (:meth:`Group.main`): the
command line's ``--lang`` when it names a language of the catalog, else the
user's locale, as the command itself decides (``check_lang``); so a bad flag
beside ``--lang es`` is refused in Spanish.

The help pages show what the user types, not Typer's type names (``--players N``,
not ``--players <int>``; ``--help`` and every flag with nothing): each command
names its values' placeholders where it declares them.

Our own texts on a help page (a command's description, the command list's
summaries, each option's help, the root's exit codes) stay msgids on the
command objects (marked with :func:`~corazones.i18n.N_`, or made by
:func:`filled_help` when they name values such as the presets), because Typer
takes them when the commands are defined, at import, long before the command
line is read; each page words them in the language spoken when it is drawn
(:func:`help_text`).  A command's description is therefore given as ``help=``,
not as its docstring, which the extraction would not see.  A help page's
paragraphs fill the terminal's width (:func:`soft_breaks_joined`).
"""

from __future__ import annotations

import contextlib
import gettext
import inspect
import io
import re
import shutil
import sys
from collections.abc import Iterator, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from typer.core import TyperArgument, TyperCommand, TyperGroup

from corazones.cli.flags import ROOT_LANG, FlagRefused
from corazones.cli.toolkit_texts import (
    ARGUMENTS,
    CLICK_MESSAGES,
    COMMANDS,
    CONVERSION_REASONS,
    DEFAULT,
    ERROR,
    HELP_OPTION,
    OPTIONS,
    REQUIRED,
    TRY_HELP,
    USAGE,
    USAGE_PIECES,
)
from corazones.core.errors import Message
from corazones.i18n import LANGS, error_text, pick_lang, translator

#: Click's base class of the errors that end a command line with a usage message (exit 2).  Typer does not
#: export it; its public ``typer.BadParameter`` is one of them, and Click documents the hierarchy.
UsageError: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
#: Click's base class of every error it shows to the user (``exit_code``, ``format_message()``).
ClickException: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")

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


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """The toolkit speaks ``lang`` inside the block; the language before (or the untouched stdlib) after it."""
    global _speaking
    before = _speaking
    _speaking = lang
    gettext.dgettext, gettext.dngettext = _dgettext, _dngettext
    try:
        yield
    finally:
        _speaking = before
        if before is None:
            gettext.dgettext, gettext.dngettext = _stdlib_dgettext, _stdlib_dngettext


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


def _say(msgid: str) -> str:
    """One of the toolkit's own texts in the language spoken now."""
    return translator(_speaking or LANGS[0]).gettext(msgid)


def _worded_message(error: Exception) -> str:
    """What ``error`` says, in the language spoken: our own refusals as they are, Click's worded from the catalog."""
    english = str(error.format_message())  # type: ignore[attr-defined]
    if isinstance(error, FlagRefused):
        return english
    return toolkit_text(english)


def _console(width: int | None = None) -> Console:
    """A console that draws into a string at the terminal's width (colours only for a real terminal)."""
    return Console(
        file=io.StringIO(),
        width=width or shutil.get_terminal_size().columns,
        force_terminal=sys.stdout.isatty(),
        highlight=False,
        soft_wrap=False,
    )


def _drawn(console: Console) -> str:
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def _show_error(error: Exception) -> NoReturn:
    """Draw a usage error as the toolkit does (usage line, where to find help, the message in a box), then exit."""
    ctx = getattr(error, "ctx", None)
    console = _console()
    if type(error).__name__ == "NoArgsIsHelpError" and ctx is not None:  # no arguments: the help, exit 2
        typer.echo(ctx.get_help(), nl=False)
        raise typer.Exit(getattr(error, "exit_code", 2))
    if ctx is not None:
        console.print(Text(ctx.get_usage()))
        if ctx.command.get_help_option(ctx) is not None:
            hint = _say(TRY_HELP).format(command_path=escape(ctx.command_path), help_option=ctx.help_option_names[0])
            console.print(hint, style="dim")
    console.print(Panel(Text(_worded_message(error)), border_style="red", title=_say(ERROR), title_align="left"))
    typer.echo(_drawn(console), nl=False, err=True)
    raise typer.Exit(getattr(error, "exit_code", 1))


@contextlib.contextmanager
def _errors_shown() -> Iterator[None]:
    """A usage error raised inside is drawn in the language spoken and ends the command line with its code."""
    try:
        yield
    except ClickException as e:
        _show_error(e)


def _usage(command: TyperCommand, ctx: typer.Context, formatter: Any) -> None:
    pieces = [_say(p) if p in USAGE_PIECES else p for p in command.collect_usage_pieces(ctx)]
    formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_say(USAGE))


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


def _default_text(param: Any, ctx: typer.Context) -> str | None:
    """What ``[default: ...]`` shows for ``param``, or None when nothing is shown (as Typer decides it)."""
    shown = getattr(param, "show_default", None)
    if isinstance(shown, str):
        return shown
    if not (shown or ctx.show_default) or getattr(param, "is_flag", False):
        return None
    value = param.default
    if value is None or callable(value):
        return None
    if isinstance(value, list | tuple):
        if not value:
            return None
        return ", ".join(str(v.value if isinstance(v, Enum) else v) for v in value)
    return str(value.value if isinstance(value, Enum) else value)


def _param_row(param: Any, ctx: typer.Context) -> list[Text]:
    """One row of a panel: the flag (or argument) names, the placeholder, the help with its default."""
    if isinstance(param, TyperArgument):
        names, short, negative = [param.metavar or (param.name or "").upper()], [], []
        placeholder = ""
    else:
        names = [o for o in param.opts if o.startswith("--")]
        short = [o for o in param.opts if not o.startswith("--")]
        negative = list(param.secondary_opts)  # --no-glyphs beside --glyphs
        placeholder = "" if param.is_flag or param.count else (param.metavar or param.make_metavar(ctx))
    help_ = Text(help_text(param.help) or "")
    default = _default_text(param, ctx)
    extras = []
    if default is not None and not isinstance(param, TyperArgument):
        extras.append(_say(DEFAULT).format(default))
    if param.required:
        extras.append(_say(REQUIRED))
    if extras:
        help_.append((" " if help_ else "") + " ".join(extras), style="dim")
    return [
        Text(",".join(names), style="bold cyan"),
        Text(",".join(short), style="bold green"),
        Text(",".join(negative), style="bold magenta"),
        Text(placeholder, style="bold yellow"),
        help_,
    ]


def _panel(title: str, rows: list[list[Text]]) -> Panel:
    table = Table(show_header=False, expand=True, box=None, pad_edge=False, padding=(0, 1))
    for _ in rows[0]:
        table.add_column()
    columns = table.columns
    columns[-1].ratio = 1  # the help column takes the room left, and wraps
    for row in rows:
        table.add_row(*row)
    return Panel(table, title=title, title_align="left", border_style="dim")


def _page(command: TyperCommand, ctx: typer.Context) -> str:
    """The whole help page of ``command``, worded in the language spoken."""
    console = _console()
    console.print()
    console.print(Padding(Text(command.get_usage(ctx).rstrip()), (0, 1)))
    console.print()
    if command.help:  # what follows a \f is for the source only (Click's "the help ends here")
        for paragraph in (help_text(command.help) or "").partition("\f")[0].split("\n\n"):
            console.print(Padding(Text(paragraph.strip("\b\n")), (0, 1)))
            console.print()
    params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
    arguments = [_param_row(p, ctx) for p in params if isinstance(p, TyperArgument)]
    options = [_param_row(p, ctx) for p in params if not isinstance(p, TyperArgument)]
    if arguments:
        console.print(_panel(_say(ARGUMENTS), arguments))
    if options:
        console.print(_panel(_say(OPTIONS), options))
    if isinstance(command, TyperGroup):
        rows = []
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            summary = (help_text(sub.short_help or sub.help) or "").partition("\f")[0].split("\n\n")[0]
            rows.append([Text(name, style="bold cyan"), Text(summary)])
        if rows:
            console.print(_panel(_say(COMMANDS), rows))
    if command.epilog:
        console.print()
        for paragraph in (help_text(command.epilog) or "").partition("\f")[0].split("\n\n"):
            console.print(Padding(Text(paragraph.strip("\b\n")), (0, 1)))
            console.print()
    return _drawn(console)


if TYPE_CHECKING:
    _Base = TyperCommand
else:
    _Base = object


class _Worded(_Base):
    """What a command and the group share: a usage line and ``--help`` page worded in the language spoken.

    A mixin listed before Typer's class, so its methods come first."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        formatter.write(_page(self, ctx))

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        _usage(self, ctx, formatter)

    def get_help_option(self, ctx: Any) -> Any:
        """Click makes ``--help`` once per command and keeps it: its text is worded again each time it is asked for."""
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = _say(HELP_OPTION)
        return option


class Command(_Worded, TyperCommand):
    """A command whose usage line and ``--help`` are worded in the language spoken."""


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
        from corazones.cli.encoding import fit_streams

        fit_streams()  # a terminal that cannot show the suits gets letters, not a traceback
        with speaking(requested_lang(sys.argv[1:] if args is None else args)):
            return super().main(args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra)

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        with _errors_shown():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        from corazones.cli.exits import CLOSED_PIPE, silence_stdout

        given = ROOT_LANG.set(ctx.params.get("lang"))  # the root's --lang, for every command (flags.given_lang)
        try:
            with _errors_shown():
                return super().invoke(ctx)
        except BrokenPipeError:  # the reader went away (``| head``): stop quietly, not "does not check"
            silence_stdout()
            ctx.exit(CLOSED_PIPE)
        finally:
            ROOT_LANG.reset(given)
