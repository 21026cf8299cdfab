"""Textual screens of the score pad: the setup form and the sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Input, Label, Select, Static

from corazones.core.errors import CorazonesError
from corazones.core.pad import Entry, Pad, PadError
from corazones.core.pad.grammar import entry_text, parse_hand
from corazones.core.rules import PRESETS, Rules
from corazones.core.text import safe_line
from corazones.i18n import N_, error_text, translator
from corazones.services.pad import (
    ASK_SHEET,
    DEL_WORDS,
    DIRECTIONS,
    EDIT_WORDS,
    HELP_LINES,
    HELP_WORDS,
    NEED_NUMBER,
    QUIT_WORDS,
    SHEET_WORDS,
    UNDO_WORDS,
    PadFiles,
    how_to_enter,
    not_accepted,
    row_lines,
    save_or_reason,
    standing_lines,
)

CSS = """
#pad-title { height: 1; background: $panel; padding: 0 1; }
#pad-sheet { height: 1fr; }
#pad-status { height: auto; max-height: 4; padding: 0 1; color: $text-muted; }
#pad-help { height: auto; padding: 0 1; color: $text-muted; }
#pad-error { height: auto; padding: 0 1; color: $error; }
#pad-entry { height: 3; }
#pad-keys { dock: bottom; height: auto; max-height: 2; background: $panel; padding: 0 1; }
#pad-setup { padding: 1 2; height: auto; }
#pad-setup Label { margin-top: 1; }
#pad-setup-error { color: $error; height: auto; }
#pad-setup Horizontal { height: auto; }
"""


class SetupScreen(Screen[None]):
    """Pick the preset, the number of players, the names and the target."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.quit", show=False)]

    def __init__(self, rules: Rules | None, gettext: Any) -> None:
        super().__init__()
        self.gt = gettext
        self.rules = rules

    def compose(self) -> ComposeResult:
        _ = self.gt
        r = self.rules or Rules.preset("standard")
        with Vertical(id="pad-setup"):
            yield Static(_("Score pad: choose the game and name the players."))
            yield Label(_("Game"))
            yield Select(
                [(name, name) for name in PRESETS],
                value=r.name if r.name in PRESETS else "standard",
                allow_blank=False,
                id="pad-preset",
            )
            yield Label(_("Number of players (empty: the game's)"))
            yield Input(value=str(r.players) if self.rules else "", id="pad-players")
            yield Label(_("Names, separated by commas"))
            yield Input(id="pad-names")
            yield Label(_("Target score (empty: the game's)"))
            yield Input(id="pad-target")
            yield Static("", id="pad-setup-error")
            yield Button(_("Start"), id="pad-start", variant="primary")
        yield Static(_("Tab: next field · Enter: start · Esc: quit"), id="pad-keys")

    def on_mount(self) -> None:
        self.query_one("#pad-names", Input).focus()

    @on(Select.Changed, "#pad-preset")
    def preset_changed(self, event: Select.Changed) -> None:
        """Another game: the number of players becomes its own (3 for Black Maria, 6 for Cancellation).

        The number shown was the last game's, and kept it would be refused or give the new game the wrong
        number of seats; the one from the command line comes back with its game.
        """
        preset = str(event.value)
        if preset not in PRESETS:
            return
        given = self.rules is not None and self.rules.name == preset
        players = self.rules.players if given and self.rules is not None else Rules.preset(preset).players
        self.query_one("#pad-players", Input).value = str(players)

    @on(Button.Pressed, "#pad-start")
    @on(Input.Submitted)
    def start(self) -> None:
        _ = self.gt
        error = self.query_one("#pad-setup-error", Static)
        preset = str(self.query_one("#pad-preset", Select).value)
        raw_players = self.query_one("#pad-players", Input).value.strip()
        raw_target = self.query_one("#pad-target", Input).value.strip()
        options: dict[str, Any] = {}
        try:
            if raw_players:
                if not raw_players.isdecimal():
                    raise ValueError(_("the number of players is a whole number"))
                options["players"] = int(raw_players)
            if raw_target:
                if not raw_target.isdecimal():
                    raise ValueError(_("the target is a whole number"))
                options["target"] = int(raw_target)
            base = self.rules if self.rules is not None and self.rules.name == preset else None
            rules = base.replace(**options) if base is not None else Rules.preset(preset, **options)
        except (ValueError, CorazonesError) as e:
            error.update(safe_line(error_text(self.gt, e), 300))
            return
        raw_names = self.query_one("#pad-names", Input).value
        names = [x for x in raw_names.split(",")] if raw_names.strip() else []
        try:
            if not names:
                names = [_("Player {n}").format(n=i + 1) for i in range(rules.players)]
            pad = Pad(rules, tuple(names))
        except PadError as e:
            error.update(error_text(self.gt, e))
            return
        app = self.app
        assert isinstance(app, PadApp)
        app.switch_screen(SheetScreen(app.keep(pad), app.gt))


