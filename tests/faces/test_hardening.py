"""What an answer must not tell or allow (issue 32): no AI thinking time, no caching of the
API's answers, the right Allow header and HEAD on pages, a short list of a body's errors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tarocchi.web.app import create_app
from tests.conftest import api_client, auth


@pytest.fixture(scope="module", params=["sqlite"])
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    yield from api_client(request, tmp_path_factory, ai_workers=1)


def play(client: TestClient, level: str, seed: int) -> list[Any]:
    """Play a deal to its end, South always its first legal action; return every answer."""
    res = client.post("/api/games", json={"game": "piedicavallo", "level": level, "seed": seed})
    answers = [res]
    data = res.json()
    h = auth(data["token"])
    version, v = data["version"], data["view"]
    while not v["over"]:
        res = client.post(f"/api/games/{data['id']}/actions", headers=h,
                          json={"action": v["legal"][0], "version": version})  # fmt: skip
        answers.append(res)
        version, v = res.json()["version"], res.json()["view"]
    answers += [client.get(f"/api/games/{data['id']}", headers=h),
                client.get(f"/api/games/{data['id']}/record", headers=h)]  # fmt: skip
    return answers


def test_no_answer_tells_how_long_the_ai_thought(client: TestClient) -> None:
    """A whole deal against the searching AI: no answer has a Server-Timing header (its AI
    share read 1-6 ms when every AI move was forced, 45-545 ms when one was searched)."""
    answers = play(client, "normal", 5)
    assert all(res.status_code in (200, 201) for res in answers)
    assert [res for res in answers if "server-timing" in res.headers] == []
    hint = client.get("/api/games/nope/hint", headers=auth("x"))
    assert "server-timing" not in hint.headers


@pytest.mark.slow
def test_the_bench_may_ask_for_the_servers_time(tmp_path: Path) -> None:
    """With timing on (`serve --server-timing`, for `python -m tools.load`), answers tell the AI's
    share and the server's own time."""
    with TestClient(create_app(tmp_path / "t.sqlite3", ai_workers=1, timing=True)) as timed:
        res = timed.post("/api/games", json={"game": "ottocento", "level": "random"})
        parts = dict(p.strip().split(";dur=") for p in res.headers["server-timing"].split(","))
        assert set(parts) == {"ai", "app"} and float(parts["app"]) >= float(parts["ai"]) >= 0


def test_api_answers_are_never_cached(client: TestClient) -> None:
    """Every API answer (the one carrying a game's token first) says `no-store`; card
    images stay cacheable."""
    answers = play(client, "random", 6)
    answers += [client.get("/api/games/nope", headers=auth("x")),
                client.post("/api/games", json={"game": "scopa"}),
                client.get("/api/packs/minchiate")]  # fmt: skip
    assert "token" in answers[0].json()
    assert {res.headers.get("cache-control") for res in answers} == {"no-store"}
    card = client.get("/cards/minchiate/T40.svg")
    assert card.headers["cache-control"] == "public, max-age=86400"


@pytest.mark.parametrize(
    ("method", "url", "allow"),
    [("DELETE", "/api/games", "POST"), ("PUT", "/api/games/abc", "GET, HEAD"),
     ("PATCH", "/api/games/abc/review", "GET, HEAD, POST"), ("POST", "/", "GET, HEAD"),
     ("DELETE", "/rules/ottocento", "GET, HEAD"), ("POST", "/healthz", "GET, HEAD"),
     ("POST", "/static/site.css", "GET, HEAD"), ("OPTIONS", "/play/minchiate", "GET, HEAD")],
)  # fmt: skip
def test_a_405_names_the_methods_allowed(
    client: TestClient, method: str, url: str, allow: str
) -> None:
    res = client.request(method, url)
    assert res.status_code == 405 and res.headers["allow"] == allow


@pytest.mark.parametrize("url", ["/", "/rules/ottocento", "/play/minchiate", "/healthz",
                                 "/cards/minchiate/T40.svg", "/static/site.css"])  # fmt: skip
def test_head_answers_as_get_without_the_body(client: TestClient, url: str) -> None:
    get, head = client.get(url), client.head(url)
    assert get.status_code == head.status_code == 200 and get.content and not head.content
    for name in ("content-type", "content-length", "x-frame-options"):
        assert head.headers[name] == get.headers[name]


def test_a_body_of_a_thousand_unknown_fields_gets_a_short_error(client: TestClient) -> None:
    body = {"game": "minchiate", **{f"field{i}": i for i in range(1000)}}
    res = client.post("/api/games", json=body, headers={"Accept-Language": "it"})
    assert res.status_code == 422 and len(res.content) < 2000
    errors = res.json()["errors"]
    assert [e["loc"] for e in errors] == [["body", f"field{i}"] for i in range(10)]
    assert res.json()["detail"].endswith("field9: campo sconosciuto; 990 altri problemi)")
