"""``--lang`` on every command and on the root, for what the command prints and not only its help.

A user who learnt ``--lang es`` on ``play`` types it on ``rules``, ``arena``,
``serve``, ``revoke`` and before the command (``corazones --lang es rules``);
each must take it, speak Spanish in its output and its refusals, refuse a
language the catalog lacks the way ``play`` does, and leave the English output
as it was.  The commands are read from the command tree, so a new one is held
to the same.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
import typer
from click.testing import CliRunner, Result

from corazones.cli.main import app
from corazones.cli.version import version_text
from corazones.core import Rules
from corazones.core.commitment import commit
from corazones.i18n import LANGS, error_text
from corazones.services.arena import ArenaConfig, run_arena
from tests.helpers import free_port

COMMAND = typer.main.get_command(app)
ENGLISH = {"LC_ALL": "en_US.UTF-8", "LANGUAGE": "en", "COLUMNS": "200"}
SPANISH = {"LC_ALL": "es_ES.UTF-8", "LANGUAGE": "es", "COLUMNS": "200"}
REFUSED_XX = "Invalid value for '--lang': unknown language 'xx'; languages: en, es"
#: For each command, the least it needs to get as far as reading its language (its required arguments).
REQUIRED = {"arena": ["random", "random"], "replay": ["game.json"], "revoke": ["1"]}


def run(args: list[str], env: Mapping[str, str] = ENGLISH) -> Result:
    result = CliRunner().invoke(COMMAND, args, env=dict(env), prog_name="corazones")
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
    assert "Traceback" not in result.output, result.output
    return result


def flat(text: str) -> str:
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def test_every_command_and_the_root_take_lang() -> None:
    names = ["", *COMMAND.commands]  # "" is the root
    assert {"rules", "play", "replay", "verify", "arena", "serve", "revoke", "pad"} <= set(names)
    for name in names:
        words = [name] if name else []
        command = COMMAND.commands[name] if name else COMMAND
        assert any(p.name == "lang" for p in command.params), name
        out = run([*words, "--lang", "es", "--help"]).stdout
        assert "Uso: corazones" in out and "--lang" in out and "en|es" in out, (name, out)


@pytest.mark.parametrize("name", ["", "rules", "play", "replay", "verify", "arena", "serve", "revoke", "pad"])
def test_a_language_the_catalog_lacks_is_refused_naming_the_allowed_ones(name: str) -> None:
    words = [name, *REQUIRED.get(name, [])] if name else ["rules"]
    for args in ([*words, "--lang", "xx"], ["--lang", "xx", *words]):
        result = run(args)
        assert result.exit_code == 2, (args, result.output)
        assert REFUSED_XX in flat(result.output), (args, result.output)
    result = run([*words, "--lang", "xx"], SPANISH)  # in the locale's language, as play does
    assert "Valor no válido para '--lang': idioma desconocido 'xx'; idiomas: en, es" in flat(result.output)


def test_rules_speaks_spanish() -> None:
    listing = run(["rules", "--lang", "es"]).stdout
    assert "standard               Black Lady, los Corazones modernos" in listing, listing
    assert "the modern Hearts" not in listing
    preset = run(["rules", "standard", "--lang", "es"]).stdout
    assert "  (tamaño de la mano)    13 cartas, monte 0" in preset, preset
    assert "(la de este número de jugadores)" in preset and "default for player count" not in preset
    refused = flat(run(["rules", "nope", "--lang", "es"]).output)
    assert "Valor no válido para 'PRESET': modalidad desconocida 'nope'" in refused, refused


def test_rules_in_english_is_as_it_was() -> None:
    listing = run(["rules"], SPANISH | {"LC_ALL": "en_US.UTF-8", "LANGUAGE": "en"}).stdout
    assert listing.startswith(
        "standard               Black Lady, the modern Hearts: Q♠ 13, hearts 1, pass L/R/A/hold, to 100\n"
        "black_lady             Same as standard (1909 'discard hearts')\n"
    ), listing
    preset = run(["rules", "kitty", "--lang", "en"], SPANISH).stdout
    assert preset.startswith("kitty: No cards stripped; leftovers form a kitty (12 each with four)\n"), preset
    assert "  passes                 left right across hold  (default for player count)\n" in preset, preset
    assert preset.endswith("  (hand size)            12 cards, kitty 4\n"), preset


def test_the_roots_lang_reaches_the_command_and_the_commands_own_wins() -> None:
    assert "(tamaño de la mano)" in run(["--lang", "es", "rules", "standard"]).stdout
    assert "(hand size)" in run(["--lang", "es", "rules", "standard", "--lang", "en"], SPANISH).stdout
    assert "(tamaño de la mano)" in run(["--lang", "en", "rules", "standard", "--lang", "es"]).stdout
    digest = commit(3)
    checked = run(["--lang", "es", "verify", "--seed", "3", "--commitment", digest]).stdout
    english = run(["verify", "--seed", "3", "--commitment", digest, "--lang", "en"]).stdout
    assert checked != english and checked.startswith("OK"), (checked, english)
    assert (
        run(["--lang", "es", "verify", "--seed", "3", "--commitment", digest]).stdout
        == run(["verify", "--seed", "3", "--commitment", digest, "--lang", "es"]).stdout
    )
    refused = flat(run(["--lang", "es", "play", "--seat", "9"]).output)
    assert "Valor no válido para '--seat': el asiento 9 no existe" in refused, refused


def test_the_version_follows_lang_before_or_after_it() -> None:
    for args in (["--lang", "es", "--version"], ["--version", "--lang", "es"]):
        assert run(args).stdout == version_text("es") + "\n"
    assert run(["--version"]).stdout == version_text("en") + "\n"


def test_arena_speaks_spanish(tmp_path: Path) -> None:
    result = run(["--lang", "es", "arena", "random", "random", "--deals", "2", "-j", "1", "-q", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "standard, 4 jugadores: 2 tableros de un reparto, 2 rotaciones cada uno" in out, out
    for words in ("jugador", "puntos/reparto", "±IC 95%", "lunas", "sufridas", "por delante de", "tableros):"):
        assert words in out, (words, out)
    assert f"escrito {tmp_path / 'results.json'}" in out
    assert "players" not in out and "boards" not in out.replace("boards.jsonl", "") and "wrote" not in out
    refused = flat(run(["arena", "random", "--lang", "es"]).output)
    assert "Valor no válido para 'PLAYER': la arena necesita al menos dos jugadores" in refused, refused


@pytest.mark.parametrize("preset", ["quick", "hearts_1887"])
def test_arena_in_english_is_the_services_own_words(preset: str) -> None:
    """The face words the verdicts from the catalog; in English they are the service's sentences, byte for byte."""
    config = ArenaConfig(contenders=("random", "beginner"), rules=Rules.preset(preset), boards=3, mode="deals", seed=1)
    result = run_arena(config, workers=1)
    assert result.gaps
    for gap in result.gaps:
        assert error_text(lambda s: s, gap.verdict_message(config.unit)) == gap.verdict(config.unit)
    few = run_arena(ArenaConfig(contenders=("random", "random"), rules=Rules.preset(preset), boards=1), workers=1)
    assert error_text(lambda s: s, few.gaps[0].verdict_message(few.config.unit)) == few.gaps[0].verdict(few.config.unit)
    out = run(["arena", "random", "random", "--games", "1", "-r", "quick", "-j", "1", "-q", "--no-duplicate"]).stdout
    assert re.match(
        r"quick, 4 players: 1 boards of one whole game, no duplicate \(.*\), seed 0; [0-9.]+ s on local x1\n", out
    ), out
    assert "win rate = share of games won (ties split); even play would give: random " in out, out


