"""Load on the web server: N tables of scripted WebSocket players and bots, latency and memory.

Starts ``corazones serve`` in a child process (a fresh SQLite file, or
``--db``), opens ``--tables`` tables of standard Hearts, each with two
scripted human players (two WebSocket connections that think 0.5-1.5 s per
decision, like people) and two bots of ``--level`` (thinking in the server's
process pool, at least ``--bot-delay`` s a move), then measures for
``--seconds``:

* latency from an action to its broadcast: from the moment a player sends
  its decision to the moment each human connection at the table (the actor
  included) receives the event for it -- validation, the database write that
  precedes every broadcast, and the views built from observations;
* memory per table: the growth of the server's resident memory (its
  process and the bot workers) from before the tables opened to the end,
  divided by the number of tables.

The target for 200 tables is p99 <= 100 ms.  Clients run in this process, on
the same machine: their CPU counts against the server's.

    python3 bench/web_load.py --tables 200
    nice -n 19 python3 bench/web_load.py --tables 20 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from corazones.server.client import Api
from corazones.server.local import free_port


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and its children (the bot workers), in KiB."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.recording = False
        self.actions = 0
        self.errors: dict[str, int] = {}
        self.games = 0


async def player(api: Api, table: str, sent: dict[tuple[int, str], float], stats: Stats, stop: asyncio.Event) -> None:
    """One scripted human: answer every decision of its seat after a human-like pause."""
    rng = random.Random(f"{table}/{api.token}")
    async with connect(api.ws_url(table), max_size=2**22, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": api.token}))
        view: dict[str, Any] | None = None
        seat: int | None = None
        thinking: asyncio.Task[None] | None = None

        waiting = False  # sent a decision, its event (or an error) not back yet

        async def decide(v: dict[str, Any]) -> None:
            nonlocal waiting
            await asyncio.sleep(rng.uniform(0.5, 1.5))
            if stop.is_set():
                return
            if v["decision"] == "pass":
                action: dict[str, Any] = {"pass": rng.sample(v["hand"], v["pass_count"])}
            else:
                action = dict(rng.choice(v["legal"]))
                action.pop("seat", None)
            key = json.dumps({"seat": seat, **action}, sort_keys=True)
            sent[(0, key)] = time.perf_counter()
            waiting = True
            with contextlib.suppress(ConnectionClosed):
                await ws.send(json.dumps({"type": "act", "action": action}))

        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            now = time.perf_counter()
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "snapshot":
                view, seat = msg["view"], msg["seat"]
            elif kind == "event":
                ev = msg["event"]
                if ev["kind"] == "action" and ev["by"] == "human":
                    action = ev["action"]
                    if action.get("pass", 0) is not None:  # a pass others see has no cards: not matched
                        t0 = sent.get((0, json.dumps(action, sort_keys=True)))
                        if t0 is not None and stats.recording:
                            stats.latencies.append(now - t0)
                    if action["seat"] == seat:
                        stats.actions += stats.recording
                        waiting = False
                elif ev["kind"] == "game_over":
                    stats.games += 1
                if msg.get("view") is not None:
                    view = msg["view"]
            elif kind == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                waiting = False
            if (
                not waiting
                and (kind == "snapshot" or msg.get("view") is not None)
                and view is not None
                and view.get("decision")
                and seat in view.get("to_act", [])
                and (thinking is None or thinking.done())
            ):
                thinking = asyncio.create_task(decide(view))


async def open_table(base: str, level: str, i: int) -> tuple[list[Api], str]:
    def setup() -> tuple[list[Api], str]:
        ana, bea = Api(base), Api(base)
        ana.guest(f"a{i}")
        bea.guest(f"b{i}")
        bot = {"kind": "bot", "level": level}
        info = ana.create(preset="standard", seats=[{"kind": "human"}, {"kind": "human"}, bot, bot])
        bea.join(info["id"])
        return [ana, bea], info["id"]

    return await asyncio.to_thread(setup)


async def run(args: argparse.Namespace) -> None:
    tmp = tempfile.mkdtemp(prefix="corazones-load-")
    db = args.db or f"sqlite:///{tmp}/load.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    # Every client is on this machine: trusted as a proxy would be, it is not capped per address.
    cmd = [sys.executable, "-m", "corazones", "serve", "--port", str(port), "--db", db, "--bot-delay",
           str(args.bot_delay), "--bot-workers", str(args.bot_workers), "--write-limit", "100000",
           "--ws-per-address", "100000", "--forwarded-allow-ips", "127.0.0.1"]  # fmt: skip
    log = open(os.path.join(tmp, "server.log"), "wb")  # noqa: SIM115 - closed at the end
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    print(f"server pid {server.pid} (profile it with: py-spy record -p {server.pid})", flush=True)
    try:
        for _ in range(300):
            try:
                if Api(base).request("GET", "/healthz")["ok"]:
                    break
            except Exception:
                await asyncio.sleep(0.1)
        await open_table(base, args.level, -1)  # starts the bot processes: counted before, not per table
        await asyncio.sleep(2)
        before = rss_kib(server.pid)
        stats = Stats()
        stop = asyncio.Event()
        tasks = []
        started = time.perf_counter()
        for i in range(args.tables):
            apis, table = await open_table(base, args.level, i)
            table_sent: dict[tuple[int, str], float] = {}
            tasks += [asyncio.create_task(player(api, table, table_sent, stats, stop)) for api in apis]
        opened = time.perf_counter() - started
        await asyncio.sleep(args.warmup)
        cpu0 = cpu_seconds(server.pid)
        mine0 = time.process_time()
        stats.recording = True
        await asyncio.sleep(args.seconds)
        stats.recording = False
        cpu = cpu_seconds(server.pid) - cpu0
        mine = time.process_time() - mine0
        after = rss_kib(server.pid)
        health = await asyncio.to_thread(Api(base).request, "GET", "/healthz")
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        for t in asyncio.all_tasks():
            if t is not asyncio.current_task():
                t.cancel()
        lat = sorted(stats.latencies)
        print(f"tables {args.tables} (2 scripted players + 2 {args.level} bots each), opened in {opened:.1f} s; "
              f"measured {args.seconds:.0f} s after {args.warmup:.0f} s warm-up")  # fmt: skip
        if lat:
            p50 = lat[len(lat) // 2] * 1000
            p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
            print(f"latency action -> broadcast: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {lat[-1] * 1000:.1f} ms "
                  f"over {len(lat)} deliveries (mean {statistics.mean(lat) * 1000:.1f} ms)")  # fmt: skip
            print(f"human actions {stats.actions} ({stats.actions / args.seconds:.1f}/s)")
        else:
            print("no latency measured")
        print(f"server memory: {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB after; "
              f"{(after - before) / max(1, args.tables):.0f} KiB per table")  # fmt: skip
        print(f"inside the server, arrival -> broadcast queued (every action, bots' too): "
              f"p50 {health['act_p50_ms']} ms, p99 {health['act_p99_ms']} ms; its database writes "
              f"p50 {health.get('write_p50_ms')} ms, p99 {health.get('write_p99_ms')} ms; "
              f"{health.get('gc_full')} full garbage collections, p50 {health.get('gc_p50_ms')} ms, "
              f"p99 {health.get('gc_p99_ms')} ms")  # fmt: skip
        load = os.getloadavg()[0]
        print(f"CPU per second: server {cpu / args.seconds:.2f} s (its main process: event loop, database writes), "
              f"clients {mine / args.seconds:.2f} s; load average {load:.1f} on {os.cpu_count()} cores")  # fmt: skip
        if stats.errors:
            print(f"errors: {stats.errors}")
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    ap.add_argument("--seconds", type=float, default=30.0, help="measuring window (default 30)")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (default 5)")
    ap.add_argument("--level", default="standard", help="bot level of the two bots per table")
    ap.add_argument("--bot-delay", type=float, default=0.5, help="least seconds per bot move (default 0.5)")
    ap.add_argument("--bot-workers", type=int, default=1, help="bot processes (default 1)")
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    args = ap.parse_args()
    if args.tables < 1 or args.seconds <= 0:
        ap.error("--tables must be at least 1 and --seconds more than 0")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
