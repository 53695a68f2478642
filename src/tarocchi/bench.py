"""Speed benchmarks: random legal playouts through the public rules API, and bot decisions."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tarocchi.bots import LEVELS, make_bot
from tarocchi.bots.search import warm_up
from tarocchi.games import game


def random_action(mask: int, rng: random.Random) -> int:
    """Return a uniformly random set bit of a non-empty mask (a random legal action)."""
    for _ in range(int(rng.random() * mask.bit_count())):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def playouts_per_second(game_name: str, seconds: float) -> tuple[float, int]:
    """Play random legal deals from seed to result for about `seconds`; return (rate, deals).

    Each deal goes through the public rules API: deal, legal_mask (the legal actions as a
    mask), apply and result."""
    rules = game(game_name)
    deal, legal_mask, apply, result = rules.deal, rules.legal_mask, rules.apply, rules.result
    n = 0
    rng = random.Random(0)  # one stream for every choice: the harness costs little
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for seed in range(n, n + 50):
            state = deal(seed)
            while state.to_move is not None:
                state = apply(state, random_action(legal_mask(state), rng))
            result(state)
        n += 50
    return n / (time.perf_counter() - start), n


def bot_decision_ms(
    game_name: str, bot: str, seconds: float, sample: float = 1.0
) -> dict[str, float]:
    """Time a bot's decisions over seeded deals for about `seconds`; return p50/p95 in ms.

    With sample 1 the bot plays all four seats of whole deals. A slow bot is timed on a
    random share `sample` of the decisions of deals the heuristic bot plays, so that its
    few timed decisions still spread over every stage of the deal (the first tricks,
    with the most cards out, cost a search the most). Search bots also report their
    playouts per second of thinking."""
    rules = game(game_name)
    bots = [make_bot(bot, rules, seed) for seed in range(4)]
    movers = bots if sample >= 1 else [make_bot("heuristic", rules, s) for s in range(4)]
    pick = random.Random(1)
    times: list[float] = []
    playouts = 0
    busy = 0.0  # seconds spent in decisions that ran playouts
    deadline = time.perf_counter() + seconds
    seed = 0
    while time.perf_counter() < deadline or len(times) < 2:
        state = rules.deal(10_000 + seed)
        while state.to_move is not None:
            v = rules.view(state, state.to_move)
            if sample >= 1 or pick.random() < sample:
                t = time.perf_counter()
                action = bots[state.to_move].choose(v)
                dt = time.perf_counter() - t
                times.append(dt * 1000)
                done = getattr(bots[state.to_move], "last_playouts", 0)
                if done:
                    playouts += done
                    busy += dt
            if sample < 1:
                action = movers[state.to_move].choose(v)
            state = rules.apply(state, action)
        seed += 1
    q = statistics.quantiles(times, n=100)
    out = {"p50": round(q[49], 3), "p95": round(q[94], 3), "decisions": len(times)}
    if busy:
        out["playouts_per_s"] = round(playouts / busy)
    return out


def percentiles(name: str, xs: list[float], *ps: int) -> dict[str, float]:
    """Return {name_pP: the P-th percentile of xs} for each P, rounded to 2 places."""
    q = statistics.quantiles(xs, n=100)
    return {f"{name}_p{p}": round(q[p - 1], 2) for p in ps}


def review_seconds(game_name: str, deals: int) -> dict[str, float]:
    """Review South's play in `deals` seeded deals the heuristic bots play, the AI in South's
    seat the hard level; return the p50/p95 of a whole review's time on one core (the
    process's CPU time: a shared machine's other work does not count) and of its first
    decision's, and the p95 of the wall-clock time; and the p50/p95 of a hint's time at each
    of South's decisions in the first three deals (the same valuation, without the review's
    hindsight). The compiled playouts are loaded first, as a server's workers have them."""
    from tarocchi.bots.hints import suggest
    from tarocchi.match import play_deal
    from tarocchi.record import make_record
    from tarocchi.review import plan, review
    from tarocchi.views import view

    warm_up(game(game_name))
    whole: list[float] = []
    first: list[float] = []
    wall: list[float] = []
    stamps: list[float] = []  # when each decision's values came
    hints: list[float] = []
    for i in range(deals):
        record = make_record(play_deal(game_name, 30_000 + i, ["heuristic"] * 4))
        stamps.clear()
        cpu, start = time.process_time(), time.perf_counter()
        review(record, 0, "hard", lambda *_: stamps.append(time.process_time()))
        whole.append(time.process_time() - cpu)
        wall.append(time.perf_counter() - start)
        first.append(stamps[0] - cpu)
        if i < 3:
            p = plan(record, 0, "heuristic")
            for at in p.mine:
                cpu = time.process_time()
                suggest(view(p.states[at], 0))
                hints.append(time.process_time() - cpu)
    # statistics.quantiles needs two points: one deal stands for every percentile
    return {
        **percentiles("hint_s", hints * 2, 50, 95),
        **percentiles("review_s", whole * 2, 50, 95),
        **percentiles("review_first_s", first * 2, 50, 95),
        **percentiles("review_wall_s", wall * 2, 95),
        "review_deals": deals,
    }


