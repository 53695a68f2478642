"""The history page of a player with many deals: seed a database with one player's 10,000
finished deals (half of them reviewed, a few left) among other players' and anonymous
games, then time the server's answers to /history, /api/me/history and /api/me/stats.

    python -m tools.history_load [--deals 10000] [--db PATH_OR_URL ...] [--requests 50]

Each --db is a SQLite file or a postgresql:// URL of an empty database (default: a new
SQLite file in a temporary folder). The time is the app's own, as its Server-Timing
header tells it (the app measured in this process, no network), over the requests after
a first one; p50 and p95 in milliseconds, and the process's CPU time per request.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from tarocchi.web.app import create_app
from tarocchi.web.players import COOKIE
from tarocchi.web.store import Store, token_hash
from tarocchi.web.store.schema import games, reviews

PATHS = ("/history", "/api/me/history", "/api/me/stats", "/history?game=minchiate&page=3")
GAMES = ("piedicavallo", "ottocento", "minchiate")
LEVELS = ("easy", "normal", "hard")
SECRET = "x" * 43  # the measured player's device secret (a test database's)
BATCH = 2000


def deal_row(i: int, owner: str | None, rng: random.Random) -> dict[str, Any]:
    """Return the i-th seeded game: ended (one in 23 left), of a game, level and time."""
    stamp = f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:{i % 59:02d}+00:00"
    left = i % 23 == 0
    margin = None if left else float(rng.randint(-60, 60))
    m = margin or 0.0
    result = "left" if left else "win" if m > 0 else "loss" if m < 0 else "draw"
    return {"id": f"g{i:07d}{rng.getrandbits(32):08x}", "token_hash": "-", "game": GAMES[i % 3],
            "seed": i, "level": LEVELS[i // 3 % 3], "actions": "[]", "version": 0,
            "over": not left, "started_at": stamp, "updated_at": stamp, "seed_chosen": False,
            "player_id": owner, "finished_at": stamp, "margin": margin,
            "result": result}  # fmt: skip


def seed(db: str, deals: int, others: int, rng: random.Random) -> None:
    """Fill an empty database: the measured player's deals, another player's, anonymous
    games; every other ended deal reviewed."""
    with Store(db) as store:
        store.upgrade()
        store.players.create("measured", token_hash(SECRET), "2026-01-01T00:00:00+00:00")
        store.players.create("other", token_hash("y" * 43), "2026-01-01T00:00:00+00:00")
        owners = ["measured"] * deals + ["other"] * others + [None] * others
        rows = [deal_row(i, owner, rng) for i, owner in enumerate(owners)]
        rated = [
            {"game_id": r["id"], "status": "done", "pending": False, "done": 10,
             "created_at": r["finished_at"], "updated_at": r["finished_at"],
             "accuracy": rng.random(), "ai_margin": float(rng.randint(-60, 60))}
            for i, r in enumerate(rows) if r["over"] and i % 2
        ]  # fmt: skip
        for table, values in ((games, rows), (reviews, rated)):
            for start in range(0, len(values), BATCH):
                with store.engine.begin() as conn:
                    conn.execute(table.insert(), values[start : start + BATCH])
        if store.url.get_backend_name() == "postgresql":
            with store.engine.connect() as conn:
                conn.execute(sa.text("ANALYZE"))


def measure(db: str, requests: int) -> dict[str, Any]:
    """Time the history's answers on a seeded database."""
    out: dict[str, Any] = {}
    with TestClient(create_app(db, ai_workers=1, timing=True)) as client:
        client.cookies.set(COOKIE, SECRET)
        for path in PATHS:
            app_ms, cpu_ms = [], []
            for i in range(requests + 1):
                cpu = time.process_time()
                res = client.get(path)
                spent = (time.process_time() - cpu) * 1000
                assert res.status_code == 200, (path, res.status_code, res.text[:200])
                timing = re.search(r"app;dur=([\d.]+)", res.headers["server-timing"])
                assert timing is not None
                if i:  # the first request warms the caches (templates, catalogs)
                    app_ms.append(float(timing.group(1)))
                    cpu_ms.append(spent)
            out[path] = {
                "p50_ms": round(statistics.median(app_ms), 1),
                "p95_ms": round(statistics.quantiles(app_ms, n=20)[18], 1),
                "cpu_ms": round(statistics.mean(cpu_ms), 1),
            }
        total = client.get("/api/me/history").json()["total"]
        out["deals"] = total
    return out


def main() -> None:
    """Seed each database and print the timings as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--others", type=int, default=5_000,
                        help="deals of another player, and as many anonymous games")  # fmt: skip
    parser.add_argument("--db", action="append", default=None)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        report = {}
        for db in args.db or [str(Path(folder) / "history.sqlite3")]:
            seed(db, args.deals, args.others, random.Random(1))
            name = "postgresql" if db.startswith("postgres") else "sqlite"
            report[name] = measure(db, args.requests)
        print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
