"""Modal dialogs: bidding, naming the suit, the moon, the hand summary, the score sheet, help, game over.

Each dialog is given the observation (or public results) it shows and
answers with ``dismiss(value)``; the table turns that value into an action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Static

from corazones.core.cards import SUIT_GLYPHS
from corazones.core.observation import HandResult, Observation
from corazones.core.rules import Rules
from corazones.core.trick import Trick
from corazones.i18n import N_
from corazones.tui.controller import penalty_cards, taken_cards
from corazones.tui.texts import _, ngettext, rules_lines, suit_name, teams_text
from corazones.tui.widgets import cards_label, penalty_line

HintAsker = Callable[[Observation, Callable[[str], None]], None]


def chips_game(rules: Rules) -> bool:
    return rules.settlement in ("chips_1887", "chips_pool")


def declarer_bid(obs: Observation) -> int:
    """What the declarer bid this hand (0 when nobody bid, or the pool carried over and nobody bid)."""
    if obs.declarer is None:
        return 0
    return max((amount for seat, amount in obs.bids if seat == obs.declarer), default=0)


def chips_in_play(obs: Observation) -> tuple[tuple[int, ...], int]:
    """Each seat's chips and the pool as they stand now: the winning bid is paid into the pool when it is made.

    The engine settles the bid with the hand's other payments; the table
    shows it paid from the moment the auction ends, as players at a real
    table would see the chips move.
    """
    bid = declarer_bid(obs) if obs.phase in ("declare", "play", "moon") else 0
    if not bid or obs.declarer is None:
        return obs.chips, obs.pool
    chips = list(obs.chips)
    chips[obs.declarer] -= bid
    return tuple(chips), obs.pool + bid


def bids_text(obs: Observation, names: Sequence[str]) -> str:
    """The bids made so far this hand, in order ("Ana 3, Bruno no bid")."""
    return ", ".join(f"{names[s]} {amount}" if amount else f"{names[s]} {_('no bid')}" for s, amount in obs.bids)


class Dialog(ModalScreen[object]):
    """A modal with an Escape that closes it when closing means nothing (help, sheets)."""

    DEFAULT_CSS = ""
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", show=False)]
    closable = True

    def action_close(self) -> None:
        if self.closable:
            self.dismiss(None)


class DecisionDialog(Dialog):
    """A decision of the player's (bid, suit, moon): it must be answered; h asks for a hint.

    It is compact (one-line fields and buttons) and sits just above the hand
    of the table underneath, so the cards the decision is about stay in sight.
    """

    closable = False
    # priority: the bid box takes typed characters, and ``?`` must still reach the dialog
    BINDINGS: ClassVar[list[BindingType]] = [Binding("question_mark", "hint", show=False, priority=True)]

    def __init__(self, obs: Observation, ask_hint: HintAsker | None = None, names: Sequence[str] | None = None) -> None:
        super().__init__()
        self.obs = obs
        self.ask_hint = ask_hint
        self.names = list(names) if names is not None else [f"{s}" for s in range(obs.players)]

    def on_mount(self) -> None:
        self.dock_above_hand()
        self.call_after_refresh(self.dock_above_hand)  # the table's layout may still be settling

    def on_resize(self) -> None:
        self.call_after_refresh(self.dock_above_hand)

    def dock_above_hand(self) -> None:
        """Put the dialog's bottom edge on the top of the hand's row of the table underneath (if there is one)."""
        stack = self.app.screen_stack
        here = stack.index(self) if self in stack else 0
        hands = stack[here - 1].query("#handrow") if here > 0 else None
        box = self.query_one(".dialog")
        region = hands.first().region if hands else None
        if region is None or not region.height or region.y <= 0:  # no table (or one too small to show): centred
            box.styles.margin = (0, 0, 0, 0)
            box.styles.max_height = "95%"
            self.set_class(False, "-docked")
            return
        box.styles.margin = (0, 0, max(0, self.size.height - region.y), 0)
        box.styles.max_height = region.y
        self.set_class(True, "-docked")

    def hint_line(self) -> Static:
        return Static(_("?: hint"), id="hint", classes="hint")

    def action_hint(self) -> None:
        if self.ask_hint is not None:
            self.query_one("#hint", Static).update(_("Thinking…"))
            self.ask_hint(self.obs, self.show_hint)

    def show_hint(self, text: str) -> None:
        self.query_one("#hint", Static).update(text)


class BidInput(Input):
    """The bid box: it takes digits only, so ``?`` (and any other key) reaches the dialog's bindings."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character is not None and character.isdecimal()


