"""The score pad's faces: the line mode in a pipe (Typer's runner) and the full-screen sheet (Textual's pilot)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input
from typer.testing import CliRunner

from corazones.cli.main import app
from corazones.cli.pad_cmd import run_lines
from corazones.core import Rules
from corazones.core.pad import Entry, Pad, Revoke, loads
from corazones.core.pad.grammar import HandSyntaxError, entry_text, parse_hand
from corazones.tui.pad.app import PadApp, SetupScreen, SheetScreen
from tests.helpers import says, unwritable_folder
from tests.tui_driver import enter, run_pilot

runner = CliRunner()
NAMES = "Ana,Bea,Carl,Dan"


def run(args: list[str], lines: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, ["pad", *args], input="\n".join(lines) + "\n")
    return result.exit_code, result.output


# ------------------------------------------------------------- hand lines
def test_hand_lines_are_read_like_a_player_writes_them() -> None:
    pad = Pad(Rules.preset("omnibus"), ("Ana", "Bea", "Carl", "Dan"))
    assert parse_hand(pad, "3 4 6 0 QS=carl JD=2") == Entry.quick([3, 4, 6, 0], {"QS": 2, "JD": 1})
    assert parse_hand(pad, "13 0 0 0 Q♠=Ana J♦ = Bea moon=add # Ana shot") == Entry.quick(
        [13, 0, 0, 0], {"QS": 0, "JD": 1}, moon="add_to_others", note="Ana shot"
    )
    assert parse_hand(pad, "p 16 0 0 0 shot=a moon=sub revoke=d!") == Entry.by_points(
        [16, 0, 0, 0], shooters=(0,), moon="subtract_from_self", revokes=(Revoke(3, True),)
    )
    spot = Pad(Rules.preset("spot_hearts"), ("Ana", "Bea", "Carl", "Dan"))
    e = parse_hand(spot, "Ana:AH,KH,QH Bea:JH,10H,9H,8H,7H Carl:6H,5H,4H Dan:3H,2H,QS")
    assert spot.add(e).scores == (39, 45, 15, 18)
    for bad, why in [
        ("3 4 x 0", "x is not understood"),
        ("QS=Zed", "Zed is not a player"),
        ("ZZ=Ana", "ZZ is not a card"),
        ("p --5 5 10 16", "--5 is not understood"),  # one sign makes a number; two were read, then crashed
    ]:
        with pytest.raises(HandSyntaxError, match=why):
            parse_hand(pad, bad)
    both = Pad(Rules.preset("standard"), ("Ana", "Andrés", "Bea", "Dan"))
    with pytest.raises(HandSyntaxError, match="could be Ana, Andrés"):
        parse_hand(both, "13 0 0 0 QS=An")
    for entry in (
        Entry.quick([3, 4, 6, 0], {"QS": 2, "JD": 1}, note="x"),
        Entry.by_points([16, 0, 0, 0], shooters=(0,), moon="add_to_others"),
    ):
        assert parse_hand(pad, entry_text(pad, entry)) == entry


# -------------------------------------------------------------- line mode
def test_line_mode_in_a_pipe(tmp_path: Path) -> None:
    save, csv = tmp_path / "pad.json", tmp_path / "pad.csv"
    code, out = run(
        ["--names", NAMES, "-o", "target=45", "--save", str(save), "--csv", str(csv)],
        [
            "3 4 6 0 QS=Carl",
            "3 4 5 0 QS=Carl",  # refused: 12 hearts
            "13 0 0 0 QS=Ana",  # refused: the moon choice is missing
            "13 0 0 0 QS=Ana moon=add",
            "undo",
            "p 0 26 0 0 moon=sub",
            "edit 1 0 4 6 3 QS=Ana",
            "p 13 0 0 13",
            "p 13 0 0 13",  # Ana 39, Dan 29: Ana is close to 45
            "p 13 13 0 0",  # Ana 52: the game ends
            "p 13 13 0 0",
        ],
    )
    assert code == 0, out
    assert "Hand 1: Ana 3, Bea 4, Carl 19, Dan 0" in out
    assert "Not accepted: the ♥ cards add up to 12, but 13 are in play" in out
    assert "Not accepted: Ana took every penalty card: choose" in out
    assert "Ana shot the moon and adds 26 to the others." in out
    assert "Hand 2 removed." in out
    assert "Hand 1 changed; the rows after it are recomputed." in out
    assert "Totals: Ana 13, Bea -22, Carl 6, Dan 3" in out
    assert "Close to 45: Ana" in out
    assert "Game over. Winner(s): Bea" in out
    assert "Not accepted: the game is over; it ended with hand 5" in out
    pad = loads(save.read_text())
    assert pad.totals == (52, -9, 6, 29) and pad.over
    assert csv.read_text().splitlines()[0].startswith("hand,Ana,Bea,Carl,Dan")


def test_a_save_that_fails_says_why_and_the_pad_goes_on(tmp_path: Path) -> None:
    """A folder that refuses the file: the reason is said, no hand is lost, and a failed CSV at the end exits 1."""
    folder, _ = unwritable_folder(tmp_path)
    pad = Pad(Rules.preset("standard"), ("Ana", "Bea", "Carl", "Dan"))
    good = tmp_path / "pad.json"
    lines = ["3 4 6 0 QS=Carl", f"save {folder / 'x.json'}", "p 0 26 0 0 moon=sub", f"save {good}"]
    out = StringIO()
    code = run_lines(pad, "en", StringIO("\n".join(lines) + "\n"), out, folder / "pad.json", folder / "pad.csv")
    text = out.getvalue()
    assert code == 1, text
    assert text.count(f"Could not save to {folder}") == 4, text  # after each hand, the save command, the CSV
    assert f"Written to {good}" in text
    assert len(pad.rows) == 2 and loads(good.read_text()).rows == pad.rows


def test_line_mode_speaks_spanish_and_loads_a_pad(tmp_path: Path) -> None:
    saved = tmp_path / "pad.json"
    pad = Pad(Rules.preset("hearts_1887", stake=20, players=3), ("Ana", "Bea", "Carl"))
    pad.add(Entry.quick([2, 3, 8]))
    saved.write_text(pad.dumps())
    code, out = run(["--load", str(saved), "--lang", "es"], ["hoja", "5 5", "4 4 5 renuncio=Carl"])
    assert code == 0, out
    assert "Fichas: Ana 31, Bea 17, Carl 12; bote 0" in out
    assert "No aceptado: dé un número por jugador (3 números)" in out
    # Ana and Bea share Carl's 5 (the odd chip to the pool); Carl's revoke puts 13 more in the pool
    assert "Fichas: Ana 33, Bea 19, Carl -6; bote 14" in out
    assert "Fin de la partida. Gana(n): Ana" in out


def test_bad_command_line_input_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {"format": "corazones-pad", "version": 1, "rules": {"name": "standard"}, "names": ["a"], "hands": []}
        )
    )
    for args, why in [
        (["--names", "Ana,Bea"], "name each of the 4 players"),
        (["--load", str(bad)], "name each of the 4 players"),
        (["--load", str(tmp_path / "missing.json")], "cannot read"),
        (["-r", "nope"], "unknown preset"),
    ]:
        result = runner.invoke(app, ["pad", *args], input="")
        flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())  # the error box, flattened
        assert result.exit_code == 2, result.output
        assert why in flat
        assert "Traceback" not in result.output


@pytest.mark.parametrize("digits", [4000, 5000])
def test_a_pad_file_with_a_huge_count_is_refused_in_one_short_line(tmp_path: Path, digits: int) -> None:
    """A count Python cannot even print (5,000 digits) or can (4,000) is refused by where it sits, not echoed."""
    bad = tmp_path / "huge.json"
    bad.write_text(
        '{"format": "corazones-pad", "version": 1, "rules": {"name": "standard"}, "names": ["a", "b", "c", "d"], '
        f'"hands": [{{"counts": [{"1" * digits}, 0, 0, 0]}}]}}'
    )
    # The count is grouped as each language groups digits: 4,000 in English, 4.000 in Spanish.
    for lang, words, sep in (
        ("en", "a number of {n} digits; numbers have at most 40", ","),
        ("es", "un número de {n} cifras", "."),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "corazones", "pad", "--load", str(bad), "--line", "--lang", lang],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=120,
            env={**os.environ, "COLUMNS": "100"},
        )
        flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", done.stderr).split())
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and "1" * 50 not in done.stderr
        assert "hands[0].counts[0]" in flat and words.format(n=f"{digits:,}".replace(",", sep)) in flat, flat
        assert len(done.stderr.splitlines()) <= 8


# ---------------------------------------------------------------- the TUI


def test_sheet_by_keyboard_enter_undo_edit(tmp_path: Path) -> None:
    run_pilot(sheet_by_keyboard(tmp_path / "pad.json"))


async def sheet_by_keyboard(save: Path) -> None:
    app = PadApp(rules=Rules.preset("standard"), save=save)
    async with app.run_test(size=(110, 30)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        await pilot.click("#pad-names")
        await pilot.press(*"Ana,Bea,Carl,Dan")
        await pilot.click("#pad-target")
        await pilot.press("5", "0", "enter")
        await pilot.pause()
        sheet = app.screen
        assert isinstance(sheet, SheetScreen)
        assert sheet.pad.names == ("Ana", "Bea", "Carl", "Dan") and sheet.pad.rules.target == 50
        await pilot.press(*"3 4 6 0 QS=Carl", "enter")
        await enter(pilot, "13 0 0 0 QS=Ana")  # refused: the moon choice
        await pilot.pause()
        assert len(sheet.pad.rows) == 1
        assert "choose whether they subtract 26" in str(sheet.query_one("#pad-error").render())
        await enter(pilot, "13 0 0 0 QS=Ana moon=add")
        await pilot.pause()
        assert sheet.pad.totals == (3, 30, 45, 26)
        table = sheet.query_one("#pad-sheet")
        assert table.row_count == 2  # type: ignore[attr-defined]
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert sheet.pad.totals == (3, 4, 19, 0)
        await enter(pilot, "p 0 26 0 0 moon=sub")
        # edit the first hand: select it in the sheet, Ctrl+E puts its line in the entry
        await pilot.click("#pad-sheet")
        await pilot.press("up", "ctrl+e")
        await pilot.pause()
        assert sheet.editing == 0
        assert sheet.query_one("#pad-entry").value == "3 4 6 0 Q♠=Carl"  # type: ignore[attr-defined]
        await pilot.press("ctrl+a", "ctrl+k", *"0 4 6 3 QS=Ana", "enter")
        await pilot.pause()
        assert sheet.editing is None
        assert [r.totals for r in sheet.pad.rows] == [(13, 4, 6, 3), (13, -22, 6, 3)]
        assert loads(save.read_text()).totals == (13, -22, 6, 3)
        assert "Leading: Bea" in str(sheet.query_one("#pad-status").render())


def test_sheet_of_a_chip_game_in_spanish() -> None:
    run_pilot(chip_game_in_spanish())


async def chip_game_in_spanish() -> None:
    pad = Pad(Rules.preset("auction_hearts", stake=10), ("Ana", "Bea", "Carl", "Dan"))
    app = PadApp(pad, lang="es")
    async with app.run_test(size=(110, 30)) as pilot:
        await enter(pilot, "4 3 3 3 suit=S by=Bea bid=3")
        await pilot.pause()
        sheet = app.screen
        assert isinstance(sheet, SheetScreen)
        assert sheet.pad.pool == 16
        status = str(sheet.query_one("#pad-status").render())
        assert "El bote pasa a la siguiente mano: Bea nombra el palo." in status
        await enter(pilot, "13 0 0 0 suit=C by=Ana")
        await pilot.pause()
        assert "el bote pasó a esta mano: Bea vuelve a nombrar el palo" in str(sheet.query_one("#pad-error").render())


# ------------------------------------------- what the sheet and the line say
WORDS = {
    "en": {
        "editing": "editing hand {n}",
        "not_player": "Eve is not a player",
        "moon_off": "the moon is not played in these rules",
        "shot": "shot=",
        "team": "Ana + Carl took every penalty card between them",
        "one_point": "Ana cannot take 1 point in one hand",
        "auction": ("suit=", "by=", "bid="),
    },
    "es": {
        "editing": "editando la mano {n}",
        "not_player": "Eve no es un jugador",
        "moon_off": "en estas reglas no se juega la luna",
        "shot": "caza=",
        "team": "Ana + Carl se llevaron entre ellos todas las cartas de castigo",
        "one_point": "Ana no puede llevarse 1 punto en una mano",
        "auction": ("palo=", "por=", "puja="),
    },
}


def line_reply(preset: str, line: str, lang: str, **options: Any) -> str:
    """What the line mode answers to one hand line (the pad engine, no process)."""
    pad = Pad(Rules.preset(preset, **options), ("Ana", "Bea", "Carl", "Dan")[: Rules.preset(preset).players])
    out = StringIO()
    run_lines(pad, lang, StringIO(line + "\n"), out, None, None)
    return out.getvalue()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_line_refusals_say_what_is_really_wrong(lang: str) -> None:
    words = WORDS[lang]
    said = line_reply("standard", "3 4 6 0 QS=Eve", lang)
    assert words["not_player"] in said and "Q♠" not in said.split("\n")[-2]
    # the rules switch the moon off: that is the reason, not "nobody took every penalty card"
    assert words["moon_off"] in line_reply("black_maria", "13 0 0 QS=Ana AS=Ana KS=Ana moon=add", lang)
    # Omnibus: 26 taken and J♦ (-10) make 16, which the points alone cannot tell from an ordinary hand
    assert words["shot"] in line_reply("omnibus", "p 16 0 0 0 moon=add", lang)
    # a side's moon is the side's: both partners are named
    assert words["team"] in line_reply("partnership", "7 0 6 0 QS=Ana", lang, moon_needs="team")
    # one point, not "1 points"
    assert words["one_point"] in line_reply("spot_hearts", "p 1 0 0 116", lang)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_auction_prompt_says_how_to_write_the_auction(lang: str) -> None:
    first = line_reply("auction_hearts", "quit", lang).splitlines()[1]
    assert all(word in first for word in WORDS[lang]["auction"]), first


@pytest.mark.parametrize("lang", ["en", "es"])
def test_sheet_arrows_then_ctrl_e_edit_the_chosen_hand_from_the_entry(lang: str) -> None:
    run_pilot(arrows_then_ctrl_e(lang))


@contextlib.asynccontextmanager
async def sheet_of(preset: str, lang: str, lines: tuple[str, ...]) -> AsyncIterator[tuple[Any, SheetScreen, Input]]:
    """A sheet for Ana, Bea, Carl and Dan with ``lines`` entered: the pilot, the sheet and its entry."""
    app = PadApp(Pad(Rules.preset(preset), ("Ana", "Bea", "Carl", "Dan")), lang=lang)
    async with app.run_test(size=(110, 30)) as pilot:
        sheet = app.screen
        assert isinstance(sheet, SheetScreen)
        for line in lines:
            await enter(pilot, line)
        yield pilot, sheet, sheet.query_one("#pad-entry", Input)


async def arrows_then_ctrl_e(lang: str) -> None:
    async with sheet_of("standard", lang, ("3 4 6 0 QS=Carl", "0 13 0 0 QS=Dan", "1 1 1 10 QS=Ana")) as (
        pilot,
        sheet,
        entry,
    ):
        assert entry.has_focus and len(sheet.pad.rows) == 3
        await enter(pilot, "3 4 6 0 QS=Eve")  # nobody is called Eve: that is what is wrong, not who took Q♠
        assert WORDS[lang]["not_player"] in str(sheet.query_one("#pad-error").render())
        entry.value = ""
        await pilot.press("up", "ctrl+e")  # as the keys line says, without leaving the entry
        await pilot.pause()
        assert sheet.editing == 1
        assert entry.value == "0 13 0 0 Q♠=Dan" and entry.cursor_position == len(entry.value)
        assert WORDS[lang]["editing"].format(n=2) in str(sheet.query_one("#pad-title").render())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_sheet_edit_n_puts_the_cursor_at_the_end_even_after_game_over(lang: str) -> None:
    run_pilot(edit_after_game_over(lang))


async def edit_after_game_over(lang: str) -> None:
    async with sheet_of("quick", lang, ("3 4 6 0 QS=Carl",)) as (pilot, sheet, entry):
        assert sheet.pad.over
        await pilot.press(*("editar 1" if lang == "es" else "edit 1"), "enter")
        await pilot.pause()
        assert sheet.editing == 0
        assert entry.value == "3 4 6 0 Q♠=Carl" and entry.cursor_position == len(entry.value)
        assert WORDS[lang]["editing"].format(n=1) in str(sheet.query_one("#pad-title").render())


def test_digits_that_are_not_numbers_are_refused_not_crashed() -> None:
    """``²`` and ``³`` pass ``str.isdigit`` but are no number ``int`` reads: they are words like any other."""
    pad = Pad(Rules.preset("omnibus"), ("Ana", "Bea", "Carl", "Dan"))
    for bad in ("² 4 6 0 QS=Ana JD=Ana", "3 4 6 0 QS=² JD=Ana"):
        with pytest.raises(HandSyntaxError):
            parse_hand(pad, bad)
    code, out = run(["--names", NAMES], ["del ²", "edit ³", "q"])
    assert code == 0 and "Traceback" not in out, out


# ------------------------------------------------- the pad's files: never lost, never overwritten


def saved_pad(path: Path, *hands: str) -> Path:
    """A pad of Ana, Bea, Carl and Dan with ``hands`` saved at ``path``."""
    pad = Pad(Rules.preset("standard"), ("Ana", "Bea", "Carl", "Dan"))
    for hand in hands:
        pad.add(parse_hand(pad, hand))
    path.write_text(pad.dumps())
    return path


def test_the_csv_flag_never_names_the_save_file(tmp_path: Path) -> None:
    """``--save X --csv X`` (or X through a link, a hard link) is refused before the first hand, naming both."""
    same = tmp_path / "same.x"
    result = runner.invoke(app, ["pad", "--names", NAMES, "--save", str(same), "--csv", str(same)], input="q\n")
    assert result.exit_code == 2, result.output
    assert says(result.output, f"'--csv': '{same}' is the pad's own file (--save '{same}')"), result.output
    assert not same.exists()
    link = tmp_path / "link.csv"
    link.symlink_to(tmp_path / "s.json")  # a link to the --save file, not written yet
    result = runner.invoke(app, ["pad", "--names", NAMES, "--save", str(tmp_path / "s.json"), "--csv", str(link)])
    assert result.exit_code == 2
    assert says(result.output, f"'{link}' is the pad's own file (--save '{tmp_path / 's.json'}')"), result.output
    hard = tmp_path / "hard.csv"
    os.link(saved_pad(tmp_path / "h.json", "3 4 6 0 QS=Carl"), hard)
    result = runner.invoke(app, ["pad", "--names", NAMES, "--save", str(tmp_path / "h.json"), "--csv", str(hard)])
    assert result.exit_code == 2 and says(result.output, "is the pad's own file")
    assert loads((tmp_path / "h.json").read_text()).totals == (3, 4, 19, 0)


def test_the_csv_command_never_writes_over_the_pad_itself(tmp_path: Path) -> None:
    """``csv FILE`` onto the --save, --load or a ``save FILE`` file is refused naming both; ``save`` onto --csv too."""
    save = tmp_path / "s.json"
    (tmp_path / "link.json").symlink_to(save)
    code, out = run(
        ["--names", NAMES, "--save", str(save), "--csv", str(tmp_path / "c.csv")],
        [
            "3 4 6 0 QS=Carl",
            f"csv {save}",
            f"csv {tmp_path / 'link.json'}",
            f"save {tmp_path / 'copy.json'}",
            f"csv {tmp_path / 'copy.json'}",
            f"save {tmp_path / 'c.csv'}",
            "quit",
        ],
    )
    assert code == 0, out
    assert f"Not accepted: '{save}' is the pad's own file (--save '{save}'): the CSV would replace it" in out
    assert f"Not accepted: '{tmp_path / 'link.json'}' is the pad's own file (--save '{save}')" in out
    assert f"'{tmp_path / 'copy.json'}' is the pad's own file (save '{tmp_path / 'copy.json'}')" in out
    assert f"Not accepted: '{tmp_path / 'c.csv'}' is where --csv '{tmp_path / 'c.csv'}' writes the sheet" in out
    for kept in (save, tmp_path / "copy.json"):
        assert loads(kept.read_text()).totals == (3, 4, 19, 0)
    assert (tmp_path / "c.csv").read_text().startswith("hand,")
    # the file a pad was loaded from, saved elsewhere: still the pad's own
    loaded = saved_pad(tmp_path / "l.json", "3 4 6 0 QS=Carl")
    code, out = run(["--load", str(loaded), "--save", str(tmp_path / "t.json")], ["1 2 3 7 QS=Ana", f"csv {loaded}"])
    assert f"Not accepted: '{loaded}' is the pad's own file (--load '{loaded}')" in out
    assert loads(loaded.read_text()).totals == (3, 4, 19, 0)


def test_csv_typed_without_a_file_says_how_to_name_one() -> None:
    code, out = run(["--names", NAMES], ["csv", "save", "q"])
    assert code == 0, out
    assert "Not accepted: name the file, e.g. csv pad.csv" in out
    assert "Not accepted: name the file, e.g. save pad.json" in out


def test_load_goes_on_with_the_file_it_loaded(tmp_path: Path) -> None:
    """``--load F`` saves every change back to F (as ``--save F`` would); with ``--save G``, G instead."""
    pad4 = saved_pad(tmp_path / "pad4.json", "3 4 6 0 QS=Carl")
    result = runner.invoke(app, ["pad", "--load", str(pad4)], input="1 2 3 7 QS=Ana\nquit\n")
    assert loads(pad4.read_text()).totals == (17, 6, 22, 7)  # the new hand is in the file
    assert result.exit_code == 0 and f"Every change is saved to {pad4}." in result.stdout, result.output
    assert result.stderr == ""
    other = tmp_path / "other.json"
    code, out = run(["--load", str(pad4), "--save", str(other)], ["undo", "quit"])
    assert code == 0, out
    assert loads(pad4.read_text()).totals == (17, 6, 22, 7) and loads(other.read_text()).totals == (3, 4, 19, 0)
    # a pad read from a pipe cannot be saved back: leaving says the hand was not saved
    fifo = tmp_path / "pad.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_text, args=(pad4.read_text(),))
    writer.start()
    result = runner.invoke(app, ["pad", "--load", str(fifo)], input="0 13 0 0 QS=Dan\n")
    writer.join()
    assert result.exit_code == 0, result.output
    assert "Every change is saved" not in result.stdout
    assert "1 hand not saved: --save FILE saves the pad after every hand" in result.stderr


def test_leaving_with_hands_not_saved_says_so(tmp_path: Path) -> None:
    """In a pipe the pad leaves, saying on standard error how many hands were not saved and how to keep them."""
    result = runner.invoke(app, ["pad", "--names", NAMES], input="3 4 6 0 QS=Carl\n0 13 0 0 QS=Dan\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        "2 hands not saved: --save FILE saves the pad after every hand, or type save FILE before you quit.\n"
    )
    result = runner.invoke(app, ["pad", "--names", NAMES, "--lang", "es"], input="3 4 6 0 QS=Carl\n")
    assert result.exit_code == 0 and result.stderr.startswith("1 mano "), result.stderr
    # nothing to say once every hand is saved, or when nothing was entered
    for args, lines in (([], "3 4 6 0 QS=Carl\nundo\n"), (["--save", str(tmp_path / "p.json")], "3 4 6 0 QS=Carl\n")):
        result = runner.invoke(app, ["pad", "--names", NAMES, *args], input=lines)
        assert result.exit_code == 0 and result.stderr == "", result.stderr


def test_quit_on_a_terminal_asks_once_when_hands_are_not_saved(tmp_path: Path) -> None:
    def lines(*typed: str, save: Path | None = None) -> tuple[int, str, str]:
        pad = Pad(Rules.preset("standard"), ("Ana", "Bea", "Carl", "Dan"))
        out, err = StringIO(), StringIO()
        code = run_lines(pad, "en", StringIO("\n".join(typed) + "\n"), out, save, None, err=err, ask=True)
        return code, out.getvalue(), err.getvalue()

    question = "1 hand not saved: type save FILE first, or quit again to leave without saving."
    code, out, err = lines("3 4 6 0 QS=Carl", "quit", "quit", "3 4 6 0 QS=Carl")
    assert code == 0 and out.count(question) == 1 and err == "", out
    assert "Hand 2: " not in out  # the second quit left
    # a hand after the question: the next quit asks again; save FILE, then quit leaves at once
    kept = tmp_path / "kept.json"
    code, out, err = lines(
        "3 4 6 0 QS=Carl", "quit", "0 13 0 0 QS=Dan", "quit", f"save {kept}", "quit", "1 1 1 10 QS=Ana"
    )
    assert out.count(question) == 1 and out.count("2 hands not saved: type save FILE first") == 1, out
    assert f"Written to {kept}" in out and "Hand 3: " not in out and err == ""
    assert len(loads(kept.read_text()).rows) == 2
    code, out, err = lines("3 4 6 0 QS=Carl", "quit", "1 1 1 10 QS=Ana", save=tmp_path / "p.json")
    assert "not saved" not in out and "Hand 2: " not in out


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_run_whose_last_save_failed_exits_1(tmp_path: Path) -> None:
    """``--save /dev/full``: the pad goes on, says why after every hand, and the run exits 1, not 0."""
    result = runner.invoke(app, ["pad", "--names", NAMES, "--save", "/dev/full"], input="3 4 6 0 QS=Carl\nquit\n")
    assert result.exit_code == 1, result.output
    assert "Could not save to /dev/full: No space left on device" in result.stdout
    assert result.stderr == "1 hand not saved: the last save, to /dev/full, failed.\n"
    # saved elsewhere at the end: the hands are kept, the run succeeds
    good = tmp_path / "good.json"
    result = runner.invoke(
        app, ["pad", "--names", NAMES, "--save", "/dev/full"], input=f"3 4 6 0 QS=Carl\nsave {good}\nquit\n"
    )
    assert result.exit_code == 0 and result.stderr == "", result.output
    assert loads(good.read_text()).totals == (3, 4, 19, 0)
    # ... until a later hand fails to save again
    result = runner.invoke(
        app, ["pad", "--names", NAMES, "--save", "/dev/full"], input=f"3 4 6 0 QS=Carl\nsave {good}\np 13 13 0 0\n"
    )
    assert result.exit_code == 1 and "1 hand not saved: the last save, to /dev/full, failed." in result.stderr


def test_sheet_asks_before_leaving_hands_not_saved(tmp_path: Path) -> None:
    run_pilot(sheet_leaves_unsaved(tmp_path))


async def sheet_leaves_unsaved(tmp_path: Path) -> None:
    question = "2 hands not saved: type save FILE first, or press Ctrl+Q again to leave without saving."
    async with sheet_of("standard", "en", ("3 4 6 0 QS=Carl", "0 13 0 0 QS=Dan")) as (pilot, sheet, _entry):
        app_ = pilot.app
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app_.is_running and question in str(sheet.query_one("#pad-error").render())
        await enter(pilot, "1 1 1 10 QS=Ana")  # another hand: the next Ctrl+Q asks again
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app_.is_running and "3 hands not saved" in str(sheet.query_one("#pad-error").render())
        await pilot.press("ctrl+q")  # the second leaves
        await pilot.pause()
        assert not app_.is_running
    assert isinstance(app_, PadApp) and app_.leaving() is None and app_.save_failed() is None
    # saved with save FILE: Ctrl+Q leaves at once
    kept = tmp_path / "kept.json"
    async with sheet_of("standard", "en", ("3 4 6 0 QS=Carl", f"save {kept}")) as (pilot, _sheet, _entry):
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not pilot.app.is_running
    assert loads(kept.read_text()).totals == (3, 4, 19, 0)


def test_sheet_goes_on_with_the_loaded_file_and_keeps_the_csv_off_it(tmp_path: Path) -> None:
    run_pilot(sheet_on_a_loaded_file(tmp_path))


async def sheet_on_a_loaded_file(tmp_path: Path) -> None:
    loaded = saved_pad(tmp_path / "pad4.json", "3 4 6 0 QS=Carl")
    app_ = PadApp(loads(loaded.read_text()), load=loaded)
    async with app_.run_test(size=(110, 30)) as pilot:
        await enter(pilot, "1 2 3 7 QS=Ana")
        assert loads(loaded.read_text()).totals == (17, 6, 22, 7)
        await enter(pilot, f"csv {loaded}")
        error = str(app_.screen.query_one("#pad-error").render())
        assert f"'{loaded}' is the pad's own file (--load '{loaded}')" in error, error
        await enter(pilot, "csv")
        assert "name the file, e.g. csv pad.csv" in str(app_.screen.query_one("#pad-error").render())
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app_.is_running  # every hand is in the file
    assert loads(loaded.read_text()).totals == (17, 6, 22, 7)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_sheet_whose_last_save_failed_says_so_when_leaving() -> None:
    run_pilot(sheet_save_fails())


async def sheet_save_fails() -> None:
    app_ = PadApp(Pad(Rules.preset("standard"), ("Ana", "Bea", "Carl", "Dan")), save=Path("/dev/full"))
    async with app_.run_test(size=(110, 30)) as pilot:
        await enter(pilot, "3 4 6 0 QS=Carl")
        assert "Could not save to /dev/full" in str(app_.screen.query_one("#pad-error").render())
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app_.is_running  # the hand is not saved: asked first
        await pilot.press("ctrl+q")
        await pilot.pause()
    failed = app_.save_failed()
    assert failed is not None and failed.startswith("Could not save to /dev/full")
