"""The terminal as a client of a real server. `tarocchi join URL` takes North's seat from
its invitation link and plays a whole deal with South, a second human on the live protocol
without a browser, in Italian: an action typed out of turn is refused in Italian, a dropped
connection is made again from the last version seen (no card missed, none told twice), and
the result is shown. `tarocchi play GAME --daily` plays today's deal through the site's API:
the device's first try is scored (its rank printed, the site's results agreeing), the next
is practice."""

from __future__ import annotations

import contextlib
import http.cookiejar
import io
import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tarocchi.games import game
from tarocchi.games.replay import replay
from tarocchi.i18n import translator
from tarocchi.remote import COOKIES, join
from tarocchi.terminal import DATA_ENV
from tarocchi.views import to_json, view
from tests.conftest import auth

GAME = "piedicavallo"
IT = translator("it")


class Proxy:
    """A TCP relay to the server whose connections the test can cut (a dropped network)."""

    def __init__(self, port: int) -> None:
        self.upstream = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open: list[socket.socket] = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            far = socket.create_connection(("127.0.0.1", self.upstream))
            self.open += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=pump, args=(a, b), daemon=True).start()

    def cut(self) -> None:
        """Drop every connection open through the relay."""
        for s in self.open:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        self.open.clear()

    def close(self) -> None:
        self.cut()
        self.listener.close()


def pump(a: socket.socket, b: socket.socket) -> None:
    try:
        while data := a.recv(65536):
            b.sendall(data)
    except OSError:
        pass
    for s in (a, b):
        with contextlib.suppress(OSError):
            s.shutdown(socket.SHUT_RDWR)


def south(base: str, game_id: str, token: str, go: threading.Event) -> None:
    """Play South's seat on its live connection (no browser): the first legal action at
    each turn, waiting for `go` before its first."""
    url = base.replace("http", "ws", 1) + f"/api/games/{game_id}/live"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        acted = -1
        while True:
            message = json.loads(ws.recv(timeout=120))
            if message["type"] not in ("state", "update"):
                continue
            v = message["view"]
            if v["over"]:
                return
            if v["to_move"] == 0 and acted != message["version"]:
                go.wait(120)
                acted = message["version"]
                ws.send(json.dumps({"type": "act", "id": f"s{acted}", "action": v["legal"][0],
                                    "version": acted}))  # fmt: skip


def south_while_open(base: str, game_id: str, token: str, go: threading.Event) -> None:
    """Play South's seat until the deal ends or the server closes the connection."""
    with contextlib.suppress(ConnectionClosed):
        south(base, game_id, token, go)


@pytest.fixture
def relay(server: str) -> Iterator[Proxy]:
    proxy = Proxy(int(server.rsplit(":", 1)[1]))
    yield proxy
    proxy.close()


def lines_of(proc: subprocess.Popen[str]) -> queue.Queue[str]:
    """Return a queue of the process's output lines as they come."""
    out: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            out.put(line)

    threading.Thread(target=read, daemon=True).start()
    return out


