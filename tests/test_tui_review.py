"""The replay viewer's review, driven by Textual's pilot: run in a worker or opened from a file, marks, jumps, summary.

The reviews run with a small budget (a few sampled deals per option): the
tests check what the viewer shows against the review itself, not the
review's judgement (tests/test_review.py does that).
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static
from typer.testing import CliRunner

from corazones.cli.main import app as cli
from corazones.core import Game, Rules
from corazones.core.records import dumps, make_record
from corazones.players.registry import make_player
from corazones.players.review import review_record
from corazones.tui import settings as cfg
from corazones.tui.app import CorazonesApp
from corazones.tui.replay import ReplayScreen
from corazones.tui.review import OpenReview, ReviewSummary
from tests.helpers import PATIENCE
from tests.test_tui import screen_text
from tests.tui_driver import waiting

SIZE = (100, 32)
SMALL = (8, 8)
NAMES = ["Ana", "Bea", "Cy", "Dee"]
runner = CliRunner()
ENGLISH = {"LC_ALL": "en_US.UTF-8", "LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def one_hand(seed: int = 4) -> dict[str, Any]:
    """One hand of standard Hearts: a random player in seat 0 (it makes mistakes), standard bots elsewhere."""
    game = Game(Rules.preset("standard", hands=1), seed)
    bots = [make_player("random", 0)] + [make_player("standard", s) for s in (1, 2, 3)]
    while not game.over:
        s = game.to_act()[0]
        game.apply(bots[s].act(game.observation(s)))
    return make_record(game, NAMES)


def viewer(record: dict[str, Any], lang: str = "en", **replay: Any) -> CorazonesApp:
    return CorazonesApp(
        record=record,
        settings=cfg.Settings(speed="instant", lang=lang),
        lang=lang,
        remember=False,
        replay={"budget": SMALL, **replay},
    )


async def until(pilot: Any, done: Any, what: str) -> None:
    for _ in waiting(PATIENCE):
        if done():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"waited in vain for {what}; the screen shows: {one_line(screen_text(pilot.app))}")


def one_line(text: str) -> str:
    """The words on a screen or in a usage error, without line breaks, padding and box sides (a text may wrap)."""
    return " ".join(text.replace("│", " ").split())


def test_the_review_runs_in_a_worker_and_each_marked_decision_shows_its_mark() -> None:
    record = one_hand()
    expected = review_record(record, worlds=SMALL[0], pass_worlds=SMALL[1], hindsight=False)
    marked = [d for d in expected.decisions if d.label]
    assert len(marked) >= 3  # the random seat's game gives the test something to step through

    async def run() -> None:
        app = viewer(record)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            assert "r review" in screen_text(app)
            await pilot.press("r")
            await until(pilot, lambda: screen.review is not None, "the review")
            # the review ran in a process of its own, waited for by a worker thread: never on the screen's thread
            assert screen.review_thread is not None and screen.review_thread != threading.get_ident()
            assert screen.review_pid is not None and screen.review_pid != os.getpid()
            assert not screen.reviewing
            assert f"Review: {len(marked)} of {len(expected.decisions)} decisions marked" in one_line(screen_text(app))
            # m: the position just after the first marked decision, its mark under the move
            await pilot.press("m")
            first = marked[0]
            assert screen.pos == first.index + 1
            text = one_line(screen_text(app))
            assert first.label is not None
            assert first.label.capitalize() in text
            assert f"{first.loss:.1f} lost" in text
            assert "Why:" in text
            chosen, best = (screen_option(a) for a in (first.chosen, first.best))
            assert f"chose {chosen}, better {best}" in text
            assert f"mark 1 of {len(marked)}" in text
            await pilot.press("m")
            assert screen.pos == marked[1].index + 1
            await pilot.press("M")
            assert screen.pos == first.index + 1
            await pilot.press("M")  # nothing before the first
            assert screen.pos == first.index + 1
            assert "No earlier marked decision." in screen_text(app)
            await pilot.press("end")
            await pilot.press("m")
            assert "No later marked decision." in screen_text(app)
            # v: each seat's summary
            await pilot.press("v")
            await pilot.pause()
            assert isinstance(app.screen, ReviewSummary)
            text = summary_text(app)
            for s in expected.summary:
                assert f"{NAMES[s.seat]} · {s.decisions} decisions · mean loss {s.mean_loss:.2f}" in text
            await pilot.press("v")
            await pilot.pause()
            assert app.screen is screen

    asyncio.run(run())


def summary_text(app: CorazonesApp) -> str:
    """Everything the summary dialog holds, the part scrolled out of sight too."""
    body = app.screen.query_one("#review-summary Static", Static)
    return one_line(str(body.content))


def screen_option(action: Any) -> str:
    from corazones.tui.review import option_text

    return option_text(action)


def test_the_screen_answers_while_the_review_runs_and_r_stops_it() -> None:
    record = one_hand()

    async def run() -> None:
        app = viewer(record, budget=(4000, 8))  # quick passes, then minutes of cards: it must not finish here
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("r")
            assert screen.reviewing
            assert "r stop the review" in screen_text(app)
            # the keys move the replay while the review works in its thread
            await pilot.press("right", "right")
            assert screen.pos == 2 and screen.reviewing
            await until(pilot, lambda: screen.progress[1] > 0, "the first reviewed decision")
            done, total = screen.progress
            assert f"{done} of {total} decisions" in screen_text(app)
            await pilot.press("r")
            assert not screen.reviewing and screen.review is None
            assert "Review stopped." in screen_text(app)
            worker = screen.review_worker
            assert worker is not None and worker.is_cancelled
            pid = screen.review_pid
            assert pid is not None and pid != os.getpid()
            await until(pilot, lambda: not alive(pid), "the review's process to end")
            await pilot.press("m")
            assert screen.pos == 2
            assert "No review yet" in screen_text(app)

    asyncio.run(run())


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def save_review(record: dict[str, Any], tmp_path: Path, name: str = "game", *extra: str) -> Path:
    game = tmp_path / f"{name}.json"
    game.write_text(dumps(record), encoding="utf-8")
    out = tmp_path / f"{name}.review.json"
    result = runner.invoke(
        cli,
        ["review", str(game), "--json", "--out", str(out), "--worlds", "8", "--pass-worlds", "8", *extra],
        env=ENGLISH,
    )
    assert result.exit_code == 0, result.output
    assert f"Review written to {out}" in result.output
    return out


def test_a_saved_review_opens_with_the_same_marks(tmp_path: Path) -> None:
    record = one_hand()
    saved = save_review(record, tmp_path)
    data = json.loads(saved.read_text(encoding="utf-8"))
    marked = [d for d in data["decisions"] if d["label"]]
    ran = review_record(record, worlds=8, pass_worlds=8, hindsight=False)

    async def run() -> None:
        app = viewer(record, review_file=str(saved))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            assert screen.review is not None
            assert [d.index for d in screen.review.decisions] == [d.index for d in ran.decisions]
            await pilot.press("m")
            first = marked[0]
            text = one_line(screen_text(app))
            assert first["label"].capitalize() in text
            assert f"{first['loss']:.1f} lost" in text
            assert one_line(first["why"])[:60] in text  # the reason as the command wrote it
            await pilot.press("v")
            await pilot.pause()
            text = summary_text(app)
            for s in data["summary"]:
                assert f"{NAMES[s['seat']]} · {s['decisions']} decisions · mean loss {s['mean_loss']:.2f}" in text
            assert "Read from" in one_line(screen_text(app)) and screen.review.source == str(saved)

    asyncio.run(run())


def test_o_opens_a_saved_review_and_refuses_one_of_another_game(tmp_path: Path) -> None:
    record = one_hand()
    other = save_review(one_hand(seed=9), tmp_path, "other")
    game = tmp_path / "game.json"
    game.write_text(dumps(record), encoding="utf-8")
    mine = save_review(record, tmp_path, "game")
    (tmp_path / "broken.json").write_text('{"decisions": [', encoding="utf-8")

    async def run() -> None:
        app = viewer(record, source=str(game))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("o")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, OpenReview)
            box = dialog.query_one("#review-path", Input)
            assert box.value == str(mine)  # game.json suggests game.review.json
            for bad, why in (
                (other, "is not a decision of this game"),
                (tmp_path / "broken.json", "not JSON"),
                (tmp_path / "missing.json", "missing.json"),
            ):
                box.value = str(bad)
                await pilot.press("enter")
                error = dialog.query_one("#review-error", Static)
                await until(pilot, lambda why=why, error=error: why in str(error.content), f"{why} ({bad})")
                assert app.screen is dialog, bad
                assert screen.review is None
            box.value = str(mine)
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is screen, "the dialog closes")
            assert screen.review is not None and screen.review.marked

    asyncio.run(run())


def test_the_marks_and_the_summary_speak_spanish() -> None:
    record = one_hand()

    async def run() -> None:
        app = viewer(record, lang="es")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("r")
            await until(pilot, lambda: screen.review is not None, "the review")
            await pilot.press("m")
            text = one_line(screen_text(app))
            assert "Análisis:" in text and "Por qué:" in text and "perdidos" in text
            assert "mejor" in text
            await pilot.press("v")
            await pilot.pause()
            assert "decisiones" in summary_text(app)
            await pilot.press("escape")
            await pilot.press("l")  # the reasons of a review run here follow the language
            await pilot.pause()
            assert "Why:" in one_line(screen_text(app))

    asyncio.run(run())


def test_a_tampered_review_is_refused_or_cleaned(tmp_path: Path) -> None:
    record = one_hand()
    data = json.loads(save_review(record, tmp_path).read_text(encoding="utf-8"))
    first = data["decisions"][0]
    cases: dict[str, Any] = {
        "list.json": [],
        "seat.json": {**data, "decisions": [{**first, "seat": 7}]},
        "loss.json": {**data, "decisions": [{**first, "loss": -1}]},
        "label.json": {**data, "decisions": [{**first, "label": "brilliant"}]},
        "best.json": {**data, "decisions": [{**first, "best": {"play": "ZZ"}}]},
        "lacks.json": {**data, "decisions": [{k: v for k, v in first.items() if k != "why"}]},
        "order.json": {**data, "decisions": list(reversed(data["decisions"][:2]))},
        "escapes.json": {**data, "decisions": [{**first, "why": "\x1b]0;owned\x07\x1b[2Jfine\nreason " + "x" * 900}]},
    }
    said = {
        "list.json": "not a review",
        "seat.json": "decision 1: seat must be a number from 0 to 3",
        "loss.json": "decision 1: loss must be a number of at least 0",
        "label.json": "decision 1: label must be null or one of inaccuracy, mistake, blunder",
        "best.json": "decision 1: best:",
        "lacks.json": "decision 1 lacks why",
        "order.json": "decision 2 (hand 1, seat",
    }
    for name, content in cases.items():
        (tmp_path / name).write_text(json.dumps(content), encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.json")  # read, it would wait for a writer: it is refused, never opened to wait
    cases["pipe.json"] = None
    said["pipe.json"] = "not a file"

    async def run() -> None:
        for name in cases:
            app = viewer(record, review_file=str(tmp_path / name))
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, ReplayScreen)
                if name == "escapes.json":
                    assert screen.review is not None
                    why = screen.review.decisions[0].why
                    assert isinstance(why, str) and why.startswith("fine reason x") and len(why) <= 600
                    assert "\x1b" not in why and "owned" not in why
                    continue
                assert screen.review is None, name
                assert screen.note is not None and said[name] in screen.note[0], (name, screen.note)
                assert said[name] in one_line(screen_text(app)), name

    asyncio.run(run())


# ------------------------------------------------------------------ corazones review --out, replay's flags
def test_review_out_follows_a_link_and_never_replaces_a_device(tmp_path: Path) -> None:
    record = one_hand()
    game = tmp_path / "game.json"
    game.write_text(dumps(record), encoding="utf-8")
    target = tmp_path / "real.json"
    link = tmp_path / "link.json"
    link.symlink_to(target)
    args = ["review", str(game), "--json", "--worlds", "2", "--pass-worlds", "2", "--seat", "1"]
    result = runner.invoke(cli, [*args, "--out", str(link)], env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and json.loads(target.read_text(encoding="utf-8"))["summary"][0]["seat"] == 0
    result = runner.invoke(cli, [*args, "--out", os.devnull], env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert Path(os.devnull).is_char_device()
    result = runner.invoke(cli, [*args, "--out", str(tmp_path)], env=ENGLISH)
    assert result.exit_code == 2 and "it is a folder" in one_line(result.output)
    result = runner.invoke(cli, [*args, "--out", str(tmp_path / "no" / "r.json")], env=ENGLISH)
    assert result.exit_code == 2 and "does not exist" in one_line(result.output)
    plain = runner.invoke(cli, [*args], env=ENGLISH)
    assert json.loads(plain.output) == json.loads(target.read_text(encoding="utf-8"))


def test_the_printed_replay_says_it_shows_no_marks(tmp_path: Path) -> None:
    saved = save_review(one_hand(), tmp_path)
    result = runner.invoke(cli, ["replay", str(tmp_path / "game.json"), "--review", str(saved)], env=ENGLISH)
    assert result.exit_code == 0
    assert "--review shows its marks in the replay viewer, on a terminal" in result.output


def test_the_printed_replay_refuses_a_review_it_cannot_read(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(dumps(one_hand()), encoding="utf-8")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path, said in (
        (tmp_path / "missing.json", "No such file"),
        (tmp_path, "it is a folder, not a file"),
        (fifo, "it is not a plain file"),  # looked at, never opened: the command does not hang
    ):
        result = runner.invoke(cli, ["replay", str(game), "--review", str(path)], env=ENGLISH)
        assert result.exit_code == 2, (path, result.output)
        assert "--review" in result.output and said in one_line(result.output), (path, result.output)


def test_replay_refuses_a_review_budget_or_seat_it_cannot_use(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(dumps(one_hand()), encoding="utf-8")
    for flags, said in (
        (["--worlds", "0"], "--worlds"),
        (["--pass-worlds", "0"], "--pass-worlds"),
        (["--seat", "5"], "seat must be a number from 1 to 4, not 5"),
    ):
        result = runner.invoke(cli, ["replay", str(game), *flags], env=ENGLISH)
        assert result.exit_code == 2, (flags, result.output)
        assert said in one_line(result.output), (flags, result.output)
