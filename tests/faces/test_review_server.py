"""Reviews survive real `tarocchi serve` restarts: a review whose server was killed resumes
from its stored progress once its lease runs out, a server stopped mid-review stops cleanly,
and a finished review is served from the store without computing anything again. Two
servers on one PostgreSQL, both asked for a review, compute it once."""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tarocchi.i18n import translator
from tarocchi.review import review, to_json
from tarocchi.web.settings import REVIEW_LEASE_ENV as LEASE_ENV
from tarocchi.web.store import Store
from tests.conftest import Postgres, free_port, start_server, stop_server
from tests.faces.test_server import workers

WAIT_S = 600


def reviewed(base: str, data: dict[str, Any], done: Any) -> dict[str, Any]:
    """Poll a game's review until done(body); return the body."""
    deadline = time.time() + WAIT_S
    while True:
        res = httpx.get(f"{base}/api/games/{data['id']}/review", headers=data["h"], timeout=30)
        assert res.status_code == 200, res.text
        body: dict[str, Any] = res.json()
        if done(body):
            return body
        assert time.time() < deadline, body
        time.sleep(0.3)


def finish_a_deal(base: str) -> dict[str, Any]:
    deal = {"game": "piedicavallo", "seed": 31, "level": "random"}
    data = httpx.post(f"{base}/api/games", json=deal, timeout=60).json()
    data["h"] = {"Authorization": f"Bearer {data['token']}"}
    v, version = data["view"], data["version"]
    while not v["over"]:
        body = httpx.post(f"{base}/api/games/{data['id']}/actions", headers=data["h"], timeout=60,
                          json={"action": v["legal"][0], "version": version}).json()  # fmt: skip
        v, version = body["view"], body["version"]
    return data


def test_a_review_survives_a_crash_and_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LEASE_ENV, "3")  # a dead server's review waits 3 s, not 30
    db, port = tmp_path / "games.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db, port)
    try:
        data = finish_a_deal(base)
        res = httpx.post(f"{base}/api/games/{data['id']}/review", headers=data["h"], timeout=30)
        assert res.status_code == 202, res.text
        before = reviewed(base, data, lambda b: b["done"] >= 2)
    finally:
        stop_server(proc, signal.SIGKILL)  # a crash mid-review
    log = tmp_path / "stderr.txt"
    with log.open("wb") as err:
        proc = start_server(db, port, stderr=err)
        try:
            resumed = reviewed(base, data, lambda b: b["done"] > before["done"])
            assert resumed["status"] == "running" and resumed["total"] == before["total"]
        finally:
            stop_server(proc)  # SIGTERM mid-review: the review process is not waited for
    assert "leaked" not in log.read_text() and "Traceback" not in log.read_text()
    proc = start_server(db, port)
    try:
        end = reviewed(base, data, lambda b: b["status"] == "done")
    finally:
        stop_server(proc)
    proc = start_server(db, port)
    try:
        served = reviewed(base, data, lambda b: True)
        assert served == end  # from the store, at once
        assert len(workers(proc.pid)) == 2  # the AI pool's: no review process was started
        rec = httpx.get(f"{base}/api/games/{data['id']}/record", headers=data["h"]).json()
    finally:
        stop_server(proc)
    assert end["review"] == to_json(review(rec, 0, "random"), translator("en"))


def test_two_servers_asked_for_one_review_compute_it_once(postgres: Postgres) -> None:
    url = postgres.new_database()
    ports = [free_port(), free_port()]
    procs = [start_server(url, port, "--ai-workers", "1") for port in ports]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    try:
        data = finish_a_deal(bases[0])
        reviewed(bases[1], data, lambda b: b["ai"])  # the AI's line, computed by either
        asked = [
            threading.Thread(target=httpx.post, args=(f"{b}/api/games/{data['id']}/review",),
                             kwargs={"headers": data["h"], "timeout": 30})
            for b in bases
        ]  # fmt: skip
        for t in asked:
            t.start()
        owners, dones = set(), []
        with Store(url) as store:
            deadline = time.time() + WAIT_S
            while (rv := store.reviews.get(data["id"])) is None or rv.status != "done":
                assert time.time() < deadline
                if rv is not None and rv.owner:
                    owners.add(rv.owner)
                    dones.append(rv.done)
                time.sleep(0.1)
        for t in asked:
            t.join()
        assert len(owners) == 1, owners  # one process held it from the start to the end
        assert dones == sorted(dones) and rv.done == rv.total
        for base in bases:  # either serves it
            assert reviewed(base, data, lambda b: True)["status"] == "done"
    finally:
        for proc in procs:
            stop_server(proc)