def test_revoke_speaks_spanish(tmp_path: Path) -> None:
    from corazones.services.store import Store

    url = f"sqlite:///{tmp_path / 'corazones.sqlite'}"
    store = Store(url).migrate()
    try:
        player = store.add_player("Ana", "guest").id
    finally:
        store.close()
    done = run(["--lang", "es", "revoke", str(player), "--db", url])
    assert done.exit_code == 0, done.output
    assert done.stdout == f"jugador {player}: todos sus tokens anteriores quedan revocados (generación de tokens 1)\n"
    again = run(["revoke", str(player), "--db", url, "--lang", "en"], SPANISH)
    assert again.stdout == f"player {player}: every earlier token is revoked (token generation 2)\n"
    missing = flat(run(["revoke", "424242", "--db", url, "--lang", "es"]).output)
    assert "Valor no válido para 'PLAYER': no existe el jugador 424242" in missing, missing


def test_serve_refuses_in_spanish() -> None:
    refused = flat(run(["serve", "--port", "70000", "--lang", "es"]).output)
    assert "Valor no válido para '--port': 70000 no es un puerto; se permite: de 0 a 65535" in refused, refused
    refused = flat(run(["--lang", "es", "serve", "--log-level", "loud"]).output)
    assert "Valor no válido para '--log-level': nivel desconocido 'loud'" in refused, refused


@pytest.mark.integration
@pytest.mark.parametrize("lang", LANGS)
def test_serve_says_where_it_serves_in_its_language(lang: str, tmp_path: Path) -> None:
    """The one line a running server prints, through a real ``corazones serve`` (stopped once it has said it)."""
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LC_ALL": "en_US.UTF-8", "LANGUAGE": "en"}
    db = f"sqlite:///{tmp_path / 'corazones.sqlite'}"
    args = [sys.executable, "-m", "corazones", "serve", "--port", str(port), "--db", db, "--lang", lang]
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env) as server:
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
        finally:
            server.terminate()
            server.wait(timeout=30)
    expected = {
        "en": f"Corazones is serving at http://127.0.0.1:{port}/  (database {db}; Ctrl+C stops)\n",
        "es": f"Corazones sirve en http://127.0.0.1:{port}/  (base de datos {db}; Ctrl+C lo detiene)\n",
    }
    assert line == expected[lang]
