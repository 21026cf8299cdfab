"""The one replay: a game rebuilt from its rules, its seed and its actions.

A record, the web server's event log, the terminal game's undo and the
replay viewer all hold a game as rules, seed and actions, and all rebuild it
the same way: a new :class:`~corazones.core.game.Game` from the seed, every
action applied (and so checked again) in order.  :func:`rebuild_steps` does it
one action at a time and says what each completed
(:class:`~corazones.core.applied.Applied`); :func:`rebuild` returns the game at
the end.  An action the rules refuse stops the replay with an error naming
it by its number, counted from 1 (``action #7 (seat 2 plays QS) is illegal:
...``), as the reader of a record expects.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from corazones.core.actions import Action
from corazones.core.applied import Applied
from corazones.core.errors import N_, CorazonesError, IllegalActionError
from corazones.core.game import Game
from corazones.core.rules import Rules


@dataclass(frozen=True, slots=True)
class Step:
    """One replayed action (``index`` counts from 0), the game after it, and what it completed."""

    index: int
    action: Action
    game: Game
    applied: Applied


def rebuild_steps(
    rules: Rules,
    seed: int | str,
    actions: Iterable[Action],
    error: type[CorazonesError] = IllegalActionError,
) -> Iterator[Step]:
    """Replay ``actions`` from the seed, yielding after each; the same :class:`Game` is advanced in place.

    ``actions`` may be a lazy iterable (a record's actions parsed one by one),
    so a malformed action is reported where it stands.  An illegal one raises
    ``error`` (:class:`IllegalActionError`, or the reader's own class such as
    :class:`~corazones.core.errors.RecordError`) naming its number.
    """
    game = Game(rules, seed)
    for i, action in enumerate(actions):
        try:
            applied = game.apply(action)
        except CorazonesError as e:
            raise error(
                N_("action #{number} ({action}) is illegal: {error}"), number=i + 1, action=action.describe(), error=e
            ) from None
        yield Step(i, action, game, applied)


def rebuild(
    rules: Rules, seed: int | str, actions: Iterable[Action], error: type[CorazonesError] = IllegalActionError
) -> Game:
    """The game ``actions`` make from the seed, every action checked again (see :func:`rebuild_steps`)."""
    game: Game | None = None
    for step in rebuild_steps(rules, seed, actions, error):
        game = step.game
    return game if game is not None else Game(rules, seed)
