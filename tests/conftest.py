"""Shared fixtures: a real `tarocchi serve` process for browser and server tests, and a real
PostgreSQL server of the session's own, so that the store's and the API's tests run on both
backends (`db_url`)."""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import httpx
import psycopg
import pytest

OUTPUT = Path(__file__).parent.parent / "test-output"
SERVER_FIXTURES = {"server", "postgres", "browser"}
MEASURE_TIMEOUT_S = 1200


# the 1,000-deal checks of every view: the fast tier (`make check`) plays the first 200 deals,
# `make test` all of them
THOUSAND_DEALS = pytest.mark.parametrize(
    "seeds",
    [range(200), pytest.param(range(200, 1000), marks=pytest.mark.slow)],
    ids=["first-200", "the-other-800"],
)


def examples(fast: int, more: int) -> pytest.MarkDecorator:
    """Parametrize a property test by how many examples it draws (its `examples` argument):
    `fast` in the fast tier, `more` besides in `make test` (marked `slow`), as THOUSAND_DEALS
    splits its deals."""
    return pytest.mark.parametrize(
        "examples", [fast, pytest.param(more, marks=pytest.mark.slow)], ids=[str(fast), str(more)]
    )


def one_fast(values: Iterable[str], fast: str = "piedicavallo") -> list[Any]:
    """Return a parametrization over values whose one `fast` value runs in the fast tier and
    the others in `make test` (marked `slow`): for a costly check alike in every game."""
    return [v if v == fast else pytest.param(v, marks=pytest.mark.slow) for v in values]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `server` every test that starts a real server: by its fixtures, by running on the
    PostgreSQL backend, or in a module that starts servers itself (it imports start_server
    or Postgres); give the measurements a longer timeout."""
    for item in items:
        params = getattr(item, "callspec", None)
        on_postgres = params is not None and "postgresql" in params.params.values()
        module = getattr(item, "module", None)
        starts = hasattr(module, "start_server") or hasattr(module, "Postgres")
        if on_postgres or starts or SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.server)
        # a measurement plays many deals on purpose: it gets longer than the 300 s that
        # catches a hung test elsewhere
        if item.get_closest_marker("measure") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(MEASURE_TIMEOUT_S))


def auth(token: str) -> dict[str, str]:
    """Return the headers that present a game's bearer token."""
    return {"Authorization": f"Bearer {token}"}


def answered(view: dict[str, Any]) -> dict[str, Any]:
    """Return a reloaded game's view as an action's answer gives it: without the deal's
    history (an answer tells its own events instead)."""
    return {k: v for k, v in view.items() if k != "history"}


def free_port() -> int:
    """Return a free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    db: Path | str, port: int, *options: str, stderr: IO[bytes] | int = subprocess.DEVNULL
) -> subprocess.Popen[bytes]:
    """Start `tarocchi serve` in its own process group and wait until it answers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(port), "--db", str(db),
         *options],
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
    proc.wait(timeout=60)  # a loaded machine stops the AI workers slowly


@pytest.fixture(scope="session", autouse=True)
def kept_deals(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Keep the terminal's deals (`tarocchi history`) in a folder of the session's, never in
    the user's own data folder."""
    folder = tmp_path_factory.mktemp("data")
    before = os.environ.get("TAROCCHI_DATA")
    os.environ["TAROCCHI_DATA"] = str(folder)
    yield folder
    if before is None:
        del os.environ["TAROCCHI_DATA"]
    else:
        os.environ["TAROCCHI_DATA"] = before


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Yield the base URL of a running server with a fresh database."""
    port = free_port()
    proc = start_server(tmp_path_factory.mktemp("srv") / "games.sqlite3", port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(proc)


BACKENDS = ("sqlite", "postgresql")


def postgres_bin() -> Path:
    """Return the folder of PostgreSQL's server programs (Debian keeps them off the PATH)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parts[4]))
    on_path = shutil.which("pg_ctl")
    if found or on_path:
        return found[-1].parent if found else Path(on_path or "").resolve().parent
    raise RuntimeError("PostgreSQL is missing: `make test` installs Debian's postgresql package")


class Postgres:
    """A PostgreSQL server in a temporary data directory on a free loopback port, run as the
    unprivileged `postgres` user when the tests run as root (CI does), trusting local users."""

    def __init__(self) -> None:
        self.bin = postgres_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="tarocchi-pg-"))
        self.port = free_port()
        self.names = itertools.count()
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_owner:
            shutil.chown(self.dir, "postgres", "postgres")
        self.run("initdb", "-D", "data", "-U", "postgres", "--auth=trust", "-E", "UTF8",
                 "--no-sync", "--no-instructions")  # fmt: skip
        self.start()

    def run(self, program: str, *args: str) -> None:
        """Run one of PostgreSQL's programs in the server's folder, as its owner."""
        subprocess.run([*self.as_owner, str(self.bin / program), *args], cwd=self.dir,
                       check=True, capture_output=True)  # fmt: skip

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.run("pg_ctl", "-D", "data", "-l", "server.log", "-o", options, "-w", "start")

    def stop(self) -> None:
        """Stop the server (fast: open connections are ended, as in a real restart)."""
        self.run("pg_ctl", "-D", "data", "-m", "fast", "-w", "stop")

    def url(self, name: str = "postgres") -> str:
        """Return the URL of one of the server's databases."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def new_database(self) -> str:
        """Create an empty database; return its URL."""
        name = f"test{next(self.names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def destroy(self) -> None:
        """Stop the server and delete its files."""
        try:
            self.stop()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """Yield the session's PostgreSQL server (started on first use, stopped at the end)."""
    server = Postgres()
    try:
        yield server
    finally:
        server.destroy()


def new_database(request: pytest.FixtureRequest, backend: str, folder: Path) -> str:
    """Return the address of a fresh, empty database of a backend: a file or a URL."""
    if backend == "sqlite":
        return str(folder / "games.sqlite3")
    server: Postgres = request.getfixturevalue("postgres")
    return server.new_database()


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Return a fresh database on each backend in turn."""
    return new_database(request, request.param, tmp_path)


@pytest.fixture
def store(db_url: str) -> Iterator[Any]:
    """Return a store on each backend's fresh database, at the current schema."""
    from tarocchi.web.store import Store

    with Store(db_url) as s:
        s.upgrade()
        yield s


def store_of(client: Any) -> Any:
    """Return the store behind an API test client (a tarocchi.web.store.Store)."""
    return client.app.state.games.store


def api_client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, ai_workers: int
) -> Iterator[Any]:
    """Yield a test client of the app on a fresh database of the backend the request names
    (the body of the API tests' module-scoped `client` fixtures)."""
    from fastapi.testclient import TestClient

    from tarocchi.web.app import create_app

    db = new_database(request, request.param, tmp_path_factory.mktemp("db"))
    with TestClient(create_app(db, ai_workers=ai_workers)) as c:
        yield c
