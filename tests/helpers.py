"""Helpers the test modules share: random legal play, exact engine positions, hand logs, real Chromium and
PostgreSQL, folders that refuse writes, web guests.  Fixtures stay in ``tests/conftest.py``, which imports these."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import random
import re
import secrets
import shutil
import socket
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from corazones.core import Action, Deal, Game, Kind, Rules, card_str, parse_cards
from corazones.core.cards import mask_cards
from corazones.server.client import Api
from corazones.server.local import LocalServer


def flat(text: str) -> str:
    """A command's output on one line: the toolkit's error box (its frame) and line breaks taken out."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def says(output: str, words: str) -> bool:
    """Whether an error box says ``words``, however it wrapped them (a long path is cut anywhere, even
    inside a word, so spaces are left out of the comparison)."""
    return "".join(words.split()) in "".join(flat(output).split())


def in_own_thread(fn: Callable[..., Any], *args: Any) -> None:
    """Run ``fn(*args)`` in a thread of its own and re-raise what it raised.

    An event loop stays with its thread: ``asyncio.run`` (the Textual pilot tests) or Playwright's sync
    API there neither meets a loop another test left running in the main thread nor leaves one behind.
    """
    errors: list[BaseException] = []

    def run() -> None:
        try:
            fn(*args)
        except BaseException as e:
            errors.append(e)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def random_action(game: Game, rng: random.Random) -> Action:
    """A uniformly random legal action for the first seat that must act."""
    seat = game.to_act()[0]
    if game.decision_kind() is Kind.PASS:
        hand = game.deal.hand(seat)
        return Action.pass_cards(seat, rng.sample(hand, game.rules.pass_count))
    return rng.choice(game.legal_actions(seat))


def play_random(game: Game, rng: random.Random, max_hands: int | None = None) -> Game:
    stop = None if max_hands is None else game.hand_index + max_hands
    while not game.over and (stop is None or game.hand_index < stop):
        game.apply(random_action(game, rng))
    return game


#: Seconds to wait for something that should come at once (a reply, a close, a page element, a server's
#: count settling): an upper bound, never a pause.  Generous, because a machine under heavy load (two
#: cores shared with long measurements) can take many seconds for what takes milliseconds alone; only a
#: failing test ever waits that long.  A test that counts a rate-limited budget freezes the limits' clock
#: instead (``corazones.server.local.ManualClock``): there, time passing is what must not matter.
PATIENCE = 60.0


#: Where the browser tests leave their screenshots, to be looked at by a person after a run.
SHOTS = Path(__file__).resolve().parent.parent / "results" / "screenshots"


#: When this test process started: a screenshot older than that is from an earlier run.
_STARTED = time.time()


_cleared = False


