"""The start screen's last choices, remembered in the user's config folder, and where games are kept.

Folders come from platformdirs (``~/.config/corazones`` and
``~/.local/share/corazones`` on Linux, honouring ``XDG_CONFIG_HOME`` and
``XDG_DATA_HOME``).  A settings file that cannot be read (edited by hand,
from another version) is ignored value by value: a bad value falls back to
its default instead of stopping the game from starting.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from corazones.core.limits import MAX_HANDS, MAX_NAME_LENGTH, MAX_TARGET
from corazones.core.rules import MOON_MODES, PRESETS
from corazones.core.text import NAME_LIMIT, is_safe, safe_line
from corazones.players.registry import LEVELS
from corazones.services.files import save_atomic
from corazones.tui.texts import SPEEDS

APP = "corazones"

#: Seconds a bot's move stays before the next one, and a finished trick stays on the table, per speed.
PACE = {
    "slow": (1.2, 3.0),
    "normal": (0.6, 1.8),
    "fast": (0.25, 0.8),
    "instant": (0.0, 0.0),
    "key": (0.6, None),  # None: the trick stays until a key is pressed
}


def config_dir() -> Path:
    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def saved_game_path() -> Path:
    return data_dir() / "saved-game.json"


def games_dir() -> Path:
    return data_dir() / "games"


@dataclass
class Settings:
    """What the start screen asks, as last chosen."""

    preset: str = "standard"
    players: int | None = None  # None: the preset's
    target: int | None = None  # None: the preset's
    hands: int | None = None
    moon: str | None = None
    passes: str = ""  # "" = the preset's cycle, else "left,right,..."
    name: str = ""
    levels: list[str] = field(default_factory=lambda: ["standard"] * 10)
    speed: str = "normal"
    hint_level: str = "standard"
    four_colour: bool = False
    lang: str | None = None

    def level_for(self, opponent: int) -> str:
        return self.levels[opponent] if opponent < len(self.levels) else "standard"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        s = cls()
        if not isinstance(data, dict):
            return s
        checks: dict[str, Callable[[Any], bool]] = {
            "preset": lambda v: v in PRESETS,
            "players": lambda v: v is None or (isinstance(v, int) and 3 <= v <= 11),
            "target": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 < v <= MAX_TARGET),
            "hands": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 < v <= MAX_HANDS),
            "moon": lambda v: v is None or v in MOON_MODES,
            "passes": lambda v: isinstance(v, str) and len(v) < 200 and is_safe(v),
            "name": lambda v: isinstance(v, str) and len(v) <= MAX_NAME_LENGTH,
            "levels": lambda v: isinstance(v, list) and all(x in LEVELS for x in v),
            "speed": lambda v: v in SPEEDS,
            "hint_level": lambda v: v in ("standard", "expert"),
            "four_colour": lambda v: isinstance(v, bool),
            "lang": lambda v: v is None or v in ("en", "es"),
        }
        if isinstance(data.get("name"), str):  # cleaned as a record's names are shown: no escapes, clipped
            data = {**data, "name": safe_line(data["name"], NAME_LIMIT)}
        for key, ok in checks.items():
            if key in data and ok(data[key]):
                setattr(s, key, data[key])
        while len(s.levels) < 10:
            s.levels.append("standard")
        return s


#: The largest settings file read (a real one is well under 1 KiB).
MAX_SETTINGS_BYTES = 64 * 1024


def load_settings(path: Path | None = None) -> Settings:
    """The remembered choices, at most :data:`MAX_SETTINGS_BYTES` of JSON; the defaults for what is unusable."""
    path = path or config_dir() / "tui.json"
    try:
        with path.open("rb") as f:
            data = f.read(MAX_SETTINGS_BYTES + 1)
        if len(data) > MAX_SETTINGS_BYTES:
            return Settings()
        # each value is then checked alone: one out of bounds (a number of 50 digits) falls back by itself
        return Settings.from_json(json.loads(data.decode("utf-8")))
    except (OSError, ValueError):  # not JSON, not UTF-8: the defaults
        return Settings()


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Remember the choices; a folder that cannot be written only means they are not remembered."""
    path = path or config_dir() / "tui.json"
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        save_atomic(path, json.dumps(settings.to_json(), ensure_ascii=False, indent=1) + "\n")