@pytest.mark.slow
def test_join_plays_a_whole_deal_out_of_turn_refused_and_a_drop_resumed(
    server: str, relay: Proxy, tmp_path: Path
) -> None:
    created = httpx.post(f"{server}/api/games", json={"game": GAME, "level": "random",
                                                      "seed": 7}).json()  # fmt: skip
    game_id, token = created["id"], created["token"]
    opened = httpx.post(f"{server}/api/games/{game_id}/seats/2/invitation", headers=auth(token))
    link = f"http://127.0.0.1:{relay.port}/play/{GAME}?table={game_id}&seat=2#"
    go = threading.Event()
    player = threading.Thread(target=south, args=(server, game_id, token, go), daemon=True)
    player.start()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tarocchi.cli", "join", link + opened.json()["secret"],
         "--lang", "it"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, DATA_ENV: str(tmp_path)},
    )  # fmt: skip
    assert proc.stdin is not None
    out = lines_of(proc)
    transcript: list[str] = []
    turns = 0
    deadline = time.time() + 300
    try:
        while proc.poll() is None or not out.empty():
            assert time.time() < deadline, "".join(transcript)
            try:
                line = out.get(timeout=1)
            except queue.Empty:
                continue
            transcript.append(line)
            if IT.seat(0) in line and "..." in line and not go.is_set():
                # South is to move and holds: a card typed now is out of turn
                proc.stdin.write("SW-K\n")
                proc.stdin.flush()
            elif IT.gettext("it is not your turn") in line:
                go.set()
            elif " -- " in line and ":" in line and "1)" in line:  # North's turn
                turns += 1
                if turns == 3:
                    relay.cut()  # the network drops; the next line waits for a new one
                proc.stdin.write("1\n")
                proc.stdin.flush()
        assert proc.wait(10) == 0, "".join(transcript)
    finally:
        if proc.poll() is None:
            proc.kill()
    text = "".join(transcript)
    refused = IT.gettext("Not allowed: %(reason)s.") % {"reason": "non è il tuo turno"}
    assert refused in text  # the server's refusal, in Italian
    assert IT.gettext("Connection lost; connecting again...") in text
    assert IT.gettext("=== End of the deal ===") in text
    # every card played told exactly once, in the order of the deal's record
    record = httpx.get(f"{server}/api/games/{game_id}/record", headers=auth(token)).json()
    played = [p["card"] for t in record["tricks"] for p in t["plays"]]
    plays = " gioca "  # "%(seat)s plays %(card)s" in Italian
    told = [line.split(plays)[1].split(" ")[0] for line in transcript if plays in line]
    assert told == played
    assert turns >= 10
    # the deal is kept for `tarocchi history` as North saw it: North's own view and nothing
    # more (not the seed, which tells every card), counted for North's team
    (kept,) = (tmp_path / "deals").glob("*.json")
    entry = json.loads(kept.read_text(encoding="utf-8"))
    assert (entry["format"], entry["seat"], entry["level"]) == ("tarocchi-seat", 2, "random")
    rules = game(GAME)
    final = replay(rules, 7, [(a["seat"], a["action"]) for a in record["actions"]])
    seen = to_json(view(final, 2), IT)
    assert {k: v for k, v in entry["view"].items() if k in seen} == seen
    assert set(entry["view"]) - set(seen) == {"level", "title"}
    listed = subprocess.run([sys.executable, "-m", "tarocchi.cli", "history", "--lang", "en"],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, DATA_ENV: str(tmp_path)})  # fmt: skip
    margin = record["result"]["ns"] - record["result"]["ew"]
    assert "Piedicavallo Tarocchi  random  " in listed.stdout, listed.stdout
    assert f"{margin:+g}" in listed.stdout and "deals 1" in listed.stdout, listed.stdout


def test_join_hints_as_the_tables_creator_allows(server: str, tmp_path: Path) -> None:
    created = httpx.post(f"{server}/api/games", json={"game": GAME, "level": "random",
                                                      "seed": 8}).json()  # fmt: skip
    game_id, token = created["id"], created["token"]
    opened = httpx.post(f"{server}/api/games/{game_id}/seats/2/invitation", headers=auth(token))
    link = f"{server}/play/{GAME}?table={game_id}&seat=2#{opened.json()['secret']}"
    go = threading.Event()  # South plays once North's seat is taken (else the AI plays it)
    threading.Thread(target=south_while_open, args=(server, game_id, token, go), daemon=True
                     ).start()  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "tarocchi.cli", "join", link, "--lang", "it"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, DATA_ENV: str(tmp_path)},
    )  # fmt: skip
    assert proc.stdin is not None
    out = lines_of(proc)
    off = IT.gettext("No hint: %(reason)s") % {
        "reason": "i suggerimenti sono disattivati a questo tavolo: decide chi l'ha creato"
    }
    header = IT.gettext("Hint, best first (estimated final margin for your team; type a code "
                        "to play it):")  # fmt: skip
    said = {"turn": False, "off": False, "hint": False}
    transcript: list[str] = []
    deadline = time.time() + 120
    try:
        while not (said["hint"] and transcript[-1].startswith("  - ")):
            assert time.time() < deadline and proc.poll() is None, "".join(transcript)
            with contextlib.suppress(queue.Empty):
                line = out.get(timeout=1)
                transcript.append(line)
                go.set()  # (its first line comes once the seat is taken)
                if not said["turn"] and " -- " in line and "1)" in line:  # North's turn
                    said["turn"] = True  # two humans: hints are off until the creator allows
                    proc.stdin.write("hint\n")
                    proc.stdin.flush()
                elif off in line:
                    said["off"] = True
                    allowed = httpx.put(f"{server}/api/games/{game_id}/table",
                                        json={"hints": True}, headers=auth(token))  # fmt: skip
                    assert allowed.status_code == 200
                    proc.stdin.write("hint\n")
                    proc.stdin.flush()
                elif header in line:
                    said["hint"] = True
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(30) == 1
    finally:
        if proc.poll() is None:
            proc.kill()
    assert said == {"turn": True, "off": True, "hint": True}
    suggested = [line.split()[1] for line in transcript if line.startswith("  - ")]
    assert suggested  # the site's suggestions, each a card North may play


