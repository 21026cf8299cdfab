"""The line game's questions as a player answers them, in English and in Spanish."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from corazones.cli.lineplay import HumanPlayer
from corazones.cli.render import Seats
from corazones.core.actions import Kind
from corazones.core.game import Game
from corazones.core.rules import Rules


def moon_question() -> object:
    """An observation asking seat 0 the moon's question (the question is all the answer is read against)."""
    obs = Game(Rules.preset("standard"), 1).observation(0)
    return dataclasses.replace(obs, decision=Kind.MOON)


@pytest.mark.parametrize(
    ("typed", "choice"),
    [
        ("a", "add_to_others"),
        ("add", "add_to_others"),
        ("sumar", "add_to_others"),  # Spanish for "add": it begins with the letter of "subtract"
        ("Sumar", "add_to_others"),
        ("s", "subtract_from_self"),
        ("subtract", "subtract_from_self"),
        ("restar", "subtract_from_self"),
    ],
)
def test_the_moon_answer_is_read_as_a_whole_word(typed: str, choice: str) -> None:
    answers: Iterator[str] = iter([typed])
    player = HumanPlayer(Seats("es", 4, 0), ask=lambda _prompt: next(answers))
    action = player.act(moon_question())  # type: ignore[arg-type]
    assert action.kind is Kind.MOON and action.value == choice


def test_a_moon_answer_that_is_neither_is_asked_again(capsys: pytest.CaptureFixture[str]) -> None:
    answers: Iterator[str] = iter(["si", "a"])
    player = HumanPlayer(Seats("es", 4, 0), ask=lambda _prompt: next(answers))
    action = player.act(moon_question())  # type: ignore[arg-type]
    assert action.value == "add_to_others"
    assert "escriba 's' (restarse) o 'a' (sumar a los demás)" in capsys.readouterr().out
