"""The ``corazones`` command line: rules, play (watched and typed), replay and verify."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from corazones.cli.main import app
from corazones.core import PRESETS, Action, Game, Kind, Rules, card_str
from corazones.core.records import dumps, loads, make_record, verify_record
from corazones.players.registry import make_player
from tests.helpers import hand_entries

runner = CliRunner()
#: The language comes from the locale when --lang is not given: the tests pin English.
ENGLISH = {"LC_ALL": "en_US.UTF-8", "LANGUAGE": "en"}


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    """Exit code and output (stdout and stderr) with the error box drawn by the terminal toolkit flattened."""
    result = runner.invoke(app, list(args), input=input, env=ENGLISH)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    assert "Traceback" not in result.output
    return result.exit_code, flat


# --------------------------------------------------------------------- rules
def test_rules_lists_every_preset() -> None:
    code, out = run("rules")
    assert code == 0
    for name in PRESETS:
        assert name in out


def test_rules_shows_one_preset_with_overrides() -> None:
    code, out = run("rules", "omnibus", "-n", "5", "-o", "target=50")
    assert code == 0
    assert "card_points QS=13 JD=-10" in out and "players 5" in out and "target 50" in out
    assert "10 cards, kitty 0" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "bridge"], "unknown preset 'bridge'; presets: standard, black_lady"),
        (["play", "-r", "bridge"], "Invalid value for '--rules': unknown preset 'bridge'; presets: standard"),
        (["play", "-o", "jokers=2"], "Invalid value for '--option': unknown option(s) jokers; options:"),
        (["play", "-o", "moon=sometimes"], "moon = 'sometimes' is not allowed; moon is one of: choice, add_to_others"),
        (["play", "-o", "target"], "'target' must look like name=value (e.g. target=50"),
        (["play", "-o", "passes=up"], "each entry of passes = 'up' is not allowed"),
        (["play", "-n", "2"], "Invalid value for '--players': players = 2 is not possible with one deck"),
        (["play", "-n", "many"], "Invalid value for '--players' / '-n'"),
        (["play", "--seat", "5"], "Invalid value for '--seat': seat 5 does not exist; allowed: 1 to 4"),
        (["play", "--lang", "fr"], "Invalid value for '--lang': unknown language 'fr'; languages: en, es"),
        (["play", "--level", "genius"], "Invalid value for '--level': unknown level 'genius'; levels: "),
        (["play", "--hands", "0"], "Invalid value for '--hands': must be at least 1, not 0"),
        (["play", "--record", "/no/such/folder/g.json"], "folder '/no/such/folder' does not exist"),
        (["rules", "standard", "-o", "target=0"], "target = 0 is out of range; allowed: 1 to"),
    ],
)
def test_bad_input_gives_a_clear_message_and_a_usage_exit(args: list[str], message: str) -> None:
    code, out = run(*args)
    assert code == 2
    assert message in out


def test_list_options_accept_commas() -> None:
    code, out = run("rules", "standard", "-o", "passes=left,right")
    assert code == 0 and "passes left right" in out


@pytest.mark.integration
def test_the_real_entry_point_reports_bad_options_without_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "corazones", "play", "-o", "passes=5"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "passes must be a list" in " ".join(re.sub(r"[│╭╮╰╯─]", " ", proc.stderr).split())
    assert "Traceback" not in proc.stderr


@pytest.mark.integration
def test_a_typed_byte_that_is_not_utf8_is_shown_as_that_byte() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "corazones", "play", "--line", "--seed", "s"],
        input=b"zz\xff\nq\n",
        capture_output=True,
        timeout=60,
        # a UTF-8 locale's strict standard input, where a stray byte used to end the game with a traceback
        env={**os.environ, "LANGUAGE": "en", "PYTHONIOENCODING": "utf-8:strict"},
    )
    out = proc.stdout.decode("utf-8")  # what was printed is UTF-8 throughout
    assert "Not accepted: 'zz\\xff' is not a card" in out, out
    assert "Traceback" not in proc.stderr.decode("utf-8", "replace")


# ------------------------------------------------------- watched game, replay, verify
@pytest.fixture(scope="module")
def watched(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    path = tmp_path_factory.mktemp("rec") / "game.json"
    code, out = run("play", "--auto", "--level", "random", "--seed", "7", "--hands", "2", "--record", str(path))
    assert code == 0
    return path, out


def test_auto_play_writes_a_record_that_verify_accepts(watched: tuple[Path, str]) -> None:
    path, out = watched
    assert f"Record written to {path}" in out
    rec = loads(path.read_text(encoding="utf-8"))
    # --hands 2 is a game of two hands, as on a terminal: it ends after them with its winners
    assert len(rec["hands"]) == 2 and rec["final"]["over"] is True and rec["rules"]["hands"] == 2
    code, out = run("verify", str(path))
    assert code == 0
    assert out.startswith(f"OK {path}: {len(rec['actions'])} actions, 2 hands, game over, winner(s) ")


def test_replay_prints_every_trick_with_running_points(watched: tuple[Path, str]) -> None:
    path, _ = watched
    rec = loads(path.read_text(encoding="utf-8"))
    result = runner.invoke(app, ["replay", str(path), "--no-glyphs"], env=ENGLISH)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    for h, hand in enumerate(rec["hands"]):
        start = lines.index(next(x for x in lines if x.startswith(f"Hand {h + 1}: Seat ")))
        end = lines.index(f"Hand {h + 1} over.")
        tricks = [x for x in lines[start:end] if re.match(r"^\s+\d+\. ", x)]
        assert [int(x.split(".")[0]) for x in tricks] == list(range(1, 14))
        running = [json.loads("[" + x.rsplit("[", 1)[1].replace(" ", ",")) for x in tricks]
        assert running[-1] == hand["points"], "the last running total is the hand's points"
        assert all(sum(a) <= sum(b) for a, b in itertools.pairwise(running)), "points only grow in a hand"
        assert "passes" in lines[start + 1]
    assert lines[-1].startswith("Game over. Winner(s): Seat")


def test_replay_of_a_finished_quick_game(tmp_path: Path) -> None:
    path = tmp_path / "quick.json"
    code, _ = run("play", "--auto", "--level", "random", "--seed", "3", "-r", "quick", "--record", str(path))
    assert code == 0
    code, out = run("replay", str(path))
    assert code == 0 and "Game over. Winner(s): Seat" in out and "13. Seat" in out


def test_replay_speaks_spanish_and_refuses_an_unknown_language(tmp_path: Path) -> None:
    path = tmp_path / "quick.json"
    code, _ = run("play", "--auto", "--level", "random", "--seed", "3", "-r", "quick", "--record", str(path))
    assert code == 0
    code, en = run("replay", str(path))
    code_es, es = run("replay", str(path), "--lang", "es")
    assert code == code_es == 0
    assert "Fin de la partida. Gana(n): Asiento" in es and "Mano 1: reparte Asiento" in es and "Game over" not in es
    assert "seat" not in es.lower(), "the default seat names are translated too"
    # the same cards in the same order, only the words change
    plays = re.findall(r"Seat (\d:\S+)", en)
    assert len(plays) >= 52 and plays == re.findall(r"Asiento (\d:\S+)", es)
    code, out = run("replay", str(path), "--lang", "fr")
    assert code != 0 and "unknown language 'fr'" in out and "en, es" in out


def test_verify_and_replay_name_a_tampered_action(watched: tuple[Path, str], tmp_path: Path) -> None:
    path, _ = watched
    rec = loads(path.read_text(encoding="utf-8"))
    i = next(k for k, a in enumerate(rec["actions"]) if "play" in a)
    rec["actions"][i + 1]["play"] = rec["actions"][i]["play"]  # a card already on the table
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec), encoding="utf-8")
    code, out = run("verify", str(bad))
    assert code == 1
    assert f"FAIL {bad}: action #{i + 2} (seat " in out and "does not hold" in out
    code, out = run("replay", str(bad))
    assert code == 1 and f"replay stopped: action #{i + 2}" in out


def test_verify_names_a_changed_score(watched: tuple[Path, str], tmp_path: Path) -> None:
    path, _ = watched
    rec = loads(path.read_text(encoding="utf-8"))
    rec["hands"][0]["totals"][1] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec, indent=1), encoding="utf-8")
    code, out = run("verify", str(bad))
    assert code == 1 and "hand 1 (ended by action #" in out and "totals: the record says" in out


def test_verify_reports_a_cut_record_as_a_record(watched: tuple[Path, str], tmp_path: Path) -> None:
    path, _ = watched
    text = path.read_text(encoding="utf-8")
    bad = tmp_path / "cut.json"
    bad.write_text(text[: len(text) // 2], encoding="utf-8")
    code, out = run("verify", str(bad))
    assert code == 1 and f"FAIL {bad}: not JSON" in out
    code, out = run("replay", str(bad))
    assert code == 2 and "not JSON" in out


def test_verify_and_replay_of_missing_files(tmp_path: Path) -> None:
    code, out = run("verify", str(tmp_path / "nope.json"))
    assert code == 2 and "cannot read" in out
    code, out = run("replay", str(tmp_path / "nope.json"))
    assert code == 2 and "cannot read" in out
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    code, out = run("verify", str(empty))
    assert code == 1 and "no deal to check" in out and "0 passed, 0 failed" in out


def test_verify_hand_log_lines(tmp_path: Path) -> None:
    entries = hand_entries("standard", {}, seed=5, hands=3)
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(json.dumps(e) for e in entries) + "\n\n", encoding="utf-8")
    code, out = run("verify", str(good))
    assert code == 0 and "line 1: ok, points" in out and out.endswith("3 passed, 0 failed")
    entries[1]["expect"]["points"] = [9, 9, 9, 9]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("\n".join(json.dumps(e) for e in entries) + "\n\n{oops\n", encoding="utf-8")
    code, out = run("verify", str(mixed))
    assert code == 1
    assert "line 2: FAIL mismatch: points: the log says [9, 9, 9, 9], the rules give [" in out
    assert "line 5: FAIL malformed: not JSON" in out
    assert out.endswith("2 passed, 2 failed")


def test_verify_accepts_one_pretty_printed_entry(tmp_path: Path) -> None:
    entry = hand_entries("black_maria", {}, seed=5, hands=1)[0]
    path = tmp_path / "one.json"
    path.write_text(json.dumps(entry, indent=2), encoding="utf-8")
    code, out = run("verify", str(path))
    assert code == 0 and "line 1: ok" in out and out.endswith("1 passed, 0 failed")


# ---------------------------------------------------------------- typed game
def scripted_answers(preset: str, seed: int, mistakes: bool = True, stop_after: int | None = None) -> list[str]:
    """What seat 0 types to play ``preset`` with ``seed`` against random bots, mistakes first.

    The game is played here with the same bots and the same seeds the command
    uses, so the answers are legal when the command asks.  With ``mistakes``,
    the first pass and some plays are preceded by wrong answers.
    """
    game = Game(Rules.preset(preset), seed)
    bots = {s: make_player("random", f"{seed}/{s}") for s in range(1, game.rules.players)}
    lines: list[str] = []
    followed = held = False
    while not game.over:
        for seat in game.to_act():
            obs = game.observation(seat)
            if seat != 0:
                game.apply(bots[seat].act(obs))
                continue
            if stop_after is not None and len(lines) >= stop_after:
                return [*lines, "q"]
            if obs.decision is Kind.PASS:
                cards = list(obs.hand[-3:])
                if mistakes and not lines:
                    foreign = next(c for c in range(52) if c not in obs.hand)
                    lines += ["2C", "ZZ AH KH", " ".join(card_str(c) for c in [foreign, *cards[:2]])]
                lines.append(" ".join(card_str(c) for c in cards))
                game.apply(Action.pass_cards(0, cards))
            elif obs.decision is Kind.PLAY:
                legal = [a.card for a in obs.legal]
                wrong = [c for c in obs.hand if c not in legal]
                if mistakes and obs.trick and wrong and not followed:
                    followed = True
                    lines.append(card_str(wrong[0]))
                if mistakes and not held and len(obs.tricks) == 3:
                    held = True
                    lines.append(card_str(next(c for c in range(52) if c not in obs.hand)))
                lines.append(card_str(legal[0]))
                game.apply(Action.play(0, legal[0]))
            elif obs.decision is Kind.MOON:
                lines += ["x", "a"]
                game.apply(Action.moon(0, "add_to_others"))
            else:
                raise AssertionError(obs.decision)
    return lines


def typed(*args: str, answers: list[str]) -> tuple[int, str]:
    return run("play", "--level", "random", *args, input="\n".join(answers) + "\n")


def test_a_typed_game_explains_bad_input_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "typed.json"
    code, out = typed("-r", "quick", "--seed", "1", "--record", str(path), answers=scripted_answers("quick", 1))
    assert code == 0
    assert "Not accepted: pass exactly 3 cards, you typed 1" in out
    assert "Not accepted: 'ZZ' is not a card; type rank then suit" in out
    assert "Not accepted: you do not hold" in out
    assert "Not accepted: you must follow suit" in out
    assert "You received from Seat 4:" in out and "Taken this hand: you 0" in out
    assert "Hand 1 over." in out and "Game over. Winner(s):" in out
    rec = loads(path.read_text(encoding="utf-8"))
    assert rec["players"][0] == "seat 0" and rec["final"]["over"] is True, "records keep language-neutral names"
    verify_record(rec)


def test_a_typed_game_in_spanish(tmp_path: Path) -> None:
    code, out = typed("-r", "quick", "--seed", "2", "--lang", "es", answers=scripted_answers("quick", 2))
    assert code == 0
    for text in ("Usted es el asiento 1", "Su mano:", "No aceptado: pase exactamente 3 cartas", "Recibió de Asiento"):
        assert text in out
    assert "la gana" in out and "Fin de la mano 1." in out and "Fin de la partida." in out
    assert "Your hand" not in out


def test_q_abandons_and_keeps_a_valid_record(tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    answers = scripted_answers("quick", 1, mistakes=False, stop_after=4)
    code, out = typed("-r", "quick", "--seed", "1", "--record", str(path), answers=answers)
    assert code == 0 and "Game abandoned." in out and f"Record written to {path}" in out
    rec = loads(path.read_text(encoding="utf-8"))
    assert rec["final"]["over"] is False and sum(1 for a in rec["actions"] if a["seat"] == 0) == 4
    verify_record(rec)
    replayed = runner.invoke(app, ["replay", str(path), "--no-glyphs"], env=ENGLISH)
    assert replayed.exit_code == 0 and replayed.output.splitlines()[-1] == "The record ends before the game does."


def test_end_of_input_interrupts_cleanly() -> None:
    code, out = typed("-r", "quick", "--seed", "1", answers=[])
    assert code == 130 and "Game interrupted." in out


def human_record_actions(rec: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in rec["actions"] if a["seat"] == 0]


def test_typed_answers_are_what_the_record_keeps(tmp_path: Path) -> None:
    path = tmp_path / "clean.json"
    answers = scripted_answers("quick", 4, mistakes=False)
    code, _ = typed("-r", "quick", "--seed", "4", "--record", str(path), answers=answers)
    assert code == 0
    mine = human_record_actions(loads(path.read_text(encoding="utf-8")))
    typed_cards = [a.get("play") or " ".join(a["pass"]) for a in mine if "moon" not in a]
    assert typed_cards == [x for x in answers if x not in ("x", "a")]


def test_auction_questions_explain_bad_answers() -> None:
    code, out = typed("-r", "auction_hearts", "--seed", "5", answers=["x", "99", "1", "Z", "♠", "q"])
    assert code == 0
    assert out.count("Not accepted: type a whole number: 0 for no bid, or 1 to 25") == 2
    assert "Not accepted: type one suit letter: C, D, S or H" in out
    assert "Penalty suit: ♠ (named by you)." in out and "Game abandoned." in out


def test_question_mark_asks_for_a_hint_and_the_game_goes_on() -> None:
    """Typing ? prints the standard level's suggestion, then asks the same question again."""
    from corazones.cli.main import app

    result = CliRunner().invoke(app, ["play", "-r", "standard", "--seed", "3"], input="?\nq\n", env=ENGLISH)
    out = result.output
    assert "Hint:" in out
    # asked twice: once before the hint, once after it
    assert out.count("? for a hint") == 2
    hint_line = next(line for line in out.splitlines() if "Hint:" in line).split("Hint:", 1)[1]
    # the cards are named the way the screen names them (suit symbols), and each only once
    cards = re.findall(r"(?:10|[2-9JQKA])[♣♦♠♥]", hint_line)
    assert len(cards) == len(set(cards)) == 3
    assert not re.search(r"\b(?:10|[2-9JQKA])[CDSH]\b", hint_line)


