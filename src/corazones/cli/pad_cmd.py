"""``corazones pad``: the score sheet for a game played with real cards.

On a terminal it opens the full-screen sheet (:mod:`corazones.tui.pad`);
in a pipe, or with ``--line``, it reads one line per hand and prints each row,
so a script or a screen reader can keep score too.  Both read a hand written
the same way (the core's :mod:`~corazones.core.pad.grammar`), say it in the
same words (:mod:`corazones.services.pad`), and every number comes from the
core's :class:`~corazones.core.pad.Pad`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, TextIO

import typer

from corazones.cli.encoding import full_screen
from corazones.cli.flags import FlagRefused, LangOpt, OptionOpt, PlayersOpt, quoted, refuse
from corazones.cli.inputs import lenient
from corazones.cli.outputs import check_output_file
from corazones.core.pad import Pad, PadError, loads
from corazones.core.pad.grammar import entry_text, parse_hand
from corazones.core.rules import Rules
from corazones.core.text import safe_line
from corazones.i18n import N_, translator
from corazones.i18n.oserrors import os_reason
from corazones.i18n.presets import PRESET_TITLES
from corazones.services.files import same_file
from corazones.services.pad import (
    ASK_LINE,
    DEL_WORDS,
    DIRECTIONS,
    EDIT_WORDS,
    HELP_LINES,
    HELP_WORDS,
    NEED_NUMBER,
    OWN_FILE,
    QUIT_WORDS,
    SHEET_WORDS,
    UNDO_WORDS,
    PadFiles,
    how_to_enter,
    not_accepted,
    row_lines,
    standing_lines,
)

#: Largest pad file read (the core refuses bigger text too).
MAX_FILE = 2_000_000
#: Longest line read in line mode.
MAX_LINE = 2000

CANNOT_READ = N_("cannot read {path}: {why}")


def read_pad(path: Path) -> Pad:
    """A saved pad; :class:`PadError` (or OSError) says why it cannot be used."""
    with path.open("rb") as f:
        data = f.read(MAX_FILE + 1)
    return loads(data)


# --------------------------------------------------------------- line mode
def run_lines(
    pad: Pad,
    lang: str,
    inp: TextIO,
    out: TextIO,
    save: Path | None,
    csv_path: Path | None,
    *,
    load: Path | None = None,
    err: TextIO | None = None,
    ask: bool | None = None,
) -> int:
    """The line mode: read commands and hands until the end of input; return the exit code.

    Every change is saved to ``save``, else back to the ``load`` file (:class:`PadFiles`).  With ``ask``
    (default: ``inp`` is a terminal) a ``quit`` that would leave hands not saved says so and the next one
    leaves; leaving with hands not saved says so on ``err`` (standard error) all the same.  The exit code is 1
    when the last save failed or the CSV could not be written.
    """
    gettext = translator(lang).gettext
    files = PadFiles(pad, save=save, load=load, csv=csv_path)
    if ask is None:
        ask = bool(getattr(inp, "isatty", lambda: False)())
    warned = False  # the last command was a quit that said hands are not saved
    confirmed = False  # left by a second quit (or the end of input) after being told

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    def persist() -> None:
        reason = files.changed(gettext)
        if reason is not None:
            say(reason)

    rules_line = gettext("Score pad: {preset}, {players} players: {names}").format(
        preset=gettext(PRESET_TITLES.get(pad.rules.name, pad.rules.name)),  # as the web's pad names it
        players=pad.players,
        names=", ".join(pad.names),
    )
    say(rules_line)
    say(how_to_enter(pad, gettext))
    if files.target is not None:
        say(gettext("Every change is saved to {path}.").format(path=safe_line(str(files.target), 200)))
    say(gettext("Type help for the commands."))
    for i in range(len(pad.rows)):
        for line in row_lines(pad, i, gettext):
            say(line)
    for line in standing_lines(pad, gettext):
        say(line)
    while True:
        if not pad.over:
            direction = pad.next_pass()
            out.write(
                gettext("Hand {n} (pass: {direction})> ").format(
                    n=len(pad.rows) + 1, direction=gettext(DIRECTIONS.get(direction, direction))
                )
            )
        else:
            out.write("> ")
        out.flush()
        raw = inp.readline(MAX_LINE + 1)
        if not raw:
            out.write("\n")
            confirmed = warned
            break
        if len(raw) > MAX_LINE:
            say(gettext("Not accepted: the line is longer than {limit} characters").format(limit=MAX_LINE))
            while raw and not raw.endswith("\n"):
                raw = inp.readline(MAX_LINE + 1)
            continue
        text = raw.strip()
        if not text:
            continue
        word, _sp, rest = text.partition(" ")
        cmd = word.lower()
        asked, warned = warned, False
        try:
            if cmd in QUIT_WORDS:
                question = None if asked or not ask else files.not_saved(gettext, ASK_LINE)
                if question is None:
                    confirmed = asked
                    break
                say(question)
                warned = True
                continue
            if cmd in HELP_WORDS:
                for h in HELP_LINES:
                    say(gettext(h))
                say(how_to_enter(pad, gettext))
                continue
            if cmd in SHEET_WORDS:
                for i in range(len(pad.rows)):
                    for line in row_lines(pad, i, gettext):
                        say(line)
                for line in standing_lines(pad, gettext):
                    say(line)
                continue
            if cmd in UNDO_WORDS:
                pad.undo()
                persist()
                say(gettext("Hand {n} removed.").format(n=len(pad.rows) + 1))
                for line in standing_lines(pad, gettext):
                    say(line)
                continue
            if cmd in EDIT_WORDS + DEL_WORDS:
                number, _sp, hand = rest.strip().partition(" ")
                if not number.isdecimal():
                    say(gettext("Not accepted: {reason}").format(reason=gettext(NEED_NUMBER)))
                    continue
                index = int(number) - 1
                if cmd in EDIT_WORDS:
                    if not hand.strip() and 0 <= index < len(pad.entries):
                        say(
                            gettext("Hand {n} now reads: {line}").format(
                                n=index + 1, line=entry_text(pad, pad.entries[index])
                            )
                        )
                        continue
                    pad.edit(index, parse_hand(pad, hand))
                    say(gettext("Hand {n} changed; the rows after it are recomputed.").format(n=index + 1))
                else:
                    pad.remove(index)
                    say(gettext("Hand {n} deleted; the rows after it are recomputed.").format(n=index + 1))
                persist()
                for i in range(index, len(pad.rows)):
                    for line in row_lines(pad, i, gettext):
                        say(line)
                for line in standing_lines(pad, gettext):
                    say(line)
                continue
            if cmd in ("save", "guardar", "csv"):
                say(files.write_named(cmd == "csv", rest.strip(), gettext)[1])
                continue
            pad.add(parse_hand(pad, text))
            persist()
            for line in row_lines(pad, len(pad.rows) - 1, gettext):
                say(line)
            for line in standing_lines(pad, gettext):
                say(line)
        except PadError as e:  # a HandSyntaxError too
            say(not_accepted(gettext, e))
    code = 0
    if csv_path is not None:
        reason = files.write_csv(csv_path, gettext)
        if reason is not None:
            say(reason)
            code = 1
    if files.failed is not None:  # the pad's last save did not happen: a script must not take it for saved
        code = 1
    left = None if confirmed else files.leaving(gettext)  # after a second quit the user has been told
    if left is not None:
        (err if err is not None else sys.stderr).write(left + "\n")
    return code


# ----------------------------------------------------------------- command
#: What ``corazones pad --help`` says (a msgid: the help is worded in the command line's language).
HELP = N_(
    "Keep score of a game played with real cards: enter each hand, the pad does the rest.\n\n"
    "The pad checks every hand against the rules (totals, the moon, who took each card), keeps running totals, "
    "chips or the pool, says who leads and who wins, and can undo or edit any hand.  On a terminal it is a "
    "full-screen sheet; in a pipe (or with --line) it reads one hand per line: type help there for the syntax."
)


def pad(
    preset: Annotated[
        str, typer.Option("--rules", "-r", metavar="PRESET", help=N_("Preset (see `corazones rules`)"))
    ] = "standard",
    players: PlayersOpt = None,
    option: OptionOpt = None,
    names: Annotated[
        str | None, typer.Option(metavar="NAMES", help=N_("The players' names in seat order, separated by commas"))
    ] = None,
    load: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help=N_(
                "Open a saved pad (its rules and names) and go on with it, saving every change back to it "
                "(or to --save)"
            ),
        ),
    ] = None,
    save: Annotated[
        Path | None, typer.Option(metavar="FILE", help=N_("Save the pad (JSON) here after every change"))
    ] = None,
    csv: Annotated[
        Path | None, typer.Option(metavar="FILE", help=N_("Write the sheet as CSV here when you leave"))
    ] = None,
    line: Annotated[bool, typer.Option("--line", help=N_("Plain line mode even on a terminal"))] = False,
    lang: LangOpt = None,
) -> None:
    """``corazones pad``: the full-screen sheet on a terminal, else the line mode (:func:`run_lines`)."""
    from corazones.cli.flags import check_lang
    from corazones.cli.main import build_rules

    language = check_lang(lang)
    if save is not None and csv is not None and same_file(csv, save):  # the sheet would replace the pad's JSON
        refuse("--csv", language, OWN_FILE, path=quoted(csv, 200), flag="--save", other=quoted(save, 200))
    for flag, path in (("--save", save), ("--csv", csv)):
        if path is not None:
            check_output_file(path, flag, language, reads=load if flag == "--csv" else None)  # --save may update it
    if load is not None:
        try:
            the_pad = read_pad(load)
        except OSError as e:
            refuse("--load", language, CANNOT_READ, path=quoted(load, 200), why=os_reason(e))
        except PadError as e:  # the pad's own words: what in the file is wrong
            refuse("--load", language, N_("{path}: {error}"), path=quoted(load, 200), error=e)
    else:
        rules = build_rules(preset, players, option or [], language)
        listed = [x for x in (names or "").split(",")] if names is not None else []
        try:
            the_pad = Pad(rules, tuple(listed)) if listed else default_pad(rules, language)
        except PadError as e:  # names how many players to name, or which name is wrong
            raise FlagRefused("--names", e, language) from None
    if not line and full_screen(language):
        from corazones.tui.pad.app import PadApp

        app = PadApp(
            the_pad if (load is not None or names is not None) else None,
            rules=the_pad.rules,
            lang=language,
            save=save,
            csv=csv,
            load=load,
        )
        app.run()
        code = 0
        for failure in (app.write_csv(), app.save_failed()):  # the CSV, the pad's last save: exit 1
            if failure:
                typer.echo(failure, err=True)
                code = 1
        left = app.leaving()
        if left:
            typer.echo(left, err=True)
        raise typer.Exit(code)
    code = run_lines(the_pad, language, lenient(sys.stdin), sys.stdout, save, csv, load=load)
    raise typer.Exit(code)


def default_pad(rules: Rules, lang: str) -> Pad:
    """A pad with the default names in ``lang`` (Player 1, Jugador 1...)."""
    gettext = translator(lang).gettext
    return Pad(rules, tuple(gettext("Player {n}").format(n=i + 1) for i in range(rules.players)))