def run(
    game_name: str, seconds: float = 3.0, ai_seconds: float = 20.0, review_deals: int = 10
) -> dict[str, Any]:
    """Return the benchmark report of a game (docs/architecture.md)."""
    # best of three runs: this kind of machine's speed drifts by tens of percent
    rates = [playouts_per_second(game_name, seconds / 3)[0] for _ in range(3)]
    heuristic = bot_decision_ms(game_name, "heuristic", seconds)
    report: dict[str, Any] = {
        "game": game_name,
        "playouts_per_s": round(max(rates)),
        "playouts_per_s_runs": [round(r) for r in rates],
        "heuristic_ms_p50": heuristic["p50"],
        "heuristic_ms_p95": heuristic["p95"],
    }
    # the levels offered to players (issue 6): decision times, and the search's speed
    levels: dict[str, dict[str, float]] = {}
    for level in ("easy", "normal", "hard"):
        slow = level != "easy"
        timing = bot_decision_ms(
            game_name, LEVELS[level], ai_seconds if slow else seconds, 0.25 if slow else 1.0
        )
        levels[level] = {
            "ai_ms_p50": timing["p50"],
            "ai_ms_p95": timing["p95"],
            "decisions": timing["decisions"],
        }
        if "playouts_per_s" in timing:
            levels[level]["search_playouts_per_s"] = timing["playouts_per_s"]
    report["levels"] = levels
    report["ai_ms_p50"] = levels["normal"]["ai_ms_p50"]  # the default level
    report["ai_ms_p95"] = levels["normal"]["ai_ms_p95"]
    report["search_playouts_per_s"] = levels["normal"].get("search_playouts_per_s", 0)
    if review_deals:
        report.update(review_seconds(game_name, review_deals))
    report["python"] = platform.python_version()
    report["machine"] = platform.machine()
    return report


