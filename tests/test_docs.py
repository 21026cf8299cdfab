"""Every code block of README.md and docs/**/*.md runs as written.

A reader copies a block and expects it to work; this test does the same. For each
Markdown file, in order, in one fresh folder of its own:

* ``python`` blocks are saved as a script and run with ``python3`` in a new process;
* ``bash`` / ``sh`` / ``shell`` / ``console`` blocks run command by command (one line, or
  lines joined by a trailing ``\\``; a block with a here-document runs whole; in a block
  that shows ``$ `` prompts only the prompted lines are commands), each with
  ``bash -c``, standard input from /dev/null, and must exit 0;
* ``json`` blocks must parse; blocks with no language or ``text`` are shown, not run.

The folder holds links to the repository's ``bench``, ``docs``, ``scripts``, ``src`` and
``tests`` (not ``setup.py``: nothing installs from there; a command that runs ``pip install``
fails unless it is marked skip), so ``python3 bench/engine.py`` works, while files a
command writes (``game.json``) stay in the folder and later blocks of the same file can
use them. ``corazones`` and ``python3`` are those of the interpreter running the tests.

A command CI cannot run as written gets a visible marker, one line each, directly above
the block (several may stack), always with the reason in parentheses:

* ``<!-- docs-test: skip (reason) -->`` -- the whole block is not run;
* ``<!-- docs-test: skip "text" (reason) -->`` -- commands containing ``text`` are not run;
* ``<!-- docs-test: replace "old" "new" (reason) -->`` -- run with ``old`` replaced, e.g. a
  smaller ``--deals``;
* ``<!-- docs-test: exit N "text" (reason) -->`` -- commands containing ``text`` (or the
  python block) must exit with ``N``, e.g. an interactive game that stops at the first
  prompt when there is no input;
* ``<!-- docs-test: timeout SECONDS (reason) -->`` -- instead of the default 120 s per command.

Everything not run is listed as a skipped test of its own (``pytest -rs`` shows each
with its file, line and reason). A marker that matches nothing fails the test, so the
list cannot go stale.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])

RUN = {"python": "python", "py": "python", "python3": "python"}
RUN |= dict.fromkeys(("bash", "sh", "shell", "console", "shell-session"), "bash")
#: What a workspace links to from the repository (not ``results/`` or anything a command might write into).
#: Not ``setup.py`` or ``pyproject.toml`` either: an install run from the workspace must fail, not
#: rebuild the package the tests run from into ``src/`` or move its editable install.
LINKS = ("bench", "docs", "scripts", "src", "tests", "README.md")
#: A command that installs packages would change the environment the tests run in.
_INSTALLS = re.compile(r"\bpip3?\b[^\n]*\binstall\b")
DEFAULT_TIMEOUT = 120.0
#: Lines of a failing command's output shown in the failure message (the last ones).
TAIL = 40

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)")
_MARKER = re.compile(r"^\s*<!--\s*docs-test:\s*(.*?)\s*-->\s*$")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


@dataclass
class Marker:
    line: int
    verb: str
    args: list[str]
    reason: str
    number: float | None = None  # exit status or timeout
    used: bool = False


@dataclass
class Command:
    text: str  # as written
    line: int
    run: str = ""  # after replacements
    skip: str | None = None  # reason
    exit: int = 0


@dataclass
class Block:
    path: Path
    line: int  # of the opening fence
    number: int  # 1-based within the file
    lang: str
    body: list[str]
    markers: list[Marker] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{_rel(self.path)}:{self.line} (block {self.number}, {self.lang or 'no language'})"


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def parse_marker(text: str, line: int) -> Marker | str:
    """A ``docs-test`` marker's parts, or the one-line reason it is malformed."""
    reason = ""
    found = re.search(r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*$", text)
    if found:
        reason, text = found.group(1).strip(), text[: found.start()].strip()
    verb, _, rest = text.partition(" ")
    args = [a.replace('\\"', '"') for a in _QUOTED.findall(rest)]
    bare = _QUOTED.sub("", rest).split()
    marker = Marker(line, verb, args, reason)
    if not reason:
        return f"marker `{verb}` needs its reason in parentheses at the end"
    if verb == "skip" and not bare and len(args) <= 1:
        return marker
    if verb == "replace" and not bare and len(args) == 2 and args[0]:
        return marker
    if verb in ("exit", "timeout") and len(bare) == 1 and len(args) <= (1 if verb == "exit" else 0):
        try:
            marker.number = int(bare[0]) if verb == "exit" else float(bare[0])
        except ValueError:
            return f"marker `{verb}` needs a number, not {bare[0]!r}"
        return marker
    return (
        f'malformed marker {text!r}; use skip ["text"] (reason), replace "old" "new" (reason), '
        'exit N ["text"] (reason) or timeout SECONDS (reason)'
    )


def parse_markdown(path: Path) -> tuple[list[Block], list[str]]:
    """The fenced code blocks of a Markdown file with their markers, and the file's marker errors."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    errors: list[str] = []
    pending: list[Marker] = []
    i = 0
    while i < len(lines):
        text = lines[i]
        marker_text = _MARKER.match(text)
        if marker_text:
            parsed = parse_marker(marker_text.group(1), i + 1)
            if isinstance(parsed, str):
                errors.append(f"{_rel(path)}:{i + 1}: {parsed}")
            else:
                pending.append(parsed)
            i += 1
            continue
        if "docs-test" in text and "<!--" in text:
            errors.append(f"{_rel(path)}:{i + 1}: write a docs-test marker on one line: <!-- docs-test: ... -->")
        fence = _FENCE.match(text)
        if not fence:
            for m in pending:
                errors.append(f"{_rel(path)}:{m.line}: marker `{m.verb}` is not directly above a code block")
            pending = []
            i += 1
            continue
        indent, ticks, lang = len(fence.group(1)), fence.group(2), fence.group(3).lower()
        body: list[str] = []
        start = i
        i += 1
        while i < len(lines) and not re.match(rf"^ {{0,3}}{re.escape(ticks[0])}{{{len(ticks)},}}\s*$", lines[i]):
            line = lines[i]
            body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
            i += 1
        i += 1  # the closing fence
        blocks.append(Block(path, start + 1, len(blocks) + 1, lang, body, pending))
        pending = []
    for m in pending:
        errors.append(f"{_rel(path)}:{m.line}: marker `{m.verb}` is not directly above a code block")
    return blocks, errors


def _split_commands(block: Block) -> list[Command]:
    """The commands of a shell block, with the line each starts on."""
    first = block.line + 1
    if any("<<" in line for line in block.body):  # a here-document: the block is one script
        return [Command("\n".join(block.body), first)]
    prompted = any(line.startswith("$ ") for line in block.body)
    commands: list[Command] = []
    pending: list[str] = []
    start = first
    for offset, raw in enumerate(block.body):
        line = raw
        if not pending:
            if prompted:
                if not raw.startswith("$ "):
                    continue  # output shown after a prompt
                line = raw[2:]
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            start = first + offset
        pending.append(line)
        if not line.rstrip().endswith("\\"):
            commands.append(Command("\n".join(pending), start))
            pending = []
    if pending:
        commands.append(Command("\n".join(pending), start))
    return commands


def plan(block: Block) -> tuple[list[Command], float]:
    """The block's commands with its markers applied (a python block is one command), and their timeout.

    Marker misuse (a marker that matches nothing, or that a block of this kind cannot take) goes to ``block.errors``.
    """
    kind = RUN.get(block.lang)
    if kind == "bash":
        commands = _split_commands(block)
    elif kind == "python":
        commands = [Command("\n".join(block.body), block.line + 1)]
    else:
        commands = []
    timeout = DEFAULT_TIMEOUT
    for c in commands:
        c.run = c.text
    for m in block.markers:
        if kind is None:
            block.errors.append(f"{block.where}: marker `{m.verb}` on a block that is not run")
            continue
        if m.verb == "timeout":
            timeout, m.used = float(m.number or DEFAULT_TIMEOUT), True
            continue
        target = m.args[0] if m.args else None
        if kind == "python" and m.verb in ("skip", "exit") and target is not None:
            block.errors.append(f'{block.where}: a python block is skipped or checked whole: drop "{target}"')
            continue
        for c in commands:
            if m.verb == "replace" and m.args[0] in c.run:
                c.run, m.used = c.run.replace(m.args[0], m.args[1]), True
            elif m.verb == "skip" and (target is None or target in c.text):
                c.skip, m.used = m.reason, True
            elif m.verb == "exit" and (target is None or target in c.text):
                c.exit, m.used = int(m.number or 0), True
        if not m.used:
            block.errors.append(f"{block.where}: marker at line {m.line} ({m.verb} {m.args}) matches no command")
    return commands, timeout


def without_comment(command: str) -> str:
    """A shell command without its trailing ``# comment`` (a ``#`` inside quotes or a word stays)."""
    quote = ""
    for i, ch in enumerate(command):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or command[i - 1].isspace()):
            return command[:i].rstrip()
    return command


