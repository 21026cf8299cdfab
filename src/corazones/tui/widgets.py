"""Widgets of the table: the hand (keyboard and mouse), the seat boxes and card styling.

Every widget is given what to draw (cards from an observation, names, flags);
none of them can reach the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar, NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from corazones.core.cards import CARDS
from corazones.tui.texts import _, suit_glyph

#: Suit colours: two-colour (red hearts and diamonds) and four-colour decks.
TWO_COLOURS = ("", "red", "", "red")
FOUR_COLOURS = ("green", "dodger_blue1", "", "red")

_ink = {"mono": False}


def set_monochrome(on: bool) -> None:
    """Draw without colours of our own (the app sets it from ``NO_COLOR``, as Textual reads it).

    Under ``NO_COLOR`` Textual shows every colour as its grey: a red card
    would be a dark grey on the dark table, darker than the dimmed cards
    that cannot be played.  So cards take the text's colour, and what cannot
    be played is told by a grey with a line through it rather than by a hue.
    """
    _ink["mono"] = on


def ink(style: str) -> str:
    """``style`` as drawn: under ``NO_COLOR`` without its colours (bold, italic and the like kept)."""
    return str(Style.parse(style).without_color) if _ink["mono"] else style


def suit_colour(suit: int, four: bool) -> str:
    return "" if _ink["mono"] else (FOUR_COLOURS if four else TWO_COLOURS)[suit]


def unplayable_style() -> Style:
    """A card that cannot be played now: dimmed, and under ``NO_COLOR`` grey and struck through."""
    return Style(color="grey50", strike=True) if _ink["mono"] else Style(dim=True, color="grey50")


def card_label(card: int, four: bool = False, bold: bool = False) -> Text:
    """A card as rich text, coloured by suit."""
    style = suit_colour(card // 13, four)
    if bold:
        style = f"bold {style}".strip()
    return Text(CARDS[card].glyph(), style=style)


def cards_label(cards: Iterable[int], four: bool = False) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_label(c, four))
    return out


def penalty_line(pens: list[int], suit: int, four: bool, room: int = 20) -> Text:
    """The penalty cards a seat took, shortened to fit its box: many of the penalty suit become ``♥×8``."""
    full = cards_label(pens, four)
    if full.cell_len <= room:
        return full
    of_suit = [c for c in pens if c // 13 == suit]
    others = [c for c in pens if c // 13 != suit]
    out = cards_label(others, four)
    if of_suit:
        if others:
            out.append(" ")
        out.append(f"{suit_glyph(suit)}×{len(of_suit)}", style=suit_colour(suit, four) or None)
    return out


def sort_hand(cards: Iterable[int]) -> list[int]:
    """Grouped by suit in the order clubs, diamonds, spades, hearts (colours alternate), low to high."""
    return sorted(cards)


class HandView(Widget, can_focus=True):
    """The player's cards in one or more rows; a cursor moves with the arrows, Enter or a click picks."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("home", "move(-99)", show=False),
        Binding("end", "move(99)", show=False),
        Binding("enter", "pick", show=False),
        Binding("space", "pick", show=False),
    ]

    class Picked(Message):
        """A card was picked (Enter, space or a click)."""

        def __init__(self, index: int, card: int) -> None:
            super().__init__()
            self.index = index
            self.card = card

    class Resized(Message):
        """The hand's size changed (the window's, or the table's layout): a dialog docked above it follows."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[int] = []
        self.playable: set[int] | None = None  # None: every card looks available
        self.selected: set[int] = set()  # indexes (passing)
        self.marked: set[int] = set()  # cards just received
        self.cursor = 0
        self.four = False
        self._spots: list[tuple[int, int, int, int]] = []  # (row, x0, x1, index)

    def show(
        self,
        cards: Sequence[int],
        playable: set[int] | None = None,
        selected: Iterable[int] = (),
        marked: Iterable[int] = (),
        four: bool = False,
    ) -> None:
        new = sort_hand(cards)
        if new != self.cards:
            keep = self.cards[self.cursor] if self.cards and self.cursor < len(self.cards) else None
            self.cards = new
            self.cursor = new.index(keep) if keep in new else min(self.cursor, max(len(new) - 1, 0))
        self.playable = playable
        self.selected = set(selected)
        self.marked = set(marked)
        self.four = four
        if self.playable and self.cards and self.cards[self.cursor] not in self.playable:
            self.cursor = next((i for i, c in enumerate(self.cards) if c in self.playable), self.cursor)
        self.refresh(layout=True)

    def point_at(self, card: int) -> None:
        if card in self.cards:
            self.cursor = self.cards.index(card)
            self.refresh()

    # ------------------------------------------------------------- drawing
    def _layout(self, width: int) -> list[list[tuple[int, int]]]:
        """Rows of (index, width) that fit ``width``; suits stay together when they can."""
        rows: list[list[tuple[int, int]]] = [[]]
        x = 0
        prev_suit = None
        for i, c in enumerate(self.cards):
            w = len(CARDS[c].glyph()) + 2
            gap = 1 if prev_suit is not None and c // 13 != prev_suit else 0
            if x + gap + w > max(width, 8) and rows[-1]:
                rows.append([])
                x, gap = 0, 0
            rows[-1].append((i, gap))
            x += gap + w
            prev_suit = c // 13
        return rows

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[no-untyped-def]
        return max(1, len(self._layout(width)))

    def render(self) -> Text:
        width = self.content_size.width or 80
        text = Text()
        self._spots = []
        if not self.cards:
            return Text(_("(no cards)"), style="dim")
        for r, row in enumerate(self._layout(width)):
            if r:
                text.append("\n")
            x = 0
            for i, gap in row:
                c = self.cards[i]
                if gap:
                    text.append(" " * gap)
                    x += gap
                glyph = CARDS[c].glyph()
                style = Style.parse(suit_colour(c // 13, self.four) or "default")
                if self.playable is not None and c not in self.playable:
                    style = unplayable_style()
                if i in self.selected:
                    style += Style(bgcolor="yellow", color="black", bold=True)
                if c in self.marked:
                    style += Style(underline=True, bold=True)
                if i == self.cursor and self.has_focus and self.screen.is_active:  # not under a dialog's keys
                    style += Style(reverse=True)
                token = f" {glyph} "
                text.append(token, style=style)
                self._spots.append((r, x, x + len(token), i))
                x += len(token)
        return text

    # ------------------------------------------------------------- input
    def action_move(self, step: int) -> None:
        if not self.cards:
            return
        self.cursor = max(0, min(len(self.cards) - 1, self.cursor + step))
        self.refresh()

    def action_pick(self) -> None:
        if not self.cards:  # nothing to pick (the hand is played out): the screen's Enter/space goes on
            raise SkipAction()
        self.post_message(self.Picked(self.cursor, self.cards[self.cursor]))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for row, x0, x1, i in self._spots:
            if row == offset.y and x0 <= offset.x < x1:
                self.cursor = i
                self.focus()
                self.post_message(self.Picked(i, self.cards[i]))
                return

    def on_resize(self) -> None:
        self.post_message(self.Resized())

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class SeatView(NamedTuple):
    """What a seat box shows, in pieces: the box lays them out for its own width (:meth:`SeatBox.lines`)."""

    levels: tuple[str, ...]  # the level's names, the whole one first; () for your own seat
    held: Text  # "13 cards"
    points: Text  # "0 pts"
    kitty: Text  # "+kitty" when this seat took the kitty, else empty
    penalties: list[int]  # the penalty cards it took
    suit: int  # the penalty suit (many of it are shortened to ♥×8)
    four: bool
    card: Text  # its card in the trick (and "◀ takes it"), else empty
    thinking: bool  # a computer player deciding
    passed: bool  # passed its cards, which lie face down until everyone has passed
    passed_word: str
    thinking_word: str


class SeatBox(Static):
    """One seat at the table: its name in the border, its level, cards left, points, penalty cards, its card.

    The box lays its lines out for its own width when drawn, so every line is whole: a level too long for
    the box is given its shorter name ("searching shooter"), the penalty cards go where they fit, and
    nothing is cut to "cazador de l…" or "13 cards · passed · e…".
    """

    def __init__(self, seat: int, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=f"seat {classes}".strip())
        self.seat = seat
        self.view: SeatView | None = None
        self.compact = False

    def show(self, view: SeatView, compact: bool) -> None:
        self.view, self.compact = view, compact
        self.refresh()

    def render(self) -> Text:
        if self.view is None:
            return Text()
        return Text("\n").join(self.lines(self.content_size.width or 20))

    def lines(self, width: int) -> list[Text]:
        """The box's lines for ``width`` columns: three, or two in a compact box (a window under 30 lines).

        A computer player's box gives its first line to the level, which never changes, so it is always read
        whole; then cards left and points, then what the seat does now (its card in the trick, thinking,
        passed) or, when it does nothing, the kitty and penalty cards that did not fit beside the points.
        Your own box (no level) keeps cards left, points with the penalty cards, and your card.
        """
        v = self.view
        assert v is not None
        summary = Text.assemble(v.held, " · ", v.points)
        extras = self._extras(v, max(width - summary.cell_len - 1, 0))
        now = v.card.copy()
        if not now and v.thinking:
            now = Text(v.thinking_word, style="italic dim")
        elif not now and v.passed:
            now = Text(v.passed_word, style="dim")
        if not v.levels:  # your own seat
            if self.compact:
                return [Text.assemble(summary, " ", extras) if extras else summary, now]
            pts = v.points.copy()
            beside = self._extras(v, max(width - pts.cell_len - 1, 0))
            return [v.held, Text.assemble(pts, " ", beside) if beside else pts, now]
        level = Text(next((n for n in v.levels if cell_len(n) <= width), v.levels[-1]), style="dim")
        if self.compact:  # two lines: the level, then the card played, else cards left and points
            if v.card:
                second = now
            elif v.passed:
                second = Text.assemble(v.held, " · ", (v.passed_word, "dim"))
            else:
                second = Text.assemble(summary, " ", extras) if extras else summary
            return [level, second]
        if extras:
            return [level, Text.assemble(summary, " ", extras), now]
        return [level, summary, now or self._extras(v, width)]

    @staticmethod
    def _extras(v: SeatView, room: int) -> Text:
        """The kitty and the penalty cards in ``room`` columns (the penalty suit shortened if need be); or nothing."""
        out = v.kitty.copy()
        if v.penalties:
            if out:
                out.append(" ")
            out.append_text(penalty_line(v.penalties, v.suit, v.four, room=room - out.cell_len))
        return out if out.cell_len <= room else Text()


def key_lines(pairs: list[tuple[str, str]], width: int) -> Text:
    """The keys and what they do, ``key what`` kept together on a line: a narrow window breaks between pairs.

    Both the table and the replay viewer draw their keys line with it, so "f speed: normal" is never split
    across lines in either.
    """
    out = Text()
    used = 0
    for key, what in pairs:
        size = len(key) + 1 + len(what)
        if used:
            if used + 2 + size > width:
                out.append("\n")
                used = 0
            else:
                out.append("  ")
                used += 2
        out.append(key, style="bold")
        out.append(" " + what)
        used += size
    return out
