"""The command line against hostile input: bounded reads, safe output, early failure, documented exit codes.

Every reader of outside input exits with one line naming the problem and a
documented code (0 ok, 1 does not check, 2 unusable input or usage), never a
traceback; the fuzz tests throw random and adversarial files at ``verify`` and
``replay`` and assert exactly that.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corazones.cli.exits import CODES as EXIT_CODES
from corazones.cli.exits import EPILOG
from corazones.cli.main import app
from corazones.cli.toolkit import Command, Group, soft_breaks_joined
from corazones.core import Game, Rules
from corazones.core.commitment import commit
from corazones.core.limits import MAX_NAME_LENGTH, MAX_RECORD_BYTES
from corazones.core.records import dumps, make_record
from tests.helpers import hand_entries, play_random

ENGLISH = {"LC_ALL": "en_US.UTF-8", "LANGUAGE": "en"}
#: The command built once (Typer's own test runner rebuilds it from the signatures on every call, ~0.1 s).
COMMAND = typer.main.get_command(app)
CODES = set(EXIT_CODES)
ESC = "\x1b"


def invoke(*args: str, input: str | bytes | None = None) -> Result:
    result = CliRunner().invoke(COMMAND, list(args), input=input, env=ENGLISH, prog_name="corazones")
    # never a traceback: any exception that got out is a bug
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert result.exit_code in CODES, (result.exit_code, result.output[-500:])
    return result


def flat(text: str) -> str:
    """Output with the error box of the terminal toolkit removed and whitespace runs made one space."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def error_lines(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.strip()]


def assert_one_line_error(result: Result, *needles: str) -> None:
    assert result.exit_code == 2
    lines = error_lines(result)
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


@pytest.fixture(scope="module")
def record_text() -> str:
    game = play_random(Game(Rules.preset("quick"), 4), random.Random(4))
    return dumps(make_record(game))


# ------------------------------------------------------------- bounded reads
def test_verify_dev_zero_is_refused_after_a_bounded_read() -> None:
    result = invoke("verify", "/dev/zero")
    assert_one_line_error(result, "/dev/zero", "longer than", "bytes")


def test_an_oversized_record_is_refused_before_it_is_parsed(tmp_path: Path, record_text: str) -> None:
    big = tmp_path / "big.json"
    rec = json.loads(record_text)
    rec["players"][0] = "x" * (MAX_RECORD_BYTES + 10)  # a 8 MB name
    big.write_text(json.dumps(rec), encoding="utf-8")
    for command in ("verify", "replay"):
        result = invoke(command, str(big))
        assert_one_line_error(result, "larger than", f"{MAX_RECORD_BYTES:,}")
        assert len(result.output) < 1000


def test_standard_input_is_read_with_the_same_bounds(record_text: str) -> None:
    result = invoke("verify", "-", input=record_text)
    assert result.exit_code == 0 and result.stdout.startswith("OK standard input: ")
    result = invoke("replay", "-", input=record_text)
    assert result.exit_code == 0 and "Game over." in result.stdout
    result = invoke("verify", "-", input="\n" * 1_000_001)
    assert_one_line_error(result, "more than 1,000,000 lines")


def test_a_folder_a_missing_file_and_bad_bytes(tmp_path: Path) -> None:
    assert_one_line_error(invoke("verify", str(tmp_path)), "is a folder")
    assert_one_line_error(invoke("replay", str(tmp_path / "nope.json")), "cannot read", "No such file")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"format": "corazones-record", "\xff\xfe"}')
    assert_one_line_error(invoke("replay", str(bad)), "not UTF-8")


# ------------------------------------------------------- names and output
def named_record(record_text: str, names: list[str]) -> str:
    rec = json.loads(record_text)
    rec["players"] = names
    return json.dumps(rec, ensure_ascii=False)


