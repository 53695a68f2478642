"""The JSON API: creating, reading and playing games; bad input; no hidden card in a response."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tarocchi.games import GAMES, game
from tarocchi.views import to_json, view
from tarocchi.web.api import rebuild
from tarocchi.web.app import create_app
from tests.conftest import BACKENDS, new_database


@pytest.fixture(scope="module", params=BACKENDS)
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    db = new_database(request, request.param, tmp_path_factory.mktemp("db"))
    with TestClient(create_app(db, ai_workers=2)) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(client: TestClient, name: str = "piedicavallo", **extra: Any) -> dict[str, Any]:
    res = client.post("/api/games", json={"game": name, "level": "random", **extra})
    assert res.status_code == 201, res.text
    data: dict[str, Any] = res.json()
    return data


def play_to_end(client: TestClient, data: dict[str, Any]) -> dict[str, Any]:
    version, v = data["version"], data["view"]
    while not v["over"]:
        res = client.post(f"/api/games/{data['id']}/actions", headers=auth(data["token"]),
                          json={"action": v["legal"][0], "version": version})  # fmt: skip
        assert res.status_code == 200, res.text
        body = res.json()
        version, v = body["version"], body["view"]
    return v


def test_create_read_and_play_a_whole_deal(client: TestClient) -> None:
    data = new_game(client, seed=77)
    assert {"id", "token", "version", "view", "events"} <= set(data)
    v = data["view"]
    for key in ("hand", "legal", "phase", "trick", "over"):
        assert key in v
    assert v["to_move"] == 0 and v["legal"] and not v["over"]
    assert "seed" not in v  # the seed would tell every card
    assert data["version"] == len(data["events"])
    got = client.get(f"/api/games/{data['id']}", headers=auth(data["token"]))
    assert got.status_code == 200 and got.json()["view"] == v
    res = client.get(f"/api/games/{data['id']}/record", headers=auth(data["token"]))
    assert res.status_code == 409
    end = play_to_end(client, data)
    assert end["over"] and end["result"]["ns"] + end["result"]["ew"] == 114
    assert end["seed"] == 77
    rec = client.get(f"/api/games/{data['id']}/record", headers=auth(data["token"]))
    assert rec.status_code == 200
    record = rec.json()
    assert record["format"] == "tarocchi-record" and record["seed"] == 77
    assert record["players"][0]["kind"] == "human"
    assert len(record["tricks"]) == 15


def test_events_animate_the_ai_moves(client: TestClient) -> None:
    data = new_game(client, seed=5)
    body = client.post(f"/api/games/{data['id']}/actions", headers=auth(data["token"]),
                       json={"action": data["view"]["legal"][0],
                             "version": data["version"]}).json()  # fmt: skip
    events = body["events"]
    assert events[0]["seat"] == 0 and events[0]["action"] == data["view"]["legal"][0]
    assert all("action" not in e for e in events[1:])  # AI actions are told only as changes
    assert body["version"] == data["version"] + len(events)


def test_unknown_missing_and_wrong_tokens(client: TestClient) -> None:
    data = new_game(client)
    assert client.get("/api/games/nope", headers=auth(data["token"])).status_code == 404
    assert client.get(f"/api/games/{data['id']}").status_code == 401
    assert client.get(f"/api/games/{data['id']}", headers=auth("bad")).status_code == 403
    body = {"action": data["view"]["legal"][0], "version": data["version"]}
    assert client.post(f"/api/games/{data['id']}/actions", json=body).status_code == 401
    res = client.post(f"/api/games/{data['id']}/actions", headers=auth("x"), json=body)
    assert res.status_code == 403


def test_bad_actions_change_nothing(client: TestClient) -> None:
    rules = game("piedicavallo")
    data = new_game(client, seed=next(s for s in range(50) if rules.deal(s).dealer != 0))
    url, h, version = f"/api/games/{data['id']}/actions", auth(data["token"]), data["version"]
    v = data["view"]
    illegal = [c for c in v["hand"] if c not in v["legal"]]
    if illegal:
        res = client.post(url, headers=h, json={"action": illegal[0], "version": version})
        assert res.status_code == 409
        assert res.json()["detail"] == v["illegal"][illegal[0]]
    not_mine = next(c for c in rules.pack.codes if c not in v["hand"])
    res = client.post(url, headers=h, json={"action": not_mine, "version": version})
    assert res.status_code == 409 and "not in your hand" in res.json()["detail"]
    res = client.post(url, headers=h, json={"action": "ZZ-1", "version": version})
    assert res.status_code == 422 and "no card" in res.json()["detail"]
    res = client.post(url, headers=h, json={"action": v["legal"][0], "version": version + 3})
    assert res.status_code == 409 and "stale version" in res.json()["detail"]
    res = client.post(url, headers={**h, "Content-Type": "application/json"}, content=b"{nope")
    assert res.status_code == 422
    res = client.post(url, headers=h, json={"card": "CU-3"})
    assert res.status_code == 422
    after = client.get(f"/api/games/{data['id']}", headers=h).json()
    assert after["version"] == version and after["view"] == v


def test_the_default_level_is_normal(client: TestClient) -> None:
    res = client.post("/api/games", json={"game": "piedicavallo", "seed": 3})
    assert res.status_code == 201 and res.json()["view"]["level"] == "normal"
    for level in ("easy", "hard"):
        res = client.post("/api/games", json={"game": "piedicavallo", "level": level, "seed": 3})
        assert res.status_code == 201 and res.json()["view"]["level"] == level


def test_bad_creation_requests(client: TestClient) -> None:
    assert client.post("/api/games", json={"game": "scopa"}).status_code == 422
    assert client.post("/api/games", json={"game": "piedicavallo", "level": "god"}).status_code \
        == 422  # fmt: skip
    assert client.post("/api/games", json={"game": "piedicavallo", "seed": -1}).status_code == 422
    assert client.post("/api/games", content=b"[]").status_code == 422


def test_openapi_is_published(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions",
                 "/api/games/{game_id}/record"):  # fmt: skip
        assert path in spec["paths"]


def test_concurrent_posts_for_one_version_apply_once(db_url: str) -> None:
    app = create_app(db_url, ai_workers=2)

    async def scenario() -> list[int]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                res = await c.post("/api/games", json={"game": "piedicavallo", "level": "random"})
                data = res.json()
                body = {"action": data["view"]["legal"][0], "version": data["version"]}
                h = auth(data["token"])
                url = f"/api/games/{data['id']}/actions"
                replies = await asyncio.gather(*[c.post(url, json=body, headers=h)
                                                 for _ in range(4)])  # fmt: skip
                final = (await c.get(f"/api/games/{data['id']}", headers=h)).json()
                ok = [r for r in replies if r.status_code == 200]
                assert len(ok) == 1 and final["version"] == ok[0].json()["version"]
                return sorted(r.status_code for r in replies)

    assert asyncio.run(scenario()) == [200, 409, 409, 409]


def codes_in(obj: Any, codes: set[str]) -> set[str]:
    if isinstance(obj, str):
        return {obj} & codes
    if isinstance(obj, dict):
        return set().union(set(), *(codes_in(v, codes) for k, v in obj.items()))
    if isinstance(obj, list):
        return set().union(set(), *(codes_in(v, codes) for v in obj))
    return set()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_response_reveals_a_hidden_card(client: TestClient, name: str) -> None:
    """Through the API, every response holds only cards South's own view holds."""
    rules = game(name)
    codes = set(rules.pack.codes)
    store = client.app.state.games.store  # type: ignore[attr-defined]
    for seed in range(6):
        data = new_game(client, name, seed=seed)
        version, response = data["version"], data
        while True:
            row = store.get(data["id"])
            state = rebuild(rules, seed, row.actions)
            allowed = codes_in(to_json(view(state, 0)), codes)
            if not response["view"]["over"]:
                assert codes_in(response, codes) <= allowed, (name, seed, version)
            else:
                break
            legal = response["view"]["legal"]
            response = client.post(f"/api/games/{data['id']}/actions", headers=auth(data["token"]),
                                   json={"action": legal[seed % len(legal)],
                                         "version": version}).json()  # fmt: skip
            version = response["version"]


