"""A real `tarocchi serve` process, killed mid-deal and started again, resumes every game."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the server did not start")


def test_kill_and_restart_resumes_games(tmp_path: Path) -> None:
    db, port = tmp_path / "games.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(db, port)
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
        os.killpg(proc.pid, signal.SIGKILL)  # a real crash: no shutdown handlers run
        proc.wait()
    proc = start(db, port)
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
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
