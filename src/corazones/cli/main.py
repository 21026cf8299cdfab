"""``corazones``: play, rules, replay, verify (and more faces as they come).

Every help text here is a msgid (:func:`~corazones.i18n.N_`, or
:func:`~corazones.cli.toolkit.filled_help` for one naming values), a command's description
included: it is given as ``help=`` rather than as the function's docstring so
that the extraction sees it, and :mod:`corazones.cli.toolkit` words it in the
command line's language when a help page is drawn.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from corazones.cli import arena_cmd, pad_cmd, review_cmd, serve_cmd
from corazones.cli.encoding import full_screen
from corazones.cli.exits import EPILOG
from corazones.cli.flags import (
    AT_LEAST_ONE,
    SEAT_RANGE,
    FlagRefused,
    LangOpt,
    OptionOpt,
    PlayersOpt,
    check_budget,
    check_lang,
    given_lang,
    quoted,
    refuse,
)
from corazones.cli.inputs import file_problem, where
from corazones.cli.outputs import check_output_file
from corazones.cli.toolkit import Command, Group, filled_help
from corazones.cli.version import show_version
from corazones.core.errors import CorazonesError, Count
from corazones.core.rules import PRESETS, Rules
from corazones.i18n import LANGS, N_, translator
from corazones.players.review import MOST_WORLDS
from corazones.players.review import PASS_WORLDS as REVIEW_PASS_WORLDS
from corazones.players.review import WORLDS as REVIEW_WORLDS

app = typer.Typer(
    cls=Group,  # the toolkit's own texts (usage, help panels, parse errors) in the command line's language
    help=N_("Corazones: Hearts and its whole family.  Start with `corazones play`."),
    epilog=EPILOG,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # the toolkit draws the help and the errors itself, in the command line's language
)


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=show_version, is_eager=True, help=N_("Show the version and which build runs")
        ),
    ] = False,
    lang: LangOpt = None,
) -> None:
    """The root's own flags; its ``--lang`` is for every command (``corazones --lang es rules``).

    It is checked here, so that a bad one is refused even by a command that
    would not need the language; each command reads it through
    :func:`~corazones.cli.flags.check_lang` unless given its own.
    """
    if lang is not None:
        check_lang(lang)


#: Options whose value is a list; on the command line ``passes=left,right`` is accepted for ``["left", "right"]``.
_LIST_OPTIONS = ("passes", "discard_order")
#: One ``--option name=value``, in characters (the longest real one, a card_points table, is far shorter).
MAX_OPTION_CHARS = 2000


def parse_option_values(pairs: list[str], lang: str = "en") -> dict[str, Any]:
    """Turn ``name=value`` strings into option overrides (values read as JSON when they can be)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        if len(pair) > MAX_OPTION_CHARS:
            refuse(
                "--option",
                lang,
                N_("an option of {length} characters; at most {most}"),
                length=Count(len(pair)),
                most=Count(MAX_OPTION_CHARS),
            )
        name, eq, raw = pair.partition("=")
        name = name.strip()
        if not eq or not name:
            refuse(
                "--option",
                lang,
                N_("{value} must look like name=value (e.g. target=50, moon=off, passes=left,right)"),
                value=quoted(pair),
            )
        try:
            value: Any = json.loads(raw)
        except (ValueError, RecursionError):  # not JSON (or a number too long to convert): the text itself
            value = raw
        if name in _LIST_OPTIONS and isinstance(value, str):
            value = [v for v in value.replace(",", " ").split() if v]
        if isinstance(value, list):
            value = tuple(value)
        out[name] = value
    return out


def check_preset(preset: str, lang: str = "en", flag: str = "--rules") -> str:
    """``preset`` if it is one; a usage error listing the presets otherwise."""
    if preset not in PRESETS:
        refuse(
            flag,
            lang,
            N_("unknown preset {preset}; presets: {presets}"),
            preset=quoted(preset),
            presets=", ".join(PRESETS),
        )
    return preset


