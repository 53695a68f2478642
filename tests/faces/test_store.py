"""The store on both backends: conditional writes, retention, sizes, change notices (across
processes on PostgreSQL), migrations (an old file upgraded in place) and a restarted server."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sqlite3
import subprocess
import sys
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tarocchi.cli import main
from tarocchi.web.app import create_app
from tarocchi.web.settings import DB_ENV
from tarocchi.web.store import GameRow, Store, StoreUnavailable, database_url
from tarocchi.web.store.retention import FINISHED_ENV, UNFINISHED_ENV, Retention, keep_tidy
from tests.conftest import Postgres

DATA = Path(__file__).parent.parent / "data"
T0 = "2026-01-01T00:00:00+00:00"


def row(game_id: str, actions: tuple[tuple[int, str], ...] = (), started: str = T0) -> GameRow:
    return GameRow(game_id, "h", "piedicavallo", 2**62, "normal", actions, len(actions), False,
                   started)  # fmt: skip


def test_create_get_and_conditional_update(store: Store) -> None:
    store.create(row("a", ((3, "CU-3"),)))
    assert store.get("a") == row("a", ((3, "CU-3"),))
    assert store.get("b") is None
    longer = ((3, "CU-3"), (0, "SW-7"))
    assert store.update("a", 1, longer, False, T0)
    assert not store.update("a", 1, ((3, "CU-3"), (0, "CU-4")), True, T0)  # version 1 is gone
    got = store.get("a")
    assert got is not None and got.actions == longer and got.version == 2 and not got.over
    assert store.count() == 1


def test_one_of_many_concurrent_writes_lands(store: Store) -> None:
    store.create(row("a"))
    barrier = threading.Barrier(6)
    results: list[bool] = []

    def write(i: int) -> None:
        barrier.wait()
        results.append(store.update("a", 0, ((0, f"CU-{i + 1}"),), False, T0))

    threads = [threading.Thread(target=write, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False] * 5 + [True]


def test_retention_deletes_abandoned_and_old_finished_games(store: Store) -> None:
    for game_id, over, when in (
        ("old-open", False, "2026-01-01"),
        ("new-open", False, "2026-03-01"),
        ("old-done", True, "2026-01-01"),
        ("new-done", True, "2026-03-01"),
    ):
        store.create(row(game_id, started=f"{when}T00:00:00+00:00"))
        store.update(game_id, 0, ((0, "CU-3"),), over, f"{when}T00:00:00+00:00")
    size = store.size_bytes()
    assert size > 0
    assert store.delete_stale("2026-02-01T00:00:00+00:00", None) == 1
    assert store.get("old-open") is None and store.get("old-done") is not None
    assert store.delete_stale("2026-02-01T00:00:00+00:00", "2026-02-01T00:00:00+00:00") == 1
    assert {g for g in ("new-open", "old-done", "new-done") if store.get(g)} == {
        "new-open", "new-done"}  # fmt: skip


def test_watch_yields_each_new_version_in_process(store: Store) -> None:
    store.create(row("a"))

    async def follow() -> list[int]:
        seen = []
        async with store.watch("a", since=0) as changes:
            for n in (1, 2):
                store.update("a", n - 1, tuple((0, "CU-3") for _ in range(n)), False, T0)
                seen.append(await asyncio.wait_for(anext(changes), 10))
        return seen

    assert asyncio.run(follow()) == [1, 2]


WRITER = """
import sys
from tarocchi.web.store import Store
with Store(sys.argv[1]) as s:
    assert s.update("a", 0, ((0, "CU-3"),), False, "2026-01-01T00:00:00+00:00")
