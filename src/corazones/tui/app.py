"""The Textual application: start screen → table → game over, the replay viewer, the language switch."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from corazones.core.errors import CorazonesError
from corazones.core.rules import Rules
from corazones.core.text import NAME_LIMIT, safe_line
from corazones.tui import settings as cfg
from corazones.tui.controller import BOT_NAMES, Controller
from corazones.tui.replay import ReplayScreen
from corazones.tui.start import StartScreen
from corazones.tui.table import TableScreen, writes_stream
from corazones.tui.texts import _, said, set_lang
from corazones.tui.widgets import set_monochrome

#: The exit code after Ctrl+C, the command line's "interrupted" (docs/cli.md).
INTERRUPTED = 130


class CorazonesApp(App[None]):
    """``corazones play`` on a terminal.

    ``rules`` skips the start screen (the command line chose the game);
    ``record`` opens the replay viewer instead (``replay`` holds its review
    options: ``budget``, ``review_seats``, ``review_file``, ``source``, as
    :class:`~corazones.tui.replay.ReplayScreen` takes them); ``settings``
    replaces the remembered choices (tests).
    """

    CSS_PATH = "corazones.tcss"
    TITLE = "Corazones"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+c", "interrupt", show=False, priority=True)]

    def __init__(
        self,
        *,
        rules: Rules | None = None,
        seed: int | str | None = None,
        settings: cfg.Settings | None = None,
        lang: str | None = None,
        record: dict[str, Any] | None = None,
        replay: dict[str, Any] | None = None,
        resume: bool = False,
        remember: bool = True,
        level: str | None = None,
        seat: int = 0,
        record_to: Path | None = None,
        controller: Controller | None = None,
    ) -> None:
        super().__init__()
        set_monochrome(self.no_color)  # NO_COLOR: cards and warnings without colours of their own (greys)
        self.settings = settings if settings is not None else cfg.load_settings()
        if lang:
            self.settings.lang = lang
        self.lang = set_lang(self.settings.lang)
        self.settings.lang = self.lang
        self.initial_rules = rules
        self.seed = seed
        self.record = record
        self.replay_options = replay or {}
        self.resume = resume
        self.remember = remember
        self.controller: Controller | None = controller
        self.level = level  # every opponent's level, from the command line
        self.human_seat = seat
        self.record_to = record_to
        self.resume_error: str | None = None  # why the saved game could not be resumed, as last said
        self.unsaved = False  # Ctrl+C found a game in progress that could not be saved

    def on_mount(self) -> None:
        if self.record is not None:
            self.push_screen(ReplayScreen(self.record, self.settings.four_colour, **self.replay_options))
            return
        self.push_screen(StartScreen(self.settings))
        if self.controller is not None:
            self._open_table()
        elif self.resume:
            self.resume_game()
        elif self.initial_rules is not None:
            self.start_game(self.initial_rules, self.seed)

    # ----------------------------------------------------------- games
    def seat_setup(self, players: int) -> tuple[list[str], list[str | None]]:
        """Names and levels: you in your seat (0 unless the command line said), opponents clockwise after you."""
        me = safe_line(self.settings.name, NAME_LIMIT).strip() or _("You")
        seat = self.human_seat if 0 <= self.human_seat < players else 0
        names: list[str] = [""] * players
        levels: list[str | None] = [None] * players
        names[seat] = me
        for k in range(players - 1):
            s = (seat + 1 + k) % players
            names[s] = BOT_NAMES[k]
            levels[s] = self.level or self.settings.level_for(k)
        return names, levels

    def start_game(self, rules: Rules, seed: int | str | None = None) -> None:
        names, levels = self.seat_setup(rules.players)
        unnamed = not safe_line(self.settings.name, NAME_LIMIT).strip()  # "You", in the language of the moment
        self.controller = Controller.new(rules, names, levels, seed, default_name=unnamed)
        self._open_table()

    def resume_game(self) -> None:
        path = cfg.saved_game_path()
        try:
            ctl = Controller.load(path)
        except (OSError, ValueError, KeyError, CorazonesError) as e:
            # markup off: the reason quotes the file ("['grandmaster', …]"), which must be shown, not parsed
            self.resume_error = _("The saved game could not be resumed: {error}").format(error=said(e))
            self.notify(self.resume_error, severity="error", markup=False, timeout=30)
            return
        ctl.saved_to = path
        self.controller = ctl
        self._open_table()

    def _open_table(self) -> None:
        assert self.controller is not None

        def back(_value: object) -> None:
            start = self.screen
            if isinstance(start, StartScreen):
                start.refresh(recompose=True)

        self.push_screen(TableScreen(self.controller, self.settings), back)

    # -------------------------------------------------------- language
    def set_language(self, lang: str) -> None:
        self.lang = set_lang(lang)
        self.settings.lang = self.lang
        if self.remember:
            cfg.save_settings(self.settings)
        for screen in self.screen_stack:
            relabel = getattr(screen, "relabel", None)
            if relabel is not None:
                relabel()
            elif isinstance(screen, Screen) and screen is not self.screen_stack[0]:
                screen.refresh(recompose=True)

    def action_language(self) -> None:
        self.set_language("es" if self.lang == "en" else "en")

    def action_interrupt(self) -> None:
        """Ctrl+C: keep the game as ``q`` would (saved, or recorded when over; the ``--record`` copy), then exit 130."""
        table = next((s for s in self.screen_stack if isinstance(s, TableScreen)), None)
        if table is not None and not table.keep_game():
            self.unsaved = True  # said on the terminal once the screen is closed
        self.exit(return_code=INTERRUPTED)


def run_app(**kwargs: Any) -> int:
    """Run the game; the exit code (0, or 130 after Ctrl+C)."""
    app = CorazonesApp(**kwargs)
    app.run()
    if app.unsaved:
        print(_("The game in progress could not be saved."), file=sys.stderr)
    target = app.record_to
    if target is not None and app.controller is not None and app.controller.game.actions and writes_stream(target):
        # standard output (``--record -``) gets the record once the screen is the terminal's again
        app.controller.save(Path(target), with_seats=False)
    return app.return_code or 0


def open_replay(file: str | Path, lang: str | None = None, **review: Any) -> bool:
    """Open the replay viewer on a record file; False (nothing shown) if the record cannot be read or replayed.

    ``review`` holds the viewer's review options (``budget``, ``review_seats``, ``review_file``).
    """
    from corazones.core.limits import MAX_RECORD_BYTES
    from corazones.core.records import loads, replay

    try:
        path = Path(file)
        if path.stat().st_size > MAX_RECORD_BYTES:
            return False
        record = loads(path.read_text(encoding="utf-8"))
        replay(record)  # every action checked: an illegal one refuses here, before the screen opens
    except (OSError, ValueError, CorazonesError, RecursionError):
        return False
    CorazonesApp(record=record, lang=lang, remember=False, replay={**review, "source": str(file)}).run()
    return True
