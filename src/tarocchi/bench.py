"""Speed benchmarks: random legal playouts through the public rules API, and bot decisions."""

from __future__ import annotations

import platform
import random
import statistics
import time
from pathlib import Path
from typing import Any

from tarocchi.bots import make_bot
from tarocchi.games import game


def playouts_per_second(game_name: str, seconds: float) -> tuple[float, int]:
    """Play random legal deals from seed to result for about `seconds`; return (rate, deals)."""
    rules = game(game_name)
    deal, legal_actions, apply, result = rules.deal, rules.legal_actions, rules.apply, rules.result
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for seed in range(n, n + 50):
            state = deal(seed)
            rng = random.Random(seed)
            while state.to_move is not None:
                state = apply(state, rng.choice(legal_actions(state)))
            result(state)
        n += 50
    return n / (time.perf_counter() - start), n


def bot_decision_ms(game_name: str, bot: str, seconds: float) -> dict[str, float]:
    """Time a bot's decisions over seeded deals (all four seats the bot); return p50/p95 in ms."""
    rules = game(game_name)
    bots = [make_bot(bot, rules, seed) for seed in range(4)]
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    seed = 0
    while time.perf_counter() < deadline or not times:
        state = rules.deal(10_000 + seed)
        while state.to_move is not None:
            v = rules.view(state, state.to_move)
            t = time.perf_counter()
            action = bots[state.to_move].choose(v)
            times.append((time.perf_counter() - t) * 1000)
            state = rules.apply(state, action)
        seed += 1
    q = statistics.quantiles(times, n=100)
    return {"p50": round(q[49], 3), "p95": round(q[94], 3), "decisions": len(times)}


def run(game_name: str, seconds: float = 3.0) -> dict[str, Any]:
    """Return the benchmark report of a game (DESIGN.md's bench JSON)."""
    # best of three runs: this kind of machine's speed drifts by tens of percent
    rates = [playouts_per_second(game_name, seconds / 3)[0] for _ in range(3)]
    heuristic = bot_decision_ms(game_name, "heuristic", seconds)
    return {
        "game": game_name,
        "playouts_per_s": round(max(rates)),
        "playouts_per_s_runs": [round(r) for r in rates],
        "heuristic_ms_p50": heuristic["p50"],
        "heuristic_ms_p95": heuristic["p95"],
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def _rss_kb(pid: int) -> int:
    """Return the resident memory of a process in KB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def web_load(game_name: str, clients: int = 50, idle_games: int = 1000) -> dict[str, Any]:
    """Run `clients` scripted players through full deals against a real `tarocchi serve`
    over loopback; return request latency without AI thinking and memory per active game."""
    import asyncio
    import os
    import signal
    import socket
    import subprocess
    import sys
    import tempfile

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(port),
             "--db", str(Path(tmp) / "load.sqlite3")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        try:
            for _ in range(150):
                try:
                    httpx.get(f"{base}/openapi.json", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.2)
            return asyncio.run(_load(base, proc.pid, game_name, clients, idle_games))
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)


async def _load(
    base: str, pid: int, game_name: str, clients: int, idle_games: int
) -> dict[str, Any]:
    import asyncio

    import httpx

    lat: list[float] = []  # ms per request, AI thinking excluded
    total: list[float] = []

    async def request(c: httpx.AsyncClient, method: str, url: str, **kw: Any) -> Any:
        t = time.perf_counter()
        res = await c.request(method, url, **kw)
        ms = (time.perf_counter() - t) * 1000
        res.raise_for_status()
        timing = res.headers.get("server-timing", "ai;dur=0")
        ai = float(timing.split("dur=")[1])
        lat.append(ms - ai)
        total.append(ms)
        return res.json()

    async def player(c: httpx.AsyncClient, seed: int) -> None:
        data = await request(c, "POST", "/api/games", json={"game": game_name, "seed": seed})
        h = {"Authorization": f"Bearer {data['token']}"}
        url = f"/api/games/{data['id']}"
        version, v = data["version"], data["view"]
        while not v["over"]:
            await request(c, "GET", url, headers=h)
            body = await request(c, "POST", f"{url}/actions", headers=h,
                                 json={"action": v["legal"][0], "version": version})  # fmt: skip
            version, v = body["version"], body["view"]

    limits = httpx.Limits(max_connections=clients + 10)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as c:
        await player(c, 0)  # warm up the server and its AI workers
        lat.clear()
        total.clear()
        start = time.perf_counter()
        await asyncio.gather(*(player(c, 1 + i) for i in range(clients)))
        elapsed = time.perf_counter() - start
        before = _rss_kb(pid)
        for i in range(idle_games):  # games left in the middle of a deal
            await c.post("/api/games", json={"game": game_name, "seed": 10_000 + i})
        after = _rss_kb(pid)
    q = statistics.quantiles(lat, n=100)
    qt = statistics.quantiles(total, n=100)
    return {
        "clients": clients,
        "requests": len(lat),
        "seconds": round(elapsed, 2),
        "latency_ms_p50": round(q[49], 2),
        "latency_ms_p99": round(q[98], 2),
        "with_ai_ms_p50": round(qt[49], 2),
        "with_ai_ms_p99": round(qt[98], 2),
        "memory_kb_per_active_game": round((after - before) / idle_games, 1),
    }
