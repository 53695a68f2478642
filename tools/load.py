"""The web app under load: scripted players against real `tarocchi serve` processes.

Run from a checkout (it needs the web and test extras: httpx to see that a server answers):

    .venv/bin/python -m tools.load GAME [--clients 50] [--servers K] [--db URL]
        [--think-ms MS] [--flood] [--reviews K] [--json]

The players play full deals over loopback as the play page does, each from an address of
its own (X-Forwarded-For, which the server trusts from loopback, as behind a proxy); the
report gives request latency without the AI's thinking, throughput, the servers' CPU time
(read from /proc), memory per active game and the database's size per game. With --flood,
the deals are played again beside one client flooding the AI; with --reviews K, K reviews of
finished deals are kept asked for while the players play (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tarocchi.bench import percentiles
from tarocchi.games import GAMES
from tarocchi.web.store import Store


def command(prog: str, doc: str | None, servers: int) -> argparse.ArgumentParser:
    """Return a server bench's command line: the game, the servers, their database, --json."""
    parser = argparse.ArgumentParser(prog=f"python -m {prog}", description=(doc or "").split(
        "\n")[0])  # fmt: skip
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--servers", type=int, default=servers,
                        help="`tarocchi serve` processes")  # fmt: skip
    parser.add_argument("--db", default=None,
                        help="the servers' database (default: a new SQLite file); a "
                        "postgresql:// URL of an empty database")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


@contextlib.contextmanager
def database(db: str | None) -> Iterator[tuple[str, Store]]:
    """Yield a bench's database (a new SQLite file unless given) at the current schema, on
    which the servers start, with its store."""
    with tempfile.TemporaryDirectory() as tmp:
        url = db or str(Path(tmp) / "bench.sqlite3")
        with Store(url) as store:
            store.upgrade()
            yield url, store


def show(game: str, report: dict[str, Any], as_json: bool) -> int:
    """Print a bench's report, as JSON or a line a field; return the exit status."""
    report = {"game": game, **report}
    print(json.dumps(report) if as_json else "\n".join(f"{k}: {v}" for k, v in report.items()))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the load bench with the command line's options; print its report."""
    parser = command("tools.load", __doc__, servers=1)
    parser.add_argument("--clients", type=int, default=50, help="scripted web players")
    parser.add_argument("--think-ms", type=float, default=300.0,
                        help="the players' pause before each move (0: as fast as the servers "
                        "answer)")  # fmt: skip
    parser.add_argument("--reviews", type=int, default=0, metavar="K",
                        help="keep K reviews of finished deals asked for while the players "
                        "play")  # fmt: skip
    parser.add_argument("--flood", action="store_true",
                        help="the players' deals again with one more client flooding the AI "
                        "(hard-level games and hints); the memory figure is left out")  # fmt: skip
    args = parser.parse_args(argv)
    with database(args.db) as (db, store):
        report = web_load(args.game, db, store.usage, args.clients, think_ms=args.think_ms,
                          servers=args.servers, flood=args.flood,
                          reviews=args.reviews)  # fmt: skip
    return show(args.game, report, args.json)


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


if __name__ == "__main__":
    sys.exit(main())
