"""The game behind the screen: the :class:`Game`, the bots, undo, save and resume.

The controller is the only object holding the :class:`Game`.  The screens ask
it for the human seat's observation and draw that; the bots get their own
seat's observation.  It also remembers, from the human's observations, every
trick of the hand as it completes (the last trick of a hand is gone from the
next observation), so the hand summary says who took which cards from public
information only.

Undo rebuilds the game from its seed by replaying every action before the
human's last decision: ``Game`` has no pop, and replaying is exact (the same
seed and actions give the same game, the property records rely on).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corazones.core.actions import Action, Kind
from corazones.core.cards import CARDS
from corazones.core.errors import N_, Count, Message, RecordError
from corazones.core.game import Game
from corazones.core.limits import MAX_RECORD_BYTES, check_json, parse_json, show
from corazones.core.observation import HandResult, Observation
from corazones.core.records import dumps, loads, make_record, replay
from corazones.core.replay import rebuild
from corazones.core.rules import Rules
from corazones.core.text import NAME_LIMIT, safe_line, safe_name
from corazones.core.trick import Trick
from corazones.players.base import Bot
from corazones.players.registry import LEVELS, make_player
from corazones.services.files import save_atomic
from corazones.tui.claim import claim_is_certain, claim_order
from corazones.tui.texts import _

#: Opponents' default names, one per seat after yours (up to 10 opponents).
BOT_NAMES = ("Ana", "Bruno", "Carmen", "Diego", "Elena", "Fermín", "Gloria", "Hugo", "Inés", "Julio")


@dataclass(frozen=True)
class Outcome:
    """What one applied action did that the table should show."""

    trick: Trick | None = None  # a trick just completed
    hand: HandResult | None = None  # a hand just finished
    over: bool = False


@dataclass
class Controller:
    """One game: a human seat (or none, to watch) against bots of chosen levels."""

    game: Game
    names: list[str]
    levels: list[str | None]  # None marks the human seat
    finished_tricks: dict[int, tuple[Trick, ...]] = field(default_factory=dict)
    claiming: bool = False
    end_view: Observation | None = None  # shown from the end of a hand until its summary is closed
    epoch: int = 0
    bots: dict[int, Bot] = field(default_factory=dict)
    #: The human seat has no name of its own: it is "You", said in the language shown (and saved as no name).
    default_name: bool = False
    #: The saved game this game is kept in (resumed from it, or saved to it): removed when the game ends.
    saved_to: Path | None = None

    def __post_init__(self) -> None:
        self._make_bots()
        self.name_default()

    def name_default(self) -> None:
        """Say the default name of the human seat ("You") in the current language."""
        h = self.human
        if self.default_name and h is not None:
            self.names[h] = _("You")

    @classmethod
    def new(
        cls,
        rules: Rules,
        names: Sequence[str],
        levels: Sequence[str | None],
        seed: int | str | None = None,
        default_name: bool = False,
    ) -> Controller:
        if len(names) != rules.players or len(levels) != rules.players:
            raise ValueError(f"need {rules.players} names and levels")
        if sum(lv is None for lv in levels) > 1:
            raise ValueError("one human seat at most: every other seat needs a level")
        return cls(Game(rules, seed), list(names), list(levels), default_name=default_name)

    def _make_bots(self) -> None:
        self.bots = {
            s: make_player(level, f"{self.game.seed}/{s}/{self.epoch}")
            for s, level in enumerate(self.levels)
            if level is not None
        }

    # ------------------------------------------------------------------ query
    @property
    def human(self) -> int | None:
        return next((s for s, lv in enumerate(self.levels) if lv is None), None)

    @property
    def viewer(self) -> int:
        """The seat whose observation the table shows (the human, or seat 0 when watching)."""
        h = self.human
        return 0 if h is None else h

    @property
    def rules(self) -> Rules:
        return self.game.rules

    def observation(self, seat: int | None = None) -> Observation:
        return self.game.observation(self.viewer if seat is None else seat)

    def human_to_act(self) -> bool:
        return self.human is not None and self.human in self.game.to_act()

    def bots_to_act(self) -> list[int]:
        return [s for s in self.game.to_act() if self.levels[s] is not None]

    # ------------------------------------------------------------------ acting
    def bot_action(self, seat: int, obs: Observation) -> Action:
        """The bot's answer to its own observation (called off the UI thread)."""
        if self.claiming and obs.decision is Kind.PLAY:
            # nothing the others do changes who takes the claimed tricks: play quickly
            return make_player("random", f"claim/{obs.hand_index}/{len(obs.tricks)}/{seat}").act(obs)
        return self.bots[seat].act(obs)

    def apply(self, action: Action) -> Outcome:
        """Apply one decision and tell what it completed; an illegal action raises and changes nothing."""
        before = self.observation()
        done = self.game.apply(action)
        if done.hand is not None:
            after = self.observation()
            last = done.trick
            tricks = (*before.tricks, last) if last is not None else before.tricks
            self.finished_tricks[before.hand_index] = tuple(tricks)
            self.claiming = False
            hand = done.hand
            # the table as it stood when the hand ended: empty hands, the last trick taken
            self.end_view = dataclasses.replace(
                before,
                phase="done",
                to_act=(),
                decision=None,
                legal=(),
                hand=(),
                hand_sizes=(0,) * before.players,
                trick=(),
                tricks=tuple(tricks),
                points_taken=hand.points,
                scores=hand.totals,
                chips=after.chips,
                pool=after.pool,
                history=after.history,
            )
            return Outcome(trick=last, hand=hand, over=done.game_over)
        return Outcome(trick=done.trick)

    def can_claim(self) -> bool:
        if self.human is None or not self.human_to_act():
            return False
        return claim_is_certain(self.observation())

    def claim_move(self) -> Action:
        """The claimant's next lead (the first of :func:`claim_order` that is legal)."""
        obs = self.observation()
        legal = {a.cards[0] for a in obs.legal}
        card = next(c for c in claim_order(obs) if c in legal)
        return Action.play(obs.seat, card)

    def can_undo(self) -> bool:
        h = self.human
        return h is not None and not self.game.over and any(a.seat == h for a in self.game.actions)

    def undo(self) -> bool:
        """Go back to just before the human's last decision (the bots' replies go too)."""
        h = self.human
        if not self.can_undo():
            return False
        acts = self.game.actions
        cut = max(i for i, a in enumerate(acts) if a.seat == h)
        g = rebuild(self.game.rules, self.game.seed, acts[:cut])
        self.game = g
        self.claiming = False
        self.end_view = None
        self.epoch += 1
        self._make_bots()
        self.finished_tricks = {k: v for k, v in self.finished_tricks.items() if k < g.hand_index}
        return True

    # ------------------------------------------------------------- records
    def record(self) -> dict[str, Any]:
        return make_record(self.game, self.names)

    def save(self, path: Path, with_seats: bool = True) -> None:
        """Write the record and, beside it, who plays which seat (atomic renames: never half a file).

        The screen's keys must keep answering, so a named pipe nobody reads is an ``OSError``, not a wait.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        save_atomic(path, dumps(self.record()), wait=False)
        if with_seats:
            # the default name is saved as no name, to be said in the language of whoever resumes the game
            h = self.human
            names: list[str | None] = [None if s == h and self.default_name else x for s, x in enumerate(self.names)]
            meta = {"names": names, "levels": self.levels}
            save_atomic(seats_path(path), json.dumps(meta, ensure_ascii=False) + "\n")

    @classmethod
    def load(cls, path: Path) -> Controller:
        """A saved game, read back with the checks of any record: :class:`RecordError` (or OSError) says why not.

        The record is read bounded and replayed (every action checked again);
        the seat file beside it is bounded JSON too, its levels must be known
        ones and its names are cleaned as a record's are shown (escapes,
        controls and bidi overrides removed, clipped), so a tampered file can
        neither act on the terminal nor stop the game from being saved again.
        Nothing is written or removed here: a save that cannot be resumed stays
        where it is.
        """
        game = replay(loads(read_bounded(path, MAX_RECORD_BYTES)))
        seats = seats_path(path)
        meta = parse_json(read_bounded(seats, MAX_SEATS_BYTES), Message(N_("a seat file")), MAX_SEATS_BYTES)
        check_json(meta)
        n = game.rules.players
        names = meta.get("names") if isinstance(meta, dict) else None
        levels = meta.get("levels") if isinstance(meta, dict) else None
        if not (isinstance(names, list) and isinstance(levels, list) and len(names) == n and len(levels) == n):
            raise RecordError(N_("{path} must list {n} names and {n} levels"), path=safe_line(str(seats), 200), n=n)
        if sum(lv is None for lv in levels) > 1 or any(lv is not None and lv not in LEVELS for lv in levels):
            raise RecordError(
                N_("{path}: levels must be one of {levels}, or null for the one human seat, not {value}"),
                path=safe_line(str(seats), 200),
                levels=", ".join(LEVELS),
                value=show(levels),
            )
        clean = [
            safe_name(x, NAME_LIMIT, f"seat {s}") if isinstance(x, str) else f"seat {s}" for s, x in enumerate(names)
        ]
        # no name for the human seat, or the word "You" of some language (a save of an older version): the default
        human = next((s for s, lv in enumerate(levels) if lv is None), None)
        mine = names[human] if human is not None else ""
        default = human is not None and (mine is None or (isinstance(mine, str) and mine in default_names()))
        return cls(game, clean, list(levels), default_name=default)


#: The largest seat file read back (names and levels of at most 11 seats take a few hundred bytes).
MAX_SEATS_BYTES = 64 * 1024


def read_bounded(path: Path, most: int) -> str:
    """The text of ``path`` if it is at most ``most`` bytes of UTF-8; :class:`RecordError` (or OSError) otherwise."""
    with path.open("rb") as f:
        data = f.read(most + 1)
    if len(data) > most:
        raise RecordError(N_("{path} is larger than {most} bytes"), path=safe_line(str(path), 200), most=Count(most))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(N_("{path} is not UTF-8 text"), path=safe_line(str(path), 200)) from None


def default_names() -> set[str]:
    """The word for your seat when no name was given, in every language of the catalog."""
    from corazones.i18n import LANGS, translator

    return {translator(lang).gettext("You") for lang in LANGS}


def seats_path(path: Path) -> Path:
    return path.with_name(path.stem + ".seats.json")


def taken_cards(tricks: Sequence[Trick], players: int, hand_over: bool = False) -> list[list[int]]:
    """The cards each seat took in these tricks (an annulled trick's cards go with the next trick won).

    While the hand goes on, the cards of an annulled last trick are still waiting (see :func:`waiting_cards`);
    when it is over they went to that trick's leader.
    """
    taken: list[list[int]] = [[] for _ in range(players)]
    pile = waiting_cards(tricks, taken)
    if pile and tricks and hand_over:
        taken[tricks[-1].leader].extend(pile)
    return taken


def waiting_cards(tricks: Sequence[Trick], taken: list[list[int]] | None = None) -> list[int]:
    """Cards of annulled tricks not yet taken (they go to the next trick's winner); fills ``taken`` on the way."""
    pile: list[int] = []
    for t in tricks:
        pile.extend(c for _, c in t.plays)
        if t.winner is not None:
            if taken is not None:
                taken[t.winner].extend(pile)
            pile = []
    return pile


def penalty_cards(cards: Sequence[int], values: Sequence[int]) -> list[int]:
    """The cards that count (positive or negative), highest value first."""
    return sorted((c for c in cards if values[c] != 0), key=lambda c: (-abs(values[c]), CARDS[c].suit, -c))