def build_rules(preset: str, players: int | None, options: list[str], lang: str = "en") -> Rules:
    """The rules the command line asks for; a bad preset, option or value is a usage error naming it (in ``lang``)."""
    check_preset(preset, lang)
    overrides = parse_option_values(options, lang)
    if players is not None:
        overrides["players"] = players
    try:
        return Rules.preset(preset, **overrides)
    except CorazonesError as e:  # the rules' own words: they name the option, the value and what is allowed
        flag = "--players" if players is not None and str(e).startswith("players") else "--option"
        raise FlagRefused(flag, e, lang) from None


def default_level() -> str:
    """The strongest everyday level available (``standard`` once it exists, else the first)."""
    from corazones.players.registry import LEVELS

    return "standard" if "standard" in LEVELS else next(iter(LEVELS))


def check_level(level: str | None, lang: str = "en") -> str:
    from corazones.players.registry import LEVELS

    if level is None:
        return default_level()
    if level not in LEVELS:
        refuse(
            "--level",
            lang,
            N_("unknown level {level}; levels: {levels}"),
            level=quoted(level),
            levels=", ".join(LEVELS),
        )
    return level


def check_seed(seed: str | None, lang: str = "en") -> int | str | None:
    """``--seed`` as the game takes it: digits are a whole number (``42``), anything else a string seed."""
    from corazones.core.commitment import check_seed as core_check_seed
    from corazones.core.commitment import seed_from_text

    if seed is None:
        return None
    try:
        return core_check_seed(seed_from_text(seed))
    except CorazonesError as e:  # the core names what a seed may be
        raise FlagRefused("--seed", e, lang) from None


PresetOpt = Annotated[
    str,
    typer.Option(
        "--rules", "-r", metavar="PRESET", help=filled_help(N_("Preset: {presets}"), presets=", ".join(PRESETS))
    ),
]


@app.command(cls=Command, help=N_("List the presets, or show every option of one preset."))
def rules(
    preset: Annotated[
        str | None, typer.Argument(metavar="PRESET", help=N_("Show this preset's options; omit to list presets"))
    ] = None,
    players: PlayersOpt = None,
    option: OptionOpt = None,
    lang: LangOpt = None,
) -> None:
    language = check_lang(lang)
    if preset is None:
        for name, description in preset_descriptions(language):
            typer.echo(f"{name:22} {description}")
        return
    check_preset(preset, language, "PRESET")
    r = build_rules(preset, players, option or [], language)
    typer.echo(f"{preset}: {dict(preset_descriptions(language))[preset]}")
    for key, value in rules_rows(r, language):
        typer.echo(f"  {key:22} {value}")


#: The note after a preset's pass cycle when ``passes`` is not set (the core's words, translated here).
DEFAULT_PASSES = N_("(default for player count)")


def rules_rows(rules: Rules, lang: str) -> list[tuple[str, str]]:
    """``rules``' options as ``rules PRESET`` lists them: the name to type with ``-o``, then the value.

    The option names and values stay as typed on the command line (``passes
    left right``, ``True``), in every language; the words around them (the
    note on a default pass cycle, the hand size) are in ``lang``.
    """
    gettext = translator(lang).gettext
    rows = []
    for key, value in rules.summary():
        if key == "passes" and rules.passes is None:
            value += "  " + gettext(DEFAULT_PASSES)
        rows.append((key, value))
    size = gettext(N_("{cards} cards, kitty {kitty}")).format(cards=rules.hand_size, kitty=rules.kitty_size)
    rows.append((gettext(N_("(hand size)")), size))
    return rows


def preset_descriptions(lang: str) -> list[tuple[str, str]]:
    """Each preset with its one-line description in ``lang``.

    English is the core's own description, as ``rules`` has always printed it;
    another language takes the start screen's words for the preset from the
    catalog (:data:`corazones.i18n.presets.PRESET_WORDS`), the core's description
    where it has none.
    """
    from corazones.i18n.presets import PRESET_WORDS

    gettext = translator(lang).gettext
    out = []
    for name, values in PRESETS.items():
        english = str(values.get("description", ""))
        words = PRESET_WORDS.get(name)
        out.append((name, gettext(words) if words and lang != LANGS[0] else english))
    return out


