"""The one-person-one-seat-per-deal rule: who has seen which seat's hand in the current deal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from corazones.core.errors import N_, Seats
from corazones.server.refusal import Refused

if TYPE_CHECKING:
    from corazones.server.table import SeatState


class DealWitness:
    """Who has held which seat in the current deal: one person never holds two seats' information in a deal.

    A player who has sat in a seat during a deal has seen its hand (and its pass, and what it received),
    so until the next deal starts they may sit only in that seat again; a seat its human gave up during a
    deal (``leave``, ``remove``) stays with its bot until the next deal, so nobody else reads that hand
    either.  A spectator who never sat in this deal may take a seat that no human held in it.  Rebuilt
    from the stored events when a process loads the table (:meth:`replay`), so a restart or another
    process keeps the rule.
    """

    def __init__(self) -> None:
        #: player -> the seat they held in this deal
        self.held: dict[int, int] = {}
        #: seats a human gave up during this deal (a bot plays them until it ends)
        self.vacated: set[int] = set()
        #: who sits where now, as the events said (for :meth:`replay`)
        self._sitting: dict[int, int | None] = {}

    def new_deal(self, seats: list[SeatState]) -> None:
        """A deal starts: only the humans sitting now have seen (or will see) a hand of it."""
        self.held = {s.player: i for i, s in enumerate(seats) if s.kind == "human" and s.player is not None}
        self.vacated = set()

    def sat(self, player: int, seat: int) -> None:
        self.held[player] = seat

    def left(self, seat: int) -> None:
        self.vacated.add(seat)

    def refusal(self, player: int, seat: int) -> Refused | None:
        """Why ``player`` may not sit in ``seat`` during this deal, or None."""
        held = self.held.get(player)
        if held is not None and held != seat:
            return Refused(
                "seat_taken",
                N_("You held seat {held} in this deal: you may sit in another seat when the next deal starts."),
                held=Seats(held),
            )
        if held is None and seat in self.vacated:
            return Refused(
                "seat_taken",
                N_("Seat {seat} was given up during this deal: its bot plays it until the next deal starts."),
                seat=Seats(seat),
            )
        return None

    def replay(self, kind: str, data: dict[str, Any]) -> None:
        """Follow one stored event (in order) to rebuild who held what in the current deal."""
        if kind == "game_start":
            self._sitting = {s["seat"]: s.get("player") for s in data.get("seats", []) if s.get("kind") == "human"}
        elif kind == "hand_start":
            self.held = {p: i for i, p in self._sitting.items() if p is not None}
            self.vacated = set()
        elif kind == "seat":
            info = data.get("seat") or {}
            seat, player = info.get("seat"), info.get("player")
            if not isinstance(seat, int) or info.get("kind") != "human":
                return
            before = self._sitting.get(seat)
            self._sitting[seat] = player
            if player is None and before is not None:
                self.vacated.add(seat)
            elif player is not None:
                self.held[player] = seat