def test_pages_and_cards_are_served(client: TestClient) -> None:
    for name in GAMES:
        page = client.get(f"/play/{name}")
        assert page.status_code == 200 and 'data-game="' + name + '"' in page.text
        assert client.get(f"/cards/{name}/MATTO.svg").headers["content-type"].startswith(
            "image/svg+xml")  # fmt: skip
        assert client.get(f"/cards/{name}/back.svg").status_code == 200
        assert client.get(f"/api/packs/{name}").json()["cards"]
    assert client.get("/play/scopa").status_code == 404
    assert client.get("/cards/piedicavallo/ZZ.svg").status_code == 404
    assert client.get("/static/play.js").status_code == 200


def test_hint_ranks_the_legal_actions(client: TestClient) -> None:
    data = new_game(client, seed=21)
    url = f"/api/games/{data['id']}/hint"
    assert client.get(url).status_code == 401
    res = client.get(url, headers=auth(data["token"]))
    assert res.status_code == 200
    ranked = res.json()["suggestions"]
    assert sorted(h["action"] for h in ranked) == sorted(data["view"]["legal"])
    assert all(h["reason"] for h in ranked)
    codes = set(game("piedicavallo").pack.codes)
    assert codes_in(res.json(), codes) <= set(data["view"]["hand"])