def _rss_kb(pid: int) -> int:
    """Return the resident memory of a process in KB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _cpu_s(pid: int) -> tuple[float, float]:
    """Return the CPU seconds a process has used, and those its live children have (Linux)."""

    def used(stat: list[str]) -> float:
        return (int(stat[13]) + int(stat[14])) / os.sysconf("SC_CLK_TCK")

    def stat_of(path: Path) -> list[str] | None:
        try:  # the fields after the command's name, which may hold spaces
            return [""] * 2 + path.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            return None

    own = stat_of(Path(f"/proc/{pid}/stat"))
    children = 0.0
    for path in Path("/proc").glob("[0-9]*/stat"):
        stat = stat_of(path)
        if stat is not None and stat[3] == str(pid):
            children += used(stat)
    return (used(own) if own else 0.0), children


def web_load(
    game_name: str,
    db: str,
    usage: Callable[[], tuple[int, int]],
    clients: int = 50,
    idle_games: int = 1000,
    think_ms: float = 300.0,
    servers: int = 1,
    flood: bool = False,
    reviews: int = 0,
) -> dict[str, Any]:
    """Run `clients` scripted players through full deals against `servers` real
    `tarocchi serve` processes over loopback on one database (a SQLite file or a
    postgresql:// URL, at the current schema), player i on server i mod `servers` as behind
    a load balancer, each pausing about think_ms before a move as a quick human would (0:
    no pause, a stress test); return request latency without AI thinking, throughput,
    memory per active game and the database's size per game (`usage` tells the database's
    games and bytes, once it has given back the space old row versions took). With flood,
    the deals are played twice, the second time beside one client flooding the AI of the
    first server (see `_flooded`). With reviews, K reviews of finished deals are kept asked
    for while the players play (see `_Reviews`).
    Each player comes from its own address (X-Forwarded-For, which the server trusts
    from loopback, as behind a proxy), as the server shares the AI by address."""
    procs = [_start_server(db) for _ in range(servers)]
    # the load generator's own full collections (of its imports: the rules, the bots) would
    # pause it while it times the answers: its objects so far are out of the collector's sight
    gc.collect()
    gc.freeze()
    try:
        if flood:
            report = _flooded(procs, usage, game_name, clients, think_ms)
        else:
            report = asyncio.run(
                _load(procs, usage, game_name, clients, idle_games, think_ms, reviews=reviews)
            )
    finally:
        for proc, _ in procs:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)
    return {"database": "postgresql" if db.startswith("postgres") else "sqlite", **report}


def _start_server(db: str) -> tuple[subprocess.Popen[bytes], int]:
    """Start `tarocchi serve` on a free port; return the process and the port once it
    answers."""
    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(port), "--db", db,
         "--server-timing"],  # the AI's share, to tell the server's own time from it
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=1)
            return proc, port
        except httpx.HTTPError:
            time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    raise RuntimeError("the server did not start")


class _Connection:
    """One player's keep-alive HTTP/1.1 connection on asyncio streams: a load generator
    that costs the machine far less than a general client, so the figures are the
    server's, not the client's (both share this machine's cores)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[Any, Any] | None = None

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        client: int = 0,
    ) -> tuple[int, dict[str, str], Any]:
        """Send one request from client number `client` (its own address); return its
        status, headers (lower-case names) and JSON body."""
        if self.streams is None:
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        data = b"" if body is None else json.dumps(body).encode()
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        address = f"X-Forwarded-For: {_address(client)}\r\n"
        writer.write(
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n{auth}{address}\r\n".encode()
            + data
        )
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        headers = dict(
            (name.strip().lower(), value.strip())
            for name, value in (line.split(":", 1) for line in head[1:] if line)
        )
        payload = await reader.readexactly(int(headers["content-length"]))
        return int(head[0].split()[1]), headers, json.loads(payload)

    def close(self) -> None:
        """Close the connection."""
        if self.streams is not None:
            self.streams[1].close()


def _address(client: int) -> str:
    """Return the address of client number `client` (in 10.0.0.0/8)."""
    return f"10.{client >> 16 & 255}.{client >> 8 & 255}.{client & 255}"


FLOODER = 0xFFFFFF  # the flooding client's number
FLOOD_AT_ONCE = 8  # requests the flooder keeps in flight


