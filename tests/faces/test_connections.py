"""Abuse of a real `tarocchi serve`'s connections (issue 32): huge or too many headers, a
header line every few seconds, idle connections by the hundred. Each is refused or cut off
in bounded time, the server's memory stays put, and another client is served meanwhile."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.sync.client import connect as ws_connect
from websockets.uri import parse_uri

from tests.conftest import free_port, start_server, stop_server

REQUEST_S, KEEP_ALIVE_S, PER_CLIENT, WS_PING_S = 2, 1, 8, 1
MB = 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    """Yield the port and the process id of a server with short bounds."""
    port = free_port()
    proc = start_server(
        tmp_path_factory.mktemp("conn") / "games.sqlite3", port, "--ai-workers", "1",
        "--request-timeout", str(REQUEST_S), "--keep-alive", str(KEEP_ALIVE_S),
        "--client-connections", str(PER_CLIENT), "--ws-ping", str(WS_PING_S),
    )  # fmt: skip
    try:
        yield port, proc.pid
    finally:
        stop_server(proc)


def rss_mb(pid: int) -> float:
    """Return a process's resident memory in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def connect(port: int, source: str = "127.0.0.2") -> socket.socket:
    """Open a connection to the server from a loopback address other than the trusted
    proxy's (127.0.0.1: uncounted)."""
    return socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))


def answer(sock: socket.socket) -> bytes:
    """Return what the server sends until it closes the connection (b"" if it only
    closes it; a reset is a close)."""
    chunks = []
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


def served(port: int, source: str = "127.0.0.3") -> bool:
    """Tell whether another client (another address) gets an answer at once."""
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, timeout=10) as c:
        return c.get(f"http://127.0.0.1:{port}/healthz").status_code == 200


def huge_header(port: int) -> tuple[int, bytes]:
    """Send a 100 MB header line in pieces; return the bytes sent before the server stopped
    taking them, and its answer."""
    sock = connect(port)
    sent = 0
    try:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        piece = b"a" * MB
        while sent < 100 * MB:
            sock.sendall(piece)
            sent += len(piece)
    except OSError:
        pass  # refused: the server closed the connection
    with sock:
        return sent, answer(sock)


def test_huge_headers_are_refused_unread(server: tuple[int, int]) -> None:
    """Four clients each sending a 100 MB header at once: each gets 431 (or a closed
    connection) after a few MB at most, and the server's memory stays put."""
    port, pid = server
    before = rss_mb(pid)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(huge_header, [port] * 4))
        assert served(port)
    for sent, reply in results:
        assert sent < 20 * MB  # what the sockets' buffers held, not the header
        assert reply == b"" or reply.startswith(b"HTTP/1.1 431 "), reply[:200]
    assert rss_mb(pid) - before < 20
    # a whole head over the bound, in one piece, is refused too
    with connect(port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n")
        reply = answer(sock)
    assert reply.startswith(b"HTTP/1.1 431 ") and b"X-Frame-Options: DENY" in reply


def test_too_many_headers_are_refused(server: tuple[int, int]) -> None:
    lines = b"".join(b"X-H%d: 1\r\n" % i for i in range(150))
    with connect(port := server[0]) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + lines + b"\r\n")
        reply = answer(sock)
    assert reply.startswith(b"HTTP/1.1 431 "), reply[:200]
    assert b"more than 100 headers" in reply and b"x-frame-options: DENY" in reply
    assert served(port)