def _all_blocks() -> list[Block]:
    return [b for path in DOCS for b in parse_markdown(path)[0]]


def _workspace(tmp_path: Path) -> Path:
    for name in LINKS:
        if (ROOT / name).exists():
            (tmp_path / name).symlink_to(ROOT / name)
    return tmp_path


def _env(workspace: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env.update(
        COLUMNS="100",
        NO_COLOR="1",
        TERM="dumb",
        PYTHONIOENCODING="utf-8",
        XDG_DATA_HOME=str(workspace / ".data"),  # the store and anything else in the user's data folder
        XDG_CONFIG_HOME=str(workspace / ".config"),
        XDG_CACHE_HOME=str(workspace / ".cache"),
        PIP_REQUIRE_VIRTUALENV="1",  # a second guard against installing into the tests' environment
    )
    return env


def _tail(text: str) -> str:
    lines = text.rstrip().splitlines()
    shown = [line if len(line) <= 300 else line[:300] + " ..." for line in lines[-TAIL:]]
    cut = f"[{len(lines) - TAIL} earlier lines]\n" if len(lines) > TAIL else ""
    return cut + "\n".join(shown) if shown else "(nothing)"


def run_block(block: Block, workspace: Path) -> list[str]:
    """Run one block in ``workspace``; one message per failing command (file, line, block, command, output)."""
    commands, timeout = plan(block)
    failures = list(block.errors)
    kind = RUN.get(block.lang)
    if kind is None:
        if block.lang == "json":
            try:
                json.loads("\n".join(block.body))
            except ValueError as e:
                failures.append(f"{block.where}: not valid JSON: {e}")
        return failures
    env = _env(workspace)
    for c in commands:
        if c.skip is not None:
            continue
        if _INSTALLS.search(without_comment(c.run)):
            failures.append(
                f"{_rel(block.path)}:{c.line} (block {block.number}, {block.lang}): `{_short(c.run)}` installs "
                "packages into the environment the tests run in; not run: add a skip marker with the reason"
            )
            continue
        if kind == "python":
            script = workspace / f"block_{block.line}.py"
            script.write_text(c.run + "\n", encoding="utf-8")
            argv = [sys.executable, script.name]
            shown = f"`python3 {script.name}` (line 1 of that script is line {c.line} here)"
        else:
            argv = ["bash", "-c", c.run]
            shown = f"`{_short(c.run)}`"
        try:
            done = _run(argv, workspace, env, timeout)
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            failures.append(
                f"{_rel(block.path)}:{c.line} (block {block.number}, {block.lang}): {shown} "
                f"still running after {timeout:g} s, stopped (add a docs-test marker with the reason)\n"
                f"--- stdout\n{_tail(out)}"
            )
            continue
        if done.returncode != c.exit:
            expected = "" if c.exit == 0 else f" (the marker expects {c.exit})"
            failures.append(
                f"{_rel(block.path)}:{c.line} (block {block.number}, {block.lang}): {shown} "
                f"exited {done.returncode}{expected}\n"
                f"--- stdout\n{_tail(done.stdout)}\n--- stderr\n{_tail(done.stderr)}"
            )
    return failures


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    """Run a command in a session of its own; on timeout stop it with everything it started."""
    with subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,
    ) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _stop_group(proc)
            out, _err = proc.communicate()
            raise subprocess.TimeoutExpired(argv, timeout, output=out) from None
        finally:
            if proc.poll() is None:  # interrupted (Ctrl-C): leave nothing behind
                _stop_group(proc)
        _stop_group(proc)  # anything the command left running in the background
        return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def _stop_group(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def _short(command: str) -> str:
    one = " ".join(command.split())
    return one if len(one) <= 200 else one[:200] + " ..."


@pytest.mark.integration
@pytest.mark.parametrize("path", DOCS, ids=lambda p: _rel(p))
def test_doc_runs(path: Path, tmp_path: Path) -> None:
    blocks, errors = parse_markdown(path)
    workspace = _workspace(tmp_path)
    failures = list(errors)
    for block in blocks:
        failures += run_block(block, workspace)
    assert not failures, f"{len(failures)} problem(s) in {_rel(path)}:\n\n" + "\n\n".join(failures)


def _not_run() -> list[tuple[str, str]]:
    out = []
    for block in _all_blocks():
        commands, _ = plan(block)
        out += [(f"{_rel(block.path)}:{c.line}", f"`{_short(c.text)}`: {c.skip}") for c in commands if c.skip]
    return out


@pytest.mark.parametrize(("where", "why"), _not_run(), ids=[w for w, _ in _not_run()])
def test_doc_command_not_run(where: str, why: str) -> None:
    """Listed so that each command the docs show but CI does not run appears in the report with its reason."""
    pytest.skip(f"{where}: not run: {why}")


def _parse(tmp_path: Path, text: str) -> tuple[list[Block], list[str]]:
    doc = tmp_path / "doc.md"
    doc.write_text(text, encoding="utf-8")
    return parse_markdown(doc)


def test_markers_shape_the_commands(tmp_path: Path) -> None:
    blocks, errors = _parse(
        tmp_path,
        "Intro\n\n"
        '<!-- docs-test: skip "serve" (runs until stopped) -->\n'
        '<!-- docs-test: replace "--deals 1000" "--deals 2" (minutes) -->\n'
        '<!-- docs-test: exit 130 "play" (interactive) -->\n'
        '<!-- docs-test: exit 0 "--auto" (no input needed) -->\n'
        "```bash\n"
        "corazones serve   # a server\n"
        "corazones arena a b --deals 1000\n"
        "corazones play\n"
        "corazones play --auto \\\n"
        "    --record game.json\n"
        "# a comment line\n"
        "```\n",
    )
    assert errors == []
    commands, timeout = plan(blocks[0])
    assert blocks[0].errors == [] and timeout == DEFAULT_TIMEOUT
    assert [(c.line, c.skip is not None, c.exit) for c in commands] == [
        (8, True, 0),
        (9, False, 0),
        (10, False, 130),
        (11, False, 0),
    ]
    assert commands[1].run == "corazones arena a b --deals 2"
    assert commands[3].text == "corazones play --auto \\\n    --record game.json"


def test_console_blocks_run_only_prompted_lines(tmp_path: Path) -> None:
    blocks, _ = _parse(tmp_path, "```console\n$ corazones rules\nstandard ...\n$ echo hi\nhi\n```\n")
    assert [c.text for c in plan(blocks[0])[0]] == ["corazones rules", "echo hi"]


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("<!-- docs-test: skip -->\n```bash\nls\n```\n", "needs its reason"),
        ('<!-- docs-test: replace "a" (why) -->\n```bash\nls\n```\n', "malformed marker"),
        ("<!-- docs-test: exit many (why) -->\n```bash\nls\n```\n", "needs a number"),
        ("<!-- docs-test: skip (why) -->\n\nText.\n", "not directly above a code block"),
        ("<!-- docs-test: skip\n(why) -->\n```bash\nls\n```\n", "on one line"),
    ],
)
def test_malformed_markers_are_reported(tmp_path: Path, text: str, complaint: str) -> None:
    _blocks, errors = _parse(tmp_path, text)
    assert any(complaint in e for e in errors), errors


