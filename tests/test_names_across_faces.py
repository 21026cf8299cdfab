"""The names a player reads are the same in every face: bot levels, and seats counted from 1.

A player who plays in the terminal and then in the browser (or checks a web
game's record with ``corazones verify`` and then replays it) must meet the
same names: each bot level by one word per language, and each seat by the
number people use at a table, 1 to N (a record's ``seat`` fields stay indexes
from 0, as data).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corazones import Game, Rules
from corazones.cli.main import app
from corazones.cli.render import Seats
from corazones.core.cards import format_cards
from corazones.core.records import dumps, loads, make_record
from corazones.core.rules import PRESETS
from corazones.i18n import LANGS, translator
from corazones.players.registry import LEVELS, make_player
from corazones.tui import texts
from corazones.tui.replay import ReplayScreen

ROOT = Path(__file__).resolve().parent.parent
WORDS_JS = ROOT / "src/corazones/server/static/js/words.js"


def web_level_msgids() -> dict[str, str]:
    """``levelName``'s msgid for each level, read from the web app's source."""
    source = WORDS_JS.read_text(encoding="utf-8")
    body = re.search(r"export function levelName\(level\) \{(.*?)\n\}", source, re.S)
    assert body, "words.js's levelName moved: update this test"
    return dict(re.findall(r'case "(\w+)": return t\("([^"]+)"\);', body.group(1)))


@pytest.mark.parametrize("lang", LANGS)
def test_every_level_has_the_same_name_in_the_terminal_and_on_the_web(lang: str) -> None:
    web = web_level_msgids()
    gettext = translator(lang).gettext
    previous = texts.lang()
    texts.set_lang(lang)
    try:
        for level in LEVELS:
            assert level in web, f"the web app has no name for the level {level!r}"
            assert texts.level_name(level) == gettext(web[level]), (lang, level)
        shown = [texts.level_name(level) for level in LEVELS]
        assert len(set(shown)) == len(shown), shown  # no two levels read alike
    finally:
        texts.set_lang(previous)


def web_record(tmp_path: Path) -> Path:
    """A finished quick game as the web server records it: a person, then bots named ``<level> bot``."""
    game = Game(Rules.preset("quick"), 12)
    bots = [make_player("standard", seed=s) for s in range(4)]
    while not game.over:
        for s in game.to_act():
            game.apply(bots[s].act(game.observation(s)))
    path = tmp_path / "web.json"
    path.write_text(dumps(make_record(game, ["Lola", "standard bot", "standard bot", "expert bot"])), encoding="utf-8")
    return path


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    return result.exit_code, " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())


def test_replay_and_verify_name_a_web_games_seats_alike_counted_from_1(tmp_path: Path) -> None:
    path = web_record(tmp_path)
    code, verified = cli("verify", str(path))
    assert code == 0
    winners = re.search(r"winner\(s\) (.+?), scores", verified)
    assert winners, verified
    code, replayed = cli("replay", str(path), "--no-glyphs")
    assert code == 0
    # Two bots of one level are told apart, by the number verify and the web give them.
    assert "in seat order: Lola, Bot 2, Bot 3, Bot 4]" in replayed, replayed
    assert "standard bot" not in replayed and "expert bot" not in replayed, replayed
    assert f"Game over. Winner(s): {winners.group(1)};" in replayed, (verified, replayed)
    record = loads(path.read_text(encoding="utf-8"))
    path.with_name("plain.json").write_text(dumps(dict(record, players=[f"seat {s}" for s in range(4)])), "utf-8")
    for lang, seat in (("en", "Seat"), ("es", "Asiento")):
        code, plain = cli("replay", str(path.with_name("plain.json")), "--no-glyphs", "--lang", lang)
        assert code == 0 and f": {seat} 1, {seat} 2, {seat} 3, {seat} 4]" in plain, plain
        code, checked = cli("verify", str(path.with_name("plain.json")), "--lang", lang)
        names = re.search(r"(?:winner\(s\)|gana\(n\)) (.+?), (?:scores|tanteo)", checked)
        assert code == 0 and names and names.group(1).startswith(seat + " "), checked
        assert f"{names.group(1)};" in plain, (checked, plain)


def test_the_full_screen_replay_names_seats_as_the_printed_one(tmp_path: Path) -> None:
    record = loads(web_record(tmp_path).read_text(encoding="utf-8"))
    previous = texts.lang()
    try:
        for lang, words in (("en", ("Seat", "Bot")), ("es", ("Asiento", "Bot"))):
            texts.set_lang(lang)
            assert ReplayScreen(record).names == ["Lola", f"{words[1]} 2", f"{words[1]} 3", f"{words[1]} 4"]
            unnamed = dict(record, players=[f"seat {s}" for s in range(4)])
            assert ReplayScreen(unnamed).names == [f"{words[0]} {s}" for s in (1, 2, 3, 4)]
            assert Seats(lang, 4, None, unnamed["players"]).names == ReplayScreen(unnamed).names
    finally:
        texts.set_lang(previous)


def test_the_line_game_seats_you_where_seat_says_counted_from_1() -> None:
    rules = Rules.preset("quick")
    hand = format_cards(Game(rules, 3).observation(1).hand, glyphs=True)
    result = CliRunner().invoke(app, ["play", "--line", "-r", "quick", "--seed", "3", "--seat", "2"], input="q\n")
    assert "You are seat 2." in result.output, result.output
    assert f"Your hand: {hand}" in result.output, result.output
    assert "Hand 1: Seat 1 deals" in result.output and "to Seat 3" in result.output, result.output


@pytest.mark.parametrize("command", ["play", "review", "replay"])
def test_seat_0_is_refused_and_says_seats_count_from_1(command: str, tmp_path: Path) -> None:
    path = web_record(tmp_path)
    args = ["play", "--line"] if command == "play" else [command, str(path)]
    code, out = cli(*args, "--seat", "0")
    assert code == 2 and "--seat" in out, out
    assert "allowed: 1 to 4" in out or "from 1 to 4, not 0" in out, out


def web_preset_msgids() -> dict[str, str]:
    """``presetTitle``'s msgid for each preset, read from the web app's source."""
    source = (ROOT / "src/corazones/server/static/js/options.js").read_text(encoding="utf-8")
    body = re.search(r"export function presetTitle\(name\) \{(.*?)\n\}", source, re.S)
    assert body, "options.js's presetTitle moved: update this test"
    return dict(re.findall(r'case "(\w+)": return t\("([^"]+)"\);', body.group(1)))


@pytest.mark.parametrize("lang", LANGS)
def test_every_preset_has_the_same_title_in_the_terminal_and_on_the_web(lang: str) -> None:
    web = web_preset_msgids()
    gettext = translator(lang).gettext
    previous = texts.lang()
    texts.set_lang(lang)
    try:
        for name in PRESETS:
            assert texts.preset_title(name) == gettext(web[name]), (lang, name)
        # The start screen's help and the table's header say the title, not the preset's key.
        assert texts.rules_lines(Rules.preset("black_maria"))[0].split(" — ")[0].endswith(gettext("Black Maria"))
    finally:
        texts.set_lang(previous)