async def _flood(port: int, game_name: str, seen: dict[str, int]) -> None:
    """Flood the AI from one client until cancelled: hard-level games and their hints,
    FLOOD_AT_ONCE requests at a time, each sent again as soon as it is answered, whatever
    the answer (a 429's Retry-After ignored); count the answers by status in `seen`."""

    async def hammer(c: _Connection, game_id: str, token: str) -> None:
        while True:
            status, _, _ = await c.request("GET", f"/api/games/{game_id}/hint", token=token,
                                           client=FLOODER)  # fmt: skip
            seen[str(status)] = seen.get(str(status), 0) + 1
            if status == 429:  # new games too, as fast as the rate lets them through
                body = {"game": game_name, "level": "hard"}
                status, _, _ = await c.request("POST", "/api/games", body, client=FLOODER)
                seen[str(status)] = seen.get(str(status), 0) + 1
            await asyncio.sleep(0.005)  # no more: the load generator shares the cores

    conns = [_Connection(port) for _ in range(FLOOD_AT_ONCE)]
    first = {"game": game_name, "level": "hard"}
    _, _, data = await conns[0].request("POST", "/api/games", first, client=FLOODER)
    try:
        await asyncio.gather(*(hammer(c, data["id"], data["token"]) for c in conns))
    finally:
        for c in conns:
            c.close()


def _flooded(
    servers: list[tuple[subprocess.Popen[bytes], int]],
    usage: Callable[[], tuple[int, int]],
    game_name: str,
    clients: int,
    think_ms: float,
) -> dict[str, Any]:
    """Run the same players' deals twice on the servers, without the flood and then with it
    (the same conditions, so the flood's own cost shows); return the flooded run's figures
    with the other's under "without_flood"."""
    calm = asyncio.run(_load(servers, usage, game_name, clients, 1, think_ms))
    flooded = asyncio.run(_load(servers, usage, game_name, clients, 1, think_ms, flood=True))
    per_open_game = ("memory_kb_per_active_game", "db_bytes_per_open_game")
    for key in (*per_open_game, "clients", "servers", "think_ms"):
        del calm[key]
    for key in per_open_game:  # (one idle game: no figure)
        del flooded[key]
    return {**flooded, "without_flood": calm}


class _Flooder:
    """`_flood` run in a process of its own, so that its requests take their own core time
    and the players' timings stay the server's (not the load generator's)."""

    def __init__(self, port: int, game_name: str) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self.stop = ctx.Event()
        self.results: Any = ctx.Queue()
        self.process = ctx.Process(
            target=_flood_main, args=(port, game_name, self.stop, self.results), daemon=True
        )
        self.process.start()
        self.results.get(timeout=120)  # flooding: the players may come

    def finish(self) -> dict[str, int]:
        """Stop the flood; return its answers by status."""
        self.stop.set()
        seen: dict[str, int] = self.results.get(timeout=30)
        self.process.join(timeout=30)
        return seen


def _flood_main(port: int, game_name: str, stop: Any, results: Any) -> None:
    """Flood until stop is set, then put the answers' counts in results."""
    seen: dict[str, int] = {}

    async def main() -> None:
        flooding = asyncio.create_task(_flood(port, game_name, seen))
        while not seen:
            await asyncio.sleep(0.01)
        results.put("flooding")
        while not stop.is_set():
            await asyncio.sleep(0.05)
        flooding.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await flooding

    asyncio.run(main())
    results.put(seen)


REVIEW_DEALS = 10  # deals finished beforehand per review kept running (more than a run uses)