class BidDialog(DecisionDialog):
    """Auction Hearts: bid a number of chips (or pass) to name the penalty suit."""

    def compose(self) -> ComposeResult:
        obs = self.obs
        allowed = sorted(int(a.value) for a in obs.legal if isinstance(a.value, int))
        self.positive = [b for b in allowed if b > 0]
        high = max((b for _, b in obs.bids), default=0)
        with Vertical(classes="dialog"):
            yield Static(_("Auction"), classes="title")
            yield Static(
                _("Bid chips for the right to name the penalty suit. High bid so far: {high}.").format(high=high)
            )
            yield Static(_("Your chips: {chips}. The pool: {pool}.").format(chips=obs.chips[obs.seat], pool=obs.pool))
            yield Static(
                _("Bids so far: {bids}").format(bids=bids_text(obs, self.names))
                if obs.bids
                else _("Nobody has bid yet."),
                id="bids",
            )
            with Horizontal(classes="buttons"):
                if self.positive:
                    # empty, and nothing selected on focus: what is typed at once (99) is all kept
                    yield BidInput(
                        value="",
                        placeholder=_("{low} to {cap}").format(low=self.positive[0], cap=self.positive[-1]),
                        id="amount",
                        type="integer",
                        select_on_focus=False,
                        compact=True,
                    )
                    yield Button(_("Bid"), id="bid", variant="primary", compact=True)
                yield Button(_("No bid"), id="nobid", compact=True)
            yield Static("", id="error", classes="error")
            yield self.hint_line()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "nobid":
            self.dismiss(0)
        elif event.button.id == "bid":
            self._bid()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._bid()

    def _bid(self) -> None:
        raw = self.query_one("#amount", Input).value.strip()
        try:
            value = int(raw)
        except ValueError:
            value = -1
        if value not in self.positive:
            self.query_one("#error", Static).update(
                _("Bid a whole number from {low} to {cap}, or choose No bid.").format(
                    low=self.positive[0], cap=self.positive[-1]
                )
            )
            return
        self.dismiss(value)