def test_a_marker_matching_nothing_is_reported(tmp_path: Path) -> None:
    blocks, errors = _parse(tmp_path, '<!-- docs-test: replace "--deals 9" "--deals 1" (why) -->\n```bash\nls\n```\n')
    plan(blocks[0])
    assert errors == [] and "matches no command" in blocks[0].errors[0]


@pytest.mark.integration
def test_a_failure_names_file_line_block_and_output(tmp_path: Path) -> None:
    blocks, _ = _parse(
        tmp_path, "```bash\necho fine\necho broken >&2; exit 3\n```\n\n```python\nraise SystemExit('boom')\n```\n"
    )
    work = tmp_path / "work"
    work.mkdir()
    failures = run_block(blocks[0], work) + run_block(blocks[1], work)
    assert len(failures) == 2
    assert ":3 (block 1, bash): `echo broken >&2; exit 3` exited 3" in failures[0] and "broken" in failures[0]
    assert ":7 (block 2, python)" in failures[1] and "line 1 of that script is line 7" in failures[1]
    assert "boom" in failures[1]


@pytest.mark.integration
def test_installs_are_refused_unless_skipped(tmp_path: Path) -> None:
    blocks, _ = _parse(tmp_path, "```bash\npython3 -m pip install -e .   # get it\necho ok  # not pip install\n```\n")
    failures = run_block(blocks[0], tmp_path)
    assert len(failures) == 1 and "installs packages" in failures[0]


