"""``corazones``: play, rules, replay, verify (and more faces as they come)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from corazones.cli import arena_cmd
from corazones.core.errors import CorazonesError
from corazones.core.rules import PRESETS, Rules

app = typer.Typer(
    help="Corazones: Hearts and its whole family.  Start with `corazones play`.",
    no_args_is_help=True,
    add_completion=False,
)


#: Options whose value is a list; on the command line ``passes=left,right`` is accepted for ``["left", "right"]``.
_LIST_OPTIONS = ("passes", "discard_order")


def parse_option_values(pairs: list[str]) -> dict[str, Any]:
    """Turn ``name=value`` strings into option overrides (values read as JSON when they can be)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, eq, raw = pair.partition("=")
        name = name.strip()
        if not eq or not name:
            raise typer.BadParameter(
                f"{pair!r} must look like name=value (e.g. target=50, moon=off, passes=left,right)",
                param_hint="'--option'",
            )
        try:
            value: Any = json.loads(raw)
        except (json.JSONDecodeError, RecursionError):
            value = raw
        if name in _LIST_OPTIONS and isinstance(value, str):
            value = [v for v in value.replace(",", " ").split() if v]
        if isinstance(value, list):
            value = tuple(value)
        out[name] = value
    return out


def build_rules(preset: str, players: int | None, options: list[str]) -> Rules:
    """The rules the command line asks for; a bad preset, option or value is a usage error naming it."""
    if preset not in PRESETS:
        raise typer.BadParameter(f"unknown preset {preset!r}; presets: {', '.join(PRESETS)}", param_hint="'--rules'")
    overrides = parse_option_values(options)
    if players is not None:
        overrides["players"] = players
    try:
        return Rules.preset(preset, **overrides)
    except CorazonesError as e:
        hint = "'--players'" if players is not None and str(e).startswith("players") else "'--option'"
        raise typer.BadParameter(str(e), param_hint=hint) from None


def default_level() -> str:
    """The strongest everyday level available (``standard`` once it exists, else the first)."""
    from corazones.players.registry import LEVELS

    return "standard" if "standard" in LEVELS else next(iter(LEVELS))


def check_level(level: str | None) -> str:
    from corazones.players.registry import LEVELS

    if level is None:
        return default_level()
    if level not in LEVELS:
        raise typer.BadParameter(f"unknown level {level!r}; levels: {', '.join(LEVELS)}", param_hint="'--level'")
    return level


def check_lang(lang: str) -> str:
    from corazones.cli.i18n import LANGS

    if lang not in LANGS:
        raise typer.BadParameter(f"unknown language {lang!r}; languages: {', '.join(LANGS)}", param_hint="'--lang'")
    return lang


PresetOpt = Annotated[str, typer.Option("--rules", "-r", help=f"Preset: {', '.join(PRESETS)}")]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-n", help="Number of players (default: the preset's)")]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Override an option: name=value (repeatable)")
]


@app.command()
def rules(
    preset: Annotated[str | None, typer.Argument(help="Show this preset's options; omit to list presets")] = None,
    players: PlayersOpt = None,
    option: OptionOpt = None,
) -> None:
    """List the presets, or show every option of one preset."""
    if preset is None:
        for name, values in PRESETS.items():
            typer.echo(f"{name:22} {values.get('description', '')}")
        return
    if preset not in PRESETS:
        raise typer.BadParameter(f"unknown preset {preset!r}; presets: {', '.join(PRESETS)}", param_hint="'PRESET'")
    r = build_rules(preset, players, option or [])
    typer.echo(f"{preset}: {PRESETS[preset].get('description', '')}")
    for key, value in r.summary():
        typer.echo(f"  {key:22} {value}")
    typer.echo(f"  {'(hand size)':22} {r.hand_size} cards, kitty {r.kitty_size}")


@app.command()
def play(
    preset: PresetOpt = "standard",
    players: PlayersOpt = None,
    option: OptionOpt = None,
    seed: Annotated[int | None, typer.Option(help="Seed: the same seed deals the same game")] = None,
    level: Annotated[str | None, typer.Option(help="Level of the computer players (default: standard)")] = None,
    seat: Annotated[int, typer.Option(help="Your seat (0 = South)")] = 0,
    auto: Annotated[bool, typer.Option("--auto", help="Watch bots play every seat")] = False,
    hands: Annotated[int | None, typer.Option(help="Stop after this many hands")] = None,
    record: Annotated[Path | None, typer.Option(help="Write the game record (JSON) here")] = None,
    lang: Annotated[str, typer.Option(help="Language: en or es")] = "en",
) -> None:
    """Play a game in the terminal (line mode) against computer players.

    Type cards as rank then suit (QS, 10H, TH, Q♠); q abandons the game (the
    record, if asked for, is still written and replays to where you stopped).
    """
    from corazones.cli.lineplay import run_line_game

    r = build_rules(preset, players, option or [])
    if not 0 <= seat < r.players:
        raise typer.BadParameter(f"seat {seat} does not exist; allowed: 0 to {r.players - 1}", param_hint="'--seat'")
    check_lang(lang)
    if hands is not None and hands < 1:
        raise typer.BadParameter(f"must be at least 1, not {hands}", param_hint="'--hands'")
    if record is not None and (record.is_dir() or not record.parent.is_dir()):
        why = "is a directory" if record.is_dir() else f"folder {str(record.parent)!r} does not exist"
        raise typer.BadParameter(f"cannot write the record to {str(record)!r}: {why}", param_hint="'--record'")
    code = run_line_game(r, seed, check_level(level), None if auto else seat, hands, record, lang)
    raise typer.Exit(code)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record written by `play --record` or the arena")],
    glyphs: Annotated[bool, typer.Option(help="Show suits as ♣♦♠♥")] = True,
    lang: Annotated[str, typer.Option(help="Language: en or es")] = "en",
) -> None:
    """Print a game record trick by trick with running scores."""
    from corazones.cli.replaytext import print_replay

    raise typer.Exit(print_replay(file, glyphs, check_lang(lang)))


@app.command()
def verify(
    file: Annotated[Path, typer.Argument(help="A game record (.json) or hand log (JSON Lines, one deal a line)")],
) -> None:
    """Check every action and score of a record, or every deal of a hand log; exit 1 on a discrepancy."""
    from corazones.cli.verifytext import run_verify

    raise typer.Exit(run_verify(file))


app.command("arena")(arena_cmd.arena)


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