def test_names_are_clipped_and_stripped_of_what_acts_on_a_terminal(tmp_path: Path, record_text: str) -> None:
    path = tmp_path / "names.json"
    long_name = "L" * MAX_NAME_LENGTH  # the longest name a record holds is shown whole (longer ones: test_text)
    path.write_text(named_record(record_text, [long_name, "Ana\u202eevil", "Bob", "seat 3"]), encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 0
    out = result.stdout
    assert long_name in out and "L" * (MAX_NAME_LENGTH + 1) not in out
    assert "\u202e" not in out and "Anaevil" in out and "Seat 4" in out  # the record's "seat 3", counted from 1
    es = invoke("replay", str(path), "--lang", "es").stdout
    assert "Asiento 4" in es and "seat 3" not in es


@pytest.mark.parametrize(
    "name", [f"{ESC}]0;owned\x07", f"{ESC}[2J", "a\nb", "x" * 50_000], ids=["osc", "csi", "newline", "50k"]
)
def test_hostile_names_are_refused_in_one_line(tmp_path: Path, record_text: str, name: str) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(named_record(record_text, [name, "b", "c", "d"]), encoding="utf-8")
    for command in ("replay", "verify"):
        result = invoke(command, str(path))
        assert result.exit_code in (1, 2)
        assert ESC not in result.output and len(result.output) < 2000
        assert len([x for x in result.output.splitlines() if x.strip()]) == 1


def test_a_file_name_with_escapes_is_shown_safely(tmp_path: Path) -> None:
    path = tmp_path / f"evil{ESC}[2J.json"
    result = invoke("verify", str(path))
    assert_one_line_error(result, "cannot read")
    assert ESC not in result.output


# ---------------------------------------------------- failing before the work
def test_play_refuses_an_unwritable_record_before_dealing(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    for target, why in [
        ("/proc/corazones-game.json", "cannot write"),
        (str(blocker / "game.json"), "is a file"),
        (str(tmp_path), "it is a folder"),
    ]:
        result = invoke("play", "--auto", "--level", "random", "--record", target)
        assert result.exit_code == 2 and why in flat(result.output), result.output
        assert "Hand 1" not in result.output and "Commitment" not in result.output


def test_arena_refuses_a_bad_out_before_playing(tmp_path: Path) -> None:
    existing = tmp_path / "results.txt"
    existing.write_text("keep me", encoding="utf-8")
    for target, why in [(str(existing), "is a file"), ("/proc/corazones-arena", "cannot write into")]:
        result = invoke("arena", "random", "random", "--deals", "1", "-j", "1", "-q", "--out", target)
        assert result.exit_code == 2 and why in flat(result.output), result.output
        assert "boards of one deal" not in result.output, "nothing was played"
    assert existing.read_text(encoding="utf-8") == "keep me"
    # what stands where the journal or a result goes must be a plain file: refused before the first board
    for name, make in [
        ("boards.jsonl", lambda p: p.mkdir()),
        ("boards.jsonl", lambda p: p.symlink_to("/dev/null")),
        ("results.json", lambda p: os.mkfifo(p)),
        ("scores.png", lambda p: p.mkdir()),
    ]:
        folder = tmp_path / f"run-{name}-{len(list(tmp_path.iterdir()))}"
        folder.mkdir()
        make(folder / name)
        for extra in ([], ["--resume"]):
            result = invoke("arena", "random", "random", "--deals", "1", "-j", "1", "-q", "--out", str(folder), *extra)
            assert result.exit_code == 2 and f"{name} there is not a plain file" in flat(result.output), result.output
        assert sorted(p.name for p in folder.iterdir()) == [name], "nothing was written"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "--seed", "1" + "0" * 300], "at most 40 digits"),  # digits are a number, however many
        (["play", "--seed", "x" * 300], "at most 256 characters"),
        (["play", "-o", "target=" + "9" * 5000], "--option"),
        (["play", "-o", "x" * 3000 + "=1"], "at most 2,000"),
        (["arena", "random", "random", "--seed", "9" * 5000], "--seed"),
        (["arena", "random", "random", "-j", "100000"], "4 per CPU"),
        (["arena", "random", "random", "--ray-address", "10.0.0.1:6379"], "with --backend ray only"),
        (["play", "--auto", "true"], "unexpected extra argument"),
        (["verify"], "give a record or hand log"),
        (["verify", "--seed", "1"], "together"),
    ],
)
def test_flags_with_hostile_values_are_usage_errors(args: list[str], needle: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert needle in flat(result.output)


def test_auto_is_a_flag_and_help_says_so() -> None:
    out = invoke("play", "--help").stdout
    line = next(x for x in out.splitlines() if re.match(r"^\W*--auto\b", x))
    assert "<bool>" not in line and "flag" in line


SPANISH = {"LC_ALL": "es_ES.UTF-8", "LANGUAGE": "es"}
#: A type name where the help should show what the user types: ``<str>``, ``<int>``, ``<list[str]>``, ``<int range>``...
TYPE_NAME = re.compile(r"<[a-z_]+(\[[^\]]*\])?( range)?>")
#: Placeholders a newcomer reads in the help, per command: the option or argument's row, flattened.
PLACEHOLDERS = {
    (): ["--version Show the version"],
    ("rules",): ["[PRESET]", "PRESET Show this preset's options", "--players -n N Number", "--option -o NAME=VALUE "],
    ("play",): [
        "--rules -r PRESET Preset:",
        "--players -n N Number",
        "--option -o NAME=VALUE Override",
        "--seed SEED Seed",
        "--level LEVEL Level",
        "--seat SEAT Your seat",
        "--auto Watch bots",
        "--hands N Play a game",
        "--record FILE Write",
        "--lang en|es Language",
    ],
    ("replay",): ["FILE A game record", "--glyphs --no-glyphs Show suits"],
    ("verify",): ["[FILE]", "--seed SEED With", "--commitment COMMITMENT The"],
    ("arena",): ["PLAYER Two or more", "--deals N Play", "--backend local|ray Where", "--out FOLDER Write"],
    ("serve",): ["--host HOST Address", "--port PORT Port", "--db URL Database", "--grace SECONDS Seconds"],
    ("revoke",): ["PLAYER_ID The player's id", "--db URL Database"],
    ("pad",): ["--names NAMES The", "--load FILE Open", "--csv FILE Write", "--line Plain"],
}


def every_command(command: Any, words: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The words that reach each command and subcommand, the root (``()``) first."""
    found = [words]
    for name, sub in getattr(command, "commands", {}).items():
        found += every_command(sub, (*words, name))
    return found


@pytest.mark.parametrize("env", [ENGLISH, SPANISH], ids=["en", "es"])
def test_every_help_shows_placeholders_not_type_names(env: dict[str, str]) -> None:
    """Each value is shown as what the user types (``--players N``), a flag and ``--help`` with nothing.

    Typer's default is the Python type (``--players <int>``, ``--help <bool>``);
    the placeholders are English in both languages (they are what to type), the
    descriptions after them are in the page's language: in Spanish a row's flags
    and placeholder must be followed by its description, whatever its words.
    """
    commands = every_command(COMMAND)
    assert set(PLACEHOLDERS) <= set(commands)
    for words in commands:
        result = CliRunner().invoke(COMMAND, [*words, "--help"], env={**env, "COLUMNS": "250"}, prog_name="corazones")
        assert result.exit_code == 0, (words, result.output)
        lines = result.stdout.splitlines()
        shown = [line for line in lines if TYPE_NAME.search(line)]
        assert not shown, (words, shown)
        help_row = flat(next(line for line in lines if re.match(r"^\W*--help\b", line)))
        assert help_row in ("--help Show this message and exit.", "--help Muestra esta ayuda y termina."), help_row
        out = flat(result.stdout)
        for row in PLACEHOLDERS.get(words, []):
            if env is ENGLISH:
                assert row in out, (words, row, out)
            else:
                head = row_head(row)
                assert re.search(rf"{re.escape(head)} [^\W\d_]", out) if head != row else head in out, (words, head)


#: A word of a help row that is no description: a flag, or a placeholder (``NAME=VALUE``, ``[PRESET]``, ``en|es``,
#: and ``N``, the one of a single letter: ``A`` starts a description).
HEAD_WORD = re.compile(r"-\S+|\[?([A-Z_=]{2,}|N)\]?(\.\.\.)?|\S*\|\S*")


def row_head(row: str) -> str:
    """A help row's flags and placeholders, without the English description that follows them."""
    words = row.split()
    count = next((i for i, word in enumerate(words) if not HEAD_WORD.fullmatch(word)), len(words))
    return " ".join(words[:count])


def test_a_row_head_is_its_flags_and_placeholders() -> None:
    assert row_head("--players -n N Number") == "--players -n N"
    assert row_head("--backend local|ray Where") == "--backend local|ray"
    assert row_head("--option -o NAME=VALUE ") == "--option -o NAME=VALUE"
    assert row_head("PLAYER_ID The player's id") == "PLAYER_ID"
    assert row_head("[PRESET]") == "[PRESET]"
    assert row_head("FILE A game record") == "FILE"


#: A line a help page shows on purpose as its own line: a list item or an indented example.
DELIBERATE_LINE = re.compile(r"\s|[-*•+] |\d+[.)] ")
#: What Typer sets apart in an option's cell, each on its own line when the help does not leave room for it.
PANEL_EXTRAS = "["


def ragged_lines(page: str, width: int) -> list[tuple[str, str]]:
    """The lines of a help page cut short: a line followed by one of the same paragraph whose first word would fit.

    The prose (the command's description, the epilog) is the lines outside the
    panels, padded by one column each side; a panel's option or argument help
    is the last column of its rows, continued on lines blank before it.  The
    usage line (Click's own wrapping) and lines that stand apart on purpose
    (a list item, an indented example, Typer's ``[default: ...]``) are left out.
    """
    found: list[tuple[str, str]] = []
    lines = [line.rstrip() for line in page.splitlines()]
    prose = [line if not line.startswith(("│", "╭", "╰")) else "" for line in lines]
    usage = next(i for i, line in enumerate(prose) if line.strip())
    while usage < len(prose) and prose[usage].strip():  # the usage paragraph
        prose[usage] = ""
        usage += 1
    for before, after in itertools.pairwise(prose):
        if not before.strip() or not after.strip() or DELIBERATE_LINE.match(after[1:]):
            continue
        if len(before) + 1 + len(after.split()[0]) <= width - 1:
            found.append((before, after))
    for before, after in itertools.pairwise(lines):
        if not (before.startswith("│") and after.startswith("│")):
            continue
        inner_before, inner_after = before[1 : before.rindex("│")], after[1 : after.rindex("│")]
        start = len(inner_after) - len(inner_after.lstrip())
        if start < 2 or start >= len(inner_before) or not inner_after.strip():
            continue  # a new row, or an empty line
        if inner_before[start - 2 : start] != "  " or inner_before[start] == " ":
            continue  # the line before has no cell in that column
        if inner_after.lstrip().startswith(PANEL_EXTRAS):
            continue
        cell = inner_before.rstrip()
        if len(cell) + 1 + len(inner_after.split()[0]) <= len(inner_after) - 1:
            found.append((before, after))
    return found


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("env", [ENGLISH, SPANISH], ids=["en", "es"])
def test_every_help_fills_its_lines_to_the_terminal_width(env: dict[str, str], columns: int) -> None:
    """A help paragraph wraps at the terminal's width, not at the line breaks of the docstring it came from.

    Typer joins the lines of a description's first paragraph only: every later
    paragraph (and the epilog) kept the source's breaks, and at 80 columns each
    source line wrapped on its own (a long line, then a word or two alone).
    """
    for words in every_command(COMMAND):
        env_width = {**env, "COLUMNS": str(columns)}
        result = CliRunner().invoke(COMMAND, [*words, "--help"], env=env_width, prog_name="corazones")
        assert result.exit_code == 0, (words, result.output)
        assert max(len(line.rstrip()) for line in result.stdout.splitlines()) <= columns, (words, result.stdout)
        assert not ragged_lines(result.stdout, columns), (words, ragged_lines(result.stdout, columns))


def test_a_ragged_line_is_found_in_the_prose_and_in_a_panel() -> None:
    """The check itself: a line that leaves room for the next word, outside a panel and in an option's cell."""
    prose = " Usage: corazones x\n\n Some text that stops\n early.\n\n A line that is filled up to the end\n here.\n"
    assert ragged_lines(prose, 40) == [(" Some text that stops", " early.")]
    panel = (
        "╭─ Options ──────────────────────────╮\n"
        "│ --a  N  Help that wraps at the end │\n"
        "│         of its cell.               │\n"
        "│ --b  N  Help cut                   │\n"
        "│         short here.                │\n"
        "│         [default: 1]               │\n"
        "╰────────────────────────────────────╯\n"
    )
    lines = panel.splitlines()
    assert ragged_lines(" Usage: x\n\n" + panel, 38) == [(lines[3], lines[4])]


def test_help_paragraphs_are_joined_but_lists_examples_and_click_marks_keep_their_lines() -> None:
    """The docstring's line breaks are soft; a list, an indented example or a ``\\b`` paragraph is shown as written."""

    def sample() -> None:
        """One line.

        A paragraph written
        over three lines
        of the source.

        Steps:
        - deal
        - pass

        For example:
            corazones play --seed 7
            corazones verify game.json

        \b
        kept
        as is
        \f
        Not shown.
        """

    assert soft_breaks_joined(sample.__doc__) == (
        "One line.\n\nA paragraph written over three lines of the source.\n\nSteps:\n- deal\n- pass\n\n"
        "For example:\n    corazones play --seed 7\n    corazones verify game.json\n\n\b\nkept\nas is\n\f\nNot shown."
    )
    demo = typer.Typer(cls=Group)
    demo.command(cls=Command)(sample)
    demo.command(cls=Command, name="other")(sample)
    env = {**ENGLISH, "COLUMNS": "80"}
    out = CliRunner().invoke(typer.main.get_command(demo), ["sample", "--help"], env=env).stdout
    rows = [row.rstrip() for row in out.splitlines()]
    for line in (
        "A paragraph written over three lines of the source.",
        "- deal",
        "- pass",
        "    corazones play --seed 7",
    ):
        assert f" {line}" in rows, (line, out)
    assert "Not shown" not in out


def test_every_value_declares_its_placeholder() -> None:
    """A new option or argument that takes a value names what to type, or the help would show its type."""
    for words in every_command(COMMAND):
        command = COMMAND
        for word in words:
            command = command.commands[word]
        for param in command.params:
            flag = getattr(param, "is_flag", False)
            assert flag or bool(param.metavar), (words, param.name, param.metavar)


def test_the_exit_codes_are_in_the_help_and_the_docs() -> None:
    out = " ".join(invoke("--help").stdout.split())
    assert "Exit codes:" in out
    for code in EXIT_CODES:
        assert f"{code} " in EPILOG
    docs = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    for code in EXIT_CODES:
        assert re.search(rf"^\| `{code}` \|", docs, re.MULTILINE), code


# ------------------------------------------------------------ the seed commitment
def test_the_line_game_commits_to_its_seed_and_reveals_it_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = invoke("play", "-r", "quick", "--level", "random", "--record", str(path), input="q\n")
    assert result.exit_code == 0
    out = result.stdout
    rec = json.loads(path.read_text(encoding="utf-8"))
    seed, commitment = rec["seed"], rec["commitment"]
    assert commitment == commit(seed)
    before_end = out.split("Game abandoned.")[0]
    assert commitment in before_end and str(seed) not in before_end.replace(commitment, "")
    assert f"The seed was {seed}; its commitment is {commitment}." in out
    assert f"corazones verify {path}" in out
    check = invoke("verify", "--seed", str(seed), "--commitment", commitment)
    assert check.exit_code == 0 and check.stdout.startswith("OK: seed")
    wrong = invoke("verify", "--seed", f"{seed}0", "--commitment", commitment)
    assert wrong.exit_code == 1 and wrong.stdout.startswith("FAIL: seed")
    ok = invoke("verify", str(path))
    assert ok.exit_code == 0 and f"The seed matches the commitment {commitment}." in ok.stdout


# ---------------------------------------------------------------- fuzzing
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

HAND_ENTRY = hand_entries("standard", {}, seed=5, hands=1)[0]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
ADVERSARIAL = [
    "9" * 5000,
    "-" + "9" * 5000,
    "1e999",
    "NaN",
    "[" * 100_000,
    json.dumps("x" * 100_000),
    json.dumps(f"{ESC}]0;owned\x07"),
    json.dumps("\u202e"),
    "true",
    "null",
    "{}",
    "[]",
    '""',
]


def check_reader_result(result: Result) -> None:
    assert result.exit_code in (0, 1, 2)
    assert ESC not in result.output and "\u202e" not in result.output
    if result.exit_code == 2:
        lines = error_lines(result)
        assert len(lines) == 1, result.stderr


@FUZZ
@given(data=st.binary(max_size=400))
def test_fuzz_random_bytes(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz.bin"
    path.write_bytes(data)
    for command in ("verify", "replay"):
        check_reader_result(invoke(command, str(path)))


@FUZZ
@given(value=json_values)
def test_fuzz_random_json_documents(tmp_path: Path, value: Any) -> None:
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    for command in ("verify", "replay"):
        check_reader_result(invoke(command, str(path)))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):
            out += _paths(v, (*prefix, i))
    return out


@FUZZ
@given(data=st.data())
def test_fuzz_records_with_one_field_made_hostile(tmp_path: Path, record_text: str, data: st.DataObject) -> None:
    """A real record with one value swapped for an adversarial JSON text: refused in one line or checked."""
    rec = json.loads(record_text)
    where = data.draw(st.sampled_from(_paths(rec)[1:]))
    hostile = data.draw(st.sampled_from(ADVERSARIAL))
    marker = "\u0000HOSTILE\u0000"
    target: Any = rec
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = marker
    text = json.dumps(rec).replace(json.dumps(marker), hostile)
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    for command in ("verify", "replay"):
        result = invoke(command, str(path))
        check_reader_result(result)
        assert len(result.output) < 20_000


@FUZZ
@given(data=st.data())
def test_fuzz_hand_logs_with_one_field_made_hostile(tmp_path: Path, data: st.DataObject) -> None:
    """A good deal, then the same deal with one value made hostile: one verdict line each, exit 1 or 0."""
    entry = HAND_ENTRY
    where = data.draw(st.sampled_from(_paths(entry)[1:]))
    hostile = data.draw(st.sampled_from(ADVERSARIAL))
    bad = json.loads(json.dumps(entry))
    target: Any = bad
    for key in where[:-1]:
        target = target[key]
    marker = "\u0000HOSTILE\u0000"
    target[where[-1]] = marker
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(entry) + "\n" + json.dumps(bad).replace(json.dumps(marker), hostile) + "\n")
    result = invoke("verify", str(path))
    check_reader_result(result)
    if result.exit_code != 2:
        lines = result.stdout.splitlines()
        assert lines[0].startswith("line 1: ok") and lines[1].startswith("line 2: ")
        assert len(lines) == 3 and re.fullmatch(r"\d passed, \d failed", lines[2])


@settings(max_examples=25, deadline=None)
@given(
    answers=st.lists(st.text(max_size=300) | st.sampled_from([*ADVERSARIAL[:2], f"{ESC}[2J", "?", "QS AH"]), max_size=6)
)
def test_fuzz_typed_answers(answers: list[str]) -> None:
    """Whatever is typed, the line game explains and asks again; it ends with q or at the end of input."""
    lines = [a.replace("\n", " ").replace("\r", " ") for a in answers]
    result = invoke("play", "-r", "quick", "--seed", "1", "--level", "random", input="\n".join([*lines, "q"]) + "\n")
    assert result.exit_code in (0, 130)
    assert ESC not in result.output


def locale_env(value: str) -> dict[str, str | None]:
    return {"LC_ALL": value, "LC_MESSAGES": None, "LANG": value, "LANGUAGE": None}


def test_the_language_follows_the_locale_unless_lang_says_otherwise(record_text: str) -> None:
    spanish = CliRunner().invoke(COMMAND, ["replay", "-"], input=record_text, env=locale_env("es_ES.UTF-8"))
    assert spanish.exit_code == 0 and "Fin de la mano 1." in spanish.stdout
    english = CliRunner().invoke(
        COMMAND, ["replay", "-", "--lang", "en"], input=record_text, env=locale_env("es_ES.UTF-8")
    )
    assert english.exit_code == 0 and "Hand 1 over." in english.stdout
    french = CliRunner().invoke(COMMAND, ["replay", "-"], input=record_text, env=locale_env("fr_FR.UTF-8"))
    assert french.exit_code == 0 and "Hand 1 over." in french.stdout, "an unsupported locale falls back to English"


def test_bounded_lines_joins_the_head_and_the_rest_and_stops_at_each_limit() -> None:
    import io

    from corazones.cli.inputs import InputError, bounded_lines

    data = b"one\ntwo\nthree\nfour"
    for cut in range(len(data) + 1):  # wherever the first read ended, the same lines come out
        lines = list(bounded_lines(data[:cut], io.BytesIO(data[cut:]), 5, 100, "log"))
        assert lines == [b"one", b"two", b"three", b"four"], cut
    with pytest.raises(InputError, match="line 2 is longer than 5 bytes"):
        list(bounded_lines(b"one\n", io.BytesIO(b"toolong\n"), 5, 100, "log"))
    with pytest.raises(InputError, match="line 1 is longer than 5 bytes"):
        list(bounded_lines(b"toolong\nx\n", io.BytesIO(b""), 5, 100, "log"))
    with pytest.raises(InputError, match="larger than 10 bytes"):
        list(bounded_lines(b"", io.BytesIO(b"abc\n" * 10), 5, 10, "log"))


def test_verify_reads_a_record_as_strictly_as_replay_does(tmp_path: Path, record_text: str) -> None:
    """A key given twice (the last would win in plain JSON) and a cut-short file are named, not passed."""
    twice = tmp_path / "twice.json"
    twice.write_text(record_text.replace('"seed"', '"seed": 999, "seed"', 1), encoding="utf-8")
    r = invoke("verify", str(twice))
    assert r.exit_code == 1 and "the key 'seed' is given twice" in r.output, r.output
    assert invoke("replay", str(twice)).exit_code == 2
    cut = tmp_path / "cut.json"
    cut.write_text(record_text[: record_text.index('"seed"') + 3], encoding="utf-8")  # ends inside a string
    r = invoke("verify", str(cut))
    assert r.exit_code == 1 and "at at" not in r.output and "Unterminated string starting at line" in r.output, r.output
