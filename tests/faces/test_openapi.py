"""The OpenAPI document is true: schemathesis sends generated requests (valid and invalid) to
a real server and checks every answer against the document (status codes, bodies, headers),
with all its checks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from tarocchi.web.app import create_app
from tests.conftest import free_port, start_server, stop_server

EXAMPLES = 40  # per operation and phase: bounded, the suite's time is shared


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield a running server's base URL and a game on it (its id and token)."""
    port = free_port()
    proc = start_server(tmp_path_factory.mktemp("openapi") / "games.sqlite3", port)
    base = f"http://127.0.0.1:{port}"
    try:
        data = httpx.post(f"{base}/api/games", json={"game": "piedicavallo", "level": "random"},
                          timeout=60).json()  # fmt: skip
        yield base, data
    finally:
        stop_server(proc)


# the document the app publishes (the test below checks the running server serves it)
schema = schemathesis.openapi.from_dict(create_app().openapi())


@schema.hook
def filter_case(context: Any, case: Any) -> bool:
    """Leave out two kinds of bodies the document cannot tell from valid ones, as JSON
    Schema reads numbers: an integer written as a float (5.0 is an "integer" to JSON Schema;
    the API refuses it, as issue 22 asks: strict types), and a seed within 2^12 of its bound
    2^64 (the generator compares it as a 64-bit float, which cannot tell 2^64 + 382 from
    2^64; the server compares integers exactly)."""
    body = case.body if isinstance(case.body, dict) else {}
    if any(isinstance(v, float) for v in body.values()):
        return False
    seed = body.get("seed")
    return not isinstance(seed, int) or abs(seed - 2**64) > 2**12


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
    assert {"200", "401", "403", "404", "409", "413", "422", "429", "503"} <= set(act)
    assert act["422"]["content"]["application/json"]["schema"]["$ref"].endswith("/Malformed")
    review = spec["paths"]["/api/games/{game_id}/review"]
    assert {"200", "202", "409"} <= set(review["post"]["responses"])
    assert {"200", "401", "403", "404", "409"} <= set(review["get"]["responses"])
    for path in spec["paths"].values():
        for op in path.values():
            for status, answer in op["responses"].items():
                assert "content" in answer, (op["operationId"], status)
    assert not any(p.startswith(("/play", "/rules", "/traditions")) for p in spec["paths"])
