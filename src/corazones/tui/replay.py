"""The replay viewer: a game record step by step, every hand open (a record holds the seed, so nothing is hidden).

Keys: → / ← one action, ↓ / ↑ one trick, n / p one hand, Home / End, s the
score sheet, q leaves.  The position after action ``k`` is rebuilt by
replaying the record's first ``k`` actions (each validated) on a fresh game,
which is exact and fast enough for any record.

Review (:mod:`corazones.tui.review`): r runs the review of the record in a
process of its own, waited for by a Textual thread worker
(:mod:`corazones.tui.review_process`): the screen keeps answering, the
progress shows under the table and r again stops it at once.  o opens a
review saved by ``corazones review --json --out FILE``.  Then every reviewed
decision shows its mark under the move, m / M go to the next / previous
marked decision and v shows each seat's summary.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import Worker, get_current_worker

from corazones.core.game import Game
from corazones.core.records import action_of, rules_of, seed_of
from corazones.core.replay import rebuild, rebuild_steps
from corazones.core.text import NAME_LIMIT, safe_line
from corazones.players.review import PASS_WORLDS, WORLDS
from corazones.tui.dialogs import ScoreSheet, chips_game
from corazones.tui.review import (
    OpenReview,
    ReviewMarks,
    ReviewSummary,
    budget_text,
    from_review,
    load_error,
    mark_text,
    read_review,
)
from corazones.tui.review_process import review_elsewhere
from corazones.tui.table import move_text
from corazones.tui.texts import _, direction, ngettext, preset_title, said, seat_name, suit_name
from corazones.tui.widgets import card_label, cards_label, ink, key_lines, sort_hand

#: The width of the review's progress bar, in cells.
BAR = 20


class ReplayScreen(Screen[None]):
    """A record step by step, with a review's marks when one was run or opened.

    ``budget`` is the review's sampled deals per option and per pass,
    ``review_seats`` the seats it reviews (``None``: every seat),
    ``review_file`` a saved review to open at once and ``source`` the
    record's file (it suggests the saved review's name).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", show=False),
        Binding("left", "step(-1)", show=False),
        Binding("down", "trick(1)", show=False),
        Binding("up", "trick(-1)", show=False),
        Binding("n", "hand(1)", show=False),
        Binding("p", "hand(-1)", show=False),
        Binding("home", "goto(0)", show=False),
        Binding("end", "goto(-1)", show=False),
        Binding("s", "sheet", show=False),
        Binding("k", "colours", show=False),
        Binding("l", "app.language", show=False),
        Binding("r", "review", show=False),
        Binding("o", "open_review", show=False),
        Binding("m", "mark(1)", show=False),
        Binding("M", "mark(-1)", show=False),
        Binding("v", "summary", show=False),
        Binding("q", "leave", show=False),
        Binding("escape", "leave", show=False),
    ]

    def __init__(
        self,
        record: dict[str, Any],
        four: bool = False,
        *,
        budget: tuple[int, int] = (WORLDS, PASS_WORLDS),
        review_seats: list[int] | None = None,
        review_file: str | None = None,
        source: str | None = None,
    ) -> None:
        super().__init__()
        self.budget = budget
        self.review_seats = review_seats
        self.review_file = review_file
        self.source = source
        self.review: ReviewMarks | None = None
        self.reviewing = False
        self.progress = (0, 0)  # decisions reviewed, of how many (0: still counting)
        self.review_gen = 0  # bumped when a review starts or stops: a stopped worker's news is ignored
        self.review_worker: Worker[None] | None = None
        self.review_thread: int | None = None  # the thread that waited for the last review (never the screen's)
        self.review_pid: int | None = None  # the process the last review ran in (never the app's)
        self.note: tuple[str, str] | None = None  # a passing word under the table, and its style
        self.record = record
        self.rules = rules_of(record)
        self.seed = seed_of(record)
        self.actions = [action_of(a, i + 1, self.rules.players) for i, a in enumerate(record["actions"])]
        names = record.get("players") or [f"seat {i}" for i in range(self.rules.players)]
        self.raw_names = [safe_line(str(x), NAME_LIMIT) for x in names]
        self.four = four
        self.pos = 0
        # hand and trick boundaries, found once by replaying the whole record
        self.marks: list[tuple[int, int]] = []  # (hand_index, tricks completed) after each action
        g = Game(self.rules, self.seed)
        self.marks.append((0, 0))
        for step in rebuild_steps(self.rules, self.seed, self.actions):
            g = step.game
            self.marks.append((g.hand_index, len(g.deal.tricks)))
        self.final = g

    @property
    def names(self) -> list[str]:
        """The seats' names as every face shows them (:func:`~corazones.tui.texts.seat_name`), in the language shown."""
        return [seat_name(x, i) for i, x in enumerate(self.raw_names)]

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with VerticalScroll(id="replay-body"):
            yield Static(id="seats")
        yield Static(id="review-status")
        yield Static(id="keys")

    def on_mount(self) -> None:
        if self.review_file:
            self.load_review(self.review_file)
        self.redraw()

    def relabel(self) -> None:
        self.redraw()

    def game_at(self, k: int) -> Game:
        return rebuild(self.rules, self.seed, self.actions[:k])

    def redraw(self) -> None:
        k = self.pos
        g = self.game_at(k)
        d = g.deal
        r = self.rules
        header = Text()
        header.append("Corazones", style=ink("bold red"))
        header.append(" · " + _("replay") + f" · {preset_title(r.name)} · ")
        hand = len(g.history) if g.over else g.hand_index + 1  # at the end, the last hand played (none follows)
        header.append(_("hand {n}").format(n=hand) + " · ")
        header.append(_("action {k} of {n}").format(k=k, n=len(self.actions)))
        header.append(" · " + _("seed {seed}").format(seed=self.seed))
        self.query_one("#header", Static).update(header)
        lines: list[Text] = []
        if g.over:
            lines.append(
                Text(
                    _("Game over. Winners: {who}").format(who=", ".join(self.names[w] for w in g.winners)), style="bold"
                )
            )
        else:
            info = _("Dealer: {who}").format(who=self.names[d.dealer])
            if r.has_passing:
                info += " · " + _("Pass: {direction}").format(direction=direction(d.pass_direction))
            if d.declarer is not None and d.phase not in ("bid", "declare"):
                info += " · " + _("{who} named {suit}").format(
                    who=self.names[d.declarer], suit=suit_name(d.penalty_suit)
                )
            lines.append(Text(info))
        if k:
            last = Text(
                _("Last: {who} — {move}").format(
                    who=self.names[self.actions[k - 1].seat], move=move_text(self.actions[k - 1])
                ),
                style="italic",
            )
            lines.append(last)
            reviewed = self.review.at(k - 1) if self.review is not None else None
            if reviewed is not None:
                lines.append(mark_text(reviewed, self.names))
        trick = dict(zip(d.trick_seats, d.trick_cards)) if not g.over else {}
        width = max(len(n) for n in self.names) + 2
        chips = chips_game(r)
        for s in range(r.players):
            t = Text(self.names[s].ljust(width), style="bold")
            if not g.over:
                t.append_text(cards_label(sort_hand(d.hand(s)), self.four))
            if s in trick:
                t.append("   ▶ ")
                t.append_text(card_label(trick[s], self.four, bold=True))
            pts = d.pts[s] if not g.over else 0
            total = g.chips[s] if chips else g.scores[s]
            t.append("   " + ngettext("{n} pt", "{n} pts", pts).format(n=pts))
            t.append("  " + (_("chips {n}") if chips else _("score {n}")).format(n=total), style="dim")
            lines.append(t)
        if d.kitty and not g.over:
            kt = Text(_("Kitty: "))
            kt.append_text(cards_label(sorted(d.kitty), self.four))
            lines.append(kt)
        if d.tricks and not g.over:
            tr = d.tricks[-1]
            t = Text(_("Last trick: "))
            for i, (s, c) in enumerate(tr.plays):
                if i:
                    t.append("  ")
                t.append(self.names[s] + " ")
                t.append_text(card_label(c, self.four))
            who = self.names[tr.winner] if tr.winner is not None else _("nobody (cancelled)")
            t.append("  → " + who)
            lines.append(t)
        self.query_one("#seats", Static).update(Text("\n").join(lines))
        self.query_one("#review-status", Static).update(self.status_text())
        pairs = [("←→", _("action")), ("↑↓", _("trick")), ("n p", _("hand")), ("s", _("scores"))]
        if self.reviewing:
            pairs.append(("r", _("stop the review")))
        elif self.review is None:
            pairs += [("r", _("review")), ("o", _("open a review"))]
        else:
            pairs += [("m M", _("marks")), ("v", _("summary")), ("r", _("review again"))]
        pairs.append(("q", _("leave")))
        self.query_one("#keys", Static).update(key_lines(pairs, self.app.size.width - 2))

    def on_resize(self) -> None:
        self.redraw()

    def action_step(self, delta: int) -> None:
        self.note = None
        self.pos = max(0, min(len(self.actions), self.pos + delta))
        self.redraw()

    def action_goto(self, k: int) -> None:
        self.note = None
        self.pos = len(self.actions) if k < 0 else k
        self.redraw()

    def _jump(self, key: Any, delta: int) -> None:
        self.note = None
        here = key(self.marks[self.pos])
        k = self.pos
        while 0 <= k + delta <= len(self.actions):
            k += delta
            if key(self.marks[k]) != here:
                if delta < 0:  # go to the start of that earlier unit
                    there = key(self.marks[k])
                    while k > 0 and key(self.marks[k - 1]) == there:
                        k -= 1
                break
        self.pos = k
        self.redraw()

    def action_trick(self, delta: int) -> None:
        self._jump(lambda m: m, delta)

    def action_hand(self, delta: int) -> None:
        self._jump(lambda m: m[0], delta)

    def action_sheet(self) -> None:
        g = self.game_at(self.pos)
        self.app.push_screen(ScoreSheet(g.history, self.names, self.rules))

    def action_colours(self) -> None:
        self.four = not self.four
        self.redraw()

    # ------------------------------------------------------------ review
    def status_text(self) -> Text:
        """The line under the table: the review's progress, what it found, or a passing word."""
        t = Text()
        if self.reviewing:
            done, total = self.progress
            if total:
                filled = round(BAR * done / total)
                t.append(_("Reviewing:") + " ")
                t.append("█" * filled, style=ink("bold green"))
                t.append("░" * (BAR - filled), style="dim")
                t.append(" " + _("{done} of {total} decisions").format(done=done, total=total))
            else:
                t.append(_("Reviewing: finding the decisions…"))
        elif self.review is not None:
            marked = self.review.marked
            t.append(
                _("Review: {n} of {total} decisions marked").format(n=len(marked), total=len(self.review.decisions)),
                style="bold",
            )
            here = [i for i, d in enumerate(marked) if d.index == self.pos - 1]
            if here:
                t.append(" · " + _("mark {k} of {n}").format(k=here[0] + 1, n=len(marked)))
        if self.note is not None:
            if t:
                t.append(" · ")
            t.append(self.note[0], style=ink(self.note[1]))
        return t

    def say(self, text: str, style: str = "") -> None:
        self.note = (text, style)
        self.redraw()

    def action_review(self) -> None:
        """Review the record in a process waited for by a thread worker, or stop the review running."""
        if self.reviewing:
            self.stop_review()
            self.say(_("Review stopped."))
            return
        self.review_gen += 1
        gen = self.review_gen
        self.reviewing = True
        self.progress = (0, 0)
        self.note = None
        record, seats = self.record, self.review_seats
        worlds, pass_worlds = self.budget

        def work() -> None:
            worker = get_current_worker()
            self.review_thread = threading.get_ident()

            def started(pid: int) -> None:
                self.review_pid = pid

            def tick(done: int, total: int) -> None:
                self._tell(self._review_progress, gen, done, total)

            try:
                result = review_elsewhere(
                    record, seats, worlds, pass_worlds, tick, lambda: worker.is_cancelled, started
                )
            except Exception as e:  # a review that fails is said, never left running in silence
                self._tell(self._review_failed, gen, e)
                return
            if result is not None:
                self._tell(self._review_done, gen, result)

        self.review_worker = self.run_worker(work, thread=True, group="review", exit_on_error=False)
        self.redraw()

    def _tell(self, callback: Any, *args: Any) -> None:
        """Run ``callback`` on the screen's thread; nothing if the app has gone meanwhile."""
        with contextlib.suppress(RuntimeError):  # the app stopped while the review ran
            self.app.call_from_thread(callback, *args)

    def stop_review(self) -> None:
        if self.review_worker is not None:
            self.review_worker.cancel()
        self.review_gen += 1
        self.reviewing = False

    def _review_progress(self, gen: int, done: int, total: int) -> None:
        if gen == self.review_gen:
            self.progress = (done, total)
            self.query_one("#review-status", Static).update(self.status_text())

    def _review_done(self, gen: int, result: Any) -> None:
        if gen != self.review_gen:
            return
        self.reviewing = False
        self.review = from_review(result)
        self.note = (budget_text(self.review), "dim")
        self.redraw()

    def _review_failed(self, gen: int, error: Exception) -> None:
        if gen != self.review_gen:
            return
        self.reviewing = False
        self.say(_("The review stopped: {error}").format(error=said(error)), "red")

    def load_review(self, path: str, quiet: bool = False) -> str | None:
        """Read a saved review of this record; the error to show, or None once its marks are shown.

        The error is also said under the table unless ``quiet`` (the open dialog says it itself).
        """
        try:
            marks = read_review(
                path, self.actions, self.marks[:-1], self.rules.players, "chips" if chips_game(self.rules) else "points"
            )
        except (OSError, ValueError, RecursionError) as e:
            error = load_error(e, path)
            if not quiet:
                self.note = (error, "red")
                if self.is_mounted:
                    self.redraw()
            return error
        if self.reviewing:
            self.stop_review()
        self.review = marks
        self.note = (budget_text(marks), "dim")
        if self.is_mounted:
            self.redraw()
        return None

    def action_open_review(self) -> None:
        suggested = ""
        if self.source:
            p = Path(self.source)
            suggested = str(p.with_name(p.stem + ".review.json"))
        self.app.push_screen(OpenReview(suggested, lambda path: self.load_review(path, quiet=True)))

    def _need_review(self) -> bool:
        if self.review is None:
            self.say(_("No review yet: r reviews the game, o opens a saved review."))
            return False
        return True

    def action_mark(self, delta: int) -> None:
        """Go to the next (``delta`` 1) or previous (-1) marked decision, the position just after it."""
        if not self._need_review():
            return
        assert self.review is not None
        after = [d.index + 1 for d in self.review.marked]
        there = [k for k in after if k > self.pos] if delta > 0 else [k for k in after if k < self.pos]
        if not there:
            self.say(_("No later marked decision.") if delta > 0 else _("No earlier marked decision."))
            return
        self.pos = there[0] if delta > 0 else there[-1]
        self.note = None
        self.redraw()

    def action_summary(self) -> None:
        if self._need_review():
            assert self.review is not None
            self.app.push_screen(ReviewSummary(self.review, self.names))

    def action_leave(self) -> None:
        self.stop_review()
        if len(self.app.screen_stack) > 2:
            self.dismiss(None)
        else:
            self.app.exit()
