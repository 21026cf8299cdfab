"""The arena: duplicate seating, statistics, determinism across workers, outputs and the CLI."""

from __future__ import annotations

import csv
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corazones.cli.main import app
from corazones.core import Observation, Rules
from corazones.players.base import Bot, legal_cards
from corazones.players.registry import LEVELS
from corazones.services.arena import (
    CSV_COLUMNS,
    ArenaConfig,
    ArenaError,
    contender_labels,
    play_board,
    resolve_player,
    run_arena,
)
from corazones.services.stats import TimeHistogram, estimate, percentile

STANDARD = Rules.preset("standard")


# Test-only players, reached by the arena as "tests.test_arena:Name".
class Ducker(Bot):
    """Plays low, dumps its most costly card when void, passes its most costly cards: far better than random."""

    name = "ducker"

    def choose_play(self, obs: Observation) -> int:
        legal = legal_cards(obs)
        vals = obs.card_values
        if obs.trick and legal[0] // 13 != obs.trick[0][1] // 13:
            return max(legal, key=lambda c: (vals[c], c % 13))
        return min(legal, key=lambda c: (c % 13, c))

    def choose_pass(self, obs: Observation) -> list[int]:
        vals = obs.card_values
        return sorted(obs.hand, key=lambda c: (vals[c], c % 13), reverse=True)[: obs.rules.pass_count]


class HighCard(Bot):
    """Always plays its highest legal card and passes away its lowest cards: worse than random."""

    name = "high"

    def choose_play(self, obs: Observation) -> int:
        return max(legal_cards(obs), key=lambda c: (c % 13, c))

    def choose_pass(self, obs: Observation) -> list[int]:
        return sorted(obs.hand, key=lambda c: (c % 13, c))[: obs.rules.pass_count]


class Cheater(Bot):
    """Plays a card it does not hold on its first turn to play."""

    def choose_play(self, obs: Observation) -> int:
        return next(c for c in range(52) if c not in obs.hand)


def cfg(*contenders: str, **kw: object) -> ArenaConfig:
    kw.setdefault("rules", STANDARD)
    return ArenaConfig(contenders=contenders, **kw)  # type: ignore[arg-type]


# ------------------------------------------------------------------ seating
def test_two_contenders_sit_in_opposite_seats_then_swap() -> None:
    c = cfg("random", "random", boards=1)
    assert c.owners(0) == (0, 1, 0, 1)
    assert c.owners(1) == (1, 0, 1, 0)
    assert c.seating() == "A B A B | B A B A"


@pytest.mark.parametrize(("k", "preset", "players"), [(2, "standard", 4), (3, "standard", 4), (2, "black_maria", 3)])
def test_every_contender_holds_every_hand_of_a_board(k: int, preset: str, players: int) -> None:
    c = cfg(*(["random"] * k), rules=Rules.preset(preset, players=players), boards=3, seed="hands")
    for board in range(3):
        rows = play_board(c, board).rows
        assert len(rows) == k * players
        # the same seat holds the same hand in every rotation: the deal is the board's
        by_seat = {r.seat: {x.hand for x in rows if x.seat == r.seat} for r in rows}
        assert all(len(h) == 1 for h in by_seat.values())
        hands = {h for hs in by_seat.values() for h in hs}
        assert len(hands) == players
        for contender in range(k):
            held = Counter(r.hand for r in rows if r.contender == contender)
            assert set(held) == hands, f"contender {contender} misses a hand on board {board}"
            assert all(v == 1 for v in held.values())


def test_without_duplicate_each_board_is_played_once_in_turning_seats() -> None:
    c = cfg("random", "random", "random", boards=6, duplicate=False)
    res = run_arena(c, workers=1)
    rotations = [{r.rotation for r in br.rows} for br in res.boards]
    assert rotations == [{b % 3} for b in range(6)]


def test_deals_mode_samples_every_pass_direction_in_turn() -> None:
    c = cfg("random", "random", boards=8)
    assert [c.board_rules(b).pass_direction(0) for b in range(8)] == ["left", "right", "across", "hold"] * 2
    assert c.board_rules(0) == STANDARD
    # games mode plays the rules as given
    assert cfg("random", "random", boards=8, mode="games").board_rules(5) == STANDARD


def test_each_bot_has_its_own_seed_per_table() -> None:
    c = cfg("random", "random", boards=2, seed=7)
    seeds = {c.bot_seed(b, r, s) for b in range(2) for r in range(2) for s in range(4)}
    assert len(seeds) == 16


