"""What one action did: the value :meth:`Game.apply <corazones.core.game.Game.apply>` returns.

A face that shows a game (the terminal table, the web hub, a replay) must
know when a trick is taken, a hand is scored and the game ends, to pause on
the trick, show the hand's result or the winners.  The game knows it at the
moment it happens, so it says so, rather than every face comparing the state
before and after each action.

Kept out of :mod:`corazones.core.game` so that it stays an ordinary frozen
dataclass when the compiled build compiles ``game`` (values that travel
between processes must unpickle, as :class:`~corazones.core.trick.Trick` does).
Everything in it is public: the trick's cards lay face up, the hand's result
is in every seat's history.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from corazones.core.observation import HandResult
from corazones.core.trick import Trick


@dataclass(frozen=True, slots=True)
class Applied:
    """What one applied action completed; all empty for most actions (a card that does not end a trick).

    ``trick`` is the trick the action completed (its ``winner`` is ``None``
    when two decks annul it), ``hand`` the result of the hand it ended, and
    ``game_over`` whether that hand ended the game.
    """

    trick: Trick | None = None
    hand: HandResult | None = None
    game_over: bool = False

    @property
    def trick_winner(self) -> int | None:
        """The seat that took the trick this action completed (``None``: no trick ended, or it was annulled)."""
        return None if self.trick is None else self.trick.winner

    @property
    def hand_ended(self) -> bool:
        return self.hand is not None


#: What most actions do: nothing ends (one value, not a new one per action).
NOTHING: Final = Applied()
