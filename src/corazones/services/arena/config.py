"""What an arena run is: its contenders, boards, seating and seeds (:class:`ArenaConfig`), and its errors."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from corazones.core.errors import N_, CorazonesError, Count
from corazones.core.limits import MAX_SEED_LENGTH, bad_text, show
from corazones.core.rules import Rules
from corazones.core.validate import is_whole, is_whole_in
from corazones.players.base import Player
from corazones.players.registry import LEVELS

MODES = ("deals", "games")
CHIP_SETTLEMENTS = ("chips_1887", "chips_pool")

ProgressFn = Callable[[int, int], None]


class ArenaError(CorazonesError, ValueError):
    """A bad arena setting, or a player that broke the rules during a run."""


def resolve_player(spec: str) -> Callable[[str], Player]:
    """The factory for a contender: a level name from the registry, or ``module:attribute``.

    ``module:attribute`` lets the arena measure a player that is not (yet)
    registered, e.g. ``mypkg.bots:Cautious``; the attribute is called with the
    seat's seed and must return something with ``act(observation)``.
    """
    if spec in LEVELS:
        return LEVELS[spec]
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        try:
            module = importlib.import_module(module_name)
        except Exception as e:  # not found, an empty or relative name (":X", "..:X"), or the module's own error
            raise ArenaError(
                N_("player {spec}: cannot import module {module} ({error})"),
                spec=repr(spec),
                module=repr(module_name),
                error=str(e) or type(e).__name__,
            ) from None
        factory = getattr(module, attr, None)
        if not callable(factory):
            raise ArenaError(
                N_("player {spec}: module {module} has no callable {attr}"),
                spec=repr(spec),
                module=repr(module_name),
                attr=repr(attr),
            )
        return factory  # type: ignore[no-any-return]
    raise ArenaError(
        N_("unknown player level {spec}; levels: {levels} (or module:Class)"), spec=repr(spec), levels=", ".join(LEVELS)
    )


def check_arena_seed(seed: object, boards: int) -> None:
    """Refuse a base seed that cannot deal every board of a run of ``boards`` (:class:`ArenaError`).

    Board ``b`` is dealt from the game seed ``f"{seed}/{b}"``, which must be a
    seed the game takes (:func:`corazones.core.commitment.check_seed`): text
    without control characters, at most
    :data:`~corazones.core.limits.MAX_SEED_LENGTH` characters with the slash
    and the board number.  Checked before the first board, so that a long run
    does not stop at the board whose number makes the seed too long.
    """
    if not (is_whole(seed) or isinstance(seed, str)):
        raise ArenaError(N_("a seed must be a whole number or a string, not {value}"), value=show(seed))
    text = str(seed)
    why = bad_text(text)
    if why is not None:
        raise ArenaError(N_("the seed {value} holds {why}"), value=show(text), why=why)
    most = MAX_SEED_LENGTH - len(f"/{max(boards, 1) - 1}")
    if len(text) > most:
        raise ArenaError(
            N_(
                "a seed of {length} characters; at most {most} with {boards} boards (board N is dealt from "
                "the seed, a slash and N: {limit} characters in all)"
            ),
            length=Count(len(text)),
            most=Count(most),
            boards=Count(boards),
            limit=Count(MAX_SEED_LENGTH),
        )


def contender_labels(contenders: Sequence[str]) -> tuple[str, ...]:
    """Distinct display names: a level that appears twice becomes ``random`` and ``random#2``."""
    seen: dict[str, int] = {}
    out = []
    for spec in contenders:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return tuple(out)


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: contenders (level names or ``module:Class``), rules, boards and mode."""

    contenders: tuple[str, ...]
    rules: Rules
    boards: int = 1000
    mode: str = "deals"
    seed: int | str = 0
    duplicate: bool = True
    max_game_hands: int = 1000

    def __post_init__(self) -> None:
        if not isinstance(self.contenders, tuple):
            object.__setattr__(self, "contenders", tuple(self.contenders))
        if len(self.contenders) < 2:
            raise ArenaError(N_("the arena needs at least two contenders, got {count}"), count=len(self.contenders))
        for spec in self.contenders:
            resolve_player(spec)
        if self.mode not in MODES:
            raise ArenaError(
                N_("mode {mode} is not allowed; mode is one of: {modes}"), mode=show(self.mode), modes=", ".join(MODES)
            )
        if not is_whole_in(self.boards, 1):
            raise ArenaError(
                N_("the number of boards must be a whole number of at least 1, not {value}"), value=show(self.boards)
            )
        check_arena_seed(self.seed, self.boards)
        if self.max_game_hands < 1:
            raise ArenaError(N_("max_game_hands must be at least 1, not {value}"), value=show(self.max_game_hands))

    @property
    def k(self) -> int:
        return len(self.contenders)

    @property
    def labels(self) -> tuple[str, ...]:
        return contender_labels(self.contenders)

    @property
    def unit(self) -> str:
        """What a score counts: penalty points, or chips lost under the chip settlements."""
        return "chips lost" if self.rules.settlement in CHIP_SETTLEMENTS else "points"

    def rotations(self, board: int) -> tuple[int, ...]:
        """The seating rotations board ``board`` is played in."""
        return tuple(range(self.k)) if self.duplicate else (board % self.k,)

    def owners(self, rotation: int) -> tuple[int, ...]:
        """Contender index in each seat for ``rotation``."""
        return tuple((seat + rotation) % self.k for seat in range(self.rules.players))

    def board_seed(self, board: int) -> str:
        return f"{self.seed}/{board}"

    def bot_seed(self, board: int, rotation: int, seat: int) -> str:
        return f"{self.seed}/{board}/{rotation}/{seat}"

    def board_rules(self, board: int) -> Rules:
        """The rules board ``board`` is played under (deals mode rotates the pass cycle)."""
        if self.mode == "games":
            return self.rules
        return _rotated_passes(self.rules, board % len(self.rules.pass_cycle))

    def seating(self) -> str:
        """The seat assignment of every rotation, e.g. ``"A B A B | B A B A"``."""
        letters = [chr(ord("A") + i) if i < 26 else str(i) for i in range(self.k)]
        rots = range(self.k) if self.duplicate else range(min(self.k, self.boards))
        return " | ".join(" ".join(letters[o] for o in self.owners(r)) for r in rots)

    def to_json(self) -> dict[str, Any]:
        return {
            "contenders": list(self.contenders),
            "labels": list(self.labels),
            "rules": self.rules.to_dict(),
            "mode": self.mode,
            "boards": self.boards,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "rotations_per_board": self.k if self.duplicate else 1,
            "seating": self.seating(),
            "unit": self.unit,
            "max_game_hands": self.max_game_hands,
        }


@lru_cache(maxsize=64)
def _rotated_passes(rules: Rules, start: int) -> Rules:
    if start == 0:
        return rules
    cycle = rules.pass_cycle
    return rules.replace(passes=cycle[start:] + cycle[:start])
