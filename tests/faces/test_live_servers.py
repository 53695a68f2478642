"""Friends' tables over two real `tarocchi serve` processes on one real PostgreSQL: two
partners connected to different processes play a whole deal, each seeing the other's
cards; a process killed with SIGKILL loses no acknowledged action, and its player's
reconnect to the other process resumes from the version it last saw; partners on two
processes agree on the next deal, which is made once."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from tarocchi.games import game
from tarocchi.games.replay import replay
from tarocchi.web.driver import SEEN_S
from tarocchi.web.settings import GRACE_ENV
from tarocchi.web.settings import TABLE_LEASE_ENV as LEASE_ENV
from tarocchi.web.store import Store
from tests.conftest import Postgres, free_port, start_server, stop_server
from tests.faces.test_live import Seat
from tests.faces.test_presence import until_turn
from tools.live import live_latency

HUMANS = {0, 2}


PING_S = 10  # a page pings its connection; the server closes one silent for 30 s


class Socket:
    """A websockets client connection as the tests' Seat reads it, pinging every PING_S
    seconds from a thread of its own as a page does, while its test waits on other seats."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.closed = threading.Event()
        threading.Thread(target=self.ping, daemon=True).start()

    def ping(self) -> None:
        while not self.closed.wait(PING_S):
            try:
                self.send_json({"type": "ping"})
            except ConnectionClosed:
                return

    def send_json(self, data: dict[str, Any]) -> None:
        self.ws.send(json.dumps(data))

    def receive_json(self) -> Any:
        """Return the next message but the pings' answers; TimeoutError after 60 s without."""
        deadline = time.monotonic() + 60
        while True:
            message = json.loads(self.ws.recv(timeout=max(0.0, deadline - time.monotonic())))
            if message["type"] != "pong":
                return message


LEASE_S = 3  # the servers' table lease: a dead process's tables wait this long