def watched_page(context: Any) -> Any:
    """A new page of ``context`` that waits up to :data:`PATIENCE` and keeps its script errors in ``page.errors``.

    Every browser test ends with ``assert not page.errors``: an uncaught error in the app fails the test
    even when what it asserted happened to show.
    """
    page = context.new_page()
    page.set_default_timeout(PATIENCE * 1000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def save_screenshot(page: Any, name: str, *, full_page: bool = False) -> None:
    """Save a screenshot as ``results/screenshots/NAME.png``, first clearing the earlier runs' ones.

    Several test modules (and several xdist workers) write into the one folder at once, so a module
    must never clear it wholesale: only files older than this process are stale, and another worker may
    remove the same stale file first.
    """
    global _cleared
    SHOTS.mkdir(parents=True, exist_ok=True)
    if not _cleared:
        _cleared = True
        for old in SHOTS.glob("*.png"):
            with contextlib.suppress(FileNotFoundError):
                if old.stat().st_mtime < _STARTED:
                    old.unlink()
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


#: Flags a headless Chromium needs here: running as root (no sandbox), no GPU,
#: and nothing that reaches out to the network on its own (updates, sync, QUIC).
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def unavailable(what: str, reason: str, require_var: str) -> None:
    """Skip (locally) or fail (when ``require_var=1``, as in CI) because ``what`` is not available."""
    message = f"{what} unavailable: {reason}"
    if os.environ.get(require_var) == "1":
        pytest.fail(f"{message} ({require_var}=1 requires it)", pytrace=False)
    pytest.skip(f"{message} (set {require_var}=1 to make this a failure)")


def find_chromium() -> str | None:
    """The Chromium executable: $CORAZONES_CHROMIUM, else Debian's /usr/bin/chromium, else one on PATH."""
    candidates = [os.environ.get("CORAZONES_CHROMIUM", ""), "/usr/bin/chromium"]
    candidates += [shutil.which(name) or "" for name in ("chromium", "chromium-browser", "google-chrome")]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def launch_chromium(playwright: Any, executable_path: str, **kwargs: Any) -> Any:
    """Launch headless Chromium through a started Playwright with the flags it needs here (see CHROMIUM_ARGS)."""
    args = [*CHROMIUM_ARGS, *kwargs.pop("args", ())]
    return playwright.chromium.launch(executable_path=executable_path, headless=True, args=args, **kwargs)


def find_postgres_bin() -> str | None:
    """The folder with ``initdb`` and ``pg_ctl``: $CORAZONES_PG_BIN, PATH, else the newest /usr/lib/postgresql/*/bin."""
    folders = [os.environ.get("CORAZONES_PG_BIN", "")]
    initdb = shutil.which("initdb")
    if initdb:
        folders.append(os.path.dirname(os.path.realpath(initdb)))
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    folders += sorted(versions, key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0, reverse=True)
    for folder in folders:
        if folder and all(os.access(os.path.join(folder, tool), os.X_OK) for tool in ("initdb", "pg_ctl")):
            return folder
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def sqlalchemy_url(libpq_url: str) -> str:
    """The SQLAlchemy spelling (psycopg 3 driver) of a ``postgresql://`` URL from ``postgres_url``."""
    return libpq_url.replace("postgresql://", "postgresql+psycopg://", 1)


def shooter_policy(game: Game, choice: str = "add_to_others") -> Action:
    """Seat 0 plays high and the others feed it penalty cards: moons happen within a few seeds."""
    seat = game.to_act()[0]
    d = game.deal
    kind = game.decision_kind()
    if kind is Kind.PASS:
        hand = d.hand(seat)
        if seat == 0:
            return Action.pass_cards(seat, sorted(hand, key=lambda c: c % 13)[:3])
        return Action.pass_cards(seat, sorted(hand, key=lambda c: (d.values[c] > 0, c % 13))[-3:])
    if kind is Kind.MOON:
        return Action.moon(seat, choice)
    legal = [a.card for a in game.legal_actions(seat)]
    if seat == 0:
        return Action.play(seat, max(legal, key=lambda c: c % 13))
    penalties = [c for c in legal if d.values[c] > 0]
    if penalties and 0 in d.trick_seats:
        return Action.play(seat, max(penalties, key=lambda c: d.values[c]))
    return Action.play(seat, min(legal, key=lambda c: (d.values[c] > 0, c % 13)))


def hand_entries(
    preset: str, options: dict[str, Any], seed: int, hands: int = 2, policy: Callable[[Game], Action] | None = None
) -> list[dict[str, Any]]:
    """Hand-log entries of the first ``hands`` hands of a real game, with every expected result."""
    game = Game(Rules.preset(preset, **options), seed)
    rng = random.Random(seed)
    n = game.rules.players
    out = []
    while len(out) < hands and not game.over:
        d = game.deal
        entry: dict[str, Any] = {
            "rules": preset,
            "options": options,
            "dealer": d.dealer,
            "hands": [[card_str(c) for c in d.hand(s)] for s in range(n)],
            "pass_direction": d.pass_direction,
        }
        passes: list[list[str]] = [[] for _ in range(n)]
        plays: list[str] = []
        bids: list[int] = []
        declare = None
        choice = None
        start = game.hand_index
        while game.hand_index == start and not game.over:
            a = policy(game) if policy else random_action(game, rng)
            game.apply(a)
            if a.kind is Kind.PASS:
                passes[a.seat] = [card_str(c) for c in a.cards]
            elif a.kind is Kind.PLAY:
                plays.append(card_str(a.card))
            elif a.kind is Kind.MOON:
                choice = a.value
            elif a.kind is Kind.BID:
                bids.append(int(a.value))
            elif a.kind is Kind.DECLARE:
                declare = "CDSH"[int(a.value)]
        if d.pass_direction != "hold":
            entry["passes"] = passes
        if game.rules.auction:
            if d.forced_declarer is not None:
                entry["declarer"] = d.forced_declarer  # a carried-over pool: no bidding
            else:
                entry["bids"] = bids
            if declare is not None:
                entry["declare"] = declare
        entry["plays"] = plays
        entry["moon_choice"] = choice
        h = game.history[-1]
        entry["expect"] = {
            "points": list(h.scores),
            "taken": list(h.points),
            "shooter": h.shooter,
            "kitty_owner": h.kitty_owner,
        }
        out.append(entry)
    return out


def unwritable_folder(tmp_path: Path) -> tuple[Path, int]:
    """A folder no file can be created in, and the errno that says so (root writes anywhere: then /proc)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    for candidate in (folder, Path("/proc")):
        probe = candidate / f"probe-{secrets.token_hex(4)}"
        try:
            fd = os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except OSError as e:
            return candidate, e.errno or 0
        os.close(fd)
        probe.unlink()
    pytest.skip("no folder here refuses to be written")


HUMAN = {"kind": "human"}


RANDOM = {"kind": "bot", "level": "random"}


def guest(server: LocalServer, name: str) -> Api:
    api = Api(server.base)
    api.guest(name)
    return api


#: A card as the protocol writes it.
CARD = re.compile(r"^(10|[2-9TJQKA])[CDSH]$")


def cards_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


Policy = Callable[[Deal, int, int], int]


def cards(text: str) -> list[int]:
    return parse_cards(text)


def at_play(rules: Rules, hands: Sequence[str], kitty: str = "", dealer: int | None = None, **kw: Any) -> Deal:
    """A hand at its first lead with ``hands`` (card text, seat order).

    ``dealer`` defaults to the last seat, so seat 0 is eldest hand.
    """
    d = rules.players - 1 if dealer is None else dealer
    return Deal.at_play(rules, [cards(h) for h in hands], cards(kitty), d, **kw)


def legal(d: Deal, seat: int | None = None) -> set[str]:
    """Cards ``seat`` (default: the seat to play) may play now, as text."""
    s = d.turn if seat is None else seat
    return {card_str(c) for c in mask_cards(d.legal_mask(s))}


def play(d: Deal, text: str) -> None:
    """Play the cards in order, each by the seat to move, through the validating ``apply``."""
    for c in cards(text):
        d.apply(Action.play(d.turn, c))


def play_out(d: Deal, policy: Policy) -> None:
    """Play the hand to the end of play; ``policy(deal, seat, legal_mask)`` picks each card."""
    while d.phase == "play":
        s = d.turn
        d.apply(Action.play(s, policy(d, s, d.legal_mask(s))))


def highest_legal(d: Deal, seat: int, mask: int) -> int:
    return mask_cards(mask)[-1]


def snapshot(game: Game) -> str:
    """Everything observable about a game plus its hidden state, as text, to prove an action changed nothing."""
    d = game.deal
    hidden = {
        "hands": [d.hand(s) for s in range(game.rules.players)],
        "kitty": list(d.kitty),
        "passes": d.passes,
        "phase": d.phase,
        "turn": d.turn,
        "trick": list(zip(d.trick_seats, d.trick_cards)),
        "pts": d.pts,
        "bids": d.bids,
        "actions": [a.to_json() for a in game.actions],
    }
    obs = [game.observation(s).to_json() for s in range(game.rules.players)]
    return json.dumps({"hidden": hidden, "obs": obs}, sort_keys=True, default=str)


# Deal's state fields: __slots__ in the pure build, __mypyc_attrs__ in the compiled one (setup.py).
DEAL_FIELDS: tuple[str, ...] = vars(Deal).get("__slots__") or vars(Deal)["__mypyc_attrs__"]


def deal_snapshot(d: Deal) -> tuple[Any, ...]:
    """All state of a Deal, to prove a refused action left it untouched."""
    return tuple(
        (name, repr(getattr(d, name))) for name in DEAL_FIELDS if name not in ("rules", "values", "discard_masks")
    )


def spread(top: str, reserved: dict[int, str], players: int = 4) -> list[list[int]]:
    """Seat 0 gets ``top``; each other seat its ``reserved`` card(s) plus the rest dealt round-robin."""
    used = set(cards(top))
    for text in reserved.values():
        used |= set(cards(text))
    rest = [c for c in range(52) if c not in used]
    hands: list[list[int]] = [cards(top)] + [cards(reserved.get(s, "")) for s in range(1, players)]
    others = list(range(1, players))
    i = 0
    for c in rest:
        while len(hands[others[i % len(others)]]) >= len(hands[0]):
            i += 1
        hands[others[i % len(others)]].append(c)
        i += 1
    return hands


def boss_policy(reserved: set[int], keep_last: int | None = None) -> Policy:
    """Seat 0 plays its highest legal card (saving ``keep_last``); others dump their highest legal
    card but keep their reserved cards for the last trick."""

    def policy(d: Deal, seat: int, mask: int) -> int:
        legal = mask_cards(mask)
        if seat == 0:
            keep = [c for c in legal if c != keep_last]
            return (keep or legal)[-1]
        keep = [c for c in legal if c not in reserved]
        return (keep or legal)[-1]

    return policy


TOP = "AC KC QC JC AD KD QD JD AS KS QS JS AH"


def table_row(tid: str = "t1", **extra: object) -> dict[str, object]:
    """The columns of a stored table, for store tests that add one directly (``extra`` overrides any)."""
    fields: dict[str, object] = {
        "id": tid,
        "name": "n",
        "preset": "standard",
        "rules": "{}",
        "seats": "[]",
        "seed": "s",
        "commitment": "c" * 64,
        "status": "playing",
        "private": False,
        "invite": "i",
        "owner_id": None,
        "takeover_level": "standard",
        "created": time.time(),
        "lease_expires": 0.0,
    }
    fields.update(extra)
    return fields
