"""The table: the hand, the other seats around it, the trick, and the flow of the game.

Everything drawn here comes from the human seat's observation
(``controller.observation()``) and the public tricks the controller kept from
earlier observations.  Bots think in Textual thread workers, so the screen
keeps answering while the expert searches; a generation counter discards the
answer of a bot whose position was undone meanwhile.

Pace: after a bot's move the screen waits the speed's delay (less the time the
bot took to think), and a finished trick stays on the table for the speed's
pause or until space/Enter is pressed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar, NamedTuple

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Static

from corazones.core.actions import Action, Kind
from corazones.core.errors import CorazonesError
from corazones.core.observation import Observation
from corazones.core.text import safe_line
from corazones.core.trick import Trick
from corazones.i18n.oserrors import os_reason_text
from corazones.players.hints import Hint, suggest
from corazones.services.files import output_kind
from corazones.tui import settings as cfg
from corazones.tui.controller import Controller, Outcome, penalty_cards, taken_cards, waiting_cards
from corazones.tui.dialogs import (
    BidDialog,
    DecisionDialog,
    DeclareDialog,
    GameOver,
    HandSummary,
    MoonDialog,
    RulesHelp,
    ScoreSheet,
    bids_text,
    chips_game,
    chips_in_play,
)
from corazones.tui.reasons import why_not
from corazones.tui.texts import (
    SPEEDS,
    _,
    card_text,
    direction,
    level_names,
    ngettext,
    preset_title,
    said,
    suit_glyph,
    suit_name,
    teams_text,
)
from corazones.tui.widgets import HandView, SeatBox, SeatView, card_label, cards_label, ink, key_lines

#: The smallest window the table is laid out for, at every player count (columns, lines).
MIN_SIZE = (80, 24)
#: Below this many lines the seat boxes take two lines instead of three (8 players fit at 80×24).
COMPACT_BELOW = 30


#: The most seats across the top: five boxes of the smallest width fill 80 columns, four leave room for their words.
TOP_MOST = 4


class SeatLayout(NamedTuple):
    """Where the other seats sit, clockwise from the viewer's left.

    ``beside_left`` and ``beside_right`` sit on your row, at its ends (with
    ten or eleven players, so that the top row keeps at most
    :data:`TOP_MOST` boxes); the left column is listed top to bottom (the
    seat on the viewer's left lowest), the top row left to right, the right
    column top to bottom.
    """

    left: list[int]
    top: list[int]
    right: list[int]
    beside_left: list[int]
    beside_right: list[int]


def arrange(players: int, viewer: int) -> SeatLayout:
    """The other seats around the table, clockwise from the viewer's left (see :class:`SeatLayout`)."""
    others = [(viewer + k) % players for k in range(1, players)]
    if len(others) == 2:
        return SeatLayout([others[0]], [], [others[1]], [], [])
    side = 1 if len(others) <= 5 else 2
    beside = 1 if len(others) - 2 * side > TOP_MOST else 0
    low_left, low_right = others[:beside], others[len(others) - beside :]
    others = others[beside : len(others) - beside]
    left = others[:side]
    top = others[side : len(others) - side]
    right = others[len(others) - side :]
    return SeatLayout(left[::-1], top, right, low_left, low_right)


def hint_text(hint: Hint, names: list[str]) -> str:
    """The hint in the current language: the move, then its reasons, with cards and names as the table shows them."""
    text = hint.text(gettext=_, card=card_text, seat=lambda s: names[s], suit=suit_glyph)
    return _("Hint: {text}").format(text=text)


def move_text(action: Action) -> str:
    """What a seat did, as the replay tells it ("plays Q♠")."""
    k = action.kind
    if k is Kind.PLAY:
        return _("plays {card}").format(card=card_text(action.cards[0]))
    if k is Kind.PASS:
        return _("passes {cards}").format(cards=" ".join(card_text(c) for c in action.cards))
    if k is Kind.BID:
        return _("does not bid") if not action.value else _("bids {n}").format(n=action.value)
    if k is Kind.DECLARE:
        assert isinstance(action.value, int)
        return _("names {suit}").format(suit=suit_name(action.value))
    if action.value == "add_to_others":
        return _("adds the moon's points to the others")
    return _("subtracts the moon's points from their own score")


class TableScreen(Screen[None]):
    """One game at the table; dismissed when the player leaves it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", show=False),
        Binding("question_mark", "hint", show=False),
        Binding("u", "undo", show=False),
        Binding("c", "claim", show=False),
        Binding("s", "sheet", show=False),
        Binding("w", "save", show=False),
        Binding("f", "speed", show=False),
        Binding("k", "colours", show=False),
        Binding("l", "language", show=False),
        Binding("r", "rules", show=False),
        Binding("p", "pass_cards", show=False),
        Binding("q", "leave", show=False),
        Binding("space", "go_on", show=False),
        Binding("enter", "go_on", show=False),
    ]

    def __init__(self, ctl: Controller, settings: cfg.Settings) -> None:
        super().__init__()
        self.ctl = ctl
        self.settings = settings
        self.gen = 0  # bumped by undo: a bot's answer from before is dropped
        self.leave_unsaved = False  # q was pressed once on a game that could not be saved
        self.thinking = False
        self.pausing = False
        self.pause_timer: Timer | None = None
        self.step_timer: Timer | None = None
        self.shown_trick: Trick | None = None
        self.pending_hand: Outcome | None = None
        self.selected: set[int] = set()
        self.selected_for: tuple[int, int] | None = None
        self.message: Text | str = ""
        self.record_path: Path | None = None
        self.dialog_open = False
        self.hint_busy = False
        self.record_copy: str | None = None  # where --record was written at the end
        self.passed_note: Text | None = None  # "You passed …", kept until the cards received are named
        self.compact = False  # seat boxes of two lines (a window under COMPACT_BELOW lines)

    # ------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        n = self.ctl.rules.players
        seats = arrange(n, self.ctl.viewer)
        yield Static(id="header")
        with Horizontal(id="top"):
            for s in seats.top:
                yield SeatBox(s, id=f"seat{s}")
        with Horizontal(id="middle"):
            with Vertical(id="left", classes="side"):
                for s in seats.left:
                    yield SeatBox(s, id=f"seat{s}")
            yield Static(id="center")
            with Vertical(id="right", classes="side"):
                for s in seats.right:
                    yield SeatBox(s, id=f"seat{s}")
        with Horizontal(id="bottom"):
            # ten or eleven players: a seat at each end of your row, under the side columns
            for s in seats.beside_left:
                yield SeatBox(s, id=f"seat{s}", classes="beside")
                yield Static(classes="spacer")
            yield SeatBox(self.ctl.viewer, id=f"seat{self.ctl.viewer}")
            for s in seats.beside_right:
                yield Static(classes="spacer")
                yield SeatBox(s, id=f"seat{s}", classes="beside")
        yield Static(id="message")
        with Horizontal(id="handrow"):
            yield HandView(id="hand")
            yield Button(_("Pass"), id="passbtn", variant="primary")
        yield Static(id="keys")
        yield Static(id="toosmall")

    def on_resize(self, event: events.Resize) -> None:
        """Fit the window: compact seats below 30 lines, and a plain request below the smallest usable size."""
        width, height = event.size.width, event.size.height
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        compact = height < COMPACT_BELOW
        was_small = self.has_class("-toosmall")
        self.set_class(small, "-toosmall")
        if was_small and not small and self.focused is None:
            self.query_one(HandView).focus()  # hidden while the window was too small, the hand lost the keys
        self.query_one("#toosmall", Static).update(
            _("Make the window at least {w}×{h} (it is {width}×{height}).").format(
                w=MIN_SIZE[0], h=MIN_SIZE[1], width=width, height=height
            )
            if small
            else ""
        )
        if compact != self.compact:
            self.compact = compact
            self.set_class(compact, "-compact")
            self.query_one("#passbtn", Button).compact = compact
        if self.query("#passbtn"):
            self.redraw()  # the keys line is packed for the width, the seats for the height

    def on_screen_suspend(self) -> None:
        self.query_one(HandView).refresh()  # a dialog above takes the keys: the hand's cursor goes

    def on_screen_resume(self) -> None:
        self.query_one(HandView).refresh()

    def on_mount(self) -> None:
        self.query_one("#passbtn", Button).display = False
        self.query_one(HandView).focus()
        self.step()

    def relabel(self) -> None:
        """Redraw every text in the current language.

        The message of the moment was worded in the other language: it gives
        way to the new language's name.  The default name of your seat
        ("You") is said in the new language too.
        """
        self.ctl.name_default()
        self.message = Text(_("Language: English"))
        if self.query("#passbtn"):
            self.redraw()
        if self.query("#passbtn") and self.query("#passbtn").first(Button).display:
            self._draw_hand(self.ctl.end_view or self.ctl.observation())

    # ------------------------------------------------------------ drawing
    def redraw(self, obs: Observation | None = None) -> None:
        obs = obs or self.ctl.end_view or self.ctl.observation()
        ctl = self.ctl
        names = ctl.names
        four = self.settings.four_colour
        r = obs.rules
        values = obs.card_values
        taken = taken_cards(obs.tricks, r.players, hand_over=obs.phase == "done")
        chips = chips_game(r)
        trick_cards = dict(obs.trick) if self.shown_trick is None else {}
        shown = self.shown_trick
        if shown is not None:
            trick_cards = {}
            for s, c in shown.plays:
                trick_cards[s] = c
        acting = set(obs.to_act)
        now_chips, _pool = chips_in_play(obs)
        for s in range(r.players):
            box = self.query_one(f"#seat{s}", SeatBox)
            lv = ctl.levels[s]
            title = names[s]
            if r.partnership and s != obs.seat and r.team_of(s) == r.team_of(obs.seat):
                title = _("{name} (partner)").format(name=title)
            held = obs.hand_sizes[s]
            passed = obs.phase == "pass" and s != obs.seat and held < obs.hand_sizes[obs.seat]
            if passed:  # the passed cards lie face down until everyone has passed: still this seat's
                held += r.pass_count
            card = Text()
            if s in trick_cards:
                card.append_text(card_label(trick_cards[s], four, bold=True))
                if shown is not None and shown.winner == s:
                    card.append("  ◀ " + _("takes it"), style="bold")
            box.border_title = title
            box.show(
                SeatView(
                    levels=level_names(lv) if lv is not None else (),
                    held=Text(ngettext("{n} card", "{n} cards", held).format(n=held)),
                    points=Text(ngettext("{n} pt", "{n} pts", obs.points_taken[s]).format(n=obs.points_taken[s])),
                    kitty=Text(_("+kitty"), style="italic") if obs.kitty_owner == s and obs.kitty_size else Text(),
                    penalties=penalty_cards(taken[s], values),
                    suit=obs.penalty_suit,
                    four=four,
                    card=card,
                    thinking=s in acting and s != obs.seat and not self.pausing,
                    passed=passed,
                    passed_word=_("passed"),
                    thinking_word=_("thinking…"),
                ),
                self.compact,
            )
            total = now_chips[s] if chips else obs.scores[s]
            box.border_subtitle = (_("chips {n}") if chips else _("score {n}")).format(n=total)
            box.set_class(s in acting and not self.pausing, "turn")
            box.set_class(shown is not None and shown.winner == s, "winner")
            box.set_class(r.partnership and r.team_of(s) == r.team_of(obs.seat), "partner")
        self.query_one("#header", Static).update(self._header(obs))
        self.query_one("#center", Static).update(self._center(obs))
        self.query_one("#message", Static).update(self.message)
        self._draw_hand(obs)
        self.query_one("#keys", Static).update(self._keys(obs))

    def _header(self, obs: Observation) -> Text:
        last = obs.rules.hands if obs.rules.hands is not None else obs.hand_index + 1
        rest = _("hand {n}").format(n=min(obs.hand_index + 1, last))  # after the last hand, still the last
        if obs.rules.target is not None:
            rest += " · " + _("to {target}").format(target=obs.rules.target)
        if obs.rules.hands is not None:
            rest += " · " + ngettext("{n} hand", "{n} hands", obs.rules.hands).format(n=obs.rules.hands)
        title = preset_title(obs.rules.name)
        width = (self.size.width or 100) - 2
        c = commitment_text(self.ctl)
        pledge = ""
        if c:
            # the commitment's start always shows: shortened, then without its label, on a narrow window
            room = width - cell_len(f"Corazones · {title} · {rest}")
            for pledge in (
                _("seed commitment {c}").format(c=c[:16] + "…"),
                _("seed commitment {c}").format(c=c[:8] + "…"),
            ):
                if cell_len(" · " + pledge) <= room:
                    break
            else:
                pledge = c[:8] + "…"
        # a long title in a long language ("Corazones con anulación (dos barajas)") gives way to the commitment:
        # shortened after a whole word, so the commitment is never pushed off the edge
        room = width - cell_len(f"Corazones ·  · {rest}") - (cell_len(" · " + pledge) if pledge else 0)
        if cell_len(title) > room:
            cut = title[: max(room - 1, 1)]
            title = (cut.rsplit(" ", 1)[0] if " " in cut.strip() else cut).rstrip(" (") + "…"
        t = Text()
        t.append("Corazones", style=ink("bold red"))
        t.append(f" · {title} · {rest}")
        if pledge:
            t.append(" · " + pledge, style="dim")
        return t

    def _center(self, obs: Observation) -> Text:
        r = obs.rules
        names = self.ctl.names
        lines: list[Text] = []
        lines.append(Text(_("Dealer: {who}").format(who=names[obs.dealer])))
        if r.has_passing:
            lines.append(Text(_("Pass: {direction}").format(direction=direction(obs.pass_direction))))
        if obs.bids and obs.phase in ("bid", "declare"):
            lines.append(Text(_("Bids: {bids}").format(bids=bids_text(obs, names))))
        if obs.declarer is not None and obs.phase not in ("bid", "declare"):  # the high bidder names it after
            lines.append(
                Text(_("{who} named {suit}").format(who=names[obs.declarer], suit=suit_name(obs.penalty_suit)))
            )
        if obs.phase == "play" or obs.phase == "moon":
            trick_no = len(obs.tricks) + (0 if self.shown_trick else 1)
            lines.append(Text(_("Trick {n} of {total}").format(n=min(trick_no, r.hand_size), total=r.hand_size)))
            broken = _("broken") if obs.hearts_broken else _("not broken")
            lines.append(Text(_("{suit}: {state}").format(suit=suit_name(obs.penalty_suit).capitalize(), state=broken)))
        if obs.kitty_size and obs.kitty_owner is None:
            lines.append(
                Text(
                    ngettext("Kitty: {n} card face down", "Kitty: {n} cards face down", obs.kitty_size).format(
                        n=obs.kitty_size
                    )
                )
            )
        if chips_game(r):
            lines.append(Text(_("Pool: {pool}").format(pool=chips_in_play(obs)[1])))
        if r.partnership:
            lines.append(Text(_("Teams: {teams}").format(teams=teams_text(r, names, obs.scores, obs.seat))))
        waiting = waiting_cards(obs.tricks) if obs.phase != "done" else []
        if waiting:
            t = Text(_("Cancelled trick waiting for the next winner: "))
            t.append_text(cards_label(waiting, self.settings.four_colour))
            lines.append(t)
        if obs.trick and self.shown_trick is None:
            led = obs.trick[0][1] // 13
            lines.append(Text(_("{who} led {suit}").format(who=names[obs.trick[0][0]], suit=suit_name(led))))
        turn = self._turn_text(obs)
        if turn:
            lines.append(Text(turn, style="bold"))
        if self.shown_trick is not None:
            w = self.shown_trick.winner
            who = names[w] if w is not None else _("nobody (cancelled)")
            lines.append(Text(_("Trick to {who}").format(who=who), style=ink("bold yellow")))
        return Text("\n").join(lines)

    def _turn_text(self, obs: Observation) -> str:
        if obs.game_over or self.pausing:
            return ""
        k = obs.decision
        if k is Kind.PLAY:
            return _("Your turn: lead a card") if not obs.trick else _("Your turn: play a card")
        if k is Kind.PASS:
            to = self.ctl.names[obs.pass_to] if obs.pass_to is not None else ""
            return ngettext(
                "Choose {n} card to pass to {who}", "Choose {n} cards to pass to {who}", r_count(obs)
            ).format(n=r_count(obs), who=to)
        if k in (Kind.BID, Kind.DECLARE, Kind.MOON):
            return _("Your decision")
        if obs.to_act:
            if obs.phase == "pass":
                return _("Waiting for the others to pass")
            return _("{who} to play").format(who=self.ctl.names[obs.to_act[0]])
        return ""

    def _draw_hand(self, obs: Observation) -> None:
        hand = self.query_one(HandView)
        four = self.settings.four_colour
        passbtn = self.query_one("#passbtn", Button)
        marked: set[int] = set()
        if obs.received and not obs.tricks and obs.phase == "play":
            marked = set(obs.received)
        if obs.decision is Kind.PASS:
            key = (obs.hand_index, self.ctl.epoch)
            if self.selected_for != key:
                self.selected, self.selected_for = set(), key
            hand.show(obs.hand, None, self.selected, marked, four)
            passbtn.display = True
            passbtn.disabled = len(self.selected) != obs.rules.pass_count
            label = ngettext("Pass {n} card", "Pass {n} cards", obs.rules.pass_count).format(n=obs.rules.pass_count)
            if str(passbtn.label) != label:
                passbtn.label = label
                passbtn.refresh(layout=True)  # a label's change alone keeps the old width (after a language switch)
        elif obs.decision is Kind.PLAY and not self.pausing:
            hand.show(obs.hand, {a.cards[0] for a in obs.legal}, (), marked, four)
            passbtn.display = False
        else:
            hand.show(obs.hand, None, (), marked, four)
            passbtn.display = False

    def _keys(self, obs: Observation) -> Text:
        parts = [
            ("←→ Enter", _("play")),
            ("h", _("hint")),
            ("u", _("undo")),
            ("c", _("claim")),
            ("s", _("scores")),
            ("w", _("save")),
            ("r", _("rules")),
            ("f", _("speed: {speed}").format(speed=_(SPEEDS[self.settings.speed]))),
            ("l", "English/español"),
            ("q", _("leave")),
        ]
        if obs.decision is Kind.PASS:
            parts[0] = ("←→ Enter", _("choose"))
            parts.insert(1, ("p", _("pass")))
        if self.pausing:
            parts.insert(0, (_("space"), _("go on")))
        return key_lines(parts, max(20, self.size.width - 2))

    def say(self, text: str | Text, error: bool = False) -> None:
        self.message = Text(text, style=ink("bold red")) if error and isinstance(text, str) else text
        self.query_one("#message", Static).update(self.message)

    # ---------------------------------------------------------------- flow
    def step(self) -> None:
        """Decide what happens next: a dialog, the human's turn, or a bot's move."""
        self.step_timer = None
        if self.pausing or self.dialog_open:
            return
        ctl = self.ctl
        if self.pending_hand is not None:
            self._show_hand_summary()
            return
        obs = ctl.observation()
        self.redraw(obs)
        if ctl.game.over:
            self._game_over(obs)
            return
        if ctl.human_to_act():
            k = obs.decision
            if ctl.claiming and k is Kind.PLAY:
                self.call_later(self.human_action, ctl.claim_move())
                return
            if k is Kind.MOON:
                self._open(MoonDialog(obs, self.ask_hint, ctl.names), lambda v: Action.moon(obs.seat, str(v)))
            elif k is Kind.BID:
                self._open(BidDialog(obs, self.ask_hint, ctl.names), lambda v: Action.bid(obs.seat, int(str(v))))
            elif k is Kind.DECLARE:
                self._open(
                    DeclareDialog(obs, self.ask_hint, ctl.names), lambda v: Action.declare(obs.seat, int(str(v)))
                )
            else:
                self.query_one(HandView).focus()
        bots = ctl.bots_to_act()
        if bots and not self.thinking:
            if obs.phase != "pass":
                bots = bots[:1]
            if not ctl.human_to_act() or obs.phase == "pass":
                self._think(bots)

    def _open(self, dialog: BidDialog | DeclareDialog | MoonDialog, to_action: Callable[[object], Action]) -> None:
        self.dialog_open = True
        gen = self.gen

        def done(value: object) -> None:
            self.dialog_open = False
            if gen != self.gen or value is None:
                self.step()
                return
            self.human_action(to_action(value))

        self.app.push_screen(dialog, done)

    def _think(self, seats: list[int]) -> None:
        self.thinking = True
        gen = self.gen
        jobs = [(s, self.ctl.observation(s)) for s in seats]
        ctl = self.ctl

        def work() -> None:
            start = time.monotonic()
            try:
                actions = [ctl.bot_action(s, o) for s, o in jobs]
            except Exception as e:  # a bot bug must not freeze the table: say it
                self.app.call_from_thread(self._bot_failed, gen, e)
                return
            try:
                self.app.call_from_thread(self._bots_done, gen, actions, time.monotonic() - start)
            except Exception as e:  # a fault while showing the move: say it rather than stall in silence
                self.app.call_from_thread(self._bot_failed, gen, e)

        self.run_worker(work, thread=True, group="bots", exit_on_error=False)

    def _bot_failed(self, gen: int, error: Exception) -> None:
        if gen == self.gen:
            self.thinking = False
            self.say(_("A computer player failed: {error}").format(error=error), error=True)

    def _bots_done(self, gen: int, actions: list[Action], took: float) -> None:
        if gen != self.gen or not self.is_attached:
            return
        self.thinking = False
        outcome = Outcome()
        for a in actions:
            outcome = self.ctl.apply(a)
        delay = 0.0
        if actions and actions[0].kind is not Kind.PASS:
            delay = max(0.0, cfg.PACE[self.settings.speed][0] - took)
        self._after(outcome, delay)

    def human_action(self, action: Action) -> None:
        pass_to = self.ctl.observation().pass_to
        try:
            outcome = self.ctl.apply(action)
        except CorazonesError as e:
            self.say(said(e), error=True)
            return
        if action.kind is Kind.PASS and pass_to is not None:
            self.selected = set()
            self.passed_note = Text(
                _("You passed {cards} to {who}.").format(
                    cards=" ".join(card_text(c) for c in action.cards), who=self.ctl.names[pass_to]
                )
            )
            self.say(self.passed_note)
        elif not self.ctl.claiming:
            self.say("")
        self._after(outcome, 0.0)

    def _after(self, outcome: Outcome, delay: float) -> None:
        obs = self.ctl.observation()
        self._say_received(obs)
        if outcome.hand is not None:
            self.pending_hand = outcome
        if outcome.trick is not None:
            self.shown_trick = outcome.trick
            pause = cfg.PACE[self.settings.speed][1]
            if self.ctl.claiming:
                pause = min(pause or 0.3, 0.3)
            self.pausing = True
            self.redraw(None if outcome.hand is not None else obs)
            if pause is not None:
                self.pause_timer = self.set_timer(max(pause, 0.001), self.action_go_on)
            return
        if delay > 0:
            self.redraw(obs)
            self.step_timer = self.set_timer(delay, self.step)
        else:
            self.step()

    def _say_received(self, obs: Observation) -> None:
        if obs.received and not obs.tricks and not obs.trick and obs.received_from is not None and obs.phase == "play":
            t = Text()
            if self.passed_note is not None:  # both, on one line: the first must not vanish at once
                t.append_text(self.passed_note)
                t.append("  ")
                self.passed_note = None
            t.append(_("You received from {who}: ").format(who=self.ctl.names[obs.received_from]))
            t.append_text(cards_label(obs.received, self.settings.four_colour))
            self.say(t)

    def action_go_on(self) -> None:
        if not self.pausing:
            return
        if self.pause_timer is not None:
            self.pause_timer.stop()
            self.pause_timer = None
        self.pausing = False
        self.shown_trick = None
        self.step()

    def _show_hand_summary(self) -> None:
        outcome = self.pending_hand
        assert outcome is not None and outcome.hand is not None
        self.pending_hand = None
        h = outcome.hand
        tricks = self.ctl.finished_tricks.get(h.index, ())
        self.dialog_open = True

        def done(_value: object) -> None:
            self.dialog_open = False
            self.message = ""  # what was said about the last hand's cards is over
            self.ctl.end_view = None
            self.step()

        summary = HandSummary(h, tricks, self.ctl.names, self.ctl.rules, self.settings.four_colour, self.ctl.viewer)
        self.app.push_screen(summary, done)

    def _copy_record(self) -> str | None:
        """Also write the record where the command line asked (``--record``); the path shown if written there."""
        target = getattr(self.app, "record_to", None)
        if target is not None and not writes_stream(target):  # a stream is written when the screen is closed
            try:
                self.ctl.save(Path(target), with_seats=False)
            except OSError as e:
                self.app.notify(
                    _("Could not save to {path}: {error}").format(
                        path=safe_line(str(target), 200), error=os_reason_text(_, e)
                    ),
                    severity="error",
                    markup=False,
                )
                return None
            return safe_line(str(target), 200)
        return None

    def keep_finished(self) -> None:
        """Keep a finished game once: its record in ``games/``, the ``--record`` copy, and no save left to resume.

        Called when the end is shown, and when the player leaves (``q``, Ctrl+C) while the last trick is still
        on the table: the game is over then too, and its record must not be lost.
        """
        if self.record_path is not None or not self.ctl.game.over:
            return
        self.record_path = save_finished(self.ctl)
        self.record_copy = self._copy_record()
        saved = cfg.saved_game_path()
        if self.ctl.saved_to == saved:  # resumed from it, or saved to it with w: a finished game has nothing to resume
            saved.unlink(missing_ok=True)

    def _game_over(self, obs: Observation) -> None:
        self.keep_finished()
        self.dialog_open = True

        def done(value: object) -> None:
            self.dialog_open = False
            if value == "quit":
                self.app.exit()
            else:
                self.dismiss(None)

        path = str(self.record_path) if self.record_path else None
        over = GameOver(obs, self.ctl.names, self.ctl.game.seed, path, commitment_text(self.ctl), self.record_copy)
        self.app.push_screen(over, done)

    # ------------------------------------------------------------- input
    def on_hand_view_picked(self, event: HandView.Picked) -> None:
        event.stop()
        if self.pausing:
            self.action_go_on()
            return
        obs = self.ctl.observation()
        if obs.decision is Kind.PASS:
            if event.index in self.selected:
                self.selected.discard(event.index)
            elif len(self.selected) >= obs.rules.pass_count:
                self.say(
                    ngettext(
                        "You have chosen {n} card already; pick a chosen one to put it back.",
                        "You have chosen {n} cards already; pick a chosen one to put it back.",
                        obs.rules.pass_count,
                    ).format(n=obs.rules.pass_count),
                    error=True,
                )
                return
            else:
                self.selected.add(event.index)
            left = obs.rules.pass_count - len(self.selected)
            self.say(
                ngettext("{n} more card to choose.", "{n} more cards to choose.", left).format(n=left)
                if left
                else _("Press p (or the Pass button) to pass these cards.")
            )
            self._draw_hand(obs)
            return
        if obs.decision is not Kind.PLAY:
            self.say(_("Wait for your turn."), error=True)
            return
        reason = why_not(obs, event.card)
        if reason:
            self.say(reason, error=True)
            return
        self.human_action(Action.play(obs.seat, event.card))

    def on_hand_view_resized(self, event: HandView.Resized) -> None:
        """A decision's dialog sits just above the hand: when the table's layout moves the hand, it follows."""
        event.stop()
        dialog = self.app.screen
        if isinstance(dialog, DecisionDialog):
            dialog.call_after_refresh(dialog.dock_above_hand)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "passbtn":
            self.action_pass_cards()

    def action_pass_cards(self) -> None:
        obs = self.ctl.observation()
        if obs.decision is not Kind.PASS:
            return
        if len(self.selected) != obs.rules.pass_count:
            self.say(
                ngettext(
                    "Choose exactly {n} card to pass.", "Choose exactly {n} cards to pass.", obs.rules.pass_count
                ).format(n=obs.rules.pass_count),
                error=True,
            )
            return
        cards = self.query_one(HandView).cards
        self.human_action(Action.pass_cards(obs.seat, [cards[i] for i in sorted(self.selected)]))

    def ask_hint(self, obs: Observation, show: Callable[[str], None]) -> None:
        """Run the hint level on ``obs`` in a worker and call ``show`` with the sentence."""
        level = self.settings.hint_level
        gen = self.gen

        def work() -> None:
            try:
                hint = suggest(obs, level, seed=f"hint/{obs.hand_index}/{len(obs.tricks)}")
            except Exception as e:  # pragma: no cover - a bot failure is shown, not raised
                self.app.call_from_thread(show, str(e))
                return

            def deliver() -> None:
                self.hint_busy = False
                if gen == self.gen:
                    show(hint_text(hint, self.ctl.names))
                    self._point_hint(hint.action)

            self.app.call_from_thread(deliver)

        self.hint_busy = True
        self.run_worker(work, thread=True, group="hint", exit_on_error=False)

    def _point_hint(self, action: Action) -> None:
        hand = self.query_one(HandView)
        if action.kind is Kind.PLAY:
            hand.point_at(action.cards[0])
        elif action.kind is Kind.PASS and self.ctl.observation().decision is Kind.PASS:
            chosen: set[int] = set()
            for c in action.cards:
                chosen.add(next(i for i, x in enumerate(hand.cards) if x == c and i not in chosen))
            self.selected = chosen
            self.redraw()

    def action_hint(self) -> None:
        obs = self.ctl.observation()
        if obs.decision is None or self.hint_busy:
            return
        self.say(_("Thinking…"))
        self.ask_hint(obs, lambda text: self.say(text))

    def action_undo(self) -> None:
        if not self.ctl.can_undo():
            self.say(_("Nothing to undo."), error=True)
            return
        self.gen += 1
        for t in (self.pause_timer, self.step_timer):
            if t is not None:
                t.stop()
        self.pause_timer = self.step_timer = None
        self.pausing = self.thinking = False
        self.shown_trick = None
        self.pending_hand = None
        self.ctl.undo()
        self.say(_("Your last move was taken back."))
        self.step()

    def action_claim(self) -> None:
        if self.ctl.claiming:
            return
        if not self.ctl.can_claim():
            self.say(_("You can claim on your lead when every card you hold is sure to win its trick."), error=True)
            return
        self.ctl.claiming = True
        self.say(_("You claim the remaining tricks."))
        self.step()

    def action_sheet(self) -> None:
        obs = self.ctl.observation()
        self.app.push_screen(ScoreSheet(obs.history, self.ctl.names, obs.rules))

    def action_rules(self) -> None:
        self.app.push_screen(RulesHelp(self.ctl.rules))

    def action_save(self) -> bool:
        """Save the game to resume it later; whether it was saved (if not, the table says why)."""
        path = cfg.saved_game_path()
        try:
            self.ctl.save(path)
        except OSError as e:
            self.say(_("Could not save to {path}: {error}").format(path=path, error=os_reason_text(_, e)), error=True)
            return False
        except CorazonesError as e:  # a game a record cannot hold: say so, never a traceback
            self.say(_("Could not save to {path}: {error}").format(path=path, error=said(e)), error=True)
            return False
        self.ctl.saved_to = path
        self.say(_("Saved. Resume it from the start screen."))
        return True

    def action_speed(self) -> None:
        order = list(SPEEDS)
        self.settings.speed = order[(order.index(self.settings.speed) + 1) % len(order)]
        cfg.save_settings(self.settings)
        self.say(_("Speed: {speed}").format(speed=_(SPEEDS[self.settings.speed])))
        self.redraw()

    def action_colours(self) -> None:
        self.settings.four_colour = not self.settings.four_colour
        cfg.save_settings(self.settings)
        self.redraw()

    def action_language(self) -> None:
        self.app.action_language()  # type: ignore[attr-defined]

    def keep_game(self) -> bool:
        """Keep the game when the player leaves: one in progress saved (to resume it), a finished one recorded.

        Either way the ``--record`` copy is written.  False when a game in progress could not be saved to
        resume (the table says why).
        """
        if self.ctl.game.over:
            self.keep_finished()  # left while the last trick was on the table: the end was not shown yet
            return True
        if not self.ctl.game.actions:
            return True
        saved = self.action_save()
        self._copy_record()
        return saved

    def action_leave(self) -> None:
        # A game that could not be saved is not dropped on the first q: the player is told, and a
        # second q leaves without it.
        if not self.keep_game() and not self.leave_unsaved:
            self.leave_unsaved = True
            self.app.notify(
                _("The game was not saved: press q again to leave without it."), severity="error", markup=False
            )
            return
        self.gen += 1
        self.dismiss(None)


def r_count(obs: Observation) -> int:
    return obs.rules.pass_count


def commitment_text(ctl: Controller) -> str:
    """A short commitment to the seed, shown instead of the seed until the game ends (when available)."""
    try:
        from corazones.core.commitment import commit
    except ImportError:  # pragma: no cover - older engine
        return ""
    try:
        return commit(ctl.game.seed)
    except CorazonesError:
        return ""


def writes_stream(path: Path | str) -> bool:
    """Whether ``--record`` names standard output or error, which the full screen owns until it closes."""
    try:
        return output_kind(path) in ("stdout", "stderr")
    except OSError:
        return False


def save_finished(ctl: Controller) -> Path | None:
    """Keep the finished game's record in the data folder; None if it cannot be written."""
    folder = cfg.games_dir()
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    path = folder / f"game-{stamp}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        ctl.save(path, with_seats=False)
    except OSError:
        return None
    return path
