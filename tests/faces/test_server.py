"""A real `tarocchi serve` process: killed mid-deal and started again, it resumes every game;
a killed AI worker is replaced; its workers die with it; SIGTERM stops it cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import answered, free_port, start_server, stop_server


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
            assert answered(again["view"]) == data["view"]
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


def children(pid: int) -> dict[int, str]:
    """Return the child processes of a process: pid -> command line."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == pid:
            found[int(stat.parent.name)] = cmdline
    return found


def workers(pid: int) -> list[int]:
    """Return the AI worker processes of a server."""
    return [p for p, cmd in children(pid).items() if "spawn_main" in cmd]


def is_running(pid: int) -> bool:
    """Tell whether a process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def outliving(processes: dict[int, str], seconds: float = 20) -> list[str]:
    """Return the command lines of the processes still running after up to `seconds`."""
    deadline = time.time() + seconds
    while time.time() < deadline and any(is_running(p) for p in processes):
        time.sleep(0.2)
    return [cmd for p, cmd in processes.items() if is_running(p)]


def test_a_killed_worker_is_replaced_and_play_goes_on(tmp_path: Path) -> None:
    """SIGKILL of an AI worker while it thinks: the request is run again on fresh workers
    (or answered 503 with Retry-After), the deal plays on to its end, /readyz stays true."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(tmp_path / "games.sqlite3", port)
    try:
        assert httpx.get(f"{base}/healthz").json() == {"status": "ok"}
        assert httpx.get(f"{base}/readyz", timeout=30).json() == {
            "ready": True, "database": True, "ai": True}  # fmt: skip
        data = httpx.post(f"{base}/api/games", json={"game": "piedicavallo", "level": "hard"},
                          timeout=60).json()  # fmt: skip
        h = {"Authorization": f"Bearer {data['token']}"}
        url = f"{base}/api/games/{data['id']}"
        version, v = data["version"], data["view"]
        before = workers(proc.pid)
        with ThreadPoolExecutor(1) as pool:
            move = {"action": v["legal"][0], "version": version}
            reply = pool.submit(httpx.post, f"{url}/actions", json=move, headers=h, timeout=120)
            time.sleep(0.3)  # the AI seats are thinking (hard: up to 1.4 s a decision)
            for pid in before:
                os.kill(pid, signal.SIGKILL)
            res = reply.result()
        assert res.status_code in (200, 503), res.text
        if res.status_code == 503:
            assert int(res.headers["retry-after"]) > 0
        got = httpx.get(url, headers=h).json()
        version, v = got["version"], got["view"]
        assert not set(before) & set(workers(proc.pid))  # replaced, not revived
        while not v["over"]:
            res = httpx.post(f"{url}/actions", headers=h, timeout=60,
                             json={"action": v["legal"][0], "version": version})  # fmt: skip
            assert res.status_code == 200, res.text
            version, v = res.json()["version"], res.json()["view"]
        assert v["result"]["ns"] + v["result"]["ew"] == 114
        assert httpx.get(f"{base}/readyz", timeout=30).json()["ready"]
    finally:
        stop_server(proc)


def descendants(pid: int) -> dict[int, str]:
    """Return every process below a process (children, theirs...): pid -> command line."""
    found, todo = {}, [pid]
    while todo:
        kids = children(todo.pop())
        found.update(kids)
        todo.extend(kids)
    return found


def test_workers_die_with_the_server(tmp_path: Path) -> None:
    """After SIGKILL of the server alone (not its process group), none of its children (AI
    workers, the resource tracker) is left running."""
    port = free_port()
    proc = start_server(tmp_path / "games.sqlite3", port)
    kids = children(proc.pid)
    assert len(workers(proc.pid)) == 2
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=15)
    assert not outliving(kids)


def test_several_server_processes_die_with_serve(tmp_path: Path) -> None:
    """`serve --workers 2`: after SIGKILL of `serve` alone, every process below it (the
    server processes, their AI workers, the resource trackers) is gone within 5 s, and a
    new `serve` binds the port at once."""
    db, port = tmp_path / "games.sqlite3", free_port()
    proc = start_server(db, port, "--workers", "2", "--ai-workers", "1")
    deadline = time.time() + 120  # each server process starts its AI worker after answering
    while time.time() < deadline and len(below := descendants(proc.pid)) < 5:
        time.sleep(0.2)
    servers = children(proc.pid)
    assert sum("spawn_main" in cmd for cmd in below.values()) == 4, below  # 2 servers, 2 AIs
    assert all(workers(p) for p in servers if "spawn_main" in servers[p])
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=15)
    assert not outliving(below, seconds=5)
    again = start_server(db, port)  # would fail with "Address already in use"
    stop_server(again)


def test_sigterm_stops_cleanly(tmp_path: Path) -> None:
    """SIGTERM mid-request: the server and its workers stop, with nothing on stderr about
    leaked semaphores (or anything else)."""
    port = free_port()
    log = tmp_path / "stderr.txt"
    with log.open("wb") as err:
        proc = start_server(tmp_path / "games.sqlite3", port, stderr=err)
        kids = children(proc.pid)
        base = f"http://127.0.0.1:{port}"
        data = httpx.post(f"{base}/api/games", json={"game": "minchiate", "level": "hard"},
                          timeout=60).json()  # fmt: skip
        with ThreadPoolExecutor(1) as pool:
            hint = pool.submit(httpx.get, f"{base}/api/games/{data['id']}/hint", timeout=60,
                               headers={"Authorization": f"Bearer {data['token']}"})  # fmt: skip
            time.sleep(0.2)
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
            hint.exception()  # answered or cut off: either is fine
    assert not outliving(kids)
    assert "leaked" not in log.read_text(), log.read_text()


def test_the_printed_address_answers_at_once(tmp_path: Path) -> None:
    """`tarocchi serve` says it starts the AI players, then prints its address only once the
    AI workers are up: the address answers within seconds of being printed (the issue asks
    for 10; it answered in 0.15 s on a loaded machine)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(port), "--db",
         str(tmp_path / "games.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "http://" in line:
                break
        printed = time.monotonic()
        assert any("starting the AI players" in line for line in lines[:-1])
        assert lines[-1].startswith(f"tarocchi: http://127.0.0.1:{port}/")
        status = 0
        while time.monotonic() - printed < 5:  # the socket opens just after the startup
            try:
                status = httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code
                break
            except httpx.ConnectError:
                time.sleep(0.05)
        assert status == 200
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
