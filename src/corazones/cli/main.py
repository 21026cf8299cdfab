"""``corazones``: play, rules, replay, verify (and more faces as they come)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from corazones.core.errors import CorazonesError
from corazones.core.rules import PRESETS, Rules

app = typer.Typer(
    help="Corazones: Hearts and its whole family.  Start with `corazones play`.",
    no_args_is_help=True,
    add_completion=False,
)


def parse_option_values(pairs: list[str]) -> dict[str, Any]:
    """Turn ``name=value`` strings into option overrides (values read as JSON when they can be)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise typer.BadParameter(f"option {pair!r} must look like name=value (e.g. target=50)")
        name, _, raw = pair.partition("=")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        if isinstance(value, list):
            value = tuple(value)
        out[name.strip()] = value
    return out


def build_rules(preset: str, players: int | None, options: list[str]) -> Rules:
    overrides = parse_option_values(options)
    if players is not None:
        overrides["players"] = players
    try:
        return Rules.preset(preset, **overrides)
    except CorazonesError as e:
        raise typer.BadParameter(str(e)) from None


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
        raise typer.BadParameter(f"unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
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
    level: Annotated[str, typer.Option(help="Level of the computer players")] = "standard",
    seat: Annotated[int, typer.Option(help="Your seat (0 = South)")] = 0,
    auto: Annotated[bool, typer.Option("--auto", help="Watch bots play every seat")] = False,
    hands: Annotated[int | None, typer.Option(help="Stop after this many hands")] = None,
    record: Annotated[Path | None, typer.Option(help="Write the game record (JSON) here")] = None,
    lang: Annotated[str, typer.Option(help="Language: en or es")] = "en",
) -> None:
    """Play a game in the terminal (line mode) against computer players."""
    from corazones.cli.lineplay import run_line_game

    r = build_rules(preset, players, option or [])
    if not 0 <= seat < r.players:
        raise typer.BadParameter(f"--seat must be 0 to {r.players - 1}")
    code = run_line_game(r, seed, level, None if auto else seat, hands, record, lang)
    raise typer.Exit(code)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record written by `play --record` or the arena")],
    glyphs: Annotated[bool, typer.Option(help="Show suits as ♣♦♠♥")] = True,
) -> None:
    """Print a game record trick by trick with running scores."""
    from corazones.cli.replaytext import print_replay

    raise typer.Exit(print_replay(file, glyphs))


@app.command()
def verify(
    file: Annotated[Path, typer.Argument(help="A game record (.json) or hand log (JSON Lines, one deal a line)")],
) -> None:
    """Check every action and score of a record, or every deal of a hand log; exit 1 on a discrepancy."""
    from corazones.cli.verifytext import run_verify

    raise typer.Exit(run_verify(file))


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
