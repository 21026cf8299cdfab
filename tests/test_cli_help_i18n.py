"""Every word of ours on a help page is in the command line's language, not only the toolkit's.

The toolkit's words (``Uso:``, ``Opciones``, ``[por defecto: ...]``) are checked
in ``tests/test_toolkit_i18n.py``; here it is our own texts: each command's
description, the one-line summaries of the command list, every option's and
argument's help, and the exit codes after the root's help.  They are read from
the command objects themselves (the English the code gives Typer), so a new
option or command is checked without being listed here: in Spanish (by
``--lang es`` or by the locale) none of its sentences may be left, in English
each is shown as written.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

import pytest
import typer
from click.testing import CliRunner

from corazones.cli.main import app

#: The command built once (Typer's runner would rebuild it from the signatures on every call).
COMMAND = typer.main.get_command(app)
#: Wide enough that no paragraph of ours wraps: a text is found whole on the page.
WIDE = "400"
ENGLISH = {"LC_ALL": "en_US.UTF-8", "LANGUAGE": "en", "COLUMNS": WIDE}
SPANISH = {"LC_ALL": "es_ES.UTF-8", "LANGUAGE": "es", "COLUMNS": WIDE}
#: Only ``LANG`` says Spanish, as on a desktop set up in Spanish (the other variables win over it when set).
LANG_ONLY: Mapping[str, str | None] = {
    "LC_ALL": None,
    "LC_MESSAGES": None,
    "LANGUAGE": None,
    "LANG": "es_ES.UTF-8",
    "COLUMNS": WIDE,
}
#: A sentence of ours has at least this many words ("Port to listen on"); shorter pieces are names and values.
MIN_WORDS = 3


def commands(command: Any = COMMAND, words: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """Each command with the words that reach it, the root (``()``) first."""
    found = [(words, command)]
    for name, sub in getattr(command, "commands", {}).items():
        found += commands(sub, (*words, name))
    return found


def has_lang(command: Any) -> bool:
    return any(getattr(p, "name", None) == "lang" for p in command.params)


def paragraphs(text: str | None) -> list[str]:
    """The paragraphs of a help text as the page shows them: whitespace runs made one space, ``\\f`` and after cut."""
    if not text:
        return []
    shown = text.partition("\f")[0]
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", shown) if p.strip()]


def our_texts(command: Any) -> list[str]:
    """Every paragraph we wrote for ``command``'s page: description, epilog, each parameter's, each summary listed."""
    texts = [*paragraphs(command.help), *paragraphs(command.epilog)]
    for param in command.params:
        texts += paragraphs(getattr(param, "help", None))
    for sub in getattr(command, "commands", {}).values():
        texts += paragraphs(sub.help)[:1]  # the command list shows a command's first paragraph
    return texts


def sentences(paragraph: str) -> list[str]:
    """A paragraph's sentences and clauses (cut after ``.`` and ``;``) long enough to be prose.

    Not after ``:``: what follows one may be values alone (``Preset: standard, black_lady, ...``),
    the same in either language.
    """
    pieces = re.split(r"(?<=[.;])\s+", paragraph)
    return [p for p in pieces if len(p.split()) >= MIN_WORDS]


def flat(text: str) -> str:
    """A page with the boxes removed and whitespace runs made one space, so a wrapped cell reads as one text."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def page(args: list[str], env: Mapping[str, str | None]) -> str:
    result = CliRunner().invoke(COMMAND, args, env=env, prog_name="corazones")
    assert result.exit_code == 0, (args, result.output)
    return result.stdout


def english_left(spanish_page: str, command: Any) -> list[str]:
    shown = flat(spanish_page)
    return [s for text in our_texts(command) for s in sentences(text) if s in shown]


def test_our_texts_are_found_on_the_english_pages() -> None:
    """The check's own ground: each text read from the objects is on the English page as written, so its absence
    from the Spanish page means it was translated, not that it was never shown."""
    for words, command in commands():
        shown = flat(page([*words, "--help"], ENGLISH))
        texts = our_texts(command)
        assert texts, words
        missing = [t for t in texts if t not in shown]
        assert not missing, (words, missing)


@pytest.mark.parametrize("env", [SPANISH, LANG_ONLY], ids=["LC_ALL", "LANG"])
def test_every_help_page_is_spanish_under_a_spanish_locale(env: Mapping[str, str | None]) -> None:
    for words, command in commands():
        out = page([*words, "--help"], env)
        assert "Uso:" in out, (words, out)
        assert not english_left(out, command), (words, english_left(out, command))


def test_every_help_page_is_spanish_with_lang_es() -> None:
    """``--lang es`` before or after ``--help`` (Click handles ``--help`` first): the page is worded in Spanish."""
    with_lang = [(words, command) for words, command in commands() if has_lang(command)]
    assert {words for words, _ in with_lang} >= {("play",), ("replay",), ("verify",), ("pad",)}
    for words, command in with_lang:
        for args in ([*words, "--lang", "es", "--help"], [*words, "--help", "--lang=es"]):
            out = page(args, ENGLISH)
            assert "Uso:" in out, (args, out)
            assert not english_left(out, command), (args, english_left(out, command))


def test_lang_en_under_a_spanish_locale_is_the_english_page() -> None:
    for words, command in commands():
        if has_lang(command):
            assert page([*words, "--help", "--lang", "en"], SPANISH) == page([*words, "--help"], ENGLISH), words


def test_the_root_page_lists_the_commands_and_the_exit_codes_in_spanish() -> None:
    out = flat(page(["--help"], LANG_ONLY))
    assert "Códigos de salida: 0 correcto;" in out, out
    assert "play Jugar una partida en la terminal contra jugadores de la computadora." in out, out
    assert "Exit codes" not in out


@pytest.mark.integration
def test_the_real_entry_point_shows_the_help_in_spanish() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "corazones", "play", "--lang", "es", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"LC_ALL": "en_US.UTF-8", "COLUMNS": "100", "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    out = flat(proc.stdout)
    assert "Jugar una partida en la terminal contra jugadores de la computadora." in out, out
    assert "Play a game" not in out and "Number of players" not in out
