"""Terminal-safe text: nothing that can act on a terminal survives, clipping is bounded, plain text is untouched."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from corazones.core.text import (
    BIDI_CONTROLS,
    ELLIPSIS,
    NAME_LIMIT,
    clip,
    is_safe,
    safe_line,
    safe_name,
    safe_text,
    strip_escapes,
    visible,
)

ESC = "\x1b"
#: Pieces that terminals act on: colours, clearing, cursor moves, titles (OSC), hyperlinks, device strings, C1 forms.
HOSTILE = [
    f"{ESC}[31m",
    f"{ESC}[2J",
    f"{ESC}[10;20H",
    f"{ESC}]0;owned{ESC}\\",
    f"{ESC}]0;owned\x07",
    f"{ESC}]8;;http://evil/{ESC}\\link{ESC}]8;;{ESC}\\",
    f"{ESC}P1$r{ESC}\\",
    f"{ESC}c",
    f"{ESC}(B",
    "\x9b2J",
    "\x9d0;t\x9c",
    "\x07",
    "\x08\x08\x08",
    "\r",
    "\u202e",
    "\u2066",
    "\x00",
    "\x7f",
    ESC,
]


def terminal_acts(text: str) -> bool:
    return any(ch in text for ch in (ESC, "\x07", "\x08", "\r", "\x00", "\x7f", "\x9b", "\x9c", "\x9d")) or any(
        ch in BIDI_CONTROLS for ch in text
    )


@pytest.mark.parametrize("piece", HOSTILE[:-1])
def test_each_hostile_piece_is_removed_and_the_visible_text_kept(piece: str) -> None:
    out = safe_line(f"alice{piece}bob")
    assert not terminal_acts(out) and is_safe(out)
    assert out.startswith("alice") and out.endswith("bob")


def test_escape_sequences_go_whole_not_just_the_escape_byte() -> None:
    assert safe_line(f"{ESC}[1;31mred{ESC}[0m") == "red"
    assert safe_line(f"{ESC}]0;window title\x07name") == "name"
    assert strip_escapes(f"a{ESC}]8;;http://x{ESC}\\b") == "ab"


@given(st.lists(st.sampled_from([*HOSTILE, "a", "b", " ", "\n", "\t", "é", "♠", "漢"]), max_size=30).map("".join))
def test_nothing_that_acts_on_a_terminal_survives(text: str) -> None:
    for out in (safe_line(text), safe_name(text), safe_text(text)):
        assert not terminal_acts(out)
    assert "\n" not in safe_line(text)
    assert not terminal_acts(visible(text))


@given(st.text(max_size=300), st.integers(min_value=1, max_value=120))
def test_clipping_is_bounded_and_marked(text: str, limit: int) -> None:
    out = safe_line(text, limit)
    assert len(out) <= limit
    assert is_safe(out)
    c = clip(text, limit)
    assert len(c) <= limit
    assert c == text or c.endswith(ELLIPSIS)


@given(st.text(alphabet=st.characters(exclude_categories=("Cc", "Cf", "Cs", "Zl", "Zp", "Zs")), max_size=NAME_LIMIT))
def test_plain_names_are_shown_as_they_are(name: str) -> None:
    assert safe_name(name) == (name or "?")
    assert safe_name(f"{name} {name}".strip()) == clip(f"{name} {name}".strip(), NAME_LIMIT) or not name


def test_a_huge_name_costs_what_a_short_one_does() -> None:
    name = "x" * 50_000_000
    out = safe_name(name)
    assert len(out) == NAME_LIMIT and out.endswith(ELLIPSIS)
    # an unterminated title string swallowing the whole input leaves the mark that something was cut
    assert safe_name(f"{ESC}]0;" + "y" * 100_000) == ELLIPSIS


def test_multiline_text_keeps_its_lines_and_visible_shows_what_was_there() -> None:
    assert safe_text(f"one\r\ntwo{ESC}[2J\tthree\n") == "one\ntwo\tthree\n"
    assert visible(f"a{ESC}[31mb\u202e") == "a\\x1b[31mb\\u202e"
    assert safe_name("") == "?" and safe_name(f"{ESC}[31m") == "?"
    with pytest.raises(ValueError, match="at least 1"):
        clip("abc", 0)


def test_a_byte_that_was_not_utf8_is_shown_as_that_byte() -> None:
    typed = b"zz\xff".decode("utf-8", "surrogateescape")  # how a command line or standard input hands it over
    assert visible(typed) == "zz\\xff"
    assert safe_line(typed) == "zz" and not is_safe(typed)
    assert visible("\ud800") == "\\ud800"


@given(st.text(max_size=60))
def test_what_is_shown_can_always_be_printed(text: str) -> None:
    for out in (safe_line(text), safe_name(text), safe_text(text), visible(text)):
        out.encode("utf-8")  # a lone surrogate left in would make the print itself fail
