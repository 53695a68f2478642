"""The OpenAPI document is true: schemathesis sends generated requests (valid and invalid) to
a real server and checks every answer against the document (status codes, bodies, headers),
with all its checks and no filter: from pytest (half the valid requests on a real game) and
as a plain `st run` of every phase (coverage, fuzzing, stateful)."""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from tarocchi.web.app import create_app
from tests.conftest import free_port, start_server, stop_server

EXAMPLES = 40  # per operation and phase: bounded, the suite's time is shared


@contextlib.contextmanager
def running(folder: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Run a server on a database in folder; yield its base URL and a game on it (its id
    and token)."""
    port = free_port()
    proc = start_server(folder / "games.sqlite3", port)
    base = f"http://127.0.0.1:{port}"
    try:
        data = httpx.post(f"{base}/api/games", json={"game": "piedicavallo", "level": "random"},
                          timeout=60).json()  # fmt: skip
        yield base, data
    finally:
        stop_server(proc)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield a running server's base URL and a game on it (its id and token)."""
    with running(tmp_path_factory.mktemp("openapi")) as served:
        yield served


# the document the app publishes (the test below checks the running server serves it)
schema = schemathesis.openapi.from_dict(create_app().openapi())


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
def test_the_api_keeps_its_document(case: Any, api: tuple[str, dict[str, Any]]) -> None:
    base, game = api
    positive = case.meta is None or case.meta.generation.mode.is_positive
    # half the valid requests open the real game, so the checks reach past the 404
    if positive and "game_id" in (case.path_parameters or {}) and hash(repr(case.body)) % 2:
        case.path_parameters["game_id"] = game["id"]
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {game['token']}"}
    case.call_and_validate(base_url=base, timeout=60)


def test_a_plain_schemathesis_run_passes(tmp_path: Path) -> None:
    """`st run` with every check, as a user would run it (its own files in tmp_path), on a
    server of its own: the test above spends this client's rate of new deals (two routes
    deal one), and a client told to wait is answered 429 whatever it asks."""
    st = Path(sys.executable).parent / "st"
    with running(tmp_path) as (base, _):
        run = subprocess.run(
            [str(st), "--no-color", "run", f"{base}/openapi.json", "--checks", "all",
             "--max-examples", "10", "--workers", "1"],
            cwd=tmp_path, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
    assert run.returncode == 0, run.stdout[-4000:]
    summary = re.search(r"(\d+) generated, (\d+) passed", run.stdout)
    assert summary and summary[1] == summary[2] != "0", run.stdout[-4000:]


def test_the_document_names_games_levels_and_actions(api: tuple[str, dict[str, Any]]) -> None:
    """Enumerations for game and level, a pattern for action, SVG images, every error."""
    spec = httpx.get(f"{api[0]}/openapi.json").json()
    assert spec == create_app().openapi()
    bodies = spec["components"]["schemas"]
    assert bodies["NewGame"]["properties"]["game"]["enum"] == ["minchiate", "ottocento",
                                                             "piedicavallo"]  # fmt: skip
    level = bodies["NewGame"]["properties"]["level"]["anyOf"][0]
    assert set(level["enum"]) == {"random", "heuristic", "easy", "normal", "hard"}
    assert "MATTO" in bodies["Action"]["properties"]["action"]["pattern"]
    card = spec["paths"]["/cards/{game_name}/{code}.svg"]["get"]["responses"]["200"]
    assert list(card["content"]) == ["image/svg+xml"]
    act = spec["paths"]["/api/games/{game_id}/actions"]["post"]["responses"]
    assert {"200", "401", "403", "404", "409", "413", "422", "429", "431", "503"} <= set(act)
    got = spec["paths"]["/api/games/{game_id}"]["get"]["responses"]
    assert {"200", "401", "403", "404", "409", "413", "422", "431", "503"} == set(got)
    record = spec["paths"]["/api/games/{game_id}/record"]["get"]["responses"]
    assert {"409", "413", "503"} <= set(record)
    seed = bodies["NewGame"]["properties"]["seed"]["anyOf"][0]
    assert (seed["minimum"], seed["maximum"]) == (0, 2**64 - 1)  # exact integers
    version = bodies["Action"]["properties"]["version"]
    assert version["type"] == "integer" and type(version["maximum"]) is int
    assert act["422"]["content"]["application/json"]["schema"]["$ref"].endswith("/Malformed")
    review = spec["paths"]["/api/games/{game_id}/review"]
    assert {"200", "202", "409"} <= set(review["post"]["responses"])
    assert {"200", "401", "403", "404", "409"} <= set(review["get"]["responses"])
    for path in spec["paths"].values():
        for op in path.values():
            for status, answer in op["responses"].items():
                assert "content" in answer, (op["operationId"], status)
    assert not any(p.startswith(("/play", "/rules", "/traditions")) for p in spec["paths"])