@app.command(
    cls=Command,
    help=N_(
        "Play a game in the terminal against computer players.\n\n"
        "On a terminal this opens the full-screen game (a start screen when no game option is given); with --line, "
        "--auto, or when input or output is not a terminal, it plays one question per line.\n\n"
        "Type cards as rank then suit (QS, 10H, TH, Q♠); ? asks for a hint; q abandons the game (the record, if "
        "asked for, is still written and replays to where you stopped).  The seed stays secret until the game ends: "
        "the start shows its commitment, the end reveals it."
    ),
)
def play(
    preset: PresetOpt = "standard",
    players: PlayersOpt = None,
    option: OptionOpt = None,
    seed: Annotated[
        str | None,
        typer.Option(metavar="SEED", help=N_("Seed (a whole number or text): the same seed deals the same game")),
    ] = None,
    level: Annotated[
        str | None, typer.Option(metavar="LEVEL", help=N_("Level of the computer players (default: standard)"))
    ] = None,
    seat: Annotated[int, typer.Option(metavar="SEAT", help=N_("Your seat, counted from 1 (1 = South)"))] = 1,
    auto: Annotated[bool, typer.Option("--auto", help=N_("Watch bots play every seat (a flag)"))] = False,
    hands: Annotated[int | None, typer.Option(metavar="N", help=N_("Play a game of at most this many hands"))] = None,
    record: Annotated[Path | None, typer.Option(metavar="FILE", help=N_("Write the game record (JSON) here"))] = None,
    lang: LangOpt = None,
    line: Annotated[
        bool, typer.Option("--line", help=N_("One question per line instead of the full-screen game"))
    ] = False,
) -> None:
    from corazones.cli.lineplay import run_line_game

    language = check_lang(lang)
    r = build_rules(preset, players, option or [], language)
    if not 1 <= seat <= r.players:  # seats as people count them, and as every screen names them (Seat 1 …)
        refuse("--seat", language, N_("seat {seat} does not exist; allowed: 1 to {last}"), seat=seat, last=r.players)
    if hands is not None and hands < 1:
        refuse("--hands", language, AT_LEAST_ONE, value=hands)
    with_hands = r
    if hands is not None:
        # A game of that many hands (the rules' `hands`: it ends after them with its winners, or at the target
        # first), on a terminal and off it alike, so it takes only what the rules' `hands` takes.
        try:
            with_hands = r.replace(hands=hands)
        except CorazonesError as e:  # the rules' own words: "hands = 600 is out of range; allowed: 1 to 500"
            raise FlagRefused("--hands", e, language) from None
    if record is not None:
        check_output_file(record, lang=language)  # before any card is dealt, not after the game
    chosen = check_level(level, language)
    game_seed = check_seed(seed, language)
    if not (line or auto) and full_screen(language):
        from corazones.tui.app import run_app

        given = preset != "standard" or players is not None or bool(option) or hands is not None or seed is not None
        code = run_app(
            rules=with_hands if given else None,
            seed=game_seed,
            lang=given_lang(lang) and language,
            level=level and chosen,
            seat=seat - 1,
            record_to=record,
        )
        raise typer.Exit(code)
    code = run_line_game(with_hands, game_seed, chosen, None if auto else seat - 1, record, language)
    raise typer.Exit(code)


