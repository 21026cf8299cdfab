"""The score pad's faces: the line mode in a pipe (Typer's runner) and the full-screen sheet (Textual's pilot)."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input
from typer.testing import CliRunner

from corazones.cli.main import app
from corazones.cli.pad_cmd import HandSyntaxError, entry_text, parse_hand, run_lines
from corazones.core import Rules
from corazones.core.pad import Entry, Pad, Revoke, loads
from corazones.tui.pad.app import PadApp, SetupScreen, SheetScreen
from tests.helpers import unwritable_folder

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


# ---------------------------------------------------------------- the TUI
async def enter(pilot: Any, text: str) -> None:
    """Put a hand line in the entry (as if typed: the first hand and the edit are typed key by key) and press Enter."""
    pilot.app.screen.query_one("#pad-entry", Input).value = text
    await pilot.press("enter")
    await pilot.pause()


def run_pilot(coroutine: Any) -> None:
    """``asyncio.run`` in a thread of its own: a browser test may have left an event loop running in this one."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as e:
            errors.append(e)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


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
