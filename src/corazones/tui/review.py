"""A game review as the replay viewer shows it: the reviewed decisions, each seat's summary, the dialogs.

A review comes either from :func:`corazones.players.review.review_record`
run in the viewer (:func:`from_review`: the reasons stay templates, drawn in
the language on screen) or from a file written by ``corazones review
--json`` (:func:`read_review`: the reasons are the text the command wrote,
in its language).  Either way each reviewed decision is tied to its action
in the record: a saved review names a decision by hand, trick, seat and the
action chosen, so :func:`read_review` walks the record and the review side
by side and refuses a review of another game, naming the first decision
that does not fit.

A file is read as records are (bounded in size, strict JSON) and every value
checked; the reasons are cleaned as names are (no escapes or controls,
clipped), so a tampered review can neither garble the screen nor crash it.
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Static

from corazones.core.actions import Action, Kind
from corazones.core.errors import CorazonesError, Count, Message, RecordError
from corazones.core.limits import MAX_RECORD_BYTES, parse_json
from corazones.core.records import action_of
from corazones.core.text import safe_line
from corazones.i18n import N_
from corazones.players.hints import Reason
from corazones.players.review import LABELS, Review
from corazones.tui.dialogs import Dialog
from corazones.tui.texts import _, card_text, ngettext, said, suit_glyph, suit_name
from corazones.tui.widgets import ink

#: The labels as the viewer words them, mildest first, and the style each is drawn in.
LABEL_WORDS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}
LABEL_STYLES = {"inaccuracy": "bold yellow", "mistake": "bold dark_orange", "blunder": "bold red"}
#: The longest reason read from a file, in characters.
WHY_LIMIT = 600


@dataclass(frozen=True, slots=True)
class Marked:
    """One reviewed decision: ``index`` is its action's place in the record (0-based), the rest as the review says.

    ``why`` is the reasons as templates (a review run here, drawn in the
    language on screen) or the text a saved review holds.
    """

    index: int
    hand: int
    trick: int | None
    seat: int
    chosen: Action
    best: Action
    loss: float
    label: str | None
    why: tuple[Reason, ...] | str


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat's summary: decisions, mean loss, the loss in all, each label's count, the worst three moments."""

    seat: int
    decisions: int
    mean_loss: float
    total_loss: float
    labels: dict[str, int]
    worst: tuple[Marked, ...]


@dataclass(frozen=True, slots=True)
class ReviewMarks:
    """A review tied to a record: its decisions in record order, a summary per reviewed seat.

    ``budget`` is the sampled deals per option and per pass when known (a
    review run here), ``source`` the file it was read from (``None``: run here),
    ``units`` what a loss counts (``points``, or ``chips`` under a chip settlement).
    """

    decisions: tuple[Marked, ...]
    summary: tuple[SeatLine, ...]
    budget: tuple[int, int] | None = None
    source: str | None = None
    units: str = "points"

    def at(self, index: int) -> Marked | None:
        """The reviewed decision made by action ``index`` (0-based), if any."""
        return next((d for d in self.decisions if d.index == index), None)

    @property
    def marked(self) -> list[Marked]:
        """The decisions with a label, in record order."""
        return [d for d in self.decisions if d.label]


def _line(seat: int, ds: Sequence[Marked], figures: tuple[int, float, float] | None = None) -> SeatLine:
    total = sum(d.loss for d in ds)
    decisions, mean, total = figures or (len(ds), total / len(ds) if ds else 0.0, total)
    labels = {name: sum(1 for d in ds if d.label == name) for name, _share in LABELS}
    worst = tuple(sorted((d for d in ds if d.loss > 0), key=lambda d: (-d.loss, d.index))[:3])
    return SeatLine(seat, decisions, mean, total, labels, worst)


