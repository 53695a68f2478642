"""The deal of the day's ranking under load: seed one day's scored tries (their margins and
their choices) into a database and time the results a player gets (rank, histogram, the
field's choices at each of their decisions), all of it computed by the database.

    python -m tools.daily_load [--db PATH|URL] [--tries 100000] [--requests 50]

Without --db it uses a new SQLite file in a temporary folder; a postgresql:// URL must name
an empty database. Prints JSON: the seeding time, and the results' time p50 and p95 in
milliseconds (wall time: the database's own work included).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from tarocchi.web.daily import results
from tarocchi.web.service import position
from tarocchi.web.store import GameRow, Store
from tarocchi.web.store.schema import daily_choices, daily_tries

GAME, DAY, AT = "piedicavallo", "2026-12-05", "2026-12-05T12:00:00+00:00"
DECISIONS = 15  # South's decisions in a deal of Piedicavallo
BATCH = 10_000
CHOICES = ("SW-K", "SW-Q", "CU-A", "T21", "MATTO")


def log_of(rng: random.Random) -> list[tuple[int, str]]:
    """Return a try's South decisions as a log: the field's paths split a little at each."""
    actions: list[tuple[int, str]] = []
    for _ in range(DECISIONS):
        actions += [(1, "BA-2"), (0, rng.choice(CHOICES[: rng.randint(1, 3)]))]
    return actions


def seed(store: Store, tries: int, rng: random.Random) -> list[tuple[int, str]]:
    """Insert the day's scored, finished tries with their choices; return the last log."""
    actions: list[tuple[int, str]] = []
    for start in range(0, tries, BATCH):
        rows, picks = [], []
        for i in range(start, min(start + BATCH, tries)):
            actions = log_of(rng)
            rows.append({"game_id": f"g{i}", "game": GAME, "day": DAY, "player_id": f"p{i}",
                         "scored": True, "margin": float(rng.randint(-60, 60)),
                         "created_at": AT, "finished_at": AT})  # fmt: skip
            mine = [k for k, (seat, _) in enumerate(actions) if seat == 0]
            picks += [{"game_id": f"g{i}", "decision": d, "game": GAME, "day": DAY,
                       "position": position(actions[:k]), "action": actions[k][1]}
                      for d, k in enumerate(mine)]  # fmt: skip

        def work(conn: sa.Connection, r: list[Any] = rows, p: list[Any] = picks) -> None:
            conn.execute(daily_tries.insert(), r)
            conn.execute(daily_choices.insert(), p)

        store.atomic(work)
    return actions


def measure(db: str, tries: int, requests: int) -> dict[str, Any]:
    """Seed a database and time the results of one player, `requests` times."""
    rng = random.Random(34)
    with Store(db) as store:
        store.upgrade()
        began = time.perf_counter()
        actions = seed(store, tries, rng)
        seeded = time.perf_counter() - began
        row = GameRow(f"g{tries - 1}", "h", GAME, 1, "normal", tuple(actions), len(actions),
                      True, AT, daily=json.dumps({"date": DAY, "scored": True}))  # fmt: skip
        store.create(row)
        times = []
        for _ in range(requests):
            began = time.perf_counter()
            got = results(store, row, 0.0)
            times.append((time.perf_counter() - began) * 1000)
        assert got["tries"] == tries and len(got["decisions"]) == DECISIONS
        backend = store.url.get_backend_name()
    cuts = statistics.quantiles(times, n=20)
    return {"backend": backend, "tries": tries, "requests": requests,
            "seed_s": round(seeded, 1), "results_ms_p50": round(statistics.median(times), 1),
            "results_ms_p95": round(cuts[18], 1)}  # fmt: skip


def main() -> None:
    """Run the measurement from the command line."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", default=None, help="a SQLite file or a postgresql:// URL")
    p.add_argument("--tries", type=int, default=100_000)
    p.add_argument("--requests", type=int, default=50)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "daily.sqlite3")
        print(json.dumps(measure(db, args.tries, args.requests)))


if __name__ == "__main__":
    main()