# --------------------------------------------------------------- strength
def test_null_test_random_against_random_finds_no_gap() -> None:
    res = run_arena(cfg("random", "random", boards=120, seed="null"), workers=1)
    g = res.gap("random", "random#2")
    assert g.n == 120
    assert g.low < 0 < g.high
    # per-seat points of a deal: 26 points shared by four seats, so about 6.5 each
    for p in res.players:
        assert 5.0 < p.points_per_deal.mean < 8.0
    # moons shot by one side are suffered by the other
    a, b = res.players
    assert a.moons_shot + b.moons_shot > 0
    assert a.moons_shot == b.moons_suffered and b.moons_shot == a.moons_suffered
    assert a.moons_shot == sum(r.moons_shot for r in res.rows() if r.contender == 0)


def test_a_player_that_ducks_beats_random() -> None:
    res = run_arena(cfg("tests.test_arena:Ducker", "random", boards=40, seed=1), workers=1)
    g = res.gap("tests.test_arena:Ducker", "random")
    assert g.high < 0, g  # fewer points: better, and significantly so


def test_a_player_that_plays_high_loses_to_random() -> None:
    res = run_arena(cfg("random", "tests.test_arena:HighCard", boards=100, seed=0), workers=1)
    g = res.gap("random", "tests.test_arena:HighCard")
    assert g.high < 0, g


def test_games_mode_reports_win_rates_that_add_up() -> None:
    res = run_arena(cfg("tests.test_arena:Ducker", "random", boards=6, mode="games", seed=2), workers=1)
    for br in res.boards:
        for rot in (0, 1):
            shares = [r.win_share for r in br.rows if r.rotation == rot]
            assert sum(s or 0.0 for s in shares) == pytest.approx(1.0)
            assert len({r.hands for r in br.rows if r.rotation == rot}) == 1
            assert br.rows[0].hands > 1
    ducker, rnd = res.players
    assert ducker.win_rate is not None and rnd.win_rate is not None
    assert ducker.win_rate.mean + rnd.win_rate.mean == pytest.approx(1.0)
    assert ducker.fair_win_rate == rnd.fair_win_rate == 0.5
    assert ducker.win_rate.mean > 0.9
    assert ducker.games_won is not None and ducker.games_won > 10


def test_move_times_are_counted_for_every_decision() -> None:
    res = run_arena(cfg("random", "random", boards=4), workers=1)
    for c, p in enumerate(res.players):
        assert p.moves == sum(r.moves for r in res.rows() if r.contender == c) > 0
        assert 0 < p.move_time_mean < 0.1
        assert 0 < p.move_time_p95 < 0.1


# ------------------------------------------------------------ determinism
def test_results_do_not_depend_on_the_number_of_workers() -> None:
    c = cfg("random", "random", "random", boards=20, seed="w")
    one = run_arena(c, workers=1)
    two = run_arena(c, workers=2)
    assert one.outcome() == two.outcome()
    assert [p.points_per_deal for p in one.players] == [p.points_per_deal for p in two.players]
    assert [g.gap for g in one.gaps] == [g.gap for g in two.gaps]
    assert [br.board for br in two.boards] == list(range(20))


def test_progress_is_reported_up_to_the_total() -> None:
    seen: list[tuple[int, int]] = []
    run_arena(cfg("random", "random", boards=5), workers=1, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(i, 5) for i in range(1, 6)]


# ----------------------------------------------------------------- errors
def test_bad_settings_are_refused_with_the_allowed_values() -> None:
    with pytest.raises(ArenaError, match=r"unknown player level 'nobody'; levels: random"):
        cfg("random", "nobody")
    with pytest.raises(ArenaError, match="at least two contenders"):
        cfg("random")
    with pytest.raises(ArenaError, match="mode 'hands' is not allowed; mode is one of: deals, games"):
        cfg("random", "random", mode="hands")
    with pytest.raises(ArenaError, match="at least 1"):
        cfg("random", "random", boards=0)
    with pytest.raises(ArenaError, match="cannot import module"):
        resolve_player("no_such_module_here:Bot")
    with pytest.raises(ArenaError, match="no callable 'Nope'"):
        resolve_player("tests.test_arena:Nope")
    c = cfg("random", "random", boards=1)
    with pytest.raises(ArenaError, match="backend 'gpu' is not allowed"):
        run_arena(c, backend="gpu")
    with pytest.raises(ArenaError, match="workers must be"):
        run_arena(c, workers=0)


def test_an_illegal_move_names_the_player_board_and_seeds() -> None:
    c = cfg("random", "tests.test_arena:Cheater", boards=2, seed=5)
    with pytest.raises(ArenaError, match=r"tests.test_arena:Cheater in seat \d made an illegal move on board 0"):
        run_arena(c, workers=1)


