"""A player's name may not pass for a bot, a seat or a card, however it is spelt: in letters of
another script drawn like the Latin ones, in small capitals, or with accents that barely show."""

from __future__ import annotations

import pytest

from corazones.server.auth import clean_name, impersonates


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