class SheetScreen(Screen[None]):
    """The sheet: one row per hand with each player's running total, and the line to type the next hand."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", show=False),
        # the entry keeps the focus: the arrows choose a row of the sheet and Ctrl+E (which the entry would take
        # for "end of line") edits it, as the keys line says
        Binding("up", "row(-1)", show=False),
        Binding("down", "row(1)", show=False),
        Binding("ctrl+e", "edit", show=False, priority=True),
        Binding("ctrl+s", "save", show=False),
        Binding("escape", "cancel", show=False),
        Binding("ctrl+q", "app.quit", show=False),  # PadApp.action_quit: asks first when hands are not saved
    ]
    #: The keys line (the bindings are not shown by a Footer, whose texts would stay English).
    KEYS = N_("Enter: add the hand · Ctrl+Z: undo · ↑↓ then Ctrl+E: edit a hand · Ctrl+S: save · Ctrl+Q: quit")

    def __init__(self, files: PadFiles, gettext: Any) -> None:
        super().__init__()
        self.files = files
        self.pad = files.pad
        self.gt = gettext
        self.editing: int | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="pad-title")
        yield DataTable(id="pad-sheet", zebra_stripes=True, cursor_type="row")
        yield Static("", id="pad-status")
        yield Static("", id="pad-error")
        yield Static(how_to_enter(self.pad, self.gt), id="pad-help")
        yield Input(id="pad-entry")
        yield Static(self.gt(self.KEYS), id="pad-keys")

    def on_mount(self) -> None:
        self.refresh_sheet()
        self.query_one("#pad-entry", Input).focus()

    # ------------------------------------------------------------ drawing
    def refresh_sheet(self) -> None:
        _ = self.gt
        pad = self.pad
        table = self.query_one("#pad-sheet", DataTable)
        table.clear(columns=True)
        table.add_column(_("Hand"), key="hand")
        for s, name in enumerate(pad.names):
            table.add_column(name, key=f"p{s}")
        if pad.uses_chips:
            table.add_column(_("Pool"), key="pool")
        table.add_column(_("Notes"), key="notes")
        for r in pad.rows:
            cells: list[Any] = [str(r.index + 1)]
            for s in range(pad.players):
                if pad.uses_chips:
                    cells.append(Text(f"{r.chips[s]} ({r.chips_delta[s]:+d})"))
                else:
                    cells.append(Text(f"{r.totals[s]} ({r.scores[s]:+d})"))
            if pad.uses_chips:
                cells.append(str(r.pool))
            notes = []
            if r.shooter is not None:
                notes.append(_("moon: {player}").format(player=pad.names[r.shooter]))
            if r.entry.revokes:
                notes.append(
                    _("revoke: {players}").format(players=", ".join(pad.names[v.seat] for v in r.entry.revokes))
                )
            if r.entry.note:
                notes.append(safe_line(r.entry.note, 60))
            cells.append("; ".join(notes))
            table.add_row(*cells, key=str(r.index))
        if pad.rows:
            table.move_cursor(row=len(pad.rows) - 1)
        status = standing_lines(pad, _)
        if pad.rules.partnership and pad.rows:
            sides = ", ".join(f"{pad.side_name(i)} {t}" for i, t in enumerate(pad.side_totals()))
            status.append(_("Totals: {values}").format(values=sides))
        self.query_one("#pad-status", Static).update("\n".join(status) or _("No hand yet."))
        title = _("{preset}, {players} players").format(preset=pad.rules.name, players=pad.players)
        if self.editing is not None:  # after game over too: an edit may change who won
            title += " — " + _("editing hand {n} (Esc cancels)").format(n=self.editing + 1)
        elif pad.over:
            title += " — " + _("game over")
        else:
            direction = pad.next_pass()
            title += " — " + _("hand {n}, pass: {direction}").format(
                n=len(pad.rows) + 1, direction=_(DIRECTIONS.get(direction, direction))
            )
        self.query_one("#pad-title", Static).update(title)
        entry = self.query_one("#pad-entry", Input)
        entry.placeholder = (
            how_to_enter(pad, _) if not pad.over else _("The game is over: undo (Ctrl+Z) or edit a hand")
        )

    def show_error(self, text: str) -> None:
        self.query_one("#pad-error", Static).update(text)

    def persist(self) -> bool:
        """Save the pad where every change goes (if anywhere); False (and the reason shown) when that failed."""
        reason = self.files.changed(self.gt, wait=False)
        if reason is not None:
            self.show_error(reason)
        return reason is None

    # ------------------------------------------------------------ actions
    @on(Input.Submitted, "#pad-entry")
    def submit(self, event: Input.Submitted) -> None:
        """A hand line, or one of the line mode's commands (``help`` lists them): the same words in both faces."""
        _ = self.gt
        text = event.value.strip()
        if not text:
            return
        word, _sp, rest = text.partition(" ")
        cmd = word.lower()
        number, _sp, hand = rest.strip().partition(" ")
        self.query_one("#pad-help", Static).update(how_to_enter(self.pad, _))  # the help, if shown, has been read
        try:
            if cmd in HELP_WORDS:
                lines = [_(h) for h in HELP_LINES] + [how_to_enter(self.pad, _)]
                self.query_one("#pad-help", Static).update("\n".join(lines))
                self.show_error("")
                event.input.value = ""
                return
            if cmd in QUIT_WORDS:
                event.input.value = ""
                self.app.call_later(self.app.action_quit)  # as Ctrl+Q: asks first when hands are not saved
                return
            if cmd in SHEET_WORDS:  # the sheet is on the screen already
                self.show_error("")
                event.input.value = ""
                return
            if cmd in UNDO_WORDS:
                self.action_undo()
                event.input.value = ""
                return
            if cmd in EDIT_WORDS + DEL_WORDS and not number.isdecimal():
                self.show_error(_("Not accepted: {reason}").format(reason=_(NEED_NUMBER)))
                return
            if cmd in EDIT_WORDS and not hand.strip():
                self.start_edit(int(number) - 1)
                return
            if cmd in EDIT_WORDS:  # edit N HAND: as in the line mode, at once
                self.pad.edit(int(number) - 1, parse_hand(self.pad, hand))
                self.editing = None  # the entry held the command, not the line being edited
                saved = self.persist()
            elif cmd in DEL_WORDS:
                self.pad.remove(int(number) - 1)
                self.editing = None  # the rows after it moved: the hand being edited is not where it was
                saved = self.persist()
            elif cmd in ("save", "guardar", "csv"):
                self.write_file(cmd == "csv", rest.strip())
                return
            elif self.editing is not None:
                self.pad.edit(self.editing, parse_hand(self.pad, text))
                self.editing = None
                saved = self.persist()
            else:
                self.pad.add(parse_hand(self.pad, text))
                saved = self.persist()
        except PadError as e:  # a HandSyntaxError too
            self.show_error(not_accepted(_, e))
            return
        if saved:
            self.show_error("")
        event.input.value = ""
        self.refresh_sheet()

    def write_file(self, sheet: bool, name: str) -> None:
        """``save FILE`` (the pad) or ``csv FILE`` (the sheet); without a name, where ``--save`` / ``--csv`` say."""
        written, said = self.files.write_named(sheet, name, self.gt, wait=False)
        if not written:
            self.show_error(said)
            return
        self.show_error("")
        self.query_one("#pad-entry", Input).value = ""
        self.notify(said)

    def action_undo(self) -> None:
        try:
            self.pad.undo()
        except PadError as e:
            self.show_error(error_text(self.gt, e))
            return
        self.editing = None
        if self.persist():
            self.show_error("")
        self.refresh_sheet()

    def action_row(self, delta: int) -> None:
        """Move the sheet's cursor by ``delta`` rows while the entry keeps the focus."""
        table = self.query_one("#pad-sheet", DataTable)
        if table.row_count:
            table.move_cursor(row=max(0, min(table.row_count - 1, table.cursor_row + delta)))

    def action_edit(self) -> None:
        table = self.query_one("#pad-sheet", DataTable)
        if self.pad.rows:
            self.start_edit(table.cursor_row)

    def start_edit(self, index: int) -> None:
        if not 0 <= index < len(self.pad.entries):
            self.show_error(
                self.gt(N_("there is no hand {hand}; hands are 1 to {last}")).format(
                    hand=index + 1, last=len(self.pad.entries)
                )
            )
            return
        self.editing = index
        entry = self.query_one("#pad-entry", Input)
        entry.value = entry_text(self.pad, self.pad.entries[index])
        entry.cursor_position = len(entry.value)  # typed on from the end, not where "edit N" left the cursor
        entry.focus()
        self.show_error("")
        self.refresh_sheet()

    def action_cancel(self) -> None:
        if self.editing is not None:
            self.editing = None
            self.query_one("#pad-entry", Input).value = ""
            self.refresh_sheet()

    def action_save(self) -> None:
        if self.files.target is None:  # --save, else the --load file: where every change is saved
            self.show_error(self.gt(N_("Type save FILE to save the pad (or start with --save FILE).")))
            return
        if self.persist():
            self.show_error("")
            self.notify(self.gt(N_("Written to {path}")).format(path=safe_line(str(self.files.target), 200)))

    def last_lines(self) -> list[str]:
        """The last hand's lines as line mode prints them (for tests and screen readers)."""
        return row_lines(self.pad, len(self.pad.rows) - 1, self.gt) if self.pad.rows else []


