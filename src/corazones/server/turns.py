"""Turns: a decision applied, stored and broadcast; bots playing their seats, and the grace of an away player
before a bot plays for them; the game's end."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from corazones.core.actions import Action
from corazones.core.errors import N_, CorazonesError, Seats
from corazones.core.replay import rebuild
from corazones.server.bots import MOVE, SHOW, BotPools
from corazones.server.context import Context
from corazones.server.events import EventLog, seat_event
from corazones.server.metrics import Metrics
from corazones.server.refusal import Refused
from corazones.server.table import TableRuntime, bot_key
from corazones.services.ratings import players_at_start, rate_table

log = logging.getLogger("corazones.server")


def hand_start(t: TableRuntime) -> tuple[str, dict[str, Any]]:
    """The ``hand_start`` event of the hand the game is at now."""
    g = t.game
    assert g is not None
    return "hand_start", {
        "kind": "hand_start",
        "hand_index": g.hand_index,
        "dealer": g.deal.dealer,
        "pass_direction": g.deal.pass_direction,
        "commitment": t.commitment,
    }


class Turns:
    """Who plays each seat and when: a person's decision applied, stored and broadcast; the bots whose turn
    it is; an away player's grace (``Settings.grace`` seconds), after which the table's ``takeover_level``
    bot plays their seat until they come back (``SeatState.takeover``); the game's end."""

    def __init__(self, ctx: Context, events: EventLog, bots: BotPools, metrics: Metrics) -> None:
        self.ctx = ctx
        self.events = events
        self.bots = bots
        self.metrics = metrics
        #: Set when the process stops: a bot turn cancelled then must not schedule the next one on a closing loop.
        self.stopping = False

    async def act(
        self,
        t: TableRuntime,
        seat: int,
        data: dict[str, Any],
        by: str,
        gen: int | None = None,
        player: int | None = None,
    ) -> None:
        """Validate and apply one decision of ``seat``; store and broadcast what follows from it.

        ``gen`` (a bot's move) is the seat's generation when the move was
        asked for; ``player`` (a person's move) is who sent it.  Both are
        checked under the table's lock, since a move may wait for the lock
        while the seat changes hands (the host removes the player, who
        stands up, or the seat is given to another): the move of someone who
        no longer holds the seat is never applied.
        """
        started = time.perf_counter()
        await self._act(t, seat, data, by, gen, player)
        self.metrics.act_times.append(time.perf_counter() - started)

    async def _act(
        self, t: TableRuntime, seat: int, data: dict[str, Any], by: str, gen: int | None, player: int | None
    ) -> None:
        async with t.lock:
            if player is not None and t.seats[seat].player != player:
                raise Refused(
                    "not_seated", N_("You no longer sit at seat {seat}; that move was not played."), seat=Seats(seat)
                )
            g = t.game
            if t.status == "finished" or (g is not None and g.over):
                raise Refused("game_over", N_("This game is over."))
            if g is None:
                raise Refused("not_your_turn", N_("The game has not started yet."))
            if gen is not None and t.seats[seat].gen != gen:
                return  # a bot's move for a seat its human took back meanwhile
            try:
                action = Action.from_json(data)
            except CorazonesError as e:
                raise Refused("bad_action", N_("That is not a valid move: {why}"), why=e) from None
            if seat not in g.to_act():
                who = Seats(*g.to_act())
                raise Refused("not_your_turn", N_("It is not your turn: seat {seats} must act now."), seats=who)
            try:
                done = g.apply(action)
            except CorazonesError as e:
                raise Refused("illegal", N_("That move is not allowed: {why}"), why=e) from None
            trick = done.trick.to_json() if done.trick is not None else None
            events: list[tuple[str, dict[str, Any]]] = [
                ("action", {"kind": "action", "action": action.to_json(), "by": by, "trick": trick})
            ]
            if done.hand is not None:
                events.append(("hand_end", {"kind": "hand_end", "result": done.hand.to_json()}))
                if done.game_over:
                    events.append(("game_over", self._game_over(t)))
                    events.append(("table", {"kind": "table", "status": "finished"}))
                else:
                    events.append(hand_start(t))
            try:
                stored = await self.events.store_events(t, events)
            except Refused:
                raise
            except Exception:
                # Not stored, so not played: take the action back by rebuilding the game.
                t.game = rebuild(t.rules, t.seed, g.actions[:-1])
                raise Refused("server", N_("The move could not be stored; try again.")) from None
            if done.hand is not None:
                t.witness.new_deal(t.seats)
            if done.game_over:
                # The table is finished in the store before anyone hears the game is over: the game_over
                # event's record_url (and the replay, the player's stats) must answer at once, in every
                # process, instead of "not over yet" until this write lands (long on a loaded machine).
                try:
                    await self.finish(t)
                finally:
                    self.events.broadcast(t, stored, True)
            else:
                self.events.broadcast(t, stored, True)
                self.schedule_bots(t)

    def _game_over(self, t: TableRuntime) -> dict[str, Any]:
        g = t.game
        assert g is not None
        return {
            "kind": "game_over",
            "winners": list(g.winners),
            "scores": list(g.scores),
            "seed": t.seed,
            "commitment": t.commitment,
            "record_url": f"{self.ctx.settings.public_url}/api/games/{t.id}/record",
        }

    async def finish(self, t: TableRuntime) -> None:
        g = t.game
        assert g is not None
        t.status = "finished"
        # The game's results go to the people seated at its start (services.ratings.seat_players says why).
        start = await asyncio.to_thread(players_at_start, self.ctx.store, t.id)
        results = []
        for s, st in enumerate(t.seats):
            player, name = st.player if st.kind == "human" else None, t.seat_info(s)["name"]
            if start is not None and s < len(start):
                first, first_name = start[s]
                player, name = first, (first_name if first is not None else name)
            results.append(
                {
                    "seat": s,
                    "player_id": player,
                    "name": name,
                    "score": g.scores[s],
                    "won": s in g.winners,
                    "hands": len(g.history),
                    "moons": sum(1 for h in g.history if h.shooter == s),
                    "hand_points": json.dumps([h.scores[s] for h in g.history]),
                }
            )
        await asyncio.to_thread(self.ctx.store.finish, t.id, results)
        try:  # the players' ratings (services.ratings); a failure there never stops the game's end
            await asyncio.to_thread(rate_table, self.ctx.store, t.id, start)
        except Exception:
            log.exception("rating the game of table %s failed", t.id)
        for h in t.timers.values():
            h.cancel()
        t.timers.clear()  # nobody's grace runs out after the end

    # ------------------------------------------------------------------ grace
    def start_grace(self, t: TableRuntime, seat: int) -> None:
        """The player of ``seat`` is away: their grace starts (unless it runs already, or a bot plays for them)."""
        s = t.seats[seat]
        if s.conns > 0 or s.takeover or seat in t.timers:
            return
        s.away_since = time.time()
        loop = asyncio.get_running_loop()
        t.timers[seat] = loop.call_later(
            self.ctx.settings.grace, lambda: asyncio.ensure_future(self._grace_over(t, seat))
        )

    def cancel_grace(self, t: TableRuntime, seat: int) -> None:
        """The player of ``seat`` is back, or left it: no grace runs for it."""
        h = t.timers.pop(seat, None)
        if h is not None:
            h.cancel()

    async def _grace_over(self, t: TableRuntime, seat: int) -> None:
        t.timers.pop(seat, None)
        async with t.lock:
            s = t.seats[seat]
            if t.dropped or s.conns > 0 or s.player is None or t.status != "playing":
                return
            s.takeover = True
            s.gen += 1
            with contextlib.suppress(Refused):
                await self.events.emit(t, [seat_event(t, seat)], False)
        self.schedule_bots(t)

    # ------------------------------------------------------------------ bots
    def schedule_bots(self, t: TableRuntime) -> None:
        """Start the bots whose turn it is.  A table where no person sits (a show of bots) plays only
        while someone watches it, and after every other table's moves and hints (``bots.SHOW``)."""
        g = t.game
        if g is None or g.over or t.dropped or self.stopping:
            return
        if not t.attended and not t.conns:
            return  # nobody sits and nobody watches: it waits for a spectator (connect starts it again)
        for seat in g.to_act():
            level = t.bot_level(seat)
            if level is not None and seat not in t.thinking:
                t.thinking[seat] = asyncio.create_task(self._bot_turn(t, seat, level))

    def cancel_bot(self, t: TableRuntime, seat: int) -> None:
        task = t.thinking.pop(seat, None)
        if task is not None:
            task.cancel()

    async def _bot_turn(self, t: TableRuntime, seat: int, level: str) -> None:
        g = t.game
        assert g is not None
        gen = t.seats[seat].gen
        started = time.monotonic()
        try:
            obs = g.observation(seat)
            bot_seed = f"{bot_key(t.seed)}/{seat}/{len(g.actions)}"
            try:
                data = await self.bots.think(obs, level, bot_seed, MOVE if t.attended else SHOW)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot %s failed on table %s seat %d; a random legal move is played", level, t.id, seat)
                data = _random_move(obs, bot_seed)
            wait = self.ctx.settings.bot_delay - (time.monotonic() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            with contextlib.suppress(Refused):
                await self.act(t, seat, data, "bot", gen)
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("bot turn failed on table %s seat %d", t.id, seat)
        finally:
            if t.thinking.get(seat) is asyncio.current_task():
                del t.thinking[seat]
            if not t.dropped:
                self.schedule_bots(t)


def _random_move(obs: Any, seed: str) -> dict[str, Any]:
    from corazones.players.random_bot import RandomBot

    return RandomBot(seed).act(obs).to_json()
