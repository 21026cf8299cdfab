"""Table ownership: the tables this process holds, their leases, loading, adoption and idle expiry.

A process holds a table by its lease in the store; it renews its leases,
lets go of tables another process took (their connections are told to
reconnect), adopts tables whose owner died, and rebuilds a table it takes
from the stored events.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

from corazones.core.actions import Action
from corazones.core.errors import N_
from corazones.core.replay import rebuild
from corazones.core.rules import Rules
from corazones.core.text import visible
from corazones.server.context import Context
from corazones.server.refusal import Refused
from corazones.server.table import SeatState, TableRuntime
from corazones.server.turns import Turns
from corazones.services.store.repo import UNFINISHED

log = logging.getLogger("corazones.server")


class Ownership:
    """The tables this process holds: leases renewed, lost, claimed; tables loaded and expired."""

    def __init__(self, ctx: Context, turns: Turns) -> None:
        self.ctx = ctx
        self.turns = turns
        #: Tables being loaded now: a second request for one waits for the first load.
        self._loading: dict[str, asyncio.Future[TableRuntime | None]] = {}

    async def renew(self) -> None:
        """Renew our leases, let go of tables another process took, adopt tables whose owner died."""
        ids = [tid for tid, t in self.ctx.tables.items() if t.status != "finished"]
        kept = await asyncio.to_thread(self.ctx.store.renew, self.ctx.process, ids, self.ctx.settings.lease_ttl)
        for tid in set(ids) - kept:
            self.ctx.tables.drop(tid, "lease lost")
        for tid in [tid for tid, t in self.ctx.tables.items() if t.status == "finished" and not t.conns]:
            del self.ctx.tables[tid]  # finished and nobody looking: reload on demand
        for tid in await asyncio.to_thread(self.ctx.store.claimable, self.ctx.process):
            if len(self.ctx.tables) >= self.ctx.settings.limit("tables_per_process"):
                break  # the rest are for other processes (or for this one when it has room)
            if tid not in self.ctx.tables:
                await self.adopt(tid)

    async def release_all(self) -> None:
        """Let go of every table this process holds (it is stopping), so another process adopts them at once.

        Without it a stopped process kept its leases until they ran out: during a rolling restart its
        tables stalled for up to ``--lease`` seconds and their players were sent to the process gone.  A
        database that does not answer leaves them to expire as before.
        """
        for tid in [tid for tid, t in self.ctx.tables.items() if t.status != "finished"]:
            try:
                await asyncio.to_thread(self.ctx.store.release, self.ctx.process, tid)
            except Exception:
                log.warning("could not release the lease of table %s on stopping", tid, exc_info=True)
                return

    async def expire_idle(self) -> None:
        """Tables not started yet that nobody has been connected to for ``open_table_idle_minutes``
        expire: stored as ``expired`` (no longer listed, renewed or adopted; ``GET`` answers 404)."""
        limit = self.ctx.settings.limit("open_table_idle_minutes") * 60
        now = time.time()
        idle = [t for t in self.ctx.tables.values() if t.status == "open" and not t.conns and now - t.touched > limit]
        for t in idle:
            async with t.lock:
                if t.status != "open" or t.conns or now - t.touched <= limit:
                    continue
                await asyncio.to_thread(self.ctx.store.update_table, t.id, status="expired", lease_owner=None)
                t.status = "expired"
                self.ctx.tables.pop(t.id, None)
                log.info("table %s expired: not started, nobody connected for %.0f s", t.id, now - t.touched)

    async def get(self, table_id: str) -> TableRuntime:
        """The table, loaded (and its lease taken) if this process does not hold it yet.

        :class:`Refused` ``not_found`` for an unknown table, ``moved`` when a live
        process owns it.
        """
        t = self.ctx.tables.get(table_id)
        if t is not None:
            return t
        t = await self.adopt(table_id)
        if t is not None:
            return t
        row = await asyncio.to_thread(self.ctx.store.table, table_id)
        if row is None or row.status == "expired":
            raise Refused("not_found", N_("There is no table {table}."), table=visible(table_id, 40))
        if row.status == "finished":
            t = self.ctx.tables.get(table_id) or await self._load(table_id, finished=True)
            if t is not None:
                return t
        raise Refused("moved", N_("Another server process runs this table; reconnect there."), url=row.lease_url)

    async def adopt(self, table_id: str, force: bool = False) -> TableRuntime | None:
        """Take the lease of a table and rebuild it from its stored events; None if it is not free."""
        if table_id in self.ctx.tables:
            return self.ctx.tables[table_id]
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        fut: asyncio.Future[TableRuntime | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            ok = await asyncio.to_thread(
                self.ctx.store.claim,
                table_id,
                self.ctx.process,
                self.ctx.settings.public_url,
                self.ctx.settings.lease_ttl,
                force,
            )
            t = await self._load(table_id) if ok else None
            fut.set_result(t)
            return t
        except BaseException as e:
            fut.set_exception(e)
            raise
        finally:
            self._loading.pop(table_id, None)

    async def _load(self, table_id: str, finished: bool = False) -> TableRuntime | None:
        """Rebuild a table from its row and events: an unfinished one we hold the lease of, or
        (``finished``) a finished one, read-only, for people who open it after the end."""
        row = await asyncio.to_thread(self.ctx.store.table, table_id)
        if row is None or (row.status not in UNFINISHED and not (finished and row.status == "finished")):
            return None
        events = await asyncio.to_thread(self.ctx.store.events, table_id)
        seats = [SeatState(**s) for s in json.loads(row.seats)]
        t = TableRuntime(
            id=row.id,
            name=row.name,
            preset=row.preset,
            rules=Rules.from_dict(json.loads(row.rules)),
            seed=row.seed,
            commitment=row.commitment,
            status=row.status,
            private=row.private,
            invite=row.invite,
            owner=row.owner_id,
            takeover_level=row.takeover_level,
            created=row.created,
            seats=seats,
            removed=set(json.loads(row.removed or "[]")),
        )
        started = False
        actions: list[Action] = []
        for ev in events:
            t.seq = ev.seq
            t.recent.append((ev.seq, ev.kind, ev.data))
            if ev.kind == "game_start":
                started = True
            elif ev.kind == "action" and started:
                actions.append(Action.from_json(ev.data["action"]))
            elif ev.kind == "chat":
                t.chat.append(ev.data)
            t.witness.replay(ev.kind, ev.data)
        if started:
            t.game = rebuild(t.rules, t.seed, actions)
        if t.game is not None and t.status == "open":
            t.status = "playing"
        self.ctx.tables[table_id] = t
        if t.game is not None and t.game.over and t.status != "finished":  # stopped before the results
            await self.turns.finish(t)
            return t
        log.info("table %s loaded: %d events, %d actions", table_id, t.seq, len(t.game.actions) if t.game else 0)
        if t.status == "playing":
            for i, s in enumerate(t.seats):
                if s.kind == "human" and s.player is not None:
                    self.turns.start_grace(t, i)
            self.turns.schedule_bots(t)
        return t