class PadApp(App[None]):
    """``corazones pad`` on a terminal: the setup form when no pad is given, then the sheet."""

    CSS = CSS
    TITLE = "Corazones"

    def __init__(
        self,
        pad: Pad | None = None,
        *,
        rules: Rules | None = None,
        lang: str = "en",
        save: Path | None = None,
        csv: Path | None = None,
        load: Path | None = None,
    ) -> None:
        super().__init__()
        self.pad = pad
        self.rules = rules
        self.gt = translator(lang).gettext
        self.save = save
        self.csv = csv
        self.load = load
        #: The pad's files and what is not saved (once there is a pad).
        self.files: PadFiles | None = None
        #: The hands when Ctrl+Q said they are not saved: a second Ctrl+Q on the same hands leaves.
        self.leave_asked: tuple[Entry, ...] | None = None
        #: Left by that second Ctrl+Q: the user was told, the terminal is not told again.
        self.left_knowingly = False

    def keep(self, pad: Pad) -> PadFiles:
        """Start keeping ``pad``: saved to ``--save`` (or back to ``--load``) after every change."""
        self.pad = pad
        self.files = PadFiles(pad, save=self.save, load=self.load, csv=self.csv)
        return self.files

    def on_mount(self) -> None:
        if self.pad is not None:
            self.push_screen(SheetScreen(self.keep(self.pad), self.gt))
        else:
            self.push_screen(SetupScreen(self.rules, self.gt))

    async def action_quit(self) -> None:
        """Ctrl+Q (and Esc on the setup): leave, but a first press with hands not saved only says so."""
        question = None if self.files is None else self.files.not_saved(self.gt, ASK_SHEET)
        hands = tuple(self.pad.entries) if self.pad is not None else ()
        if question is not None and self.leave_asked != hands:
            self.leave_asked = hands
            sheet = self.sheet()
            if sheet is not None:
                sheet.show_error(question)
            else:
                self.notify(question, severity="warning", markup=False)
            return
        self.left_knowingly = question is not None
        self.exit()

    def sheet(self) -> SheetScreen | None:
        screen = self.screen
        return screen if isinstance(screen, SheetScreen) else None

    def write_csv(self) -> str | None:
        """Write the CSV asked for with ``--csv`` (when leaving); the error text if that failed."""
        if self.pad is None or self.csv is None:
            return None
        if self.files is not None:
            return self.files.write_csv(self.csv, self.gt)
        return save_or_reason(self.csv, self.pad.to_csv(), self.gt)

    def save_failed(self) -> str | None:
        """Why the pad's last save failed (the run ends with exit 1), or ``None``."""
        return None if self.files is None else self.files.failed

    def leaving(self) -> str | None:
        """What the terminal is told when the pad was left with hands not saved (unless Ctrl+Q already said it)."""
        if self.files is None or self.left_knowingly:
            return None
        return self.files.leaving(self.gt)