def from_review(review: Review) -> ReviewMarks:
    """The marks of a review run on the record (its reasons stay templates, drawn in the language on screen)."""
    ds = tuple(
        Marked(d.index, d.hand, d.trick, d.seat, d.chosen, d.best, d.loss, d.label, d.why) for d in review.decisions
    )
    summary = tuple(
        SeatLine(
            s.seat,
            s.decisions,
            s.mean_loss,
            s.total_loss,
            dict(s.labels),
            tuple(m for w in s.worst for m in ds if m.index == w.index),
        )
        for s in review.summary
    )
    return ReviewMarks(ds, summary, (review.worlds, review.pass_worlds), None, review.units)


# ------------------------------------------------------------------ a saved review
def _bad(template: str, **params: Any) -> RecordError:
    return RecordError(template, **params)


def _number(value: Any, where: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise _bad(N_("{where}: {field} must be a number of at least 0"), where=where, field=field)
    return float(value)


def _whole(value: Any, where: Any, field: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise _bad(N_("{where}: {field} must be a whole number of at least {low}"), where=where, field=field, low=low)
    return value


def _plain(action: Action) -> dict[str, Any]:
    return {k: v for k, v in action.to_json().items() if k != "seat"}


def read_review(
    path: Path | str,
    actions: Sequence[Action],
    before: Sequence[tuple[int, int]],
    players: int,
    units: str = "points",
) -> ReviewMarks:
    """Read a review saved by ``corazones review --json`` and tie it to the record's ``actions``.

    ``before[i]`` is ``(hand index, tricks completed)`` just before action
    ``i``.  Raises ``OSError`` when the file cannot be read and
    :class:`RecordError` (a translatable message) when it is not a review of
    this record: not JSON, a missing or wrong field, or a decision that is
    not the record's next one.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a named pipe must not hang the screen
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _bad(N_("not a file: a review is read from a file written by corazones review --json --out"))
        if st.st_size > MAX_RECORD_BYTES:
            raise _bad(
                N_("{what} is {size} bytes; at most {most} are read"),
                what=Message(N_("a review")),
                size=Count(st.st_size),
                most=Count(MAX_RECORD_BYTES),
            )
        raw = f.read(MAX_RECORD_BYTES + 1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _bad(N_("not UTF-8 text")) from None
    data = parse_json(text, Message(N_("a review")), MAX_RECORD_BYTES)
    if not isinstance(data, dict) or not isinstance(data.get("decisions"), list):
        raise _bad(
            N_("not a review: the top level must be an object with a list of decisions (corazones review --json)")
        )
    out: list[Marked] = []
    k = 0  # the next action of the record a decision may be
    for n, item in enumerate(data["decisions"], 1):
        where = Message(N_("decision {n}"), n=n)
        if not isinstance(item, dict):
            raise _bad(N_("{where} must be an object"), where=where)
        missing = [
            f for f in ("hand", "trick", "seat", "kind", "chosen", "best", "loss", "label", "why") if f not in item
        ]
        if missing:
            raise _bad(N_("{where} lacks {fields}"), where=where, fields=", ".join(missing))
        hand = _whole(item["hand"], where, "hand", 1)
        trick = None if item["trick"] is None else _whole(item["trick"], where, "trick", 1)
        seat = item["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise _bad(N_("{where}: seat must be a number from 0 to {last}"), where=where, last=players - 1)
        loss = _number(item["loss"], where, "loss")
        label = item["label"]
        if label is not None and label not in LABEL_WORDS:
            raise _bad(N_("{where}: label must be null or one of {labels}"), where=where, labels=", ".join(LABEL_WORDS))
        why = item["why"]
        if not isinstance(why, str):
            raise _bad(N_("{where}: why must be text"), where=where)
        chosen, best = item["chosen"], item["best"]
        if not isinstance(chosen, dict) or not isinstance(best, dict):
            raise _bad(
                N_("{where}: chosen and best must be actions like {example}"), where=where, example='{"play": "QS"}'
            )
        try:
            best_action = action_of({**best, "seat": seat}, n)
        except RecordError as e:
            raise _bad(N_("{where}: best: {error}"), where=where, error=e.params.get("error", e)) from None
        while k < len(actions):
            a = actions[k]
            hand_index, tricks = before[k]
            k += 1
            if (
                a.seat == seat
                and a.kind.value == item["kind"]
                and _plain(a) == chosen
                and hand_index + 1 == hand
                and (tricks + 1 if a.kind is Kind.PLAY else None) == trick
            ):
                out.append(Marked(k - 1, hand, trick, seat, a, best_action, loss, label, safe_line(why, WHY_LIMIT)))
                break
        else:
            raise _bad(
                N_(
                    "{where} (hand {hand}, seat {seat}) is not a decision of this game: the review is of another record"
                ),
                where=where,
                hand=hand,
                seat=seat,
            )
    figures: dict[int, tuple[int, float, float]] = {}
    summary = data.get("summary", [])
    if not isinstance(summary, list):
        raise _bad(N_("the summary must be a list"))
    for n, s in enumerate(summary, 1):
        where = Message(N_("summary {n}"), n=n)
        seat = s.get("seat") if isinstance(s, dict) else None
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise _bad(N_("{where} must be an object with a seat from 0 to {last}"), where=where, last=players - 1)
        figures[seat] = (
            _whole(s.get("decisions"), where, "decisions"),
            _number(s.get("mean_loss"), where, "mean_loss"),
            _number(s.get("total_loss"), where, "total_loss"),
        )
    seats = sorted(set(figures) | {d.seat for d in out})
    lines = tuple(_line(s, [d for d in out if d.seat == s], figures.get(s)) for s in seats)
    return ReviewMarks(tuple(out), lines, None, str(path), units)


# ------------------------------------------------------------------ words
def option_text(a: Action) -> str:
    """An option as a mark names it: ``Q♠``, ``pass A♥ K♥ Q♠``, ``bid 3``, ``name ♠``, the moon choice."""
    if a.kind is Kind.PLAY:
        return card_text(a.cards[0])
    if a.kind is Kind.PASS:
        return _("pass {cards}").format(cards=" ".join(card_text(c) for c in a.cards))
    if a.kind is Kind.BID:
        return _("no bid") if not a.value else _("bid {n}").format(n=a.value)
    if a.kind is Kind.DECLARE:
        assert isinstance(a.value, int)
        return _("name {suit}").format(suit=suit_name(a.value))
    if a.value == "add_to_others":
        return _("add to the others")
    return _("subtract from yourself")


def why_text(d: Marked, names: Sequence[str]) -> str:
    """The reasons in the language on screen (a saved review's text as it was written)."""
    if isinstance(d.why, str):
        return d.why
    return "; ".join(r.format(_, card=card_text, seat=lambda s: names[s], suit=suit_glyph) for r in d.why)


def where_text(d: Marked) -> str:
    if d.trick is None:
        return _("hand {hand}").format(hand=d.hand)
    return _("hand {hand}, trick {trick}").format(hand=d.hand, trick=d.trick)


def mark_text(d: Marked, names: Sequence[str]) -> Text:
    """The decision's mark: its label (or none), the choice and the better one, the loss, then why."""
    t = Text()
    if d.label:
        t.append(_(LABEL_WORDS[d.label]).capitalize(), style=ink(LABEL_STYLES[d.label]))
    else:
        t.append(_("No mark"), style=ink("bold green"))
    if d.chosen == d.best:
        t.append(" · " + _("{chosen} was the best choice").format(chosen=option_text(d.chosen)))
    else:
        t.append(
            " · " + _("chose {chosen}, better {best}").format(chosen=option_text(d.chosen), best=option_text(d.best))
        )
    t.append(" · " + _("{loss:.1f} lost").format(loss=d.loss))
    why = why_text(d, names)
    if why:
        t.append("\n")
        t.append(_("Why: {why}").format(why=why), style="italic")
    return t


def summary_lines(marks: ReviewMarks, names: Sequence[str]) -> list[Text]:
    """Each reviewed seat: decisions, mean loss, loss in all, the labels, then its worst three moments."""
    out: list[Text] = []
    for s in marks.summary:
        head = Text(names[s.seat], style="bold")
        head.append(
            " · "
            + ngettext("{n} decision", "{n} decisions", s.decisions).format(n=s.decisions)
            + " · "
            + _("mean loss {mean:.2f}").format(mean=s.mean_loss)
        )
        out.append(head)
        counts = Text("  " + _("{total:.1f} lost in all").format(total=s.total_loss))
        for name, _share in LABELS:
            counts.append(" · ")
            counts.append(f"{_(LABEL_WORDS[name])} {s.labels.get(name, 0)}", style=ink(LABEL_STYLES[name]))
        out.append(counts)
        for d in s.worst:
            out.append(
                Text(
                    "  "
                    + _("worst: {where}, {chosen} for {best} ({loss:.1f})").format(
                        where=where_text(d), chosen=option_text(d.chosen), best=option_text(d.best), loss=d.loss
                    )
                )
            )
    return out


# ------------------------------------------------------------------ dialogs
class ReviewSummary(Dialog):
    """Each reviewed seat's summary (v in the replay viewer)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("v", "close", show=False), Binding("enter", "close", show=False)]

    def __init__(self, marks: ReviewMarks, names: Sequence[str]) -> None:
        super().__init__()
        self.marks = marks
        self.names = list(names)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(_("Review summary"), classes="title")
            with VerticalScroll(id="review-summary"):
                yield Static(Text("\n").join(summary_lines(self.marks, self.names)))
            yield Static(budget_text(self.marks), classes="dim")
            yield Button(_("Close"), id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


def budget_text(marks: ReviewMarks) -> str:
    """Where the review came from: its budget (run here) or its file."""
    if marks.budget is not None:
        worlds, pass_worlds = marks.budget
        text = (
            _("{worlds} sampled deals per option ({pass_worlds} per pass); losses in expected chips.")
            if marks.units == "chips"
            else _("{worlds} sampled deals per option ({pass_worlds} per pass); losses in expected points.")
        )
        return text.format(worlds=worlds, pass_worlds=pass_worlds)
    return _("Read from {file}.").format(file=safe_line(marks.source or "", 200))


class OpenReview(Dialog):
    """Asks for the file of a saved review (``corazones review --json --out FILE``) and reads it with ``load``.

    ``load(path)`` returns the error to show, or ``None`` when the review was read (the dialog then closes).
    """

    def __init__(self, suggested: str, load: Callable[[str], str | None]) -> None:
        super().__init__()
        self.suggested = suggested
        self.load = load

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(_("Open a saved review"), classes="title")
            yield Static(_("A file written by: corazones review RECORD --json --out FILE"), markup=False)
            yield Input(value=self.suggested, id="review-path")
            yield Static(id="review-error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(_("Open"), id="open", variant="primary")
                yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#review-path", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._open()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "open":
            self._open()
        else:
            self.dismiss(None)

    def _open(self) -> None:
        path = self.query_one("#review-path", Input).value.strip()
        if not path:
            self.query_one("#review-error", Static).update(_("Give the review's file."))
            return
        error = self.load(path)
        if error is None:
            self.dismiss(path)
        else:
            self.query_one("#review-error", Static).update(Text(error, style=ink("red")))


def load_error(e: Exception, path: str) -> str:
    """Why a review file could not be read, in the language on screen."""
    from corazones.i18n.oserrors import os_reason_text

    shown = safe_line(path, 200)
    if isinstance(e, OSError):
        return _("{file}: {error}").format(file=shown, error=os_reason_text(_, e))
    if isinstance(e, CorazonesError):
        return _("{file}: {error}").format(file=shown, error=said(e))
    return _("{file}: {error}").format(file=shown, error=safe_line(str(e), 300))