def test_labels_tell_repeated_levels_apart() -> None:
    assert contender_labels(["random", "random", "x", "random"]) == ("random", "random#2", "x", "random#3")


# -------------------------------------------------------------------- stats
def test_estimate_matches_the_textbook_interval() -> None:
    e = estimate([1.0, 2.0, 3.0, 4.0])
    assert e.mean == 2.5
    assert e.sd == pytest.approx(1.2909944)
    assert e.high - e.mean == pytest.approx(1.959964 * 1.2909944 / 2)
    assert estimate([3.0]).n == 1 and estimate([3.0]).low == 3.0
    assert estimate([]).n == 0


def test_time_histogram_p95_is_close_to_the_exact_percentile() -> None:
    rng = random.Random(3)
    xs = [rng.lognormvariate(-9, 1.2) for _ in range(5000)]
    h = TimeHistogram()
    for x in xs[:2500]:
        h.add(x)
    other = TimeHistogram()
    for x in xs[2500:]:
        other.add(x)
    h.merge(other)
    assert h.count == 5000
    assert h.mean == pytest.approx(sum(xs) / 5000)
    assert h.quantile(0.95) == pytest.approx(percentile(xs, 95), rel=0.03)


# ----------------------------------------------------------------- outputs
def test_outputs_are_written_and_well_formed(tmp_path: Path) -> None:
    res = run_arena(cfg("random", "tests.test_arena:Ducker", boards=6, seed=4), workers=1)
    out = tmp_path / "run"
    paths = res.write(out)
    assert [p.name for p in paths] == ["results.json", "results.csv", "scores.png"]
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["boards"] == 6 and data["config"]["seating"] == "A B A B | B A B A"
    assert [p["label"] for p in data["players"]] == ["random", "tests.test_arena:Ducker"]
    assert data["gaps"][0]["gap"]["n"] == 6
    assert data["players"][0]["points_per_deal"]["mean"] == pytest.approx(res.players[0].points_per_deal.mean)
    with (out / "results.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 6 * 2 * 4
    assert {r["player"] for r in rows} == {"random", "tests.test_arena:Ducker"}
    # the CSV rows add up to the summary
    pts = sum(int(r["points"]) for r in rows if r["player"] == "random") / sum(
        int(r["hands"]) for r in rows if r["player"] == "random"
    )
    assert pts == pytest.approx(res.players[0].points_per_deal.mean)
    png = (out / "scores.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000


def test_chip_settlements_count_chips_lost() -> None:
    c = cfg("random", "random", rules=Rules.preset("hearts_1887"), boards=4)
    assert c.unit == "chips lost"
    res = run_arena(c, workers=1)
    for br in res.boards:
        for rot in (0, 1):
            # chips only move between seats and the pool: what the seats lose went to the pool
            assert sum(r.points for r in br.rows if r.rotation == rot) >= 0


# --------------------------------------------------------------------- CLI
runner = CliRunner()


def test_cli_arena_prints_the_figures_and_writes_files(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    r = runner.invoke(app, ["arena", "random", "random", "--deals", "8", "-j", "1", "-q", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "random#2" in r.output
    assert "points/deal" in r.output
    assert "random - random#2:" in r.output
    assert (out / "results.csv").exists() and (out / "scores.png").exists()
    r = runner.invoke(app, ["arena", "random", "random", "--games", "2", "-j", "1", "-q", "-r", "quick"])
    assert r.exit_code == 0, r.output
    assert "win rate" in r.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["random", "nobody"], "unknown player level 'nobody'; levels: " + ", ".join(LEVELS)),
        (["random", "random", "--deals", "0"], "'--deals': must be at least 1, not 0"),
        (["random", "random", "--deals", "3", "--games", "3"], "either --deals or --games"),
        (["random"], "at least two players"),
        (["random", "random", "--backend", "gpu"], "backends: local, ray"),
        (["random", "random", "-j", "0"], "'--workers': must be at least 1, not 0"),
        (["random", "random", "-r", "nope"], "unknown preset 'nope'"),
    ],
)
def test_cli_arena_refuses_bad_flags(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["arena", *args])
    assert r.exit_code == 2
    flat = " ".join(r.output.replace("│", " ").split())
    assert message in flat, r.output


def test_cli_arena_reports_a_broken_player_and_exits_1() -> None:
    r = runner.invoke(app, ["arena", "random", "tests.test_arena:Cheater", "--deals", "1", "-q"])
    assert r.exit_code == 1
    assert "illegal move" in r.output


def test_resolve_player_accepts_registered_levels() -> None:
    for level in LEVELS:
        bot = resolve_player(level)("seed")
        assert callable(bot.act)


def test_results_json_says_null_for_a_contender_that_never_sat(tmp_path: Path) -> None:
    # five contenders at four seats without duplicate: on one board the fifth never sits, so it has no figures
    res = run_arena(cfg("random", "random", "random", "random", "random", boards=1, duplicate=False), workers=1)
    res.write_json(tmp_path / "results.json")

    def no_nan(word: str) -> None:
        raise AssertionError(f"{word} in results.json")

    data = json.loads((tmp_path / "results.json").read_text(), parse_constant=no_nan)
    fifth = data["players"][4]
    assert fifth["points_per_deal"] == {"mean": None, "ci_low": None, "ci_high": None, "sd": None, "n": 0}
    assert fifth["move_time_mean_s"] is None and fifth["move_time_p95_s"] is None
    assert data["players"][0]["points_per_deal"]["n"] == 1


def test_a_base_seed_that_cannot_deal_every_board_is_refused_before_the_first_board() -> None:
    # board 10 is dealt from "<seed>/10": 254 characters of seed make it 257, one too many
    with pytest.raises(ArenaError, match="at most 253 with 11 boards"):
        cfg("random", "random", boards=11, seed="x" * 254)
    cfg("random", "random", boards=10, seed="x" * 254)  # "/9": 256 characters in all
    with pytest.raises(ArenaError, match=r"holds a control character \(U\+001B\)"):
        cfg("random", "random", boards=1, seed="a\x1bb")
    with pytest.raises(ArenaError, match="a seed must be a whole number or a string"):
        cfg("random", "random", boards=1, seed=True)


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        ("x" * 254, "'--seed': a seed of 254 characters; at most 253 with 11 boards"),
        ("a\x1bb", "'--seed': the seed 'a\\x1bb' holds a control character (U+001B)"),
        ("1" * 5000, "'--seed': a seed has at most 40 digits"),  # digits are a number, however many
    ],
    ids=["too long for board 10", "control character", "5000 digits"],
)
def test_cli_arena_refuses_a_seed_that_cannot_deal_the_boards(seed: str, message: str) -> None:
    r = runner.invoke(app, ["arena", "random", "random", "--deals", "11", "-j", "1", "-q", f"--seed={seed}"])
    assert r.exit_code == 2, r.output
    flat = " ".join(r.output.replace("│", " ").split())
    assert message in flat, r.output