def test_join_refuses_a_link_that_is_none_and_a_wrong_secret(server: str) -> None:
    def join(url: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tarocchi.cli", "join", url, "--lang", "it"],
                              capture_output=True, text=True, input="", timeout=60)  # fmt: skip

    done = join(f"{server}/history")
    assert done.returncode == 2
    assert "non è un link d'invito" in done.stdout, done.stdout  # in Italian
    created = httpx.post(f"{server}/api/games", json={"game": GAME, "level": "random"}).json()
    httpx.post(f"{server}/api/games/{created['id']}/seats/1/invitation",
               headers=auth(created["token"]))  # fmt: skip
    done = join(f"{server}/play/{GAME}?table={created['id']}&seat=1#not-the-secret")
    assert done.returncode == 1
    assert IT.gettext("wrong invitation for this seat") in done.stdout
    assert "wrong invitation" not in done.stdout


def test_join_again_with_the_same_link_takes_the_seat_back(server: str) -> None:
    created = httpx.post(f"{server}/api/games", json={"game": GAME, "level": "random"}).json()
    opened = httpx.post(f"{server}/api/games/{created['id']}/seats/3/invitation",
                        headers=auth(created["token"]))  # fmt: skip
    link = f"{server}/play/{GAME}?table={created['id']}&seat=3#{opened.json()['secret']}"
    for _ in range(2):  # the second time with the seat's kept token: no "seat taken"
        done = subprocess.run([sys.executable, "-m", "tarocchi.cli", "join", link, "--lang", "en"],
                              capture_output=True, text=True, input="quit\n",
                              timeout=60)  # fmt: skip
        assert done.returncode == 1, done.stdout
        assert "you are West" in done.stdout and "You left the deal." in done.stdout
    seats = httpx.get(f"{server}/api/games/{created['id']}/seats", headers=auth(created["token"]))
    assert seats.json()["seats"] == [{"seat": 3, "taken": True}]


@pytest.mark.slow
def test_play_daily_today_is_the_devices_scored_try_then_practice(
    server: str, kept_deals: Path
) -> None:
    def play() -> str:
        done = subprocess.run(
            [sys.executable, "-m", "tarocchi.cli", "play", GAME, "--daily", "--server", server,
             "--lang", "it"],
            input="1\n" * 40, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    first = play()
    day = datetime.now(UTC).date().isoformat()
    assert "prova valida" in first  # "your scored try", in Italian
    assert IT.gettext("=== End of the deal ===") in first
    rank = IT.gettext("Your margin %(margin)s: you beat %(percentile)s%% of the field "
                      "(%(points)s matchpoints, %(tries)s scored tries).")  # fmt: skip
    shown = [line for line in first.splitlines() if line.startswith(rank.split("%")[0])]
    assert len(shown) == 1, first
    # the device's cookie is kept in the data folder: the site knows the try as this device's
    jar = http.cookiejar.LWPCookieJar(str(kept_deals / COOKIES))
    jar.load(ignore_discard=True)
    device = {c.name: c.value for c in jar}["tarocchi_device"]
    results = httpx.get(f"{server}/api/daily/{GAME}/{day}/results",
                        cookies={"tarocchi_device": device}).json()  # fmt: skip
    assert shown[0].startswith(rank.split("%(margin)s")[0] + f"{results['margin']:+g}:")
    assert results["tries"] == 1
    second = play()
    assert "allenamento" in second and "prova valida è" in second  # practice, in Italian
    assert rank.split("%")[0] not in second
    again = httpx.get(f"{server}/api/daily/{GAME}/{day}/results",
                      cookies={"tarocchi_device": device}).json()  # fmt: skip
    assert again["tries"] == 1 and again["margin"] == results["margin"]


def test_join_without_websockets_names_the_extra_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("websockets.asyncio", "websockets.asyncio.client"):  # not installed (even
        monkeypatch.setitem(sys.modules, name, None)  # where another test imported it already)
    out = io.StringIO()
    link = f"http://127.0.0.1:1/play/{GAME}?table=abc&seat=2#secret"
    assert join(link, io.StringIO(), out, "it") == 2
    assert "pip install 'tarocchi[client]'" in out.getvalue()
    assert out.getvalue().startswith("tarocchi join: questo comando")  # in Italian