"""


def test_another_process_s_write_is_heard(postgres: Postgres) -> None:
    """PostgreSQL's LISTEN/NOTIFY: a watch in this process hears another process's write."""
    url = postgres.new_database()
    with Store(url) as store:
        store.upgrade()
        store.create(row("a"))

        async def follow() -> int:
            async with store.watch("a", since=0) as changes:
                assert store.listener is not None
                await asyncio.wait_for(store.listener.listening.wait(), 10)  # so a notice tells
                writer = await asyncio.create_subprocess_exec(sys.executable, "-c", WRITER, url)
                assert await writer.wait() == 0
                return await asyncio.wait_for(anext(changes), 10)

        assert asyncio.run(follow()) == 1


def test_an_old_file_is_upgraded_in_place(tmp_path: Path) -> None:
    """A database written by the store before migrations keeps every game and plays on."""
    db = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "games-v0.sqlite3", db)
    tokens = json.loads((DATA / "games-v0.json").read_text())
    with sqlite3.connect(db) as raw:
        before = raw.execute("SELECT * FROM games ORDER BY id").fetchall()
    with TestClient(create_app(db, ai_workers=1)) as client:
        for game_id, token in tokens.items():
            h = {"Authorization": f"Bearer {token}"}
            data = client.get(f"/api/games/{game_id}", headers=h).json()
            while not data["view"]["over"]:
                body = {"action": data["view"]["legal"][0], "version": data["version"]}
                res = client.post(f"/api/games/{game_id}/actions", headers=h, json=body)
                assert res.status_code == 200, res.text
                data = res.json()
            assert client.get(f"/api/games/{game_id}/record", headers=h).status_code == 200
    with sqlite3.connect(db) as raw:
        after = {r[0]: r for r in raw.execute("SELECT * FROM games")}
        assert raw.execute("SELECT version_num FROM alembic_version").fetchall() == [("0010",)]
    for old in before:  # each stored log went on from where it was
        new = after[old[0]]
        assert new[:5] == old[:5] and json.loads(new[5])[: old[6]] == json.loads(old[5])
        assert new[-7] == 0  # seed_chosen (0003): unknown for these, taken as drawn
        assert new[-6] is None  # practice (0005): none of these started from another deal
        # (0006) nobody's; a deal played to its end here keeps its end, margin and result
        played_on = len(json.loads(new[5])) > old[6]
        assert new[-5] is None and (new[-2] in ("win", "draw", "loss")) == played_on
        assert new[-1] is None  # daily (0007): none of these is a deal of the day


# the table as the store made it once it kept seed_chosen, before the migrations came
V1_TABLE = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, token_hash TEXT NOT NULL, game TEXT NOT NULL, seed INTEGER NOT NULL,
    level TEXT NOT NULL, actions TEXT NOT NULL, version INTEGER NOT NULL,
    over INTEGER NOT NULL DEFAULT 0, started_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    seed_chosen INTEGER NOT NULL DEFAULT 0
)
"""


def test_a_file_with_seed_chosen_is_adopted(tmp_path: Path) -> None:
    """A file whose table already has seed_chosen (and a 64-bit seed stored negative) goes
    through 0001-0007 as it is: its games keep their seeds and their chosen flags."""
    db = tmp_path / "v1.sqlite3"
    with contextlib.closing(sqlite3.connect(db)) as raw, raw:
        raw.execute(V1_TABLE)
        raw.execute("INSERT INTO games VALUES ('a', 'h', 'piedicavallo', -1, 'normal', '[]', 0, "
                    f"0, '{T0}', '{T0}', 1)")  # fmt: skip
    with Store(db) as store:
        assert store.upgrade() == "0010"
        assert store.get("a") == replace(row("a"), seed=2**64 - 1, seed_chosen=True)


@pytest.mark.parametrize("seed", [0, 2**63 - 1, 2**63, 2**64 - 1])
def test_64_bit_seeds_round_trip(store: Store, seed: int) -> None:
    """Seeds are unsigned 64-bit; the databases' integers are signed 64-bit."""
    store.create(replace(row("a"), seed=seed, seed_chosen=seed % 2 == 1))
    assert store.get("a") == replace(row("a"), seed=seed, seed_chosen=seed % 2 == 1)


