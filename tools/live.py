"""The live tables' benchmark: friends' tables over WebSockets on several server processes.

`python -m tools.live GAME --tables N [--humans 2|4] [--think-ms MS] --servers 2 --db
postgresql://...` starts the servers on one database and plays N tables at once, each deal
to its end. With 2 humans, South and North (partners) hold a table and the AI (the random
level) plays East and West; with 4, people hold every seat, so no AI time is in any figure.
Each table's seats are spread over the processes (South and North always on different
ones), each seat on its own WebSocket, playing its first legal action after a pause of
about think-ms (0: at once). Each human action is timed from the moment it is sent

- to its answer on its own connection (`ack_ms`): the server's time to check it, write it
  with its id, and say so;
- to the update showing its card reaching every other human's connection, on another
  process (`across_ms`: the commit, the database's notice, that process reading the
  committed game and building the seat's view) or the same one (`beside_ms`).

The report adds the CPU seconds the servers and the load generator used, and the machine's
load average, since they share its cores.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any

from tarocchi.bench import percentiles
from tools.load import _address, _cpu_s, _start_server, command, database, show

HELD = (0, 2, 1, 3)  # the seats people take, in order: South and North first
DEAL_TIMEOUT_S = 600.0


def main(argv: list[str] | None = None) -> int:
    """Run the live tables' bench with the command line's options; print its report."""
    parser = command("tools.live", __doc__, servers=2)
    parser.add_argument("--tables", type=int, default=10, help="tables played at once")
    parser.add_argument("--humans", type=int, choices=(2, 4), default=2,
                        help="people at each table: partners (the AI in East and West), or "
                        "four")  # fmt: skip
    parser.add_argument("--think-ms", type=float, default=0.0,
                        help="each person's pause before an action (0: none)")  # fmt: skip
    args = parser.parse_args(argv)
    with database(args.db) as (db, _):
        report = live_latency(args.game, db, args.tables, args.servers, args.humans,
                              args.think_ms)  # fmt: skip
    return show(args.game, report, args.json)


@dataclass
class Timings:
    """The timings of a run's human actions, in ms."""

    ack: list[float] = field(default_factory=list)
    across: list[float] = field(default_factory=list)
    beside: list[float] = field(default_factory=list)


def live_latency(
    game_name: str, db: str, tables: int = 10, servers: int = 2, humans: int = 2,
    think_ms: float = 0.0,
) -> dict[str, Any]:  # fmt: skip
    """Play `tables` deals with `humans` people each (seat HELD[i] on server i mod
    `servers`) over one database at the current schema; return the actions' timings in ms
    (p50, p95, p99; see the module's docstring) with the counts and the CPU used."""
    procs = [_start_server(db) for _ in range(servers)]
    try:
        pids = [proc.pid for proc, _ in procs]
        bases = [f"127.0.0.1:{port}" for _, port in procs]
        timings, used = asyncio.run(_tables(game_name, bases, pids, tables, HELD[:humans],
                                            think_ms))  # fmt: skip
    finally:
        for proc, _ in procs:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc, _ in procs:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:  # a server slow to stop on a loaded machine
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    report: dict[str, Any] = {
        "database": "postgresql" if db.startswith("postgres") else "sqlite",
        "servers": servers,
        "tables": tables,
        "humans": humans * tables,
        "think_ms": think_ms,
        "actions": len(timings.ack),
        **used,
        # the servers' CPU time per action, which other work on the machine barely moves
        "server_cpu_ms_per_action": round(used["server_cpu_s"] * 1000 / len(timings.ack), 2),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
        **percentiles("ack_ms", timings.ack, 50, 95, 99),
    }
    for name, delays in (("across", timings.across), ("beside", timings.beside)):
        if delays:  # (no seat is across on one server, none beside with two partners)
            report[f"cards_{name}"] = len(delays)
            report.update(percentiles(f"{name}_ms", delays, 50, 95, 99))
    return report


async def _tables(
    game_name: str, bases: list[str], pids: list[int], tables: int, held: tuple[int, ...],
    think_ms: float,
) -> tuple[Timings, dict[str, float]]:  # fmt: skip
    """Seat every table, then play them all at once; return the timings, and the seconds
    the play took with the CPU seconds the servers and this process used meanwhile."""
    seated = await asyncio.gather(*(_seat_table(game_name, bases[0], seed, held)
                                    for seed in range(tables)))  # fmt: skip
    timings = Timings()
    start, own, cpu = time.perf_counter(), time.process_time(), [_cpu_s(p)[0] for p in pids]
    plays = [_table(bases, game_id, tokens, timings, think_ms, seed)
             for seed, (game_id, tokens) in enumerate(seated)]  # fmt: skip
    await asyncio.wait_for(asyncio.gather(*plays), DEAL_TIMEOUT_S)
    return timings, {
        "seconds": round(time.perf_counter() - start, 1),
        "server_cpu_s": round(sum(_cpu_s(p)[0] for p in pids) - sum(cpu), 1),
        "bench_cpu_s": round(time.process_time() - own, 1),  # the load generator's, beside
    }


