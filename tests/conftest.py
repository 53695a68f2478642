"""Shared fixtures: a real `tarocchi serve` process for browser and server tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import httpx
import pytest

OUTPUT = Path(__file__).parent.parent / "test-output"


def free_port() -> int:
    """Return a free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: Path, port: int, stderr: IO[bytes] | int = subprocess.DEVNULL
                 ) -> subprocess.Popen[bytes]:  # fmt: skip
    """Start `tarocchi serve` in its own process group and wait until it answers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True,
    )  # fmt: skip
    # a fresh checkout starts with numba's cache empty: the AI workers compile the playouts
    # before the server answers, which takes long while the rest of the suite fills both cores
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    raise AssertionError("the server did not start")


def stop_server(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Stop a server started by start_server (SIGKILL simulates a crash)."""
    os.killpg(proc.pid, sig)
    proc.wait(timeout=15)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Yield the base URL of a running server with a fresh database."""
    port = free_port()
    proc = start_server(tmp_path_factory.mktemp("srv") / "games.sqlite3", port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(proc)
