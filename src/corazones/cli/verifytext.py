"""``corazones verify``: check a game record, a JSON Lines hand log, or a seed against its commitment.

The kind of file is told from its content, not its name: a JSON object with
a ``"format"`` field is a game record; anything else is read as a hand log,
one deal per line (a single pretty-printed hand-log object is accepted too).

Reading is bounded: at most :data:`~corazones.core.limits.MAX_RECORD_BYTES`
are read to tell a record, and a hand log is read line by line, each line at
most :data:`~corazones.core.limits.MAX_HANDLOG_LINE_BYTES`, so neither a huge
file nor ``/dev/zero`` can exhaust memory.  Everything printed from the file
is made safe for the terminal.  Exit codes: 0 everything checks, 1 a
discrepancy (or no deal at all), 2 the input cannot be used
(:mod:`corazones.cli.exits`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from corazones.cli.exits import FAILED, OK, fail
from corazones.cli.inputs import (
    MAX_HANDLOG_BYTES,
    InputError,
    bounded_lines,
    decode,
    open_input,
    read_some,
    shown,
    where,
)
from corazones.core.commitment import check, commit, seed_from_text
from corazones.core.errors import N_, CorazonesError, Count, Message
from corazones.core.handlog import MALFORMED, Verdict, check_line
from corazones.core.limits import MAX_HANDLOG_LINE_BYTES, MAX_RECORD_BYTES
from corazones.core.records import FORMAT, check_shape, loads, verify_record
from corazones.core.text import safe_line, safe_name
from corazones.i18n import error_text, translator
from corazones.i18n.seats import seat_name

_NOT_JSON = object()


def english(error: object) -> str:
    """The engine's words for people, in English whatever ``--lang`` says, so scripts can read them (docs/cli.md).

    Not ``str(error)``, the programmer's sentence: that names seats by their
    index from 0, and a person reads them counted from 1, as every face names them.
    """
    return error_text(translator("en").gettext, error)


def verdict_text(verdict: Verdict) -> str:
    """A hand log line's verdict as ``verify`` prints it: ``ok, ...`` or ``FAIL status: ...``, in English (above)."""
    if verdict.reason is None or str(verdict.reason) != verdict.message:  # a message worded apart from its reason
        return str(verdict)
    text = english(verdict.reason)
    return text if verdict.ok else f"FAIL {verdict.status}: {text}"


def run_verify(file: Path | str, lang: str = "en") -> int:
    try:
        with open_input(file) as f:
            head = read_some(f, MAX_RECORD_BYTES)
            more = len(head) > MAX_RECORD_BYTES
            start = head[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
            looks_like_record = start.startswith(b"{") and FORMAT.encode() in head[:4096]
            if more and looks_like_record:
                fail(
                    Message(
                        N_("{file} is larger than {limit} bytes, the limit for a game record"),
                        file=where(file),
                        limit=Count(MAX_RECORD_BYTES),
                    ),
                    lang=lang,
                )
            if not more:
                text = decode(head, file)
                whole = _json_or_not(text)
                if isinstance(whole, dict) and "format" in whole:
                    # read again by the records' own strict reader: a key given twice, NaN, a huge number
                    return _verify_record_text(file, text, lang)
                if whole is _NOT_JSON and looks_like_record:
                    # a damaged record (cut short, say): report it as a record, not as lines of a log
                    return _verify_record_text(file, text, lang)
                if isinstance(whole, dict) and "\n" in text.strip():
                    return _report([(1, check_line(text))], file, lang)
            return _report(_log_lines(head, f, where(file)), file, lang)
    except InputError as e:
        fail(e, lang=lang)


def _json_or_not(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or a number Python will not convert: the readers say why
        return _NOT_JSON


def _log_lines(head: bytes, f: Any, what: Message | str) -> Any:
    """``(line number, verdict)`` for each non-blank line, read in bounded steps."""
    for no, raw in enumerate(bounded_lines(head, f, MAX_HANDLOG_LINE_BYTES, MAX_HANDLOG_BYTES, what), 1):
        if no == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            why = Message(N_("not UTF-8 text (byte {byte} of the line)"), byte=e.start)
            yield no, Verdict(False, str(why), status=MALFORMED, reason=why)
            continue
        if line.strip():
            yield no, check_line(line)


def _report(verdicts: Any, file: Path | str, lang: str) -> int:
    _ = translator(lang).gettext
    passed = failed = 0
    for no, verdict in verdicts:
        typer.echo(_("line {n}: {verdict}").format(n=no, verdict=safe_line(verdict_text(verdict), 1000)))
        if verdict.ok:
            passed += 1
        else:
            failed += 1
    if not passed and not failed:
        typer.echo(_("{file}: no deal to check (the file is empty)").format(file=shown(file)))
    typer.echo(_("{passed} passed, {failed} failed").format(passed=passed, failed=failed))
    return FAILED if failed or not passed else OK


def _verify_record_text(file: Path | str, text: str, lang: str) -> int:
    try:
        data = loads(text)
    except CorazonesError as e:
        typer.echo(f"FAIL {shown(file)}: {safe_line(english(e), 1000)}")
        return FAILED
    return _verify_record(file, data, lang)


def _verify_record(file: Path | str, data: dict[str, Any], lang: str) -> int:
    _ = translator(lang).gettext
    try:
        game = verify_record(check_shape(data))
    except (CorazonesError, ValueError, RecursionError) as e:
        typer.echo(f"FAIL {shown(file)}: {safe_line(english(e), 1000)}")
        return FAILED
    if game.over:
        players = data.get("players") or []
        names = [seat_name(_, players[s] if s < len(players) else None, s, safe_name) for s in game.winners]
        state = _("game over, winner(s) {winners}").format(winners=", ".join(names))
    else:
        state = _("game not finished")
    if game.rules.settlement in ("chips_1887", "chips_pool"):
        standing = _("chips {values}").format(values=list(game.chips))
    else:
        standing = _("scores {values}").format(values=list(game.scores))
    hands = translator(lang).ngettext("{n} hand", "{n} hands", len(game.history)).format(n=len(game.history))
    actions = translator(lang).ngettext("{n} action", "{n} actions", len(game.actions)).format(n=len(game.actions))
    typer.echo(f"OK {shown(file)}: {actions}, {hands}, {state}, {standing}")
    if "commitment" in data:
        typer.echo(_("The seed matches the commitment {commitment}.").format(commitment=data["commitment"]))
    return OK


def verify_commitment(seed: str, commitment: str, lang: str = "en") -> int:
    """Check that ``seed`` (as typed; digits are a whole-number seed) is the one ``commitment`` was made to."""
    _ = translator(lang).gettext
    try:
        value = seed_from_text(seed)
        expected = commit(value)
    except CorazonesError as e:
        fail(Message(N_("--seed: {error}"), error=e), lang=lang)
    if check(value, commitment.strip().lower()):
        text = _("OK: seed {seed} is the one committed to by {commitment}.")
        typer.echo(text.format(seed=value, commitment=expected))
        return OK
    typer.echo(
        _("FAIL: seed {seed} gives the commitment {expected}, not {commitment}.").format(
            seed=safe_line(str(value), 80), expected=expected, commitment=safe_line(commitment, 80)
        )
    )
    return FAILED
