"""A player's name may not pass for a bot, a seat or a card, however it is spelt: in letters of
another script drawn like the Latin ones, in small capitals, or with accents that barely show."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from corazones.i18n import LANGS, translator
from corazones.players.registry import LEVELS
from corazones.server import auth
from corazones.server.auth import LEVEL_NAMES, clean_name, impersonates


@pytest.mark.parametrize(
    "name",
    [
        "Вот",  # Cyrillic В, о, т
        "ΒΟΤ",  # Greek capitals
        "ЕХРЕRТ",
        "Ехреrt",
        "ʀᴀɴᴅᴏᴍ ʙᴏᴛ",  # Latin small capitals
        "Ѕеаt 1",
        "Random bòt",
        "Ԛ♠",
    ],
)
def test_look_alike_letters_do_not_pass_for_a_bot_a_seat_or_a_card(name: str) -> None:
    assert impersonates(clean_name(name)), name


@pytest.mark.parametrize("name", ["Ana", "Аня", "Ορφέας", "Botín", "Zoë", "Estándar Pérez", "Robot", "Ana 2"])
def test_names_in_any_script_that_are_no_bot_word_stay_allowed(name: str) -> None:
    assert not impersonates(clean_name(name)), name


# ------------------------------------------------------- every bot level, as every face names it


@pytest.mark.parametrize(
    "name",
    [
        "moon shooter",  # the web's and the terminal's name for ``shooter``
        "Moon Shooter",
        "moon-shooter",
        "MoonShooter",
        "searching moon shooter",  # ``moonshot``
        "cazador de luna",  # the same in Spanish
        "Cazador de Luna que calcula",
        "learned",
        "Aprendido",
        "shooter",  # the registry's own names
        "moonshot",
        "ΜΟΟΝ SΗΟΟΤΕR",  # Greek capitals drawn like Latin ones
        "expert moon shooter",
    ],
)
def test_every_level_as_the_faces_name_it_passes_for_a_bot(name: str) -> None:
    assert impersonates(clean_name(name)), name


@pytest.mark.parametrize("name", ["Moon", "Luna", "Ana de Luna", "Cazador", "Shooting Star", "Learner"])
def test_words_of_a_level_name_alone_stay_allowed(name: str) -> None:
    assert not impersonates(clean_name(name)), name


def test_each_level_of_the_registry_is_reserved_in_every_language() -> None:
    """The reserved names follow the registry: each level by its own name and by the name the faces show
    it under, in each language (a level added later is reserved without anyone listing it here)."""
    for level in LEVELS:
        assert impersonates(level), level
        for lang in LANGS:
            shown = translator(lang).gettext(LEVEL_NAMES.get(level, level))
            assert impersonates(clean_name(shown)), (level, lang, shown)
            assert impersonates(clean_name(shown.upper())), (level, lang, shown)


def test_a_level_added_to_the_registry_is_reserved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(auth.LEVELS, "grandmaster", lambda seed: None)  # type: ignore[arg-type,return-value]
    assert ("grandmaster",) in auth._reserved_phrases()


def test_the_shown_level_names_are_the_ones_the_faces_show() -> None:
    """The registry's shown names (what the server reserves and the terminal shows) are the web's
    ``levelName``, level for level: a level the web names differently (or a new one it names) would
    otherwise pass as a person's name."""
    words_js = (Path(auth.__file__).parent / "static" / "js" / "words.js").read_text(encoding="utf-8")
    body = words_js.split("export function levelName", 1)[1].split("default:", 1)[0]
    web = dict(re.findall(r'case "([a-z_]+)": return t\("([^"]+)"\)', body))
    assert web == auth.LEVEL_NAMES
    assert set(auth.LEVEL_NAMES) == set(LEVELS)