# ------------------------------------------------------ refusals in Spanish
SPANISH = {"LC_ALL": "es_ES.UTF-8", "LANGUAGE": "es"}


def run_es(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Like :func:`run`, with the locale given (English unless said)."""
    result = runner.invoke(app, list(args), env=env or ENGLISH)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["play", "-o", "target=0"],
            "Valor no válido para '--option': target = 0 está fuera de rango; se permite: de 1 a",
        ),
        (
            ["play", "-o", "target"],
            "Valor no válido para '--option': 'target' debe tener la forma nombre=valor (p. ej.",
        ),
        (["play", "-o", "t=" + "9" * 3000], "'--option': una opción de 3.002 caracteres; como mucho 2.000"),
        (
            ["play", "-r", "bridge"],
            "'--rules': modalidad desconocida 'bridge'; modalidades: standard, black_lady",
        ),
        (["play", "--seed", "x" * 300], "'--seed': una semilla de texto tiene como mucho 256 caracteres, no 300"),
        (["play", "--seat", "5"], "Valor no válido para '--seat': el asiento 5 no existe; se permite: de 1 a 4"),
        (["play", "--hands", "0"], "Valor no válido para '--hands': debe ser al menos 1, no 0"),
        (["play", "--level", "genius"], "Valor no válido para '--level': nivel desconocido 'genius'; niveles: random"),
        (["play", "--record", "/no/such/folder/g.json"], "la carpeta '/no/such/folder' no existe"),
        (["pad", "--names", "Ana,Bea"], "'--names': dé un nombre a cada uno de los 4 jugadores (se dieron 2)"),
        (["verify", "--seed", "1"], "Valor no válido para '--seed': dé --seed y --commitment juntos"),
    ],
)
def test_a_refused_flag_is_explained_in_the_language_asked_for(args: list[str], message: str) -> None:
    """The flag, the bad value and what is allowed, in the words of --lang (the toolkit's frame too)."""
    code, out = run_es(*args, "--lang", "es")
    assert code == 2
    assert message in out
    assert "Invalid value" not in out


def test_a_language_the_catalog_lacks_is_refused_in_the_locale_language() -> None:
    code, out = run_es("play", "--lang", "fr", env=SPANISH)
    assert code == 2 and "Valor no válido para '--lang': idioma desconocido 'fr'; idiomas: en, es" in out
    code, out = run_es("play", "--lang", "fr")
    assert code == 2 and "Invalid value for '--lang': unknown language 'fr'; languages: en, es" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["arena", "random", "random", "-j", "0"], "Valor no válido para '--workers': debe ser al menos 1, no 0"),
        (
            ["arena", "random", "random", "--backend", "gpu"],
            "'--backend': 'gpu' no está permitido; motores: local, ray",
        ),
        (["arena", "random"], "'PLAYER': la arena necesita al menos dos jugadores, recibió 1; niveles: random"),
        (
            ["serve", "--port", "70000"],
            "Valor no válido para '--port': 70000 no es un puerto; se permite: de 0 a 65535",
        ),
        (["serve", "--log-level", "loud"], "'--log-level': nivel desconocido 'loud'; niveles: critical, error"),
        (["rules", "standard", "-o", "moon=sometimes"], "'--option': moon = 'sometimes' no"),
    ],
)
def test_commands_without_lang_refuse_flags_in_the_locale_language(args: list[str], message: str) -> None:
    code, out = run_es(*args, env=SPANISH)
    assert code == 2 and message in out, out