def _pytest_examples() -> list[tuple[Block, str, list[str]]]:
    """Each test function a page's python blocks show, with the fixtures it asks for (none defined in its block)."""
    out = []
    for block in _all_blocks():
        if RUN.get(block.lang) != "python":
            continue
        tree = ast.parse("\n".join(block.body))
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        own = {f.name for f in functions if any("fixture" in ast.unparse(d) for d in f.decorator_list)}
        for f in functions:
            if f.name.startswith("test_"):
                asked = [a.arg for a in f.args.posonlyargs + f.args.args + f.args.kwonlyargs]
                out.append((block, f.name, [a for a in asked if a not in own]))
    return out


@pytest.mark.integration  # asks a pytest process of its own for the fixtures it knows
def test_pytest_examples_ask_for_fixtures_that_exist() -> None:
    """A block runs as a script, which only defines a test function: the run cannot tell that a fixture it asks
    for does not exist. A reader copies it into ``tests/``, so every fixture it names must be one pytest knows
    there (``tests/conftest.py``, pytest's own, the installed plugins) or one the block defines."""
    examples = _pytest_examples()
    assert examples, "no page shows a test any more: drop this check"
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--fixtures", "-q", "-p", "no:cacheprovider", "tests/conftest.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=DEFAULT_TIMEOUT,
    ).stdout
    known = set(re.findall(r"^(\w+)(?: \[[^\]]*\])? -- ", listed, flags=re.M))
    assert {"tmp_path", "browser", "postgres_url"} <= known, listed[-2000:]
    unknown = [f"{b.where}: {name} asks for {a!r}" for b, name, asked in examples for a in asked if a not in known]
    assert not unknown, "fixtures no test can get:\n" + "\n".join(unknown)


