"""The deal of the day's rows on both backends: one key for every process, one scored try
per player a day whatever the races, and the ranking, histogram and field's choices as the
database computes them."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
import sqlalchemy as sa

from tarocchi.web.store import GameRow, Store

T0 = "2026-12-05T10:00:00+00:00"
DAY = "2026-12-05"


def row(game_id: str) -> GameRow:
    return GameRow(game_id, "h", "piedicavallo", 7, "normal", (), 0, False, T0)


def finish(store: Store, game_id: str, margin: float, choices: list[tuple[str, str]]) -> None:
    def then(conn: sa.Connection) -> None:
        store.daily.finish(conn, game_id, margin, choices, T0)

    assert store.update(game_id, 0, ((0, "SW-K"),), True, T0, then=then)


def test_one_key_made_once_for_every_process(store: Store) -> None:
    others = [Store(store.url.render_as_string(hide_password=False)) for _ in range(4)]
    keys: list[bytes] = []
    barrier = threading.Barrier(len(others))

    def read(s: Store) -> None:
        barrier.wait()
        keys.append(s.daily.key(T0))

    threads = [threading.Thread(target=read, args=(s,)) for s in others]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in others:
        s.close()
    assert len(keys) == 4 and len(set(keys)) == 1 and len(keys[0]) == 32
    assert store.daily.key(T0) == keys[0]
    given = Store(store.url.render_as_string(hide_password=False), daily_key="the site's own key")
    assert given.daily.key(T0) == b"the site's own key"  # the site's, not the database's
    given.close()


def test_the_first_commitment_published_stays(store: Store) -> None:
    assert store.daily.publish("minchiate", DAY, "ab" * 32, T0) == "ab" * 32
    assert store.daily.publish("minchiate", DAY, "cd" * 32, T0) == "ab" * 32
    assert store.daily.publish("minchiate", "2026-12-06", "cd" * 32, T0) == "cd" * 32


def test_one_scored_try_per_player_a_day_under_races(store: Store) -> None:
    barrier = threading.Barrier(6)
    made: list[GameRow] = []

    def create(i: int) -> None:
        barrier.wait()
        made.append(store.create_daily(row(f"g{i}"), DAY, "p1"))

    threads = [threading.Thread(target=create, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    scored = [r for r in made if '"scored": true' in (r.daily or "")]
    assert len(made) == 6 and len(scored) == 1
    kept = store.get(scored[0].id)
    assert kept is not None and kept.daily == scored[0].daily
    other = store.create_daily(row("h"), DAY, "p2")  # another player's first try scores
    assert other.daily == '{"date": "2026-12-05", "scored": true}'
    tomorrow = store.create_daily(row("k"), "2026-12-06", "p1")  # and p1's the next day
    assert tomorrow.daily == '{"date": "2026-12-06", "scored": true}'
    mine = store.daily.scored("piedicavallo", DAY, "p1")
    assert mine is not None and mine.game_id == scored[0].id and mine.margin is None


def test_rank_histogram_and_field_in_the_database(store: Store) -> None:
    margins = [-30.0, -10.0, 0.0, 0.0, 12.0, 40.0]
    for i, m in enumerate(margins):
        store.create_daily(row(f"g{i}"), DAY, f"p{i}")
        finish(store, f"g{i}", m, [("pos0", "SW-K" if i % 3 else "CU-A"), (f"after{i}", "T21")])
    store.create_daily(row("again"), DAY, "p0")  # practice: not ranked, its choices not kept
    finish(store, "again", 99.0, [("pos0", "MATTO")])
    store.create_daily(row("open"), DAY, "p9")  # not over: not ranked
    rank = store.daily.rank("piedicavallo", DAY, 0.0)
    assert (rank.tries, rank.matchpoints) == (6, 2.5)  # two beaten, one other tie
    assert rank.percentile == 50.0
    assert store.daily.rank("piedicavallo", DAY, 40.0).percentile == 100.0
    assert store.daily.rank("piedicavallo", DAY, -30.0).percentile == 0.0
    width, bars = store.daily.histogram("piedicavallo", DAY)
    assert width == 4.0  # 71 points wide in at most 20 bars
    assert sum(n for _, n in bars) == 6
    assert bars[0] == (-30.0, 1) and bars[-1] == (38.0, 1)
    assert (-2.0, 2) in bars  # the two ties in the bar -2 to 2
    field = store.daily.field("piedicavallo", DAY, ["pos0", "after3", "nowhere"])
    assert field == {"pos0": {"CU-A": 2, "SW-K": 4}, "after3": {"T21": 1}, "nowhere": {}}
    store.players.create("p5", "secret-hash", T0)
    store.players.rename("p5", "Ada")
    assert store.daily.standings("piedicavallo", DAY)[:2] == [("Ada", 40.0), (None, 12.0)]
    assert store.daily.histogram("piedicavallo", "2026-12-04") == (1.0, [])
    assert store.daily.rank("minchiate", DAY, 0.0).percentile == 100.0


CLAIM = """
import sys
from tarocchi.web.store import GameRow, Store
with Store(sys.argv[1]) as s:
    row = GameRow(sys.argv[2], "h", "piedicavallo", 7, "normal", (), 0, False, sys.argv[3])
    print(s.create_daily(row, "2026-12-05", "p1").daily)
    print(s.daily.key("now").hex())
"""


@pytest.mark.slow
def test_processes_share_one_key_and_one_scored_try(db_url: str) -> None:
    """Server processes on one database: the same key, and one scored try for a player."""
    with Store(db_url) as store:
        store.upgrade()
    procs = [subprocess.Popen([sys.executable, "-c", CLAIM, db_url, f"g{i}", T0],
                              stdout=subprocess.PIPE, text=True) for i in range(4)]  # fmt: skip
    outs = [p.communicate(timeout=120)[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    dailies = [" ".join(out[:-1]) for out in outs]
    assert dailies.count('{"date": "2026-12-05", "scored": true}') == 1
    assert dailies.count('{"date": "2026-12-05", "scored": false}') == 3
    assert len({out[-1] for out in outs}) == 1  # one key, whichever process made it
