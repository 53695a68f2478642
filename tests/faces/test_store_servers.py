"""Several real `tarocchi serve` processes on one real PostgreSQL: games move between them,
an action is applied exactly once, a killed process loses nothing acknowledged, and a
restarted PostgreSQL gives 503 with Retry-After, then play goes on."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tarocchi.web.store import Store
from tests.conftest import Postgres, answered, free_port, start_server, stop_server
from tools.load import web_load

ONE_AI_WORKER = ("--ai-workers", "1")


@pytest.fixture
def two_servers(postgres: Postgres) -> Iterator[tuple[str, list[str], list[Any]]]:
    """Yield a database's URL, the base URLs of two servers on it, and their processes."""
    url = postgres.new_database()
    ports = [free_port(), free_port()]
    procs = [start_server(url, port, *ONE_AI_WORKER) for port in ports]
    try:
        yield url, [f"http://127.0.0.1:{p}" for p in ports], procs
    finally:
        for proc in procs:
            if proc.poll() is None:
                stop_server(proc)


def act(base: str, data: dict[str, Any], action: str | None = None) -> httpx.Response:
    return httpx.post(
        f"{base}/api/games/{data['id']}/actions",
        headers={"Authorization": f"Bearer {data['token']}"},
        json={"action": action or data["view"]["legal"][0], "version": data["version"]},
        timeout=60,
    )


def read(base: str, data: dict[str, Any]) -> dict[str, Any]:
    res = httpx.get(f"{base}/api/games/{data['id']}",
                    headers={"Authorization": f"Bearer {data['token']}"})  # fmt: skip
    assert res.status_code == 200, res.text
    return {**data, **res.json()}


def play_to_end(base: str, data: dict[str, Any]) -> dict[str, Any]:
    while not data["view"]["over"]:
        res = act(base, data)
        assert res.status_code == 200, res.text
        data = {**data, **res.json()}
    return data


def new_game(base: str, level: str = "random", seed: int = 1) -> dict[str, Any]:
    res = httpx.post(f"{base}/api/games", json={"game": "piedicavallo", "seed": seed,
                                                "level": level}, timeout=60)  # fmt: skip
    assert res.status_code == 201, res.text
    data: dict[str, Any] = res.json()
    return data


def test_a_game_moves_between_processes_and_each_action_lands_once(
    two_servers: tuple[str, list[str], list[Any]],
) -> None:
    url, (a, b), _ = two_servers
    data = new_game(a)
    data = {**data, **act(b, data).json()}  # created through A, continued through B
    assert read(a, data)["version"] == data["version"]  # A's cached state is not trusted
    replies: list[httpx.Response] = []
    barrier = threading.Barrier(2)

    def post(base: str) -> None:
        barrier.wait()
        replies.append(act(base, data))

    threads = [threading.Thread(target=post, args=(base,)) for base in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status_code for r in replies) == [200, 409]
    won = next(r for r in replies if r.status_code == 200).json()
    with Store(url) as store:
        row = store.get(data["id"])
        assert row is not None and row.version == won["version"] == len(row.actions)
        south = [code for seat, code in row.actions[data["version"] :] if seat == 0]
        assert south == [data["view"]["legal"][0]]  # South's action once, then the AI's
    end = play_to_end(a, {**data, **won})
    assert end["view"]["result"]["ns"] + end["view"]["result"]["ew"] == 114


def test_a_killed_process_loses_no_acknowledged_action(
    two_servers: tuple[str, list[str], list[Any]],
) -> None:
    _, (a, b), procs = two_servers
    games = [new_game(a, seed=s) for s in (1, 2)]
    for i, data in enumerate(games):
        for _ in range(2):
            data = {**data, **act(a, data).json()}
        games[i] = data
    slow = new_game(a, level="hard", seed=3)

    def post_and_lose_the_answer() -> None:
        with contextlib.suppress(httpx.HTTPError):  # the process dies before it answers
            act(a, slow)

    in_flight = threading.Thread(target=post_and_lose_the_answer)
    in_flight.start()  # the hard AI is thinking when the process dies
    stop_server(procs[0], signal.SIGKILL)
    in_flight.join()
    for data in games:
        again = read(b, data)
        assert again["version"] == data["version"] and answered(again["view"]) == data["view"]
        assert play_to_end(b, again)["view"]["over"]
    after = read(b, slow)
    assert after["version"] >= slow["version"]  # applied whole or not at all
    assert play_to_end(b, after)["view"]["over"]


def test_a_restarted_postgresql_gives_503_then_play_goes_on() -> None:
    server = Postgres()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = None
    try:
        proc = start_server(server.new_database(), port, *ONE_AI_WORKER)
        data = new_game(base)
        data = {**data, **act(base, data).json()}
        server.stop()
        for res in (act(base, data), httpx.get(f"{base}/api/games/{data['id']}"),
                    httpx.post(f"{base}/api/games", json={"game": "piedicavallo"})):  # fmt: skip
            assert res.status_code == 503, res.text
            assert int(res.headers["Retry-After"]) > 0 and res.json()["detail"]
        ready = httpx.get(f"{base}/readyz", timeout=30)
        assert ready.status_code == 503 and ready.json() == {
            "ready": False, "database": False, "ai": True}  # fmt: skip
        server.start()
        again = read(base, data)  # no server restarted: the pool reconnects by itself
        assert httpx.get(f"{base}/readyz", timeout=30).json()["ready"]
        assert again["version"] == data["version"] and answered(again["view"]) == data["view"]
        end = play_to_end(base, again)
        assert end["view"]["result"]["ns"] + end["view"]["result"]["ew"] == 114
    finally:
        if proc is not None:
            stop_server(proc)
        server.destroy()


def test_serve_workers_share_one_port(postgres: Postgres) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(postgres.new_database(), port, "--workers", "2", *ONE_AI_WORKER)
    try:
        games = [new_game(base, seed=s) for s in range(4)]
        for data in games:
            assert play_to_end(base, data)["view"]["over"]
    finally:
        stop_server(proc)


@pytest.mark.measure
def test_the_load_bench_runs_two_servers_on_postgresql(postgres: Postgres) -> None:
    url = postgres.new_database()
    with Store(url) as store:
        store.upgrade()
        report = web_load("piedicavallo", url, store.usage, clients=4, idle_games=20,
                          think_ms=0, servers=2)  # fmt: skip
    assert report["servers"] == 2 and report["database"] == "postgresql"
    assert report["requests"] >= 4 * 16 and report["requests_per_s"] > 0
    assert report["db_bytes_per_finished_game"] > 0 and report["db_bytes_per_open_game"] > 0
    assert report["ai_cpu_s"] > 0 and report["server_cpu_s"] > 0
