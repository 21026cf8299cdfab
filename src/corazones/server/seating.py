"""Seating: creating a table, taking and leaving seats, and the start of the game."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any

from corazones.core.cards import card_str
from corazones.core.commitment import commit
from corazones.core.errors import N_, Seats
from corazones.core.game import Game
from corazones.server.addresses import client_key
from corazones.server.auth import clean_name
from corazones.server.context import Context
from corazones.server.events import EventLog, seat_event
from corazones.server.options import OptionsRefused, rules_of
from corazones.server.refusal import Refused, tell
from corazones.server.schema import LIMITS, RulesOptions
from corazones.server.snapshots import Snapshots
from corazones.server.table import SeatState, TableRuntime, new_table_id
from corazones.server.turns import Turns, hand_start


class Seating:
    """Who sits where, and when the game starts."""

    def __init__(self, ctx: Context, events: EventLog, turns: Turns, snapshots: Snapshots) -> None:
        self.ctx = ctx
        self.events = events
        self.turns = turns
        self.snapshots = snapshots

    async def create(
        self,
        owner: int,
        owner_name: str,
        preset: str,
        options: RulesOptions,
        seats: list[dict[str, Any]] | None,
        my_seat: int | None,
        private: bool,
        name: str | None,
        takeover_level: str,
        address: str | None = None,
    ) -> TableRuntime:
        if len(self.ctx.tables) >= self.ctx.settings.limit("tables_per_process"):
            raise Refused("rate_limited", N_("This server holds as many tables as it may; try again later."))
        if address is not None:
            address = client_key(address)  # an IPv6 client's whole /64 counts as one
            cap = int(self.ctx.settings.limit("tables_per_address"))
            if sum(1 for t in self.ctx.tables.values() if t.address == address and t.status != "finished") >= cap:
                raise Refused(
                    "rate_limited",
                    N_("Too many unfinished tables were created from your address: at most {n}."),
                    n=cap,
                )
        # A table counts while its creator sits at it (a table they left no longer waits for them; those
        # still count per address, above) or while it is a show of bots they set up.
        mine = sum(
            1
            for t in self.ctx.tables.values()
            if t.owner == owner and t.status != "finished" and (t.seat_of(owner) is not None or _all_bots(t))
        )
        if mine >= LIMITS["open_tables_per_player"]:
            raise Refused(
                "rate_limited",
                N_("You already sit at {n} unfinished tables; finish one or leave it first."),
                n=LIMITS["open_tables_per_player"],
            )
        try:
            rules = rules_of(preset, options)
        except OptionsRefused as e:
            raise Refused("malformed", e.template, **e.params) from None
        n = rules.players
        if seats is None:
            seats = [
                {"kind": "human"} if i == (my_seat or 0) else {"kind": "bot", "level": "standard"} for i in range(n)
            ]
        if len(seats) != n:
            raise Refused("malformed", N_("Give one seat for each of the {n} players, not {k}."), n=n, k=len(seats))
        if all(s["kind"] == "bot" for s in seats):
            shows = sum(
                1 for x in self.ctx.tables.values() if x.owner == owner and x.status != "finished" and _all_bots(x)
            )
            if shows >= LIMITS["bot_tables_per_player"]:
                raise Refused(
                    "rate_limited",
                    N_("You already have {n} unfinished tables of bots only; let one finish first."),
                    n=LIMITS["bot_tables_per_player"],
                )
        states = [SeatState(kind=s["kind"], level=s.get("level") if s["kind"] == "bot" else None) for s in seats]
        if my_seat is not None:
            if not 0 <= my_seat < n or states[my_seat].kind != "human":
                raise Refused(
                    "malformed",
                    N_("Your seat must be one of the human seats; for a table of bots only, send my_seat: null."),
                )
            states[my_seat].player = owner
            states[my_seat].name = owner_name
        seed = self.ctx.settings.seed_source() if self.ctx.settings.seed_source else secrets.token_urlsafe(32)
        now = time.time()
        t = TableRuntime(
            id=new_table_id(),
            name=clean_name(name or "") or f"{owner_name} · {preset}",
            preset=preset,
            rules=rules,
            seed=seed,
            commitment=commit(seed),
            status="open",
            private=private,
            invite=secrets.token_urlsafe(12),
            owner=owner,
            takeover_level=takeover_level,
            created=now,
            seats=states,
            address=address,
        )
        await asyncio.to_thread(
            self.ctx.store.add_table,
            id=t.id,
            name=t.name,
            preset=preset,
            rules=json.dumps(rules.to_dict()),
            seats=json.dumps([s.stored() for s in states]),
            seed=seed,
            commitment=t.commitment,
            status="open",
            private=private,
            invite=t.invite,
            owner_id=owner,
            takeover_level=takeover_level,
            created=now,
            lease_owner=self.ctx.process,
            lease_url=self.ctx.settings.public_url,
            lease_expires=now + self.ctx.settings.lease_ttl,
        )
        self.ctx.tables[t.id] = t
        async with t.lock:
            await self._maybe_start(t)
        return t

    async def _save_seats(self, t: TableRuntime) -> None:
        await asyncio.to_thread(self.ctx.store.update_table, t.id, seats=json.dumps([s.stored() for s in t.seats]))

    async def join(self, t: TableRuntime, player: int, name: str, seat: int | None, invite: str | None) -> int:
        """Seat ``player`` (the first free seat when ``seat`` is None); the seat taken."""
        async with t.lock:
            if t.status == "finished":
                raise Refused("game_over", N_("This game is over."))
            mine = t.seat_of(player)
            if mine is not None:
                if seat is None or seat == mine:
                    return mine
                raise Refused("seat_taken", N_("You already sit in seat {seat}; stand up first."), seat=Seats(mine))
            if player in t.removed:
                raise Refused("removed", N_("The host removed you from this table."))
            if t.private and invite != t.invite and player != t.owner:
                raise Refused("auth", N_("This table is private: you need its invite link."))
            free = [i for i, s in enumerate(t.seats) if s.kind == "human" and s.player is None]
            mid_deal = t.status == "playing" and t.game is not None and not t.game.over
            if seat is None:
                if mid_deal:  # the first free seat this player may take in this deal
                    free = [i for i in free if t.witness.refusal(player, i) is None]
                if not free:
                    raise Refused("seat_taken", N_("There is no free seat at this table."))
                seat = free[0]
            if not 0 <= seat < len(t.seats) or seat not in free:
                raise Refused("seat_taken", N_("Seat {seat} is not free."), seat=Seats(seat))
            if mid_deal:
                why = t.witness.refusal(player, seat)
                if why is not None:
                    raise why
                t.witness.sat(player, seat)
            s = t.seats[seat]
            s.player, s.name, s.takeover, s.away_since = player, name, False, None
            t.touched = time.time()
            s.conns = sum(1 for c in t.conns if c.player_id == player)
            s.gen += 1
            self.turns.cancel_bot(t, seat)
            await self._save_seats(t)
            for c in t.conns:
                if c.player_id == player:
                    c.seat = seat
            await self.events.emit(t, [seat_event(t, seat)], False)
            if t.started and s.conns == 0:
                self.turns.start_grace(t, seat)
            await self._maybe_start(t)
            await self.snapshots.resend(t, player)
            return seat

    async def leave(self, t: TableRuntime, player: int) -> None:
        async with t.lock:
            seat = t.seat_of(player)
            if seat is None:
                return
            self._vacate(t, seat)
            await self._save_seats(t)
            for c in t.conns:
                if c.player_id == player:
                    c.seat = None
            await self.events.emit(t, [seat_event(t, seat)], False)
            await self.snapshots.resend(t, player)
            self.turns.schedule_bots(t)

    async def remove(self, t: TableRuntime, by: int, seat: int) -> None:
        """The owner takes ``seat`` away from the player holding it, who may not come back to this table.

        As if that player had left (before the start the seat is free again; during the game a bot
        of ``takeover_level`` plays it and anyone may take it), and their connections to this
        table are told why and closed (4004).  For a seat held with a token that went astray, or
        a player who walked away for good.
        """
        async with t.lock:
            if by != t.owner:
                raise Refused("auth", N_("Only the player who created the table can remove a player."))
            if t.status == "finished":
                raise Refused("game_over", N_("This game is over."))
            if not 0 <= seat < len(t.seats) or t.seats[seat].kind != "human" or t.seats[seat].player is None:
                raise Refused("malformed", N_("No player sits in seat {seat}."), seat=Seats(seat))
            player = t.seats[seat].player
            assert player is not None
            if player == by:
                raise Refused("malformed", N_("To give up your own seat, leave it."))
            self._vacate(t, seat)
            t.removed.add(player)
            await asyncio.to_thread(
                self.ctx.store.update_table,
                t.id,
                seats=json.dumps([x.stored() for x in t.seats]),
                removed=json.dumps(sorted(t.removed)),
            )
            for c in list(t.conns):
                if c.player_id == player:
                    t.conns.discard(c)
                    c.seat = None
                    tell(c, Refused("removed", N_("The host removed you from this table.")))
                    c.close(4004, "removed by the host")
            await self.events.emit(t, [seat_event(t, seat)], False)
            self.turns.schedule_bots(t)

    def _vacate(self, t: TableRuntime, seat: int) -> None:
        """Nobody holds ``seat`` any more (during the game its bot plays it until the next deal)."""
        s = t.seats[seat]
        s.player, s.name, s.takeover, s.away_since, s.conns = None, "", False, None, 0
        s.gen += 1
        self.turns.cancel_grace(t, seat)
        if t.status == "playing":
            t.witness.left(seat)

    async def start_now(self, t: TableRuntime, player: int) -> None:
        async with t.lock:
            if player != t.owner:
                raise Refused("auth", N_("Only the player who created the table can start it."))
            if t.status == "open":
                await self._start(t)

    async def _maybe_start(self, t: TableRuntime) -> None:
        if t.status == "open" and all(s.kind == "bot" or s.player is not None for s in t.seats):
            await self._start(t)

    async def _start(self, t: TableRuntime) -> None:
        t.status = "playing"
        t.game = Game(t.rules, t.seed)
        g = t.game
        await asyncio.to_thread(self.ctx.store.update_table, t.id, status="playing", started=time.time())
        t.witness.new_deal(t.seats)
        await self.events.emit(
            t,
            [
                ("table", {"kind": "table", "status": "playing"}),
                (
                    "game_start",
                    {
                        "kind": "game_start",
                        "commitment": t.commitment,
                        "draw": [card_str(c) for c in g.draw],
                        "seats": t.seat_infos(),
                    },
                ),
                hand_start(t),
            ],
        )
        for i, s in enumerate(t.seats):
            if s.kind == "human" and s.player is not None and s.conns == 0:
                self.turns.start_grace(t, i)
        self.turns.schedule_bots(t)


def _all_bots(t: TableRuntime) -> bool:
    """A table set up with bots in every seat (a show from its start, not one every person left)."""
    return all(s.kind == "bot" for s in t.seats)
