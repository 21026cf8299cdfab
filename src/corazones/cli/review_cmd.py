"""``corazones review``: what each decision of a recorded game cost, and why.

The work is in :mod:`corazones.players.review`; this face reads the record,
draws a progress bar on standard error when that is a terminal, and prints
either a readable report (the labelled decisions, then a summary per seat)
or, with ``--json``, the review as data:
``{"decisions": [{"hand", "trick", "seat", "kind", "chosen", "best", "loss",
"label", "why"}...], "summary": [{"seat", "decisions", "mean_loss",
"total_loss"}...]}``, seats numbered as in the record (from 0) and ``why`` in
the command's language; the report and ``--seat`` count seats from 1, as
every screen names them ("Seat 1").  ``--out FILE`` writes the same to a file instead, as
every command writes files (:func:`~corazones.services.files.save_atomic`: a
file whole or not at all, a link followed, a device written, never
replaced), checked before the review starts; the replay viewer opens it
(``corazones replay RECORD --review FILE``).  Exit codes as every command: 2 for an unreadable file
or a bad flag, 1 for a record that stops at an illegal action, 130 on Ctrl-C.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from corazones.cli.exits import FAILED, INTERRUPTED, OK, fail, plain_interrupts
from corazones.cli.flags import SEAT_RANGE, LangOpt, check_budget, check_lang, refuse
from corazones.cli.inputs import where
from corazones.cli.outputs import check_output_file
from corazones.cli.render import Seats, card_text, suit_text, word
from corazones.cli.replaytext import read_record
from corazones.core.actions import Action, Kind
from corazones.core.errors import N_, CorazonesError, Message
from corazones.core.records import rules_of
from corazones.core.text import safe_line
from corazones.i18n import error_text, translator
from corazones.i18n.oserrors import os_reason_text
from corazones.players.hints import Reason
from corazones.players.review import (
    LABELS,
    MOST_WORLDS,
    PASS_WORLDS,
    WORLDS,
    DecisionReview,
    Review,
    review_record,
)

#: What ``corazones review --help`` says it does (a msgid: the help is worded in the command line's language).
HELP = N_(
    "Review a finished game: for each decision, the expected points it cost against the best choice, "
    "judged from what the seat knew then, and why.\n\n"
    "With --out FILE the report (or the JSON) goes to the file; `corazones replay RECORD --review FILE` shows "
    "a saved JSON review's marks in the replay viewer.\n\n"
    "Exit 1 if the record stops at an illegal action, 2 if it is unreadable."
)
#: The labels as the report words them.
LABEL_WORDS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}


def review(
    file: Annotated[
        str,
        typer.Argument(metavar="RECORD", help=N_("A game record written by `play --record` (- reads standard input)")),
    ],
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat",
            metavar="N",
            help=N_("Review only this seat, counted from 1 as the report names it (default: every seat)"),
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the review as JSON"))] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help=N_("Write the review to FILE instead of printing it (with --json: what replay --review opens)"),
        ),
    ] = None,
    worlds: Annotated[
        int, typer.Option(metavar="N", help=N_("Sampled deals per card, bid or suit: more is slower and surer"))
    ] = WORLDS,
    pass_worlds: Annotated[int, typer.Option(metavar="N", help=N_("Sampled deals per pass"))] = PASS_WORLDS,
    glyphs: Annotated[bool, typer.Option(help=N_("Show suits as ♣♦♠♥ (--no-glyphs: C D S H)"))] = True,
    lang: LangOpt = None,
) -> None:
    language = check_lang(lang)
    check_budget("--worlds", language, worlds, MOST_WORLDS)
    check_budget("--pass-worlds", language, pass_worlds, MOST_WORLDS)
    if out is not None:
        # before the review's minutes, not after them; never over the record it reads
        check_output_file(out, "--out", language, reads=None if str(file) == "-" else Path(file))
    rec = read_record(file, language)
    try:
        players = rules_of(rec).players
    except (CorazonesError, ValueError) as e:
        fail(Message(N_("{file}: {error}"), file=where(file), error=e), lang=language)
    if seat is not None and not 1 <= seat <= players:
        refuse("--seat", language, SEAT_RANGE, last=players, value=seat)
    raise typer.Exit(_run(rec, None if seat is None else seat - 1, as_json, worlds, pass_worlds, glyphs, language, out))


def _run(
    rec: dict[str, Any],
    seat: int | None,
    as_json: bool,
    worlds: int,
    pass_worlds: int,
    glyphs: bool,
    lang: str,
    out: Path | None = None,
) -> int:
    _ = translator(lang).gettext
    seats = None if seat is None else [seat]
    try:
        with plain_interrupts():
            result = _with_progress(rec, seats, worlds, pass_worlds, lang)
    except KeyboardInterrupt:
        typer.echo(_("review interrupted"), err=True)
        return INTERRUPTED
    except (CorazonesError, ValueError) as e:
        typer.echo(_("review stopped: {error}").format(error=error_text(_, e)), err=True)
        return FAILED
    raw_names = rec.get("players")
    names = Seats(lang, rules_of(rec).players, None, raw_names if isinstance(raw_names, list) else None)
    render = _renderer(names, glyphs)
    lines: list[str] = []
    if as_json:
        lines.append(json.dumps(result.to_json(render), ensure_ascii=False, indent=2))
    else:
        _print_report(result, names, glyphs, render, lines.append)
    if out is None:
        for line in lines:
            typer.echo(line)
        return OK
    return _save(out, "".join(line + "\n" for line in lines), lang)


def _save(out: Path, text: str, lang: str) -> int:
    """Write the review to ``out`` (a file whole or not at all; a link followed, a device written directly)."""
    from corazones.services.files import output_kind, save_atomic

    _ = translator(lang).gettext
    shown = safe_line(str(out), 200)
    try:
        save_atomic(out, text)
    except OSError as e:
        typer.echo(
            _("Could not write the review to {path}: {error}").format(path=shown, error=os_reason_text(_, e)),
            err=True,
        )
        return FAILED
    try:
        on_disk = output_kind(out) == "file"
    except OSError:
        on_disk = False
    if on_disk:
        typer.echo(_("Review written to {path}").format(path=shown))
    return OK


def _with_progress(rec: dict[str, Any], seats: list[int] | None, worlds: int, pass_worlds: int, lang: str) -> Review:
    """The review, with a bar on standard error when that is a terminal (scripts see nothing there)."""
    if not sys.stderr.isatty():
        return review_record(rec, seats, worlds=worlds, pass_worlds=pass_worlds)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    gettext = translator(lang).gettext
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(gettext(N_("reviewing decisions")), total=None)

        def tick(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return review_record(rec, seats, worlds=worlds, pass_worlds=pass_worlds, progress=tick)


def _renderer(names: Seats, glyphs: bool) -> Callable[[tuple[Reason, ...]], str]:
    _ = translator(names.lang).gettext

    def render(reasons: tuple[Reason, ...]) -> str:
        parts = [
            r.format(
                _, card=lambda c: card_text(c, glyphs), seat=names.__getitem__, suit=lambda s: suit_text(s, glyphs)
            )
            for r in reasons
        ]
        return "; ".join(parts)

    return render


def action_text(a: Action, names: Seats, glyphs: bool) -> str:
    """An option as the report shows it: ``Q♠``, ``pass A♥ K♥ Q♠``, ``bid 3``, ``no bid``, ``name ♠``, the moon choice.

    A bid is worded as the replay viewer words it: a bare amount ("2 ... better 0") reads as anything but a bid.
    """
    _ = translator(names.lang).gettext
    if a.kind is Kind.PLAY:
        return card_text(a.cards[0], glyphs)
    if a.kind is Kind.PASS:
        return _("pass {cards}").format(cards=" ".join(card_text(c, glyphs) for c in a.cards))
    if a.kind is Kind.BID:
        return _("bid {n}").format(n=a.value) if a.value else _("no bid")
    if a.kind is Kind.DECLARE and isinstance(a.value, int):
        return _("name {suit}").format(suit=suit_text(a.value, glyphs))
    return word(names.lang, str(a.value))


def _where(d: DecisionReview, lang: str) -> str:
    _ = translator(lang).gettext
    if d.trick is None:
        return _("hand {hand}").format(hand=d.hand)
    return _("hand {hand}, trick {trick}").format(hand=d.hand, trick=d.trick)


def _line(d: DecisionReview, names: Seats, glyphs: bool, render: Callable[[tuple[Reason, ...]], str]) -> str:
    _ = translator(names.lang).gettext
    label = _(LABEL_WORDS[d.label]) if d.label else ""
    head = _("{where}, {who}: {chosen} ({label}, {loss:.1f} lost); better {best}").format(
        where=_where(d, names.lang),
        who=names[d.seat],
        chosen=action_text(d.chosen, names, glyphs),
        label=label,
        loss=d.loss,
        best=action_text(d.best, names, glyphs),
    )
    return f"{head}\n    {render(d.why)}"


def _print_report(
    result: Review,
    names: Seats,
    glyphs: bool,
    render: Callable[[tuple[Reason, ...]], str],
    echo: Callable[[str], object] = typer.echo,
) -> None:
    _ = translator(names.lang).gettext
    unit = _("chips") if result.units == "chips" else _("points")
    echo(
        _("Review: {worlds} sampled deals per option ({pass_worlds} per pass); losses in expected {unit}.").format(
            worlds=result.worlds, pass_worlds=result.pass_worlds, unit=unit
        )
    )
    marked = [d for d in result.decisions if d.label]
    if not marked:
        echo(_("No decision lost enough to be marked."))
    for d in marked:
        echo(_line(d, names, glyphs, render))
    echo("")
    for s in result.summary:
        counts = ", ".join(f"{_(LABEL_WORDS[name])} {s.labels.get(name, 0)}" for name, _share in LABELS)
        echo(
            _("{who}: {decisions} decisions, mean loss {mean:.2f}, {total:.1f} lost in all ({counts})").format(
                who=names[s.seat], decisions=s.decisions, mean=s.mean_loss, total=s.total_loss, counts=counts
            )
        )
        for d in s.worst:
            echo(
                "  "
                + _("worst: {where}, {chosen} for {best} ({loss:.1f})").format(
                    where=_where(d, names.lang),
                    chosen=action_text(d.chosen, names, glyphs),
                    best=action_text(d.best, names, glyphs),
                    loss=d.loss,
                )
            )