async def _seat_table(game_name: str, base: str, seed: int, held: tuple[int, ...]
                      ) -> tuple[str, dict[int, str]]:  # fmt: skip
    """Start a table's deal and take its held seats; return its id and their tokens."""
    import httpx

    # each table's creator from its own address, as behind a proxy (the rates are per client)
    forwarded = {"X-Forwarded-For": _address(seed + 1)}
    async with httpx.AsyncClient(base_url=f"http://{base}", headers=forwarded,
                                 timeout=60) as http:  # fmt: skip
        made = (await http.post("/api/games", json={"game": game_name, "level": "random",
                                                    "seed": seed})).json()  # fmt: skip
        game_id = made["id"]
        tokens = {0: made["token"]}
        creator = {"Authorization": f"Bearer {made['token']}"}
        for seat in held[1:]:
            opened = await http.post(f"/api/games/{game_id}/seats/{seat}/invitation",
                                     headers=creator)  # fmt: skip
            taken = await http.post(f"/api/games/{game_id}/seats/{seat}",
                                    json={"secret": opened.json()["secret"]})  # fmt: skip
            tokens[seat] = taken.json()["token"]
    return game_id, tokens


async def _table(bases: list[str], game_id: str, tokens: dict[int, str], timings: Timings,
                 think_ms: float, seed: int) -> None:  # fmt: skip
    """Play one table's deal, each held seat on its own connection to its own server."""
    from websockets.asyncio.client import connect

    server = {seat: i % len(bases) for i, seat in enumerate(tokens)}
    sent: dict[tuple[int, str], float] = {}  # (seat, action) -> when it was sent
    path = f"/api/games/{game_id}/live"
    conns = {seat: await connect(f"ws://{bases[server[seat]]}{path}") for seat in tokens}
    ready = asyncio.Barrier(len(tokens))
    try:
        await asyncio.gather(*(
            _seat(conns[s], s, tokens[s], server, sent, timings, think_ms,
                  random.Random(seed * 4 + s), ready) for s in tokens))  # fmt: skip
    finally:
        for ws in conns.values():
            await ws.close()


async def _seat(
    ws: Any, seat: int, token: str, server: dict[int, int], sent: dict[tuple[int, str], float],
    timings: Timings, think_ms: float, rng: random.Random, ready: asyncio.Barrier,
) -> None:  # fmt: skip
    """Play a seat to the deal's end, timing its answers and the others' cards."""
    await ws.send(json.dumps({"type": "hello", "token": token}))
    first = await ws.recv()
    # nobody acts before every seat has its first state: a card played earlier would be in
    # a seat's state, not in an update it could time
    await ready.wait()
    acted = -1
    pending: dict[str, float] = {}  # action id -> when it was sent
    acting: set[asyncio.Task[None]] = set()  # (held until done: the loop keeps weak ones)
    while True:
        message = json.loads(first or await ws.recv())
        first = ""
        arrived = time.perf_counter()
        if message["type"] == "answer":
            assert message["ok"], message
            timings.ack.append((arrived - pending.pop(message["id"])) * 1000)
            continue
        if message["type"] not in ("state", "update"):
            continue
        for event in message.get("events", ()):
            for change in event["changes"]:
                key = (change.get("seat", -1), change.get("card", ""))
                if change["type"] != "play" or key[0] == seat or key not in sent:
                    continue
                delays = timings.across if server[key[0]] != server[seat] else timings.beside
                delays.append((arrived - sent[key]) * 1000)
        view = message["view"]
        if view["over"]:
            while pending:  # the last action's answer may come after the deal's end
                answer = json.loads(await ws.recv())
                if answer["type"] == "answer":
                    arrived = time.perf_counter()
                    timings.ack.append((arrived - pending.pop(answer["id"])) * 1000)
            return
        if view["to_move"] == seat and message["version"] > acted:
            acted = message["version"]
            pause = think_ms * (0.5 + rng.random()) / 1000 if think_ms else 0.0
            task = asyncio.create_task(_act(ws, seat, view["legal"][0], acted, pause, sent,
                                            pending))  # fmt: skip
            acting.add(task)
            task.add_done_callback(acting.discard)


async def _act(ws: Any, seat: int, action: str, version: int, pause: float,
               sent: dict[tuple[int, str], float], pending: dict[str, float]) -> None:  # fmt: skip
    """Send an action after a pause (the seat's reading goes on meanwhile, so that the
    others' cards are timed when they arrive)."""
    await asyncio.sleep(pause)
    now = time.perf_counter()
    sent[(seat, action)] = pending[f"v{version}"] = now
    await ws.send(json.dumps({"type": "act", "id": f"v{version}", "action": action,
                              "version": version}))  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