UPGRADE = """
import sys
from tarocchi.web.store import Store
with Store(sys.argv[1]) as s:
    print(s.upgrade())
"""


def test_concurrent_upgrades_of_a_new_database(db_url: str) -> None:
    """Server processes starting together each upgrade the schema; all of them succeed."""
    procs = [
        subprocess.Popen([sys.executable, "-c", UPGRADE, db_url], stdout=subprocess.PIPE)
        for _ in range(3)
    ]
    assert [p.communicate(timeout=60)[0].strip() for p in procs] == [b"0010"] * 3
    with Store(db_url) as store:
        store.create(row("a"))
        assert store.count() == 1


def test_a_restarted_postgresql_is_unavailable_then_back() -> None:
    """While PostgreSQL restarts, calls fail as StoreUnavailable; then the pool and the
    listener reconnect by themselves and a watch hears the next change."""
    server = Postgres()
    try:
        with Store(server.new_database()) as store:
            store.upgrade()
            store.create(row("a"))

            async def scenario() -> int:
                async with store.watch("a", since=0) as changes:
                    server.stop()
                    with pytest.raises(StoreUnavailable):
                        store.get("a")
                    with pytest.raises(StoreUnavailable):
                        store.update("a", 0, ((0, "CU-3"),), False, T0)
                    server.start()
                    got = store.get("a")
                    assert got is not None and got.version == 0  # the failed write left nothing
                    assert store.update("a", 0, ((0, "CU-3"),), False, T0)
                    return await asyncio.wait_for(anext(changes), 10)

            assert asyncio.run(scenario()) == 1
    finally:
        server.destroy()


def test_the_retention_task_deletes_stale_games(db_url: str) -> None:
    now = datetime.now(UTC)
    with Store(db_url) as store:
        store.upgrade()
        for game_id, age, over in (("open-8d", 8, False), ("open-6d", 6, False),
                                   ("done-91d", 91, True), ("done-89d", 89, True)):  # fmt: skip
            when = (now - timedelta(days=age)).isoformat(timespec="seconds")
            store.create(row(game_id, started=when))
            store.update(game_id, 0, ((0, "CU-3"),), over, when)

        async def run_for_a_moment(retention: Retention) -> None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(keep_tidy(store, retention), 0.5)

        asyncio.run(run_for_a_moment(Retention(finished_days=None, every_s=0.1)))
        assert [g for g in ("open-8d", "open-6d", "done-91d", "done-89d") if store.get(g)] == [
            "open-6d", "done-91d", "done-89d"]  # fmt: skip
        asyncio.run(run_for_a_moment(Retention()))  # the defaults: 7 and 90 days
        assert store.count() == 2 and store.get("done-91d") is None


def test_retention_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(UNFINISHED_ENV, raising=False)
    monkeypatch.delenv(FINISHED_ENV, raising=False)
    assert Retention.from_environment() == Retention(7.0, 90.0)
    monkeypatch.setenv(UNFINISHED_ENV, "2.5")
    monkeypatch.setenv(FINISHED_ENV, "never")
    assert Retention.from_environment() == Retention(2.5, None)
    for bad in ("0", "-1", "soon", "1000000", "36500.5", "1e309", "inf", "nan", "-0"):
        monkeypatch.setenv(FINISHED_ENV, bad)
        with pytest.raises(ValueError, match="at most 36,500"):
            Retention.from_environment()
    with pytest.raises(ValueError, match="never"):
        Retention(unfinished_days=10**6)  # made in code: the same bounds


