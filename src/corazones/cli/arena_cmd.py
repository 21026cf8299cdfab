"""``corazones arena``: computer players against each other, duplicate by default.

The work is in :mod:`corazones.services.arena`; this face parses the flags,
draws the progress bar on stderr and prints the figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from corazones.cli.exits import FAILED, INTERRUPTED, fail, plain_interrupts
from corazones.cli.flags import AT_LEAST_ONE, FlagRefused, LangOpt, PlayersOpt, check_lang, quoted, refuse
from corazones.cli.outputs import check_output_dir
from corazones.cli.toolkit import filled_help
from corazones.core.commitment import seed_from_text
from corazones.core.errors import Message, SeedError
from corazones.core.text import safe_line
from corazones.i18n import N_, error_text, translator
from corazones.i18n.oserrors import os_reason
from corazones.players.registry import LEVELS

if TYPE_CHECKING:
    from corazones.services.arena import ArenaConfig, ArenaResult

#: What ``corazones arena --help`` says it does (a msgid: the help is worded in the command line's language).
HELP = N_("Play computer players against each other and measure them (points per deal with 95% CIs).")


def arena(
    contenders: Annotated[
        list[str],
        typer.Argument(
            metavar="PLAYER",
            help=filled_help(
                N_(
                    "Two or more players: level names ({levels}) or module:Class. "
                    "Repeat a level for a null test (random random)."
                ),
                levels=", ".join(LEVELS),
            ),
            show_default=False,
        ),
    ],
    preset: Annotated[
        str, typer.Option("--rules", "-r", metavar="PRESET", help=N_("Rules preset (see `corazones rules`)"))
    ] = "standard",
    players: PlayersOpt = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", metavar="NAME=VALUE", help=N_("Override a rule option: name=value (repeatable)")
        ),
    ] = None,
    deals: Annotated[
        int | None,
        typer.Option(
            metavar="N", help=N_("Play this many boards of one deal each (default 1000 if --games is not given)")
        ),
    ] = None,
    games: Annotated[
        int | None, typer.Option(metavar="N", help=N_("Play this many boards of one whole game each"))
    ] = None,
    seed: Annotated[str, typer.Option(metavar="SEED", help=N_("Base seed: the same seed plays the same boards"))] = "0",
    duplicate: Annotated[
        bool, typer.Option(help=N_("Replay every board in every seat rotation so each player holds every hand"))
    ] = True,
    workers: Annotated[
        int | None, typer.Option("--workers", "-j", metavar="N", help=N_("Parallel processes (default: all CPUs)"))
    ] = None,
    backend: Annotated[
        str, typer.Option(metavar="local|ray", help=N_("Where to run: local (processes) or ray"))
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(metavar="ADDRESS", help=N_("Ray cluster to join with --backend ray (default: start a local Ray)")),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FOLDER",
            help=N_(
                "Write results.json, results.csv and scores.png into this folder (checked first); "
                "every finished board goes into its boards.jsonl at once"
            ),
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help=N_(
                "Go on with the run in --out (same settings): play only the boards not yet in its boards.jsonl; "
                "a larger --deals extends it"
            ),
        ),
    ] = False,
    max_game_hands: Annotated[
        int, typer.Option(metavar="N", help=N_("Give up on a game that lasts longer than this"))
    ] = 1000,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=N_("No progress bar"))] = False,
    lang: LangOpt = None,
) -> None:
    """``corazones arena``: the flags checked, the boards played with a progress bar, the figures printed."""
    from corazones.cli.main import build_rules
    from corazones.services.arena import BACKENDS, ArenaConfig, ArenaError
    from corazones.services.arena.config import check_arena_seed
    from corazones.services.arena.output import RESULT_FILES
    from corazones.services.arena_journal import FILE_NAME, JournalError, JournalWriteError

    lang = check_lang(lang)
    if deals is not None and games is not None:
        refuse("--games", lang, N_("give either --deals or --games, not both"))
    count = games if games is not None else deals if deals is not None else 1000
    flag = "--games" if games is not None else "--deals"
    if count < 1:
        refuse(flag, lang, AT_LEAST_ONE, value=count)
    if workers is not None and workers < 1:
        refuse("--workers", lang, AT_LEAST_ONE, value=workers)
    if workers is not None and backend == "local" and workers > max_local_workers():
        refuse(
            "--workers",
            lang,
            N_(
                "{workers} is more processes than this machine can use; at most {most} (4 per CPU) with --backend local"
            ),
            workers=workers,
            most=max_local_workers(),
        )
    if backend not in BACKENDS:
        refuse(
            "--backend",
            lang,
            N_("{backend} is not allowed; backends: {backends}"),
            backend=quoted(backend),
            backends=", ".join(BACKENDS),
        )
    if ray_address is not None and backend != "ray":
        refuse("--ray-address", lang, N_("--ray-address is used with --backend ray only"))
    if len(contenders) < 2:
        refuse(
            "PLAYER",
            lang,
            N_("the arena needs at least two players, got {count}; levels: {levels}"),
            count=len(contenders),
            levels=", ".join(LEVELS),
        )
    if max_game_hands < 1:
        refuse("--max-game-hands", lang, AT_LEAST_ONE, value=max_game_hands)
    rules = build_rules(preset, players, option or [], lang)
    try:
        # digits (with one minus sign or none) are a whole number, as play's --seed; anything else is text
        base_seed = seed_from_text(seed)
        check_arena_seed(base_seed, count)  # every board's seed, before the first board is played
    except (ArenaError, SeedError) as e:
        raise FlagRefused("--seed", e, lang) from None
    if resume and out is None:
        refuse("--resume", lang, N_("--resume goes on with the run in an --out folder; give --out too"))
    if out is not None:
        # checked before the first board is played: a long run must not end in "cannot write"
        check_output_dir(out, lang=lang, files=(FILE_NAME, *RESULT_FILES))
        _check_plotting(lang)
    try:
        config = ArenaConfig(
            contenders=tuple(contenders),
            rules=rules,
            boards=count,
            mode="games" if games is not None else "deals",
            seed=base_seed,
            duplicate=duplicate,
            max_game_hands=max_game_hands,
        )
    except ArenaError as e:  # a contender that cannot be loaded
        raise FlagRefused("PLAYER", e, lang) from None

    journal = None if out is None else out / FILE_NAME
    try:
        with plain_interrupts():
            result = _run_with_progress(config, workers, backend, ray_address, quiet, journal, resume, lang)
    except JournalError as e:
        raise FlagRefused("--resume" if resume else "--out", e, lang) from None
    except JournalWriteError as e:  # a full disk in the middle of the run
        fail(e, FAILED, lang)
    except ArenaError as e:
        fail(e, FAILED, lang)
    except KeyboardInterrupt:
        if journal is None:
            raise
        fail(
            Message(
                N_("interrupted; the finished boards are kept in {path}: give the same command with --resume to go on"),
                path=safe_line(str(journal), 200),
            ),
            INTERRUPTED,
            lang,
        )
    print_result(result, lang)
    if out is not None:
        try:
            written = result.write(out)
        except OSError as e:
            fail(
                Message(
                    N_("could not write the results into {path}: {why}"),
                    path=safe_line(str(out), 200),
                    why=os_reason(e),
                ),
                FAILED,
                lang,
            )
        for path in written:
            typer.echo(translator(lang).gettext(N_("wrote {path}")).format(path=safe_line(str(path), 300)))


def _check_plotting(lang: str) -> None:
    """``--out`` draws scores.png with matplotlib (the ``arena`` extra): say so now if it is missing."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        refuse(
            "--out",
            lang,
            N_("--out draws scores.png with matplotlib, which is not installed: pip install 'corazones[arena]'"),
        )