def test_cli_arena_takes_a_seed_of_two_minus_signs_as_text() -> None:
    r = runner.invoke(app, ["arena", "random", "random", "--deals", "1", "-j", "1", "-q", "--seed=--5"])
    assert r.exit_code == 0, r.output
    assert "seed '--5'" in r.output
    r = runner.invoke(app, ["arena", "random", "random", "--deals", "1", "-j", "1", "-q", "--seed=-5"])
    assert r.exit_code == 0, r.output
    assert "seed -5;" in r.output


def not_a_player(seed: str) -> str:
    """Reached as "tests.test_arena:not_a_player": called with a seed, it gives no player."""
    return seed


@pytest.mark.parametrize(
    ("spec", "message", "code"),
    [
        (":X", "player ':X': cannot import module '' (Empty module name)", 2),
        ("..:X", "player '..:X': cannot import module '..'", 2),
        ("os:getcwd", "player 'os:getcwd': calling it with a seat's seed failed (TypeError:", 1),
        ("tests.test_arena:not_a_player", "which is not a player: a player has act(observation) -> Action", 1),
    ],
    ids=["empty module", "relative module", "takes no seed", "gives a string"],
)
def test_cli_arena_names_a_player_spec_that_gives_no_player(spec: str, message: str, code: int) -> None:
    r = runner.invoke(app, ["arena", "random", spec, "--deals", "1", "-j", "1", "-q"])
    assert r.exit_code == code, r.output
    assert isinstance(r.exception, SystemExit)  # one line, no traceback
    assert message in " ".join(r.output.replace("│", " ").split()), r.output


def test_a_ray_address_nobody_answers_at_is_refused_at_once() -> None:
    ray = pytest.importorskip("ray")
    if ray.is_initialized():  # pragma: no cover - a Ray this process already joined ignores the address
        pytest.skip("Ray is already initialised in this process")
    with pytest.raises(ArenaError, match=r"cannot reach the Ray cluster at '127\.0\.0\.1:1': Connection refused"):
        run_arena(cfg("random", "random", boards=1), backend="ray", ray_address="127.0.0.1:1")
    assert not ray.is_initialized()