class DeclareDialog(DecisionDialog):
    """Auction Hearts: the winner of the auction names the penalty suit."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding(k, f"suit({i})", show=False) for i, k in enumerate("cdsh")]

    def compose(self) -> ComposeResult:
        carried = declarer_bid(self.obs) == 0
        with Vertical(classes="dialog"):
            yield Static(
                _("The pool carries over: you name the suit again") if carried else _("You won the auction"),
                classes="title",
            )
            yield Static(_("Name the penalty suit: every card of it will cost one chip to whoever takes it."))
            with Horizontal(classes="buttons"):
                for s in range(4):
                    yield Button(f"{SUIT_GLYPHS[s]} {suit_name(s)}", id=f"suit{s}", compact=True)
            yield self.hint_line()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(int(str(event.button.id)[-1]))

    def action_suit(self, suit: int) -> None:
        self.dismiss(suit)


class MoonDialog(DecisionDialog):
    """The player took every penalty card: add the points to the others or subtract them from themselves."""

    def compose(self) -> ComposeResult:
        values = self.obs.card_values
        total = sum(values[c] for c in self.obs.rules.deck if values[c] > 0)
        with Vertical(classes="dialog"):
            yield Static(_("You shot the moon!"), classes="title")
            yield Static(_("You took every penalty card. Choose how the {total} points count:").format(total=total))
            with Horizontal(classes="buttons"):
                yield Button(
                    _("Add {total} to every opponent").format(total=total),
                    id="add_to_others",
                    variant="primary",
                    compact=True,
                )
                yield Button(
                    _("Subtract {total} from my score").format(total=total), id="subtract_from_self", compact=True
                )
            yield self.hint_line()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)


class HandSummary(Dialog):
    """Who took what in the hand just played, the points, and the totals."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", show=False),
        Binding("space", "close", show=False),
    ]

    def __init__(
        self,
        result: HandResult,
        tricks: Sequence[Trick],
        names: Sequence[str],
        rules: Rules,
        four: bool = False,
        viewer: int | None = None,
    ) -> None:
        super().__init__()
        self.result = result
        self.tricks = tricks
        self.names = names
        self.rules = rules
        self.four = four
        self.viewer = viewer  # whose team is named first

    def compose(self) -> ComposeResult:
        h = self.result
        r = self.rules
        values = r.card_values(h.penalty_suit)
        taken = taken_cards(self.tricks, r.players, hand_over=True)
        if h.kitty_owner is not None:
            taken[h.kitty_owner].extend(h.kitty)
        table: DataTable[object] = DataTable(id="summary", cursor_type="none", zebra_stripes=True)
        chips = chips_game(r)
        # the numbers first and the cards last, shortened (♥×8): with eight players at 80 columns nothing is cut
        table.add_columns(
            _("Player"), _("Points"), _("Hand"), _("Chips") if chips else _("Total"), _("Penalty cards taken")
        )
        for s in range(r.players):
            pens = penalty_cards(taken[s], values)
            cells = penalty_line(pens, h.penalty_suit, self.four, room=28) if pens else Text("—", style="dim")
            last = f"{h.chips_delta[s]:+d}" if chips else str(h.totals[s])
            table.add_row(self.names[s], str(h.points[s]), f"{h.scores[s]:+d}", last, cells)
        with Vertical(classes="dialog wide"):
            yield Static(_("Hand {n} is over").format(n=h.index + 1), classes="title")
            yield table
            if h.shooter is not None:
                yield Static(_("{who} shot the moon!").format(who=self.names[h.shooter]), classes="moon")
            if h.declarer is not None:
                yield Static(
                    _("{who} named {suit} (bid {bid}).").format(
                        who=self.names[h.declarer], suit=suit_name(h.penalty_suit), bid=h.bid
                    )
                )
            if h.kitty:
                owner = self.names[h.kitty_owner] if h.kitty_owner is not None else _("nobody")
                line = Text(_("Kitty: "))
                line.append_text(cards_label(h.kitty, self.four))
                line.append(" → " + owner)
                yield Static(line)
            if chips:
                yield Static(_("Pool: {pool}").format(pool=h.pool))
            if r.partnership:
                yield Static(_("Teams: {teams}").format(teams=teams_text(r, self.names, h.totals, self.viewer)))
            yield Button(_("Continue"), id="continue", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#continue", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


def score_table(
    history: Sequence[HandResult], names: Sequence[str], rules: Rules, room: int | None = None
) -> DataTable[object]:
    """The paper score sheet: a column per player, a row per hand with the running totals.

    A cell is the total and the hand's points, "18 (+18)"; when a row of them is wider than ``room``
    columns (eight players at 80 columns), each cell puts the hand's points under the total, so every
    player's column is in sight rather than scrolled off the dialog's right edge.
    """
    table: DataTable[object] = DataTable(id="sheet", cursor_type="none", zebra_stripes=True)
    chips = chips_game(rules)
    teams = rules.teams if rules.partnership else ()
    heads = [_("Hand"), *names, *("+".join(names[s] for s in team) for team in teams)]
    running = [rules.stake] * rules.players if chips else [0] * rules.players
    rows: list[list[tuple[str, str, bool]]] = []  # (total, this hand's, bold) per cell
    for h in history:
        cells: list[tuple[str, str, bool]] = [(str(h.index + 1), "", False)]
        for s in range(rules.players):
            if chips:
                running[s] += h.chips_delta[s]
                cells.append((str(running[s]), f"({h.chips_delta[s]:+d})", False))
            else:
                cells.append((str(h.totals[s]), f"({h.scores[s]:+d})", False))
        for team in teams:  # partners' points are added together: the side's total decides
            total = sum(h.totals[s] for s in team)
            cells.append((str(total), f"({sum(h.scores[s] for s in team):+d})", True))
        rows.append(cells)
    wide = sum(
        max([cell_len(head)] + [cell_len(f"{r[k][0]} {r[k][1]}".strip()) for r in rows]) + 2
        for k, head in enumerate(heads)
    )
    two_lines = room is not None and wide > room
    table.add_columns(*heads)
    for row in rows:
        table.add_row(
            *(
                Text(
                    "\n".join(x for x in (total, hand) if x) if two_lines else f"{total} {hand}".strip(),
                    style="bold" if bold else "",
                )
                for total, hand, bold in row
            ),
            height=2 if two_lines else 1,
        )
    return table


def dialog_room(width: int) -> int:
    """The columns inside a wide dialog in a window ``width`` columns wide (95% of it, less border and padding)."""
    return width * 95 // 100 - 6


def fit_sheet(screen: ModalScreen[object]) -> None:
    """Give a long game's sheet only the lines its dialog has left, scrolled to the latest hand.

    Grown to its full height, the sheet of a ten-hand game pushed the record's path and the buttons
    below the dialog's edge at 80×24.
    """
    dialog = screen.query_one(".dialog")
    sheet = screen.query_one(DataTable)
    over = dialog.virtual_size.height - dialog.scrollable_content_region.height
    if over > 0:
        sheet.styles.max_height = max(3, sheet.outer_size.height - over)
        # scrolled once the new height is laid out (the scroll is bounded by the height at the time)
        sheet.call_after_refresh(sheet.call_after_refresh, sheet.scroll_end, animate=False, immediate=True)


class ScoreSheet(Dialog):
    """The score sheet so far (s at the table)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("s", "close", show=False), Binding("enter", "close", show=False)]

    def __init__(self, history: Sequence[HandResult], names: Sequence[str], rules: Rules) -> None:
        super().__init__()
        self.history = history
        self.names = names
        self.rules = rules

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(_("Score sheet"), classes="title")
            if self.history:
                yield score_table(self.history, self.names, self.rules, dialog_room(self.app.size.width))
                yield Static(_("Each cell: the total (and this hand's points)."), classes="dim")
            else:
                yield Static(_("No hand has been played yet."))
            yield Button(_("Close"), id="close")

    def on_mount(self) -> None:
        if self.history:
            self.call_after_refresh(fit_sheet, self)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


KEYS_HELP = (
    ("←/→, Enter", N_("choose and play a card (or click it)")),
    ("p", N_("pass the chosen cards")),
    ("space", N_("go on after a trick")),
    ("h", N_("hint")),
    ("u", N_("undo your last move")),
    ("c", N_("claim the remaining tricks")),
    ("s", N_("score sheet")),
    ("w", N_("save the game (resume it from the start screen)")),
    ("f", N_("speed")),
    ("k", N_("four-colour deck")),
    ("l", N_("language (English / español)")),
    ("r", N_("these rules")),
    ("q", N_("save and leave the table")),
)


class RulesHelp(Dialog):
    """The rules of the preset in force, and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("r", "close", show=False)]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(_("Rules"), classes="title")
            with VerticalScroll(id="rules-body"):
                for line in rules_lines(self.rules):
                    yield Static("• " + line, markup=False)
                yield Static(_("Keys"), classes="subtitle")
                for key, what in KEYS_HELP:
                    yield Static(f"{_(key) if key == 'space' else key:12} {_(what)}", markup=False)
            yield Button(_("Close"), id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


class GameOver(Dialog):
    """The winner, the final score sheet, the seed (now it may be told) and where the record is."""

    closable = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", show=False),
        Binding("q", "quit", show=False),
        Binding("escape", "new", show=False),  # the game is over and kept: back to the start screen
    ]

    def __init__(
        self,
        obs: Observation,
        names: Sequence[str],
        seed: int | str,
        record_path: str | None,
        commitment: str = "",
        record_to: str | None = None,
    ) -> None:
        super().__init__()
        self.obs = obs
        self.names = names
        self.seed = seed
        self.record_path = record_path
        self.record_to = record_to  # the --record copy, when it was written to a file
        self.commitment = commitment

    def compose(self) -> ComposeResult:
        obs = self.obs
        winners = [self.names[w] for w in obs.winners]
        with Vertical(classes="dialog wide"):
            if obs.seat in obs.winners and len(winners) == 1:
                yield Static(_("You win!"), classes="title")
            else:
                yield Static(
                    ngettext("Winner: {who}", "Winners: {who}", len(winners)).format(who=", ".join(winners)),
                    classes="title",
                )
            yield score_table(obs.history, self.names, obs.rules, dialog_room(self.app.size.width))
            yield Static(_("Seed of this game: {seed}").format(seed=self.seed), markup=False)
            if self.commitment:
                yield Static(_("Its commitment, shown during play: {c}").format(c=self.commitment), classes="dim")
            if self.record_path:
                yield Static(_("Record saved: {path}").format(path=self.record_path), markup=False)
            if self.record_to:
                yield Static(_("And where --record asked: {path}").format(path=self.record_to), markup=False)
            with Horizontal(classes="buttons"):
                yield Button(_("New game"), id="new", variant="primary")
                yield Button(_("Quit"), id="quit")

    def on_mount(self) -> None:
        # Enter and Space answer at once (New game), rather than land on the score sheet's table
        self.query_one("#new", Button).focus()
        self.call_after_refresh(fit_sheet, self)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_new(self) -> None:
        self.dismiss("new")

    def action_quit(self) -> None:
        self.dismiss("quit")