def max_local_workers() -> int:
    """Local processes the arena may start: four per CPU (each holds a Python interpreter)."""
    import os

    return 4 * (os.cpu_count() or 1)


def _run_with_progress(
    config: ArenaConfig,
    workers: int | None,
    backend: str,
    ray_address: str | None,
    quiet: bool,
    journal: Path | None = None,
    resume: bool = False,
    lang: str = "en",
) -> ArenaResult:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from corazones.services.arena import run_arena

    gettext = translator(lang).gettext
    what = N_("arena (games, {backend})") if config.mode == "games" else N_("arena (deals, {backend})")
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(gettext(N_("boards"))),
        TimeElapsedColumn(),
        TextColumn(gettext(N_("ETA"))),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=quiet,
        transient=False,
    ) as bar:
        task = bar.add_task(gettext(what).format(backend=backend), total=config.boards)

        def tick(done: int, total: int) -> None:
            bar.update(task, completed=done)

        return run_arena(
            config,
            workers=workers,
            backend=backend,
            progress=tick,
            ray_address=ray_address,
            journal=journal,
            resume=resume,
        )


def print_result(result: ArenaResult, lang: str = "en") -> None:
    """The figures as a table on stdout, then the paired gaps in words, in ``lang``.

    The labels (level names, ``module:Class``), the rules' name, the backend
    and the numbers are what was typed or measured and stay as they are; the
    words around them come from the catalog.
    """
    from rich.console import Console
    from rich.table import Table

    _ = translator(lang).gettext
    cfg = result.config
    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, 120)  # files and pipes get whole lines, not wrapped cells
    seating = cfg.seating()
    rot = (
        _(N_("{k} rotations each ({seating})")).format(k=cfg.k, seating=seating)
        if cfg.duplicate
        else _(N_("no duplicate ({seating})")).format(seating=seating)
    )
    head = (
        N_(
            "{rules}, {players} players: {boards} boards of one whole game, {rotations}, seed {seed}; "
            "{seconds} s on {backend} x{workers}"
        )
        if cfg.mode == "games"
        else N_(
            "{rules}, {players} players: {boards} boards of one deal, {rotations}, seed {seed}; "
            "{seconds} s on {backend} x{workers}"
        )
    )
    line = _(head).format(
        rules=cfg.rules.name,
        players=cfg.rules.players,
        boards=cfg.boards,
        rotations=rot,
        seed=repr(cfg.seed),
        seconds=f"{result.seconds:.1f}",
        backend=result.backend,
        workers=result.workers,
    )
    resumed = result.extra.get("resumed_boards", 0)
    if resumed:
        line += " " + _(N_("({resumed} boards read back from the journal)")).format(resumed=resumed)
    console.print(line, highlight=False)
    unit = cfg.unit
    games = cfg.mode == "games"
    table = Table(show_edge=False, header_style="bold")
    table.add_column(_(N_("player")), no_wrap=True)
    per_deal = N_("chips/deal\n±95% CI") if unit != "points" else N_("points/deal\n±95% CI")
    table.add_column(_(per_deal), justify="right", no_wrap=True)
    if games:
        table.add_column(_(N_("win rate\n±95% CI")), justify="right", no_wrap=True)
    table.add_column(_(N_("moons\nshot")), justify="right", no_wrap=True)
    table.add_column(_(N_("moons\nsuffered")), justify="right", no_wrap=True)
    table.add_column(_(N_("move\nmean")), justify="right", no_wrap=True)
    table.add_column(_(N_("move\np95")), justify="right", no_wrap=True)
    for p in result.players:
        cells = [p.label, p.points_per_deal.format(2)]
        if games:
            cells.append("-" if p.win_rate is None else p.win_rate.format(3))
        cells += [str(p.moons_shot), str(p.moons_suffered), _ms(p.move_time_mean), _ms(p.move_time_p95)]
        table.add_row(*cells)
    console.print(table)
    if games:
        fair = ", ".join(f"{p.label} {p.fair_win_rate:.3f}" for p in result.players if p.fair_win_rate is not None)
        console.print(
            _(N_("win rate = share of games won (ties split); even play would give: {fair}")).format(fair=fair),
            highlight=False,
        )
    for g in result.gaps:
        console.print(error_text(_, g.verdict_message(unit)), highlight=False)


def _ms(seconds: float) -> str:
    if seconds != seconds:  # nan: no moves
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"