@app.command(
    cls=Command,
    help=N_(
        "Show a game record trick by trick with running scores (exit 1 at an illegal action, 2 if unreadable).\n\n"
        "On a terminal it opens the full-screen replay viewer; otherwise it prints the replay.\n\n"
        "In the viewer, r reviews the game (every decision valued as `corazones review` does; --worlds, "
        "--pass-worlds and --seat set that review) and o opens a saved one (`corazones review RECORD --json "
        "--out FILE`, or --review FILE at once); m and M go to the next and previous marked decision, v shows "
        "each seat's summary."
    ),
)
def replay(
    file: Annotated[
        str,
        typer.Argument(metavar="FILE", help=N_("A game record written by `play --record` (- reads standard input)")),
    ],
    glyphs: Annotated[bool, typer.Option(help=N_("Show suits as ♣♦♠♥ (--no-glyphs: C D S H)"))] = True,
    review: Annotated[
        str | None,
        typer.Option(
            "--review",
            metavar="REVIEW",
            help=N_("Show the marks of a review saved by `corazones review FILE --json --out REVIEW` (viewer only)"),
        ),
    ] = None,
    worlds: Annotated[
        int,
        typer.Option(metavar="N", help=N_("The viewer's review: sampled deals per card, bid or suit")),
    ] = REVIEW_WORLDS,
    pass_worlds: Annotated[
        int, typer.Option(metavar="N", help=N_("The viewer's review: sampled deals per pass"))
    ] = REVIEW_PASS_WORLDS,
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat", metavar="N", help=N_("The viewer's review: only this seat, counted from 1 (default: every seat)")
        ),
    ] = None,
    lang: LangOpt = None,
) -> None:
    from corazones.cli.replaytext import print_replay

    language = check_lang(lang)
    check_budget("--worlds", language, worlds, MOST_WORLDS)
    check_budget("--pass-worlds", language, pass_worlds, MOST_WORLDS)
    if seat is not None and file != "-":
        from corazones.cli.replaytext import read_record
        from corazones.core.records import rules_of

        try:
            players = rules_of(read_record(file, language)).players
        except (CorazonesError, ValueError):
            players = None  # the replay below says what is wrong with the record
        if players is not None and not 1 <= seat <= players:
            refuse("--seat", language, SEAT_RANGE, last=players, value=seat)
    if file != "-" and full_screen(language):
        from corazones.tui.app import open_replay

        review_seats = None if seat is None else [seat - 1]  # the record's index, from 0
        options: dict[str, Any] = {"budget": (worlds, pass_worlds), "review_seats": review_seats}
        if review is not None:
            options["review_file"] = review
        if open_replay(file, language, **options):  # --lang, else the locale: not the game's saved choice
            raise typer.Exit(0)
    if review is not None:  # the printed replay has no marks: say so rather than drop the flag in silence
        problem = file_problem(review)
        if problem is not None:
            refuse("--review", language, N_("cannot read {path}: {why}"), path=where(review), why=problem)
        typer.echo(
            translator(language).gettext(
                "--review shows its marks in the replay viewer, on a terminal; the printed replay has none"
            ),
            err=True,
        )
    raise typer.Exit(print_replay(file, glyphs, language))


@app.command(
    cls=Command,
    help=N_(
        "Check every action and score of a record, or every deal of a hand log; exit 1 on a discrepancy.\n\n"
        "A record's seed is checked against its commitment.  Without a file, `--seed S --commitment C` checks a "
        "seed revealed at the end of a game."
    ),
)
def verify(
    file: Annotated[
        str | None,
        typer.Argument(
            metavar="FILE",
            help=N_("A game record (.json) or hand log (JSON Lines, one deal a line); - reads standard input"),
        ),
    ] = None,
    seed: Annotated[
        str | None, typer.Option(metavar="SEED", help=N_("With --commitment: check a seed revealed after a game"))
    ] = None,
    commitment: Annotated[
        str | None, typer.Option(metavar="COMMITMENT", help=N_("The commitment shown at the start of the game"))
    ] = None,
    lang: LangOpt = None,
) -> None:
    from corazones.cli.verifytext import run_verify, verify_commitment

    language = check_lang(lang)
    if (seed is None) != (commitment is None):
        refuse("--seed", language, N_("give --seed and --commitment together"))
    if seed is not None and commitment is not None:
        if file is not None:
            refuse("FILE", language, N_("give a FILE or --seed with --commitment, not both"))
        raise typer.Exit(verify_commitment(seed, commitment, language))
    if file is None:
        refuse("FILE", language, N_("give a record or hand log to check (or --seed with --commitment)"))
    raise typer.Exit(run_verify(file, language))


app.command("arena", cls=Command, help=arena_cmd.HELP)(arena_cmd.arena)
app.command("serve", cls=Command, help=serve_cmd.SERVE_HELP)(serve_cmd.serve)
app.command("revoke", cls=Command, help=serve_cmd.REVOKE_HELP)(serve_cmd.revoke)
app.command("pad", cls=Command, help=pad_cmd.HELP)(pad_cmd.pad)
app.command("review", cls=Command, help=review_cmd.HELP)(review_cmd.review)


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