class _Reviews:
    """Reviews kept running beside the players: deals finished beforehand (the random level,
    as fast as the servers answer), whose reviews are asked for `running` at a time, the next
    one as soon as one is done. Its requests are not in the players' figures."""

    POLL_S = 1.0

    def __init__(self, servers: list[tuple[subprocess.Popen[bytes], int]], running: int) -> None:
        self.ports = [port for _, port in servers]
        self.running = running
        self.deals: list[tuple[int, str, str]] = []  # port, game URL, token
        self.done = 0  # reviews finished while the players played
        self.valued = 0  # decisions valued meanwhile

    async def prepare(self, game_name: str, count: int) -> None:
        """Finish `count` deals to review (spread over the servers)."""
        for i in range(count):
            port = self.ports[i % len(self.ports)]
            body = {"game": game_name, "seed": 90_000 + i, "level": "random"}
            data = await self.ask(port, "POST", "/api/games", body=body)
            token, url = data["token"], f"/api/games/{data['id']}"
            version, v = data["version"], data["view"]
            while not v["over"]:
                move = {"action": v["legal"][0], "version": version}
                data = await self.ask(port, "POST", f"{url}/actions", move, token)
                version, v = data["version"], data["view"]
            self.deals.append((port, url, token))

    @staticmethod
    async def ask(port: int, method: str, path: str, body: Any = None, token: str = "") -> Any:
        """Send one request on a connection of its own (the server closes idle ones); return
        its JSON answer (RuntimeError for an error)."""
        c = _Connection(port)
        try:
            status, _, data = await c.request(method, path, body, token or None, 90_000)
        finally:
            c.close()
        if status >= 400:
            raise RuntimeError(f"{method} {path}: {status} {data}")
        return data

    async def keep_running(self) -> None:
        """Ask for reviews, `running` at a time, until cancelled or none is left."""
        queue = list(self.deals)
        busy: list[tuple[int, str, str, int]] = []
        while queue or busy:
            while queue and len(busy) < self.running:
                port, url, token = queue.pop(0)
                await self.ask(port, "POST", f"{url}/review", token=token)
                busy.append((port, url, token, 0))
            await asyncio.sleep(self.POLL_S)
            still = []
            for port, url, token, seen in busy:
                body = await self.ask(port, "GET", f"{url}/review", token=token)
                self.valued += body["done"] - seen
                if body["status"] in ("done", "failed"):
                    self.done += body["status"] == "done"
                else:
                    still.append((port, url, token, body["done"]))
            busy = still


async def _memory_per_open_game(
    server: tuple[subprocess.Popen[bytes], int], game_name: str, idle_games: int
) -> float:
    """Return the server's resident memory growth per game left in the middle of a deal."""
    before = _rss_kb(server[0].pid)
    idle = _Connection(server[1])
    for i in range(idle_games):
        # the AI's first moves by the heuristic: an open game's memory is the same at any
        # level, and a thousand searches would take minutes
        body = {"game": game_name, "seed": 10_000 + i, "level": "easy"}
        await idle.request("POST", "/api/games", body=body, client=10_000 + i)
    idle.close()
    return round((_rss_kb(server[0].pid) - before) / idle_games, 1)


def _cpu_since(
    servers: list[tuple[subprocess.Popen[bytes], int]], before: list[tuple[float, float]]
) -> tuple[float, float]:
    """Return the CPU seconds the server processes spent since before, and their AI workers."""
    used = [_cpu_s(proc.pid) for proc, _ in servers]
    serving = sum(a[0] - b[0] for b, a in zip(before, used, strict=True))
    thinking = sum(a[1] - b[1] for b, a in zip(before, used, strict=True))
    return serving, thinking