def _shown_output(page: str, command: str) -> list[str]:
    """The lines a page shows after ``$ command`` in a block that is shown, not run (up to the next prompt)."""
    for block in parse_markdown(ROOT / page)[0]:
        if f"$ {command}" in block.body:
            rest = block.body[block.body.index(f"$ {command}") + 1 :]
            return rest[: next((i for i, x in enumerate(rest) if x.startswith("$ ")), len(rest))]
    raise AssertionError(f"{page} shows no `$ {command}`")


@pytest.mark.integration
def test_records_page_shows_what_replay_and_verify_print(tmp_path: Path) -> None:
    """docs/records.md shows ``replay`` and ``verify`` on a record of ``quick`` with seed 12. The cards played
    there are a person's, but the lines that depend only on the rules and the seed (the header, the first
    hand's dealer and pass, the commitment) must be the program's, word for word."""
    env = _env(tmp_path)
    record = tmp_path / "game.json"

    def corazones(*args: str) -> list[str]:
        """The lines ``corazones ARGS`` prints, run in the test's folder (no input: ``play --auto`` asks none)."""
        done = subprocess.run(
            [sys.executable, "-m", "corazones", *args],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        return done.stdout.splitlines()

    corazones("play", "-r", "quick", "--seed", "12", "--auto", "--record", str(record))
    replayed = corazones("replay", "game.json", "--no-glyphs", "--lang", "en")
    shown = _shown_output("docs/records.md", "corazones replay game.json --no-glyphs")
    assert shown[:3] == replayed[:3]
    assert shown[-3] == replayed[-3] == "Hand 1 over."
    verified = corazones("verify", "game.json", "--lang", "en")
    shown = [line for line in _shown_output("docs/records.md", "corazones verify game.json") if line]
    assert len(shown) == len(verified) == 2
    assert shown[0].split(", game over")[0] == verified[0].split(", game over")[0]  # the players' moves differ
    assert shown[1] == verified[1]


def _verify_in(folder: Path, *args: str) -> list[str]:
    """The lines ``corazones verify ARGS`` prints in ``folder``, in English."""
    from typer.testing import CliRunner

    from corazones.cli.main import app

    with contextlib.chdir(folder):
        result = CliRunner().invoke(app, ["verify", *args, "--lang", "en"], env={"LC_ALL": "C.UTF-8"})
    return result.stdout.splitlines()


def _example_deal() -> str:
    """The hand-log line docs/records.md shows."""
    lines = (ROOT / "docs/records.md").read_text(encoding="utf-8").splitlines()
    return next(line for line in lines if line.startswith('{"rules": "standard", "options"'))


def test_records_page_shows_the_hand_log_verdicts_verify_prints(tmp_path: Path) -> None:
    """The page's hand log, from its second line: its example deal, then the same deal with play #6 a card its
    seat does not hold and with the points taken given as the score, then a line that is not JSON. (Its first
    line is a deal the page does not give.)  Every seat these verdicts name is counted from 1."""
    deal = _example_deal()
    illegal, mismatch = json.loads(deal), json.loads(deal)
    illegal["plays"][5] = "6D"
    mismatch["expect"]["points"] = [26, 0, 0, 0]
    log = [deal, deal, json.dumps(illegal), json.dumps(mismatch), "{bad"]
    (tmp_path / "hands.jsonl").write_text("\n".join(log) + "\n", encoding="utf-8")
    printed = _verify_in(tmp_path, "hands.jsonl")
    shown = _shown_output("docs/records.md", "corazones verify hands.jsonl")
    assert shown[1:5] == printed[1:5], printed
    illegal_play = printed[2].removeprefix("line 3: FAIL illegal: ")
    page = (ROOT / "docs/records.md").read_text(encoding="utf-8")
    assert page.count("play #6 (trick 2, seat") == page.count(illegal_play) == 2, illegal_play  # the table too


def test_records_page_shows_the_refusal_of_a_tampered_record(tmp_path: Path) -> None:
    """The page's record example (``quick``, seed 12, its first six actions), with action #6 made a card its
    seat does not hold: the first line the page shows for ``verify tampered.json``."""
    from corazones import Action, Game, Rules
    from corazones.core.records import dumps, make_record

    text = (ROOT / "docs/records.md").read_text(encoding="utf-8")
    found = re.search(r"```json\n(\{\n  \"format\": \"corazones-record\".*?)```", text, re.S)
    assert found, "docs/records.md shows no game record"
    example = json.loads(found[1])
    game = Game(Rules.preset(example["rules"]["name"]), seed=example["seed"])
    for action in example["actions"]:
        game.apply(Action.from_json(action))
    record = make_record(game)
    record["actions"][5]["play"] = "2C"
    (tmp_path / "tampered.json").write_text(dumps(record), encoding="utf-8")
    (printed,) = _verify_in(tmp_path, "tampered.json")
    assert _shown_output("docs/records.md", "corazones verify tampered.json")[0] == printed


def test_review_page_quotes_reasons_naming_seats_and_cards_as_the_report_does() -> None:
    from corazones.cli.render import Seats

    page = (ROOT / "docs/review.md").read_text(encoding="utf-8")
    names = Seats("en", 4)  # a record's default names, as the report shows them
    quoted = re.findall(r"let ([Ss]eat \d+) (?:give you|shoot the moon)", page)
    assert len(quoted) >= 3, quoted
    assert [names[int(q.split()[1]) - 1] for q in quoted] == quoted
    why = re.findall(r'"why": "([^"]*)"', page)
    assert why and not any(re.search(r"\b(?:10|[2-9JQKA])[CDSH]\b", w) for w in why), why  # glyphs by default


def test_protocol_page_shows_refusals_counting_seats_from_1() -> None:
    from corazones.core.errors import Seats
    from corazones.i18n import N_
    from corazones.server.refusal import Refused, error_reply

    page = (ROOT / "docs/protocol.md").read_text(encoding="utf-8")
    turn = Refused("not_your_turn", N_("It is not your turn: seat {seats} must act now."), seats=Seats(2))
    assert f'"message": "{error_reply(turn, "en").message}"' in page
    held = N_("You held seat {held} in this deal: you may sit in another seat when the next deal starts.")
    assert f'("{error_reply(Refused("seat_taken", held, held=Seats(0)), "en").message}", for seat 0)' in page


def test_readme_draws_the_terminal_table_as_play_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's picture of ``corazones play`` (seed 3, the start screen's defaults, 80 by 30): its header and
    the opponents' boxes, their names and levels, are drawn the same; the cards depend on how the bots play."""
    from corazones.core.rules import Rules
    from corazones.tui import settings as cfg
    from corazones.tui.app import CorazonesApp
    from tests.tui_driver import run_pilot, settle

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    readme = parse_markdown(ROOT / "README.md")[0]
    picture = next(b.body for b in readme if b.lang == "text" and b.body[0].startswith(" Corazones · "))
    drawn: list[str] = []

    async def run() -> None:
        app = CorazonesApp(
            rules=Rules.preset("standard"), seed=3, settings=cfg.Settings(speed="instant", lang="en"), remember=False
        )
        async with app.run_test(size=(80, 30)) as pilot:
            await settle(pilot)
            drawn.extend(strip.text.rstrip() for strip in app.screen._compositor.render_strips())

    run_pilot(run())
    rows = [0, 1, 2, 6, 7]  # the header; Bruno's box, across; Ana's and Carmen's, at the sides
    assert [picture[r].rstrip() for r in rows] == [drawn[r] for r in rows], "\n".join(drawn)
