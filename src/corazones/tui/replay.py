"""The replay viewer: a game record step by step, every hand open (a record holds the seed, so nothing is hidden).

Keys: → / ← one action, ↓ / ↑ one trick, n / p one hand, Home / End, s the
score sheet, q leaves.  The position after action ``k`` is rebuilt by
replaying the record's first ``k`` actions (each validated) on a fresh game,
which is exact and fast enough for any record.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from corazones.core.game import Game
from corazones.core.records import action_of, rules_of, seed_of
from corazones.core.replay import rebuild, rebuild_steps
from corazones.core.text import NAME_LIMIT, safe_line
from corazones.tui.dialogs import ScoreSheet, chips_game
from corazones.tui.table import move_text
from corazones.tui.texts import _, direction, ngettext, suit_name
from corazones.tui.widgets import card_label, cards_label, sort_hand


class ReplayScreen(Screen[None]):
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
        Binding("q", "leave", show=False),
        Binding("escape", "leave", show=False),
    ]

    def __init__(self, record: dict[str, Any], four: bool = False) -> None:
        super().__init__()
        self.record = record
        self.rules = rules_of(record)
        self.seed = seed_of(record)
        self.actions = [action_of(a, i + 1) for i, a in enumerate(record["actions"])]
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
        """The seats' names; a record's default ``seat 0`` … is said in the language shown (``asiento 0``)."""
        return [_("seat {n}").format(n=i) if x == f"seat {i}" else x for i, x in enumerate(self.raw_names)]

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with VerticalScroll(id="replay-body"):
            yield Static(id="seats")
        yield Static(id="keys")

    def on_mount(self) -> None:
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
        header.append("Corazones", style="bold red")
        header.append(" · " + _("replay") + f" · {r.name} · ")
        header.append(_("hand {n}").format(n=g.hand_index + 1) + " · ")
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
            if d.declarer is not None:
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
        keys = Text()
        for i, (key, what) in enumerate(
            [("←→", _("action")), ("↑↓", _("trick")), ("n p", _("hand")), ("s", _("scores")), ("q", _("leave"))]
        ):
            if i:
                keys.append("  ")
            keys.append(key, style="bold")
            keys.append(" " + what)
        self.query_one("#keys", Static).update(keys)

    def action_step(self, delta: int) -> None:
        self.pos = max(0, min(len(self.actions), self.pos + delta))
        self.redraw()

    def action_goto(self, k: int) -> None:
        self.pos = len(self.actions) if k < 0 else k
        self.redraw()

    def _jump(self, key: Any, delta: int) -> None:
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

    def action_leave(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.dismiss(None)
        else:
            self.app.exit()