class _Players:
    """The scripted players' requests and their timings (ms): each request's latency without
    the AI's thinking, with it, and the server's own time without it."""

    def __init__(self, servers: list[tuple[subprocess.Popen[bytes], int]], game_name: str):
        self.ports = [port for _, port in servers]
        self.game_name = game_name
        self.lat: list[float] = []
        self.total: list[float] = []
        self.server: list[float] = []

    def clear(self) -> None:
        """Forget the timings so far (the warm-up's)."""
        for kept in (self.lat, self.total, self.server):
            kept.clear()

    async def request(self, c: _Connection, method: str, url: str, **kw: Any) -> Any:
        """Send one request and time it (RuntimeError for an error); return its JSON."""
        t = time.perf_counter()
        status, headers, data = await c.request(method, url, **kw)
        ms = (time.perf_counter() - t) * 1000
        if status >= 400:
            raise RuntimeError(f"{method} {url}: {status} {data}")
        timing = dict(part.strip().split(";dur=") for part in headers["server-timing"].split(","))
        ai = float(timing.get("ai", 0.0))
        self.lat.append(ms - ai)
        self.total.append(ms)
        self.server.append(float(timing["app"]) - ai)
        return data

    async def play(self, seed: int, think: float) -> None:
        """Play one deal as the play page does: create it, read it once, post each move."""
        rng = random.Random(seed)
        c = _Connection(self.ports[seed % len(self.ports)])
        await asyncio.sleep(think * rng.random() * 6 / 1000)  # players arrive over a moment
        body = {"game": self.game_name, "seed": seed}
        data = await self.request(c, "POST", "/api/games", body=body, client=seed)
        token = data["token"]
        url = f"/api/games/{data['id']}"
        await self.request(c, "GET", url, token=token, client=seed)
        version, v = data["version"], data["view"]
        while not v["over"]:
            await asyncio.sleep(think * (0.5 + rng.random()) / 1000)
            move = {"action": v["legal"][0], "version": version}
            body = await self.request(c, "POST", f"{url}/actions", body=move, token=token,
                                      client=seed)  # fmt: skip
            version, v = body["version"], body["view"]
        c.close()


async def _load(
    servers: list[tuple[subprocess.Popen[bytes], int]],
    usage: Callable[[], tuple[int, int]],
    game_name: str,
    clients: int,
    idle_games: int,
    think_ms: float,
    flood: bool = False,
    reviews: int = 0,
) -> dict[str, Any]:
    players = _Players(servers, game_name)
    for i in range(len(servers)):  # warm up the servers and their AI workers
        await players.play(i, 0.0)
    players.clear()
    reviewing = _Reviews(servers, reviews)
    await reviewing.prepare(game_name, reviews * REVIEW_DEALS)
    cpu = [_cpu_s(proc.pid) for proc, _ in servers]
    start = time.perf_counter()
    flooder = _Flooder(servers[0][1], game_name) if flood else None
    beside = asyncio.create_task(reviewing.keep_running())
    await asyncio.gather(*(players.play(1 + i, think_ms) for i in range(clients)))
    elapsed = time.perf_counter() - start
    if beside.done():  # every review asked for is done (or the reviews failed: say so)
        beside.result()
    beside.cancel()
    load_average = [round(x, 2) for x in os.getloadavg()]  # how busy the machine was meanwhile
    seen = flooder.finish() if flooder is not None else {}
    serving, thinking = _cpu_since(servers, cpu)
    played, played_bytes = usage()
    memory_kb = await _memory_per_open_game(servers[0], game_name, idle_games)
    idle_bytes = usage()[1] - played_bytes
    report: dict[str, Any] = {
        "clients": clients,
        "servers": len(servers),
        "think_ms": think_ms,
        "requests": len(players.lat),
        "seconds": round(elapsed, 2),
        "requests_per_s": round(len(players.lat) / elapsed, 1),
        "deals_per_s": round(clients / elapsed, 3),
        "load_average": load_average,
        "cpus": os.cpu_count(),
        "server_cpu_s": round(serving, 1),
        "ai_cpu_s": round(thinking, 1),
        **percentiles("latency_ms", players.lat, 50, 99),  # per request, AI thinking excluded
        **percentiles("server_ms", players.server, 50, 99),  # the server's own, AI excluded
        **percentiles("with_ai_ms", players.total, 50, 95, 99),
        "memory_kb_per_active_game": memory_kb,
        # the database's bytes per finished deal (with the few it holds unfinished) and per
        # deal left open after the AI's first moves
        "db_bytes_per_finished_game": round(played_bytes / played),
        "db_bytes_per_open_game": round(idle_bytes / idle_games),
    }
    if flood:
        report["flood_answers"] = seen  # the flooder's requests, by status
    if reviews:  # kept asked for meanwhile: how many finished, how many decisions valued
        report.update(reviews=reviews, reviews_done=reviewing.done,
                      review_decisions_valued=reviewing.valued)  # fmt: skip
    return report
