"""The terminal toolkit's own words, written out here so that Babel puts them in the one catalog.

The help page and the error box are drawn by :mod:`corazones.cli.toolkit` in
Typer's words; Typer asks ``gettext`` for a few texts of its own; and the Click
it carries words the parse errors ("No such option", "Missing argument", "Got
unexpected extra argument(s)").  Those last texts live in site-packages, which
the extraction never reads (``babel.cfg`` scans ``src/``), so each is repeated
below, in the toolkit's exact English, marked with
:func:`~corazones.i18n.N_`: ``scripts/i18n.sh`` extracts them like any other
text, the Spanish is written once in the ``.po``, and ``tests/test_i18n.py``
holds them to being translated.  :mod:`corazones.cli.toolkit` is what makes the
toolkit speak them; ``tests/test_toolkit_i18n.py`` checks that Typer's texts are
still the installed Typer's, so a Typer upgrade that rewords one is noticed.

Only msgids here, no translations: those are in the catalog.
"""

from __future__ import annotations

from corazones.cli.flags import INVALID_FOR
from corazones.i18n import N_

#: What Typer asks the standard library's ``gettext`` for when it needs it (typer/core.py).
TYPER_TEXTS = (
    N_("Aborted!"),
    N_("(dynamic)"),
    N_("default: {default}"),
    N_("required"),
    N_("env var: {var}"),
    N_("Arguments"),
    N_("Options"),
    N_("Commands"),
    N_("Missing command."),
    N_("No such command {name!r}."),
)

#: The help page's and the error box's own words (drawn by :mod:`corazones.cli.toolkit`, in Typer's wording).
USAGE = N_("Usage: ")
#: Placeholders of the usage line, as Typer writes them (``options_metavar``, ``subcommand_metavar``).
USAGE_PIECES = (N_("[OPTIONS]"), N_("COMMAND [ARGS]..."))
#: What ``--help`` does.
HELP_OPTION = N_("Show this message and exit.")
#: The panels' titles, and what an option's help ends with.
ARGUMENTS, OPTIONS, COMMANDS = N_("Arguments"), N_("Options"), N_("Commands")
DEFAULT, REQUIRED = N_("[default: {}]"), N_("[required]")
#: The error box's title and the hint above it.
ERROR, TRY_HELP = N_("Error"), N_("Try [blue]'{command_path} {help_option}'[/] for help.")

#: Click's (and Typer's) error messages, which they word in English without ``gettext``.  Each is a
#: template in their exact words: a message that reads like one is shown from the catalog with the
#: same parts (a part that is itself one of these texts is translated too).
CLICK_MESSAGES = (
    N_("No such option: {option}"),
    N_("No such option: {option} (Possible options: {options})"),
    N_("Missing argument {name}."),
    N_("Missing option {name}."),
    N_("Missing parameter {name}."),
    INVALID_FOR,  # "Invalid value for {flag}: {error}", our own refusals' frame too
    N_("Invalid value: {error}"),
    N_("Got unexpected extra argument(s) ({args})"),
    N_("Option {name} requires an argument."),
    N_("Option {name} requires {count} arguments."),
    N_("Option {name} does not take a value."),
    N_("{error}. Did you mean {names}?"),
)

#: Why a value does not convert, as pydantic (Typer's converter) words it: the reasons our flags can meet.
CONVERSION_REASONS = (
    N_("Input should be a valid integer, unable to parse string as an integer"),
    N_("Input should be a valid number, unable to parse string as a number"),
    N_("Input should be a valid boolean, unable to interpret input"),
)
