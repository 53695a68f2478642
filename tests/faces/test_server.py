"""A real `tarocchi serve` process, killed mid-deal and started again, resumes every game."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import free_port, start_server, stop_server


def test_kill_and_restart_resumes_games(tmp_path: Path) -> None:
    db, port = tmp_path / "games.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db, port)
    games: list[dict[str, Any]] = []
    try:
        for name, seed in (("piedicavallo", 1), ("piedicavallo", 2)):
            data = httpx.post(f"{base}/api/games", json={"game": name, "seed": seed,
                                                          "level": "random"}).json()  # fmt: skip
            h = {"Authorization": f"Bearer {data['token']}"}
            for _ in range(3):
                data = {**data, **httpx.post(
                    f"{base}/api/games/{data['id']}/actions", headers=h,
                    json={"action": data["view"]["legal"][0], "version": data["version"]},
                ).json()}  # fmt: skip
            games.append(data)
    finally:
        stop_server(proc, signal.SIGKILL)  # a real crash: no shutdown handlers run
    proc = start_server(db, port)
    try:
        for data in games:
            h = {"Authorization": f"Bearer {data['token']}"}
            again = httpx.get(f"{base}/api/games/{data['id']}", headers=h).json()
            assert again["version"] == data["version"]
            assert again["view"] == data["view"]
            v, version = again["view"], again["version"]
            while not v["over"]:
                body = httpx.post(
                    f"{base}/api/games/{data['id']}/actions",
                    headers=h,
                    timeout=30,
                    json={"action": v["legal"][0], "version": version},
                ).json()
                v, version = body["view"], body["version"]
            assert v["result"]["ns"] + v["result"]["ew"] == 114
    finally:
        stop_server(proc)