def test_the_extreme_retentions_work(store: Store) -> None:
    """The longest age there is keeps a century-old game; the shortest deletes a second-old
    one (the calendar holds both cutoffs)."""
    now = datetime.now(UTC)
    for game_id, age in (("old", timedelta(days=36_499)), ("new", timedelta(seconds=1))):
        when = (now - age).isoformat(timespec="seconds")
        store.create(row(game_id, started=when))
        store.update(game_id, 0, ((0, "CU-3"),), True, when)
    assert Retention(36_500, 36_500).apply(store, now) == 0
    assert Retention(1e-300, 1e-300).apply(store, now) == 2


def test_the_retention_task_logs_a_failure_and_tries_again(
    db_url: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the games' table is away, each round fails, is logged with its reason and is
    tried again; once it is back, the next round deletes the stale game."""
    monkeypatch.setattr("tarocchi.web.store.retention.RETRY_S", 0.05)
    old = (datetime.now(UTC) - timedelta(days=30)).isoformat(timespec="seconds")
    with Store(db_url) as store:
        store.upgrade()
        store.create(row("stale", started=old))
        engine = sa.create_engine(database_url(db_url))
        rename = "ALTER TABLE {} RENAME TO {}"

        async def scenario() -> bool:
            with engine.begin() as conn:
                conn.execute(sa.text(rename.format("games", "games_away")))
            task = asyncio.create_task(keep_tidy(store, Retention(every_s=3600)))
            while len(caplog.records) < 3:  # three failed rounds, each tried again
                await asyncio.sleep(0.05)
            with engine.begin() as conn:
                conn.execute(sa.text(rename.format("games_away", "games")))
            for _ in range(200):
                if await asyncio.to_thread(store.get, "stale") is None:
                    break
                await asyncio.sleep(0.05)
            alive = not task.done()
            task.cancel()
            return alive

        with caplog.at_level("WARNING", logger="tarocchi.web.store.retention"):
            assert asyncio.run(asyncio.wait_for(scenario(), 60))
        engine.dispose()
        assert store.get("stale") is None
    failures = [r.getMessage() for r in caplog.records[:3]]
    assert all("games" in m and m.endswith("trying again") for m in failures), failures


class Overflowing(Store):
    """A store whose deletion fails as the audit's did (a cutoff before year 1)."""

    def delete_stale(self, unfinished_before: str | None, finished_before: str | None) -> int:
        raise OverflowError("date value out of range")


def test_an_unexpected_failure_is_logged_with_its_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tarocchi.web.store.retention.RETRY_S", 0.01)

    async def two_rounds(store: Store) -> bool:
        task = asyncio.create_task(keep_tidy(store, Retention(every_s=3600)))
        while len(caplog.records) < 2:
            await asyncio.sleep(0.01)
        alive = not task.done()
        task.cancel()
        return alive

    with Overflowing(tmp_path / "g.sqlite3") as store, caplog.at_level("ERROR"):
        assert asyncio.run(asyncio.wait_for(two_rounds(store), 30))
    for record in caplog.records[:2]:
        assert "deleting stale games failed; trying again" in record.getMessage()
        assert record.exc_info and isinstance(record.exc_info[1], OverflowError)


def test_db_upgrade_and_serve_s_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in (DB_ENV, UNFINISHED_ENV, FINISHED_ENV):  # serve sets them for its workers
        monkeypatch.setenv(name, "")  # so that the test's end restores them, absent or not
        monkeypatch.delenv(name)
    db = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "games-v0.sqlite3", db)
    assert main(["db", "upgrade", "--db", str(db)]) == 0
    assert "revision 0010" in capsys.readouterr().out
    with Store(db) as store:
        assert store.count() == 3
    assert main(["db", "upgrade", "--db", "postgresql://postgres@127.0.0.1:1/none"]) == 1
    assert "cannot reach the database" in capsys.readouterr().err
    assert main(["serve", "--db", str(db), "--keep-finished-days", "soon"]) == 2
    assert "never" in capsys.readouterr().err
    assert main(["serve", "--db", str(db), "--keep-unfinished-days", "1000000"]) == 2
    assert "at most 36,500 (a century)" in capsys.readouterr().err
