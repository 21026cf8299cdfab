"""The start screen: the preset and its options, your name, each opponent's level, speed and language.

The choices are remembered (``settings.py``); a combination the rules refuse
is explained on the screen instead of starting.  When a saved game exists, it
can be resumed from here.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from corazones.core.errors import CorazonesError
from corazones.core.limits import MAX_HANDS, MAX_TARGET
from corazones.core.rules import MOON_MODES, PRESETS, Rules
from corazones.core.text import NAME_LIMIT, safe_line
from corazones.i18n import N_
from corazones.players.registry import LEVELS
from corazones.tui import settings as cfg
from corazones.tui.controller import BOT_NAMES
from corazones.tui.texts import MOON_MODES as MOON_WORDS
from corazones.tui.texts import SPEEDS, _, level_name, preset_title, preset_words, said

PASS_CYCLES = ("", "left,right,across,hold", "left,right", "left", "right", "across", "hold")


#: The words of a pass cycle on the start screen, short enough for its drop-down.
CYCLE_WORDS = {"left": N_("left"), "right": N_("right"), "across": N_("across"), "hold": N_("hold")}


def pass_cycle_words(cycle: str) -> str:
    """A pass cycle in the language shown ("left, right, across, hold" → "izquierda, derecha, …")."""
    return ", ".join(_(CYCLE_WORDS.get(d, d)) for d in cycle.split(","))


def allowed_players(preset: str) -> list[int]:
    out = []
    for n in range(3, 12):
        try:
            Rules.preset(preset, players=n)
        except CorazonesError:
            continue
        out.append(n)
    return out


def build_rules(s: cfg.Settings) -> Rules:
    """The rules the settings ask for; raises CorazonesError naming what does not fit."""
    over: dict[str, Any] = {}
    if s.players is not None:
        over["players"] = s.players
    if s.target is not None:
        over["target"] = s.target
    if s.hands is not None:
        over["hands"] = s.hands
    if s.moon is not None:
        over["moon"] = s.moon
    if s.passes:
        over["passes"] = tuple(s.passes.split(","))
    return Rules.preset(s.preset, **over)


class StartScreen(Screen[None]):
    """Choose the game; Enter on Play starts it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("l", "language", show=False),
        Binding("escape", "ask_quit", show=False),
    ]

    def __init__(self, settings: cfg.Settings) -> None:
        super().__init__()
        self.settings = settings
        self.players_shown = 0
        self.quit_asked = False  # Escape once asks, Escape again quits

    def compose(self) -> ComposeResult:
        s = self.settings
        players = allowed_players(s.preset)
        try:
            preset_rules = Rules.preset(s.preset, **({"players": s.players} if s.players else {}))
        except CorazonesError:
            preset_rules = Rules.preset(s.preset)
            s.players = None
        n = preset_rules.players
        self.players_shown = n
        yield Static(_("Corazones — Hearts and its whole family"), id="title")
        with VerticalScroll(id="form"):
            with Horizontal(classes="row"):
                yield Label(_("Game"), classes="label")
                yield Select(
                    [(preset_title(p), p) for p in PRESETS],
                    value=s.preset,
                    allow_blank=False,
                    compact=True,
                    id="preset",
                )
            yield Static(preset_words(s.preset, PRESETS[s.preset].get("description", "")), id="preset-words")
            with Horizontal(classes="row"):
                yield Label(_("Players"), classes="label")
                yield Select(
                    [(str(k), k) for k in players],
                    value=n if n in players else players[0],
                    allow_blank=False,
                    compact=True,
                    id="players",
                )
            with Horizontal(classes="row"):
                yield Label(_("Target score"), classes="label")
                yield Input(
                    value="" if s.target is None else str(s.target),
                    type="integer",
                    placeholder=_("preset: {v}").format(v=preset_rules.target or "—"),
                    id="target",
                    compact=True,
                    valid_empty=True,  # empty is the preset's value, not a mistake
                )
            with Horizontal(classes="row"):
                yield Label(_("Hands (a fixed number)"), classes="label")
                yield Input(
                    value="" if s.hands is None else str(s.hands),
                    type="integer",
                    placeholder=_("preset: {v}").format(v=preset_rules.hands or "—"),
                    id="hands",
                    compact=True,
                    valid_empty=True,  # empty is the preset's value, not a mistake
                )
            with Horizontal(classes="row"):
                yield Label(_("Shooting the moon"), classes="label")
                yield Select(
                    [(_("as the preset says"), "")] + [(_(MOON_WORDS[m]), m) for m in MOON_MODES],
                    value=s.moon or "",
                    allow_blank=False,
                    compact=True,
                    id="moon",
                )
            with Horizontal(classes="row"):
                yield Label(_("Passing"), classes="label")
                yield Select(
                    [(_("as the preset says") if not c else pass_cycle_words(c), c) for c in PASS_CYCLES],
                    value=s.passes if s.passes in PASS_CYCLES else "",
                    allow_blank=False,
                    compact=True,
                    id="passes",
                )
            with Horizontal(classes="row"):
                yield Label(_("Your name"), classes="label")
                yield Input(value=s.name, placeholder=_("You"), max_length=NAME_LIMIT, id="name", compact=True)
            for k in range(n - 1):
                with Horizontal(classes="row"):
                    yield Label(_("Opponent {n}: {name}").format(n=k + 1, name=BOT_NAMES[k]), classes="label")
                    yield Select(
                        [(level_name(lv), lv) for lv in LEVELS],
                        value=s.level_for(k),
                        allow_blank=False,
                        compact=True,
                        id=f"level{k}",
                    )
            with Horizontal(classes="row"):
                yield Label(_("Speed"), classes="label")
                yield Select(
                    [(_(v), k) for k, v in SPEEDS.items()], value=s.speed, allow_blank=False, compact=True, id="speed"
                )
            with Horizontal(classes="row"):
                yield Label(_("Hints from"), classes="label")
                yield Select(
                    [(level_name(lv), lv) for lv in ("standard", "expert")],
                    value=s.hint_level,
                    allow_blank=False,
                    compact=True,
                    id="hint_level",
                )
            with Horizontal(classes="row"):
                yield Label(_("Language"), classes="label")
                yield Select(
                    [("English", "en"), ("Español", "es")],
                    value=s.lang or "en",
                    allow_blank=False,
                    compact=True,
                    id="lang",
                )
            yield Checkbox(_("Four-colour deck (♣ green, ♦ blue)"), value=s.four_colour, id="four", compact=True)
        yield Static("", id="error", classes="error")
        with Horizontal(id="start-buttons"):
            yield Button(_("Play"), id="play", variant="primary", compact=True)
            if cfg.saved_game_path().is_file():
                yield Button(_("Resume saved game"), id="resume", compact=True)
            yield Button(_("Quit"), id="quit", compact=True)

    def on_mount(self) -> None:
        self.query_one("#play", Button).focus()

    def on_screen_resume(self) -> None:
        """Back from the table (or a dialog): Play has the focus again, so the keyboard works at once."""
        self.quit_asked = False
        self.call_after_refresh(self._focus_play)

    def _focus_play(self) -> None:
        found = self.query("#play")
        if found and self.focused is None:
            found.first(Button).focus()

    def action_ask_quit(self) -> None:
        """Escape quits only when pressed twice: once is too easy to press by mistake."""
        if self.quit_asked:
            self.app.exit()
            return
        self.quit_asked = True
        self.query_one("#error", Static).update(_("Press Escape again to quit (any other key goes on)."))

    def on_key(self, event: Any) -> None:
        if event.key != "escape" and self.quit_asked:
            self.quit_asked = False
            self.query_one("#error", Static).update("")

    def relabel(self) -> None:
        """Redraw in the new language.

        The form is read first only when this screen is the one in use: under
        the table it shows choices the table may since have changed (the
        speed with ``f``, the four-colour deck with ``k``), and reading it
        would put the old ones back.
        """
        if self.app.screen is self:
            self.read_form()
        self.settings.lang = self.app.lang  # type: ignore[attr-defined]
        self.refresh(recompose=True)

    # ------------------------------------------------------------ reading
    def read_form(self) -> None:
        s = self.settings
        if not self.is_mounted or not self.query("#preset"):
            return
        s.preset = str(self.query_one("#preset", Select).value)
        s.players = int(str(self.query_one("#players", Select).value))
        s.target = _int_or_none(self.query_one("#target", Input).value)
        s.hands = _int_or_none(self.query_one("#hands", Input).value, MAX_HANDS)
        s.moon = str(self.query_one("#moon", Select).value) or None
        s.passes = str(self.query_one("#passes", Select).value)
        s.name = safe_line(self.query_one("#name", Input).value, NAME_LIMIT).strip()
        for k in range(10):
            found = self.query(f"#level{k}")
            if found:
                s.levels[k] = str(found.first(Select).value)
        s.speed = str(self.query_one("#speed", Select).value)
        s.hint_level = str(self.query_one("#hint_level", Select).value)
        s.lang = str(self.query_one("#lang", Select).value)
        s.four_colour = self.query_one("#four", Checkbox).value

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset" and event.value != self.settings.preset:
            # what was typed and chosen so far (the name, the levels, the speed...) stays; only the options
            # that belong to a preset go back to the new one's
            self.read_form()
            self.settings.preset = str(event.value)
            self.settings.players = None
            self.settings.passes = ""
            self.settings.moon = None
            self.refresh(recompose=True)
        elif event.select.id == "players" and event.value != self.players_shown:
            self.read_form()
            self.refresh(recompose=True)
        elif event.select.id == "lang" and event.value not in (self.app.lang, self.settings.lang):  # type: ignore[attr-defined]
            self.read_form()
            self.app.set_language(str(event.value))  # type: ignore[attr-defined]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "quit":
            self.app.exit()
        elif event.button.id == "resume":
            self.app.resume_game()  # type: ignore[attr-defined]
        elif event.button.id == "play":
            self.start()

    def start(self) -> None:
        for field, label, most in (("#target", _("Target score"), MAX_TARGET), ("#hands", _("Hands"), MAX_HANDS)):
            raw = self.query_one(field, Input).value.strip()
            if raw and _int_or_none(raw, most) is None:
                self.query_one("#error", Static).update(
                    _("{field}: give a whole number from 1 to {most}, or leave it empty for the preset's.").format(
                        field=label, most=most
                    )
                )
                self.query_one(field, Input).focus()
                return
        self.read_form()
        try:
            rules = build_rules(self.settings)
        except CorazonesError as e:
            self.query_one("#error", Static).update(
                _("These options do not fit together: {error}").format(error=said(e))
            )
            return
        cfg.save_settings(self.settings)
        self.app.start_game(rules)  # type: ignore[attr-defined]

    def action_language(self) -> None:
        focused = self.focused
        if isinstance(focused, Input):
            return
        self.read_form()
        self.app.action_language()  # type: ignore[attr-defined]


def _int_or_none(raw: str, most: int = MAX_TARGET) -> int | None:
    """A whole number from 1 to ``most`` typed in a field; None for anything else (empty included)."""
    raw = raw.strip()
    if not raw.isdecimal() or len(raw) > 6:
        return None
    value = int(raw)
    return value if 0 < value <= most else None