def test_a_slow_request_is_cut_off(server: tuple[int, int]) -> None:
    """A header line every half second (slowloris), and a body that stops halfway: each
    gets 408 once the request timeout has passed, and another client is served meanwhile."""
    port, _ = server

    def drip(head: bytes, lines: list[bytes]) -> tuple[float, bytes]:
        start = time.monotonic()
        with connect(port) as sock:
            sock.sendall(head)
            try:
                for line in lines:
                    time.sleep(0.5)
                    sock.sendall(line)
            except OSError:
                pass
            return time.monotonic() - start, answer(sock)

    post = (b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{")  # fmt: skip
    with ThreadPoolExecutor(2) as pool:
        slow_head = pool.submit(drip, b"GET /healthz HTTP/1.1\r\n", [b"X-A: 1\r\n"] * 40)
        slow_body = pool.submit(drip, post, [b" "] * 40)
        time.sleep(0.5)
        assert served(port)
        for job in (slow_head, slow_body):
            took, reply = job.result()
            assert REQUEST_S <= took < REQUEST_S + 5  # 40 lines would take 20 s
            assert reply.startswith(b"HTTP/1.1 408 "), reply[:200]


def test_idle_connections_are_bounded_and_closed(server: tuple[int, int]) -> None:
    """300 idle connections from one address: all past PER_CLIENT are refused (429) at
    once, the rest closed after the request timeout; other addresses are served all along,
    the server's memory stays put; a kept-alive connection closes after KEEP_ALIVE_S."""
    port, pid = server
    before = rss_mb(pid)
    start = time.monotonic()  # the kept connections' deadlines run from their opening
    socks = [connect(port) for _ in range(300)]
    opening = time.monotonic() - start
    try:
        assert served(port) and served(port, "127.0.0.1")  # another client, the proxy
        refused = []
        for sock in socks[PER_CLIENT:]:
            reply = answer(sock)
            refused.append(reply.split(b"\r\n", 1)[0])
        assert set(refused) == {b"HTTP/1.1 429 Too Many Requests"}
        closed = [answer(sock) for sock in socks[:PER_CLIENT]]
        assert closed == [b""] * PER_CLIENT  # closed without a word: nothing was asked
        assert REQUEST_S - 0.1 <= time.monotonic() - start < REQUEST_S + opening + 5
        assert rss_mb(pid) - before < 20
    finally:
        for sock in socks:
            sock.close()
    with connect(port) as sock:  # once closed, the address may connect again
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        time.sleep(0.2)
        start = time.monotonic()
        reply = answer(sock)
    assert reply.startswith(b"HTTP/1.1 200 ") and b'{"status":"ok"}' in reply
    assert time.monotonic() - start < KEEP_ALIVE_S + 2


def test_invalid_http_gets_400_with_the_security_headers(server: tuple[int, int]) -> None:
    for junk in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"):
        with connect(server[0]) as sock:
            sock.sendall(junk)
            reply = answer(sock)
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400 ") and b"X-Frame-Options: DENY" in head, reply
        assert b"Content-Security-Policy: default-src 'self'" in head
        assert body == b'{"detail": "the request is not valid HTTP/1.1"}'


def test_bad_bounds_are_refused_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tarocchi.cli import main
    from tarocchi.web.settings import DB_ENV

    monkeypatch.setenv(DB_ENV, "")  # serve sets it for its workers: restored at the end
    for option, value in (("--header-bytes", "100"), ("--request-timeout", "0"),
                          ("--client-connections", "0"), ("--keep-alive", "99999"),
                          ("--ws-ping", "0")):  # fmt: skip
        assert main(["serve", "--db", str(tmp_path / "g.sqlite3"), option, value]) == 2
        assert option in capsys.readouterr().err


def test_a_trusted_proxy_is_not_counted(server: tuple[int, int]) -> None:
    """The proxy's address (127.0.0.1, trusted to forward) may hold more than PER_CLIENT
    connections: it speaks for many clients."""
    socks = [connect(server[0], "127.0.0.1") for _ in range(PER_CLIENT + 4)]
    try:
        for sock in socks:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        replies = [answer(sock) for sock in socks]
    finally:
        for sock in socks:
            sock.close()
    assert all(r.startswith(b"HTTP/1.1 200 ") for r in replies), {r[:40] for r in replies}


def test_websockets_are_bounded_and_counted_while_open(server: tuple[int, int]) -> None:
    """A live connection counts against its client while it is open, and no longer once
    closed; a frame over 4 KB closes it (1009) unread: the table's own refusal of a long
    message, an error message before the close, never comes."""
    port, _ = server
    url = f"ws://127.0.0.1:{port}/api/games/none/live"
    for _ in range(2 * PER_CLIENT):  # each closed in turn: none stays counted
        with ws_connect(url, sock=connect(port)) as ws:
            ws.send(json.dumps({"type": "hello", "token": "x"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "error"  # no such game
    with contextlib.ExitStack() as held:
        for _ in range(PER_CLIENT):
            held.enter_context(ws_connect(url, sock=connect(port)))
        with connect(port) as sock:
            assert answer(sock).startswith(b"HTTP/1.1 429 ")
    time.sleep(0.5)
    with ws_connect(url, sock=connect(port), max_size=None) as ws:
        ws.send("x" * 5000)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_live_connection_answering_no_ping_is_cut_off(server: tuple[int, int]) -> None:
    """A seat's live connection whose client reads the server's pings but never answers
    them is closed (1011) once --ws-ping seconds have passed without an answer, long before
    the table's own idle timeout (30 s, 4408) would close it."""
    port, _ = server
    made = httpx.post(f"http://127.0.0.1:{port}/api/games", json={"game": "piedicavallo",
                      "level": "random", "seed": 3}, timeout=60).json()  # fmt: skip
    client = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/api/games/{made['id']}/live"))
    client.send_request(client.connect())
    pings, texts = 0, []
    with connect(port) as sock:
        sock.sendall(b"".join(client.data_to_send()))
        while client.handshake_exc is None and client.state is State.CONNECTING:
            client.receive_data(sock.recv(65536))
        client.send_text(json.dumps({"type": "hello", "token": made["token"]}).encode())
        start = time.monotonic()
        sock.sendall(b"".join(client.data_to_send()))  # the hello; no pong ever follows
        while chunk := sock.recv(65536):
            client.receive_data(chunk)
            for event in client.events_received():
                if isinstance(event, Frame):
                    pings += event.opcode is Opcode.PING
                    texts += [event.data] if event.opcode is Opcode.TEXT else []
        elapsed = time.monotonic() - start
    assert json.loads(texts[0])["type"] == "state"  # the seat was live
    assert pings == 1 and client.close_rcvd is not None and client.close_rcvd.code == 1011
    assert elapsed < 2 * WS_PING_S + 5