def test_the_command_line_raises_no_usage_error_built_by_hand() -> None:
    """Every refused flag goes through flags.refuse / FlagRefused, whose text is a template in the catalog:
    a typer.BadParameter with an English f-string would reach a Spanish user in English."""
    import ast

    cli = Path(__file__).resolve().parent.parent / "src" / "corazones" / "cli"
    found = []
    for path in sorted(cli.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "BadParameter":
                found.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "refuse":
                template = node.args[2] if len(node.args) > 2 else None
                marked = isinstance(template, ast.Name) or (
                    isinstance(template, ast.Call) and isinstance(template.func, ast.Name) and template.func.id == "N_"
                )
                if not marked:
                    found.append(f"{path.name}:{node.lineno} (template not N_)")
    assert not found, found


def test_unusable_input_is_explained_in_the_language_asked_for(tmp_path: Path) -> None:
    """A file that cannot be read at all is a one-line error in --lang, naming the file and why."""
    code, out = run("replay", str(tmp_path), "--lang", "es")
    assert code == 2 and f"error: no se puede leer {tmp_path}: es una carpeta, no un archivo" in out
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"format": "caf\xe9"}')
    code, out = run("verify", str(bad), "--lang", "es")
    assert code == 2 and f"error: no se puede leer {bad}: no es texto UTF-8 (byte 15)" in out
    code, out = run("replay", str(bad))
    assert code == 2 and f"error: cannot read {bad}: not UTF-8 text (byte 15)" in out


