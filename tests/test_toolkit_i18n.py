"""The toolkit's own texts (usage, help panels, parse errors) speak the command line's language.

Real command lines through Typer's runner (and one through ``python -m``): the
Spanish comes from the one catalog under ``--lang es`` or a Spanish locale, the
English under ``--lang en``; a bad flag beside ``--lang es`` is refused in
Spanish whichever comes first.
"""

from __future__ import annotations

import gettext
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from corazones.cli.main import app
from corazones.cli.toolkit import speaking, toolkit_text
from corazones.cli.toolkit_texts import TYPER_TEXTS, USAGE_PIECES

ENGLISH = {"LC_ALL": "en_US.UTF-8", "LANGUAGE": "en", "COLUMNS": "200"}
SPANISH = {"LC_ALL": "es_ES.UTF-8", "LANGUAGE": "es", "COLUMNS": "200"}


def run(*args: str, env: dict[str, str] = ENGLISH) -> tuple[int, str]:
    """Exit code and everything the command wrote, the boxes flattened to single spaces."""
    result = CliRunner().invoke(app, list(args), env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())


@pytest.mark.parametrize(
    ("args", "spanish", "english"),
    [
        (
            ["play", "--bogus"],
            [
                "Uso: root play [OPCIONES]",
                "Pruebe 'root play --help' para ver la ayuda.",
                "No existe la opción: --bogus",
            ],
            ["Usage: root play [OPTIONS]", "Try 'root play --help' for help.", "No such option: --bogus"],
        ),
        (["replay"], ["Falta el argumento 'FILE'."], ["Missing argument 'FILE'."]),
        (
            ["play", "--seat", "x"],
            ["Valor no válido para '--seat': debe ser un número entero; el texto no se puede leer como entero"],
            ["Invalid value for '--seat': Input should be a valid integer, unable to parse string as an integer"],
        ),
        (["play", "--auto", "true"], ["Sobran argumentos que no se esperaban (true)"], ["unexpected extra argument"]),
        (["verify", "x", "y"], ["Sobran argumentos que no se esperaban (y)"], ["Got unexpected extra argument(s) (y)"]),
    ],
)
def test_parse_errors_follow_lang(args: list[str], spanish: list[str], english: list[str]) -> None:
    for lang, wanted, unwanted in (("es", spanish, english), ("en", english, spanish)):
        # --lang is read before any flag is parsed, wherever it stands
        for words in ([args[0], "--lang", lang, *args[1:]], [*args, "--lang", lang]):
            code, out = run(*words)
            assert code == 2, out
            for text in wanted:
                assert text in out, (words, out)
            for text in unwanted:
                assert text not in out, (words, out)


def test_a_flag_without_its_value_is_spanish() -> None:
    code, out = run("play", "--lang", "es", "--seed")  # last: after it, "--lang" would be the seed
    assert code == 2 and "La opción '--seed' necesita un argumento." in out
    code, out = run("play", "--lang", "en", "--seed")
    assert code == 2 and "Option '--seed' requires an argument." in out


def test_an_unknown_command_and_its_suggestion_are_spanish() -> None:
    code, out = run("plya", "--lang", "es")
    assert code == 2
    assert "No existe la orden 'plya'. ¿Quiso decir 'play', 'replay'?" in out
    assert "Uso: root [OPCIONES] ORDEN [ARGUMENTOS]..." in out


def test_the_help_panels_follow_lang() -> None:
    code, out = run("play", "--help", "--lang", "es")
    assert code == 0
    for text in ("Uso: root play [OPCIONES]", "Opciones", "[por defecto: standard]", "Muestra esta ayuda y termina."):
        assert text in out, out
    assert "Options" not in out and "[default:" not in out
    code, out = run("verify", "--lang", "es", "--help")
    assert "Argumentos" in out and "Arguments" not in out
    code, out = run("play", "--help", "--lang", "en")
    for text in ("Usage: root play [OPTIONS]", "Options", "[default: standard]", "Show this message and exit."):
        assert text in out, out
    assert "Opciones" not in out


def test_without_lang_the_locale_decides() -> None:
    code, out = run("--help", env=SPANISH)
    assert code == 0 and "Órdenes" in out and "Opciones" in out and "Commands" not in out
    code, out = run("--help", env=ENGLISH)
    assert code == 0 and "Commands" in out and "Órdenes" not in out
    code, out = run("rules", "--bogus", env=SPANISH)  # no --lang on the command line: the locale's language
    assert code == 2 and "No existe la opción: --bogus" in out


def test_our_own_refusals_keep_their_words_beside_the_toolkit() -> None:
    code, out = run("play", "--hands", "0", "--lang", "es")
    assert code == 2 and "Valor no válido para '--hands': debe ser al menos 1, no 0" in out and "Uso:" in out
    code, out = run("play", "--lang", "fr")  # a language the catalog lacks: refused in the locale's (English here)
    assert code == 2 and "Invalid value for '--lang': unknown language 'fr'" in out and "Usage:" in out


@pytest.mark.integration
def test_the_real_entry_point_speaks_spanish() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "corazones", "play", "--lang", "es", "--bogus"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**ENGLISH, "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 2
    out = " ".join(re.sub(r"[│╭╮╰╯─]", " ", proc.stderr).split())
    assert "Uso: python -m corazones play [OPCIONES]" in out and "No existe la opción: --bogus" in out


def test_the_standard_library_is_left_as_it_was() -> None:
    """Outside a command line the default domain answers as before; Typer's own help module is never used."""
    before = gettext.dgettext
    run("play", "--help", "--lang", "es")
    assert gettext.dgettext is before
    assert gettext.gettext("Options") == "Options"
    with speaking("es"):
        assert gettext.gettext("Options") == "Opciones"
        assert gettext.gettext("a text nobody translated") == "a text nobody translated"
    assert gettext.gettext("Options") == "Options"


def test_english_and_spanish_pages_alternate_in_one_process() -> None:
    """Each page is worded when it is drawn: no word of one language is left over for the next page."""
    for _ in range(2):
        code, out = run("play", "--help", "--lang", "es")
        assert code == 0 and "Opciones" in out and "Options" not in out
        code, out = run("play", "--help", "--lang", "en")
        assert code == 0 and "Options" in out and "Opciones" not in out


def test_a_text_outside_the_templates_is_left_as_it_is() -> None:
    with speaking("es"):
        assert toolkit_text("Something Click may say one day.") == "Something Click may say one day."
        assert toolkit_text("No such option: --x (Possible options: --xa, --xb)") == (
            "No existe la opción: --x (opciones posibles: --xa, --xb)"
        )


def test_the_msgids_are_the_installed_typers_english() -> None:
    """A Typer that rewords a text it asks gettext for would leave it English: this says which one."""
    source = Path(typer.__file__).parent
    core = (source / "core.py").read_text(encoding="utf-8")
    for msgid in TYPER_TEXTS:
        assert f'_("{msgid}")' in core, msgid
    assert all(piece in core for piece in USAGE_PIECES)
