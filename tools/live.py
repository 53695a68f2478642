"""The live tables' benchmark: how soon a partner on another server process sees a card.

`python -m tools.live GAME --tables N --servers 2 --db postgresql://...` starts the servers on
one database, and at each table seats South on the first process and North on the second
(the AI, at the random level, in East and West), both playing their first legal card as
soon as it is their turn, every table at once, each deal to its end. Each human card is
timed from the moment its action is sent to the moment the partner's connection, on the
other process, receives the update showing it: the change goes through the database's
notice to the other process, which reads the committed game and builds that seat's view.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from typing import Any

from tarocchi.bench import percentiles
from tools.load import _address, _start_server, command, database, show

SOUTH, NORTH = 0, 2
DEAL_TIMEOUT_S = 300.0


def main(argv: list[str] | None = None) -> int:
    """Run the live tables' bench with the command line's options; print its report."""
    parser = command("tools.live", __doc__, servers=2)
    parser.add_argument("--tables", type=int, default=10, help="tables played at once")
    args = parser.parse_args(argv)
    with database(args.db) as (db, _):
        report = live_latency(args.game, db, args.tables, args.servers)
    return show(args.game, report, args.json)


def live_latency(game_name: str, db: str, tables: int = 10, servers: int = 2) -> dict[str, Any]:
    """Play `tables` deals of two partners on `servers` processes (South on the first,
    North on the last) over one database at the current schema; return the partner's
    delay in ms (p50, p95, p99) over every human card, with the counts."""
    procs = [_start_server(db) for _ in range(servers)]
    try:
        bases = [f"127.0.0.1:{port}" for _, port in procs]
        delays = asyncio.run(_tables(game_name, bases, tables))
    finally:
        for proc, _ in procs:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)
    return {
        "database": "postgresql" if db.startswith("postgres") else "sqlite",
        "servers": servers,
        "tables": tables,
        "cards": len(delays),
        **percentiles("partner_ms", delays, 50, 95, 99),
    }


async def _tables(game_name: str, bases: list[str], tables: int) -> list[float]:
    delays: list[float] = []
    await asyncio.gather(*(_table(game_name, bases, seed, delays) for seed in range(tables)))
    return delays


async def _table(game_name: str, bases: list[str], seed: int, delays: list[float]) -> None:
    """Play one table's deal; add the partner's delay of each human card to delays."""
    import httpx
    from websockets.asyncio.client import connect

    # each table's creator from its own address, as behind a proxy (the rates are per client)
    forwarded = {"X-Forwarded-For": _address(seed + 1)}
    async with httpx.AsyncClient(base_url=f"http://{bases[0]}", headers=forwarded,
                                 timeout=60) as http:  # fmt: skip
        made = (await http.post("/api/games", json={"game": game_name, "level": "random",
                                                    "seed": seed})).json()  # fmt: skip
        game_id = made["id"]
        opened = await http.post(f"/api/games/{game_id}/seats/{NORTH}/invitation",
                                 headers={"Authorization": f"Bearer {made['token']}"})  # fmt: skip
        taken = await http.post(f"/api/games/{game_id}/seats/{NORTH}",
                                json={"secret": opened.json()["secret"]})  # fmt: skip
    tokens = {SOUTH: made["token"], NORTH: taken.json()["token"]}
    sent: dict[tuple[int, str], float] = {}  # (seat, card) -> when its action was sent
    path = f"/api/games/{game_id}/live"
    async with connect(f"ws://{bases[0]}{path}") as south, \
            connect(f"ws://{bases[-1]}{path}") as north:  # fmt: skip
        seats = {SOUTH: south, NORTH: north}
        await asyncio.wait_for(
            asyncio.gather(*(_seat(seats[s], s, tokens[s], sent, delays) for s in seats)),
            DEAL_TIMEOUT_S,
        )


async def _seat(
    ws: Any, seat: int, token: str, sent: dict[tuple[int, str], float], delays: list[float]
) -> None:
    """Play a seat to the deal's end, timing the partner's cards as they arrive."""
    partner = (seat + 2) % 4
    await ws.send(json.dumps({"type": "hello", "token": token}))
    acted = -1
    while True:
        message = json.loads(await ws.recv())
        arrived = time.perf_counter()
        if message["type"] not in ("state", "update"):
            continue
        for event in message.get("events", ()):
            for change in event["changes"]:
                key = (partner, change.get("card", ""))
                if change["type"] == "play" and change["seat"] == partner and key in sent:
                    delays.append((arrived - sent.pop(key)) * 1000)
        view = message["view"]
        if view["over"]:
            return
        if view["to_move"] == seat and message["version"] > acted:
            acted = message["version"]
            card = view["legal"][0]
            sent[(seat, card)] = time.perf_counter()
            act = {"type": "act", "id": f"v{acted}", "action": card, "version": acted}
            await ws.send(json.dumps(act))


if __name__ == "__main__":
    raise SystemExit(main())