@pytest.fixture
def two_servers(
    postgres: Postgres, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Iterator[tuple[list[str], list[Any], str]]:
    """Yield the base URLs of two servers on one new database, their processes and the
    database's URL (an away seat's grace: the test's parameter, if any, in seconds)."""
    url = postgres.new_database()
    ports = [free_port(), free_port()]
    monkeypatch.setenv(LEASE_ENV, str(LEASE_S))
    if hasattr(request, "param"):
        monkeypatch.setenv(GRACE_ENV, str(request.param))
    procs = [start_server(url, port, "--ai-workers", "1") for port in ports]
    try:
        yield [f"http://127.0.0.1:{p}" for p in ports], procs, url
    finally:
        for proc in procs:
            if proc.poll() is None:
                stop_server(proc)


def table(base: str, seed: int, level: str = "random") -> tuple[str, dict[int, str]]:
    """Start a deal through a server with North opened and taken; return its id and the
    two seats' tokens."""
    res = httpx.post(f"{base}/api/games", json={"game": "piedicavallo", "level": level,
                                                "seed": seed}, timeout=60)  # fmt: skip
    assert res.status_code == 201, res.text
    game_id, token = res.json()["id"], res.json()["token"]
    opened = httpx.post(f"{base}/api/games/{game_id}/seats/2/invitation",
                        headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    taken = httpx.post(f"{base}/api/games/{game_id}/seats/2",
                       json={"secret": opened.json()["secret"]})  # fmt: skip
    assert taken.status_code == 201, taken.text
    return game_id, {0: token, 2: taken.json()["token"]}


def join(stack: contextlib.ExitStack, base: str, game_id: str, token: str,
         since: int | None = None) -> Seat:  # fmt: skip
    """Connect a seat to a server (closed with the stack)."""
    url = base.replace("http:", "ws:") + f"/api/games/{game_id}/live"
    socket = Socket(stack.enter_context(ws_connect(url)))
    stack.callback(socket.closed.set)
    return Seat(socket, token, since)


def play(seats: dict[int, Seat], floor: int, turns: int | None = None) -> int:
    """Play the humans' turns (their first legal card) to the end, or for a number of turns
    and until South is to move; return the version both seats reached."""
    n = 0
    while True:
        now = {s: seats[s].settle(HUMANS, floor) for s in seats}
        assert len({m["version"] for m in now.values()}) == 1  # both see the same table
        v = now[0]["view"]
        if v["over"] or (turns is not None and n >= turns and v["to_move"] == 0):
            return int(now[0]["version"])
        mine = now[v["to_move"]]
        answer = seats[v["to_move"]].act(f"a{floor}", mine["view"]["legal"][0], mine["version"])
        assert answer["ok"], answer
        floor, n = answer["version"], n + 1


@pytest.mark.slow
def test_partners_on_two_processes_play_a_deal(
    two_servers: tuple[list[str], list[Any], str],
) -> None:
    (a, b), _, _ = two_servers
    game_id, tokens = table(a, 21)
    with contextlib.ExitStack() as stack:
        seats = {0: join(stack, a, game_id, tokens[0]), 2: join(stack, b, game_id, tokens[2])}
        play(seats, 0)
        ends = [seats[s].last["view"] for s in seats]
        assert ends[0]["over"] and ends[0]["result"] == ends[1]["result"]
        # each saw the other's cards, as played, in the same order
        plays = [[(c["seat"], c["card"]) for m in seats[s].got if m["type"] == "update"
                  for e in m["events"] for c in e["changes"] if c["type"] == "play"]
                 for s in seats]  # fmt: skip
        assert plays[0] == plays[1] and {s for s, _ in plays[0]} == {0, 1, 2, 3}


@pytest.mark.slow
def test_a_killed_process_loses_no_acknowledged_action(
    two_servers: tuple[list[str], list[Any], str],
) -> None:
    (a, b), procs, _ = two_servers
    game_id, tokens = table(a, 22)
    with contextlib.ExitStack() as stack:
        south, north = join(stack, a, game_id, tokens[0]), join(stack, b, game_id, tokens[2])
        mover = south.settle(HUMANS, play({0: south, 2: north}, 0, turns=3))
        answer = south.act("last", mover["view"]["legal"][0], mover["version"])
        assert answer["ok"]
        stop_server(procs[0], signal.SIGKILL)  # South's process dies once the action is answered
        with pytest.raises(ConnectionClosed):
            while True:
                south.next()
        again = join(stack, b, game_id, tokens[0], since=south.last["version"])  # through B
        assert again.last["type"] == "update" and again.last["version"] >= answer["version"]
        # the acknowledged action is stored: its id answers as before, applying nothing
        assert again.act("last", mover["view"]["legal"][0], mover["version"]) == answer
        play({0: again, 2: north}, answer["version"])
        assert again.last["view"]["over"]


def leader(url: str, game_id: str) -> tuple[str, str] | None:
    """Return the owner of a table's lease and when it runs out, if someone holds it."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT owner, lease_until FROM drivers WHERE game_id = %s",
                           (game_id,)).fetchone()  # fmt: skip
    return None if row is None else (str(row[0]), str(row[1]))


def version(url: str, game_id: str) -> int:
    """Return a game's stored version, read straight from the database."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT version FROM games WHERE id = %s", (game_id,)).fetchone()
    assert row is not None
    return int(row[0])


def until_the_ai(url: str, game_id: str, seats: dict[int, Seat]) -> int:
    """Play the humans' turns (their first legal card) until an AI seat is to move; return
    the version then. (A human may be to move again at once: a trick its card won.)"""
    while True:
        with psycopg.connect(url) as conn:
            row = conn.execute("SELECT seed, actions FROM games WHERE id = %s",
                               (game_id,)).fetchone()  # fmt: skip
        assert row is not None
        log = [(int(s), str(a)) for s, a in json.loads(row[1])]
        mover = replay(game("piedicavallo"), int(row[0]), log).to_move
        if mover not in HUMANS:
            return len(log)
        at = seats[mover].settle(HUMANS, len(log))
        seats[mover].act(f"r{len(log)}", at["view"]["legal"][0], at["version"])


@pytest.mark.slow
def test_a_dead_processs_table_is_driven_by_another_once_its_lease_runs_out(
    two_servers: tuple[list[str], list[Any], str],
) -> None:
    """South plays through A; A is killed while its AI (the hard level) thinks for East,
    holding the table's lease; B, where North plays, waits for the lease to run out, then
    plays East itself: North sees East's card, and not before the lease's end."""
    (a, b), procs, url = two_servers
    game_id, tokens = table(a, 23, "hard")
    with contextlib.ExitStack() as stack:
        south, north = join(stack, a, game_id, tokens[0]), join(stack, b, game_id, tokens[2])
        floor = 0
        while True:  # until A is caught holding the lease while the AI thinks for East
            at = south.settle(HUMANS, floor)
            assert not at["view"]["over"], "A always finished East's turn first"
            if at["view"]["to_move"] == 2:
                at = north.settle(HUMANS, floor)
                floor = north.act(f"n{floor}", at["view"]["legal"][0], at["version"])["version"]
                continue
            floor = south.act(f"s{floor}", at["view"]["legal"][0], at["version"])["version"]
            deadline = time.monotonic() + 2
            while (held := leader(url, game_id)) is None and time.monotonic() < deadline:
                time.sleep(0.005)
            if held is not None and held[0].startswith(f"{procs[0].pid}-"):  # A's, not B's
                stop_server(procs[0], signal.SIGKILL)
                killed = time.time()
                break
        time.sleep(0.3)  # a commit A sent before it died lands by then (B waits 3 s for it)
        raced = version(url, game_id) > floor
        if raced:  # A committed East's card in the instant before its death: the humans
            # play on (South now through B) until the AI is to move again, which B must play
            again = join(stack, b, game_id, tokens[0])
            floor = until_the_ai(url, game_id, {0: again, 2: north})
        moved = north.settle(HUMANS, floor + 1)  # the AI's card, played through B
        arrived = time.time()
        assert moved["version"] > floor
        runs_out = datetime.fromisoformat(held[1]).timestamp()
        assert raced or runs_out - 1 <= arrived  # not before the dead holder's lease ran out
        assert arrived <= max(runs_out, killed) + LEASE_S + 10
        taken = leader(url, game_id)
        assert taken is None or taken[0] != held[0]  # B's, or given back after its turn


GRACE_S = 2


@pytest.mark.slow
@pytest.mark.parametrize("two_servers", [GRACE_S], indirect=True)
def test_a_seat_silent_on_a_dead_process_is_played_by_the_other_after_its_grace(
    two_servers: tuple[list[str], list[Any], str],
) -> None:
    """North plays through B, South through A; B is killed on North's turn, so nothing says
    North left: its pings stop. A counts North away once its last ping's SEEN_S have passed,
    and plays North's turn with the AI once the grace has run out after that; South sees it
    marked as played for an absent human, and not before."""
    (a, b), procs, url = two_servers
    game_id, tokens = table(a, 25)
    with contextlib.ExitStack() as stack:
        south, north = join(stack, a, game_id, tokens[0]), join(stack, b, game_id, tokens[2])
        before = until_turn({0: south, 2: north}, 2)["version"]
        stop_server(procs[1], signal.SIGKILL)
        with psycopg.connect(url) as conn:
            row = conn.execute("SELECT seen_until FROM presence WHERE game_id = %s AND seat = 2",
                               (game_id,)).fetchone()  # fmt: skip
        assert row is not None
        due = datetime.fromisoformat(str(row[0])).timestamp() + GRACE_S
        assert due - time.time() > GRACE_S  # (North's last ping counts it here a while yet)
        while True:  # South's pings keep South here meanwhile
            message = south.next()
            if message["type"] == "update" and message["version"] > before:
                break
        assert time.time() >= due - 0.5  # not before North's grace ran out
        assert time.time() <= due + SEEN_S  # (a wake at the deadline, not a later ping's)
        assert message["version"] > before and message["stood_in"] == [2]
        assert message["ai_for"] == [2] and 2 in message["away"]


@pytest.mark.slow
def test_the_live_bench_times_partners_on_two_processes(postgres: Postgres) -> None:
    url = postgres.new_database()
    with Store(url) as store:
        store.upgrade()
    report = live_latency("piedicavallo", url, tables=2, servers=2)
    assert report["database"] == "postgresql" and report["servers"] == 2
    # every human card of both deals timed (17 each, but the discards the dealer lays aside)
    assert 2 * 2 * 14 <= report["cards_across"] <= 2 * 2 * 17
    assert 0 < report["across_ms_p50"] <= report["across_ms_p95"] <= report["across_ms_p99"]
    assert "cards_beside" not in report  # the partners are on different processes


@pytest.mark.slow
def test_the_live_bench_times_four_people_a_table(postgres: Postgres) -> None:
    """With four people at each table (two on each process), every action of both deals is
    answered and timed, and each card reaches the two seats on the other process and the
    one beside."""
    url = postgres.new_database()
    with Store(url) as store:
        store.upgrade()
    report = live_latency("piedicavallo", url, tables=2, servers=2, humans=4)
    with Store(url) as store:
        played = store.select()
    assert len(played) == 2 and all(row.over for row in played)
    # every action stored is a person's, each one answered, but the AI's as the deal began,
    # before the creator opened the seats: up to South's first turn, a dealer's two
    # discards and three cards at most
    stored = sum(len(r.actions) for r in played)
    assert report["humans"] == 8 and stored - 5 * 2 <= report["actions"] <= stored
    assert report["cards_across"] == 2 * report["cards_beside"] > 100
    assert 0 < report["ack_ms_p50"] <= report["ack_ms_p99"]
    assert report["server_cpu_ms_per_action"] > 0


SERVE_LOGGING = """
import sys, uvicorn
from tarocchi.web.app import create_app
uvicorn.run(create_app(sys.argv[1], ai_workers=1), port=int(sys.argv[2]), log_level="info",
            ws="websockets-sansio")
"""


@pytest.mark.slow
def test_secrets_and_tokens_never_reach_the_log(tmp_path: Path) -> None:
    """A server logging every request (uvicorn's access log, at info): opening seats,
    taking them and playing over the live connections leave the invitation secrets and the
    tokens out of the log, which does name the requests."""
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", SERVE_LOGGING, str(tmp_path / "games.sqlite3"), str(port)],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            for _ in range(600):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).is_success:
                        break
                time.sleep(0.2)
            base = f"http://127.0.0.1:{port}"
            game_id, tokens = table(base, 24)
            opened = httpx.post(f"{base}/api/games/{game_id}/seats/3/invitation",
                                headers={"Authorization": f"Bearer {tokens[0]}"})  # fmt: skip
            secret = opened.json()["secret"]
            assert httpx.post(f"{base}/api/games/{game_id}/seats/3",
                              json={"secret": secret + "x"}).status_code == 403  # fmt: skip
            with contextlib.ExitStack() as stack:
                seats = {s: join(stack, base, game_id, tokens[s]) for s in HUMANS}
                play(seats, 0, turns=2)
        finally:
            stop_server(proc)
    text = log.read_text()
    assert f'POST /api/games/{game_id}/seats/3 HTTP/1.1" 403' in text  # requests are logged
    assert "WebSocket /api/games/" in text
    for secret_text in (secret, *tokens.values()):
        assert secret_text not in text


@pytest.mark.slow
def test_partners_on_two_processes_agree_on_the_next_deal(
    two_servers: tuple[list[str], list[Any], str],
) -> None:
    """Each wish reaches the partner on the other process (PostgreSQL announces a table's
    changes as it does a game's versions), and the next game is made once."""
    (a, b), _, url = two_servers
    game_id, tokens = table(a, 24)
    with contextlib.ExitStack() as stack:
        seats = {0: join(stack, a, game_id, tokens[0]), 2: join(stack, b, game_id, tokens[2])}
        play(seats, 0)
        seats[0].ws.send_json({"type": "agree", "kind": "new"})
        while seats[2].table["agreed"] != {"0": "new"}:
            seats[2].take(seats[2].next())
        seats[2].ws.send_json({"type": "agree", "kind": "new"})
        for s in seats.values():
            while not s.table["next"]:
                s.take(s.next())
        assert seats[0].table["next"] == seats[2].table["next"]
        nxt = seats[0].table["next"]
    with Store(url) as store:
        assert store.tables.options(game_id).next_game == nxt
        assert store.get(nxt) is not None and store.get(nxt).seed != store.get(game_id).seed
    with contextlib.ExitStack() as stack:  # the same tokens, on either process
        north = join(stack, a, nxt, tokens[2])
        assert north.last["seat"] == 2 and north.table["humans"] == [0, 2]