def test_verify_names_the_winners_as_the_web_table_does(tmp_path: Path) -> None:
    """Records name a bot "<level> bot" and an unnamed seat "seat I" (from 0); verify says "Bot N" and
    "Seat N" (from 1), as the table in the browser does, and a person by their name."""
    game = Game(Rules.preset("quick", hands=1), "verify-names")
    rng_seed = 0
    while not game.over:
        seat = game.to_act()[0]
        game.apply(make_player("random", f"names/{rng_seed}").act(game.observation(seat)))
        rng_seed += 1
    for players, expected in (
        (["Ana", "random bot", "standard bot", "seat 3"], ["Ana", "Bot 2", "Bot 3", "Seat 4"]),
        (None, ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]),
    ):
        path = tmp_path / "game.json"
        path.write_text(dumps(make_record(game, players)), encoding="utf-8")
        code, out = run("verify", str(path))
        assert code == 0, out
        named = ", ".join(expected[s] for s in game.winners)
        assert f"game over, winner(s) {named}, " in out, out


@pytest.mark.parametrize(
    ("lang", "title"), [("en", "Score pad: Black Maria, 3 players"), ("es", "Hoja de tanteo: María Negra, 3 jugadores")]
)
def test_the_line_pad_names_the_game_by_its_title_as_every_face_does(lang: str, title: str) -> None:
    code, out = run("pad", "--line", "-r", "black_maria", "--names", "Ana,Bea,Carl", "--lang", lang, input="quit\n")
    assert code == 0 and title in out, out
