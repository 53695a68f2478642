"""The JSON API: creating, reading and playing games; bad input; no hidden card in a response."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tarocchi.games import GAMES, game
from tarocchi.games.replay import replay
from tarocchi.views import to_json, view
from tarocchi.web.app import create_app
from tarocchi.web.middleware import SECURITY_HEADERS
from tarocchi.web.rates import Rates
from tests.conftest import BACKENDS, answered, api_client, auth, one_fast


@pytest.fixture(scope="module", params=BACKENDS)
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    # one AI worker: a test client asks one thing at a time (the pool's concurrency has its
    # own tests), and each worker costs seconds of CPU to start in each module using this
    yield from api_client(request, tmp_path_factory, ai_workers=1)


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
    # a reload reads the same view, with the deal's history that the answers told as events
    assert got.status_code == 200
    assert got.json()["view"] == {**v, "history": [c for e in data["events"] for c in e["changes"]]}
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
    time.sleep(1.1)  # (the record's times are to the second)
    again = client.get(f"/api/games/{data['id']}/record", headers=auth(data["token"])).json()
    assert again == record  # a stored deal's record, finished_at included, reads the same


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
    client.cookies.clear()  # (its player's device cookie would open it as its token does)
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
    assert res.status_code == 422 and "not an action code" in res.json()["detail"]
    res = client.post(url, headers=h, json={"action": "T40", "version": version})  # Minchiate's
    assert res.status_code == 409 and "no card" in res.json()["detail"]
    res = client.post(url, headers=h, json={"action": v["legal"][0], "version": version + 3})
    assert res.status_code == 409 and "stale version" in res.json()["detail"]
    res = client.post(url, headers={**h, "Content-Type": "application/json"}, content=b"{nope")
    assert res.status_code == 422
    res = client.post(url, headers=h, json={"card": "CU-3"})
    assert res.status_code == 422
    after = client.get(f"/api/games/{data['id']}", headers=h).json()
    assert after["version"] == version and answered(after["view"]) == v


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_an_action_on_a_game_another_process_moved_on_is_refused_then_read_afresh(
    db_url: str,
) -> None:
    """A process answers an action at the version it holds without reading the game again:
    when another process has moved the game on meanwhile, the conditional write refuses it
    (409, nothing applied), and the next request reads the game afresh."""
    with (TestClient(create_app(db_url, ai_workers=1)) as a,
          TestClient(create_app(db_url, ai_workers=1)) as b):  # fmt: skip
        data = new_game(a, seed=11)
        h, url = auth(data["token"]), f"/api/games/{data['id']}"
        stale = {"action": data["view"]["legal"][0], "version": data["version"]}
        moved = b.post(f"{url}/actions", headers=h, json=stale)
        assert moved.status_code == 200
        refused = a.post(f"{url}/actions", headers=h, json=stale)
        assert refused.status_code == 409
        again = a.get(url, headers=h).json()
        assert again["version"] == moved.json()["version"]
        assert answered(again["view"]) == moved.json()["view"]
        v = moved.json()["view"]
        if not v["over"]:
            body = {"action": v["legal"][0], "version": again["version"]}
            assert a.post(f"{url}/actions", headers=h, json=body).status_code == 200


def codes_in(obj: Any, codes: set[str]) -> set[str]:
    if isinstance(obj, str):
        return {obj} & codes
    if isinstance(obj, dict):
        return set().union(set(), *(codes_in(v, codes) for k, v in obj.items()))
    if isinstance(obj, list):
        return set().union(set(), *(codes_in(v, codes) for v in obj))
    return set()


@pytest.mark.parametrize("name", one_fast(sorted(GAMES)))
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
            state = replay(rules, seed, row.actions)
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
    client.cookies.clear()  # (no token and no player's cookie)
    assert client.get(url).status_code == 401
    res = client.get(url, headers=auth(data["token"]))
    assert res.status_code == 200
    ranked = res.json()["suggestions"]
    assert sorted(h["action"] for h in ranked) == sorted(data["view"]["legal"])
    assert all(h["reason"] for h in ranked)
    codes = set(game("piedicavallo").pack.codes)
    assert codes_in(res.json(), codes) <= set(data["view"]["hand"])


def test_seeds_are_drawn_unless_chosen(client: TestClient) -> None:
    """A drawn seed has 64 bits (nobody can choose or brute-force it) and its record says
    so; a chosen 64-bit seed deals the same cards on every machine, marked as chosen."""
    drawn = [new_game(client) for _ in range(4)]
    ends = [play_to_end(client, d) for d in drawn]
    assert max(end["seed"] for end in ends) >= 2**40  # all four below: chance 2^-96
    rec = client.get(f"/api/games/{drawn[0]['id']}/record", headers=auth(drawn[0]["token"]))
    assert rec.json()["seed_chosen"] is False and rec.json()["seed"] == ends[0]["seed"]
    data = new_game(client, seed=2**64 - 1)
    assert data["view"]["dealer"] == 0
    assert set(data["view"]["hand"]) == {"SW-5", "SW-7", "SW-Q", "BA-6", "BA-8", "BA-J", "BA-N",
        "CU-6", "CU-J", "CO-A", "CO-Q", "CO-K", "T3", "T11", "T12", "T14", "T21"}  # fmt: skip
    assert play_to_end(client, data)["seed"] == 2**64 - 1
    rec = client.get(f"/api/games/{data['id']}/record", headers=auth(data["token"])).json()
    assert rec["seed_chosen"] is True and rec["seed"] == 2**64 - 1
    too_big = client.post("/api/games", json={"game": "piedicavallo", "seed": 2**64})
    assert too_big.status_code == 422


@pytest.mark.parametrize("body", [
    {"game": "piedicavallo", "seed": "5"}, {"game": "piedicavallo", "seed": 5.5},
    {"game": "piedicavallo", "seed": True}, {"game": "Piedicavallo"},
    {"game": "piedicavallo", "level": "HARD"}, {"game": "piedicavallo", "colour": "red"},
    {"game": ["piedicavallo"]},
])  # fmt: skip
def test_creation_types_are_strict(client: TestClient, body: dict[str, Any]) -> None:
    res = client.post("/api/games", json=body)
    assert res.status_code == 422, res.text
    assert res.json()["errors"] and res.json()["detail"].startswith("malformed request")


def test_action_types_are_strict(client: TestClient) -> None:
    data = new_game(client)
    url, h = f"/api/games/{data['id']}/actions", auth(data["token"])
    legal, version = data["view"]["legal"][0], data["version"]
    for wrong in (str(version), version + 0.5, True, None):
        res = client.post(url, headers=h, json={"action": legal, "version": wrong})
        assert res.status_code == 422, (wrong, res.text)
    res = client.post(url, headers=h, json={"action": legal.lower(), "version": version})
    assert res.status_code == 422 and "not an action code" in res.json()["detail"]
    # 5.0 is the number 5 (JSON Schema's "integer", as the OpenAPI document says)
    res = client.post(url, headers=h, json={"action": legal, "version": float(version)})
    assert res.status_code == 200
    same = client.post("/api/games", json={"game": "piedicavallo", "level": "random",
                                           "seed": 5.0})  # fmt: skip
    assert same.json()["view"]["hand"] == new_game(client, seed=5)["view"]["hand"]


@pytest.mark.parametrize("raw", [
    b'{"action": "PASS", "version": NaN}', b'{"action": "PASS", "version": Infinity}',
    b'{"action": "PASS", "version": -Infinity}', b'{"action": "\\ud800", "version": 1}',
    b'{"\\udfff": 1, "action": "PASS", "version": 1}',
])  # fmt: skip
def test_nan_infinity_and_lone_surrogates_are_malformed(client: TestClient, raw: bytes) -> None:
    """Values JSON's grammar allows Python to read but not to write back: 422, never 500,
    and the connection keeps serving."""
    data = new_game(client)
    url, h = f"/api/games/{data['id']}/actions", auth(data["token"])
    res = client.post(url, headers={**h, "Content-Type": "application/json"}, content=raw)
    assert res.status_code == 422, res.text
    assert client.get(f"/api/games/{data['id']}", headers=h).json()["version"] == data["version"]
    for raw_seed in (b"NaN", b"Infinity", b'"\\ud800"'):
        res = client.post("/api/games", content=b'{"game": "ottocento", "seed": ' + raw_seed + b"}",
                          headers={"Content-Type": "application/json"})  # fmt: skip
        assert res.status_code == 422, res.text
    res = client.post("/api/games", content=b'{"game": "\\ud800"}',
                      headers={"Content-Type": "application/json"})  # fmt: skip
    assert res.status_code == 422 and "\\ud800" in res.text


def test_errors_quote_only_a_short_excerpt(client: TestClient) -> None:
    data = new_game(client)
    url, h = f"/api/games/{data['id']}/actions", auth(data["token"])
    res = client.post(url, headers=h, json={"action": "X" * 10_000, "version": 1})
    assert res.status_code == 422 and len(res.content) < 1000
    assert all(len(e["input"]) <= 40 for e in res.json()["errors"])
    res = client.post("/api/games", json={"game": "Y" * 12_000})
    assert res.status_code == 422 and len(res.content) < 1000
    res = client.get("/api/games/" + "z" * 5_000, headers=h)  # ids, codes: bounded too
    assert res.status_code == 422 and len(res.content) < 1000
    res = client.get("/cards/minchiate/" + "Z" * 500 + ".svg")
    assert res.status_code == 422 and len(res.content) < 1000


def test_large_bodies_get_413_unread(client: TestClient) -> None:
    """Over 16 KB: 413, whether the size is declared or the body streamed without one."""
    big = b'{"game": "piedicavallo", "pad": "' + b"x" * 17_000 + b'"}'
    res = client.post("/api/games", content=big, headers={"Content-Type": "application/json"})
    assert res.status_code == 413 and "16 KB" in res.json()["detail"]
    chunks = iter([big[i : i + 4096] for i in range(0, len(big), 4096)])
    res = client.post("/api/games", content=chunks, headers={"Content-Type": "application/json"})
    assert res.status_code == 413
    res = client.post("/api/games", json={"game": "piedicavallo", "level": "random"})
    assert res.status_code == 201  # a body under the bound passes whole


def test_bearer_scheme_and_token_spaces(client: TestClient) -> None:
    data = new_game(client)
    url, token = f"/api/games/{data['id']}", data["token"]
    for scheme in ("Bearer", "bearer", "BEARER", "bEaReR"):
        assert client.get(url, headers={"Authorization": f"{scheme} {token}"}).status_code == 200
    for wrong in (f"Bearer  {token}", f"Bearer {token}\t", f"Bearer {token} x", f"Basic {token}",
                  token):  # fmt: skip
        res = client.get(url, headers={"Authorization": wrong})
        assert res.status_code == 401, wrong


@pytest.mark.slow
def test_rates_a_person_never_reaches(client: TestClient) -> None:
    """Past a rate of creation or hints per client: 429 with Retry-After, nothing done;
    until then, that client's requests for AI work are turned away at the door."""
    service = client.app.state.games  # type: ignore[attr-defined]
    kept = service.rates
    try:
        service.rates = Rates(create="2/minute")
        data = new_game(client)
        new_game(client)
        res = client.post("/api/games", json={"game": "piedicavallo", "level": "random"})
        assert res.status_code == 429 and 0 < int(res.headers["retry-after"]) <= 60
        move = {"action": data["view"]["legal"][0], "version": data["version"]}
        url, h = f"/api/games/{data['id']}", auth(data["token"])
        res = client.post(f"{url}/actions", headers=h, json=move)
        assert res.status_code == 429 and int(res.headers["retry-after"]) > 0  # at the door
        assert client.get(url, headers=h).json()["version"] == data["version"]  # unchanged
        service.rates = Rates(hint="1/minute")
        assert client.get(f"{url}/hint", headers=h).status_code == 200
        res = client.get(f"{url}/hint", headers=h)
        assert res.status_code == 429 and int(res.headers["retry-after"]) > 0
    finally:
        service.rates = kept


@pytest.mark.slow
def test_a_client_waits_behind_itself(tmp_path: Path) -> None:
    """One client's burst of hints while its turn is held: two wait and the rest get 429 at
    once; a second client's hint meanwhile runs; released, the two waiting ones run. (The
    test holds the turn itself, so no job can finish while the burst is judged.)"""
    app = create_app(tmp_path / "q.sqlite3", ai_workers=2)

    async def scenario() -> tuple[list[int], list[int], int]:
        async with app.router.lifespan_context(app):
            flooder, other = (
                httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(address, 1)),
                                  base_url="http://t")
                for address in ("10.0.0.1", "10.0.0.2")
            )  # fmt: skip
            data = (await flooder.post("/api/games", json={"game": "minchiate"})).json()
            mine = (await other.post("/api/games", json={"game": "minchiate"})).json()
            url = f"/api/games/{data['id']}/hint"
            pool = app.state.games.pool
            async with pool.share(["client 10.0.0.1"]):  # the flooder's running job
                burst = [asyncio.create_task(flooder.get(url, headers=auth(data["token"])))
                         for _ in range(8)]  # fmt: skip
                for _ in range(600):  # until the refused ones are answered (at most 30 s)
                    if sum(task.done() for task in burst) == 6:
                        break
                    await asyncio.sleep(0.05)
                early = sorted(task.result().status_code for task in burst if task.done())
                res = await other.get(f"/api/games/{mine['id']}/hint",
                                      headers=auth(mine["token"]))  # fmt: skip
            replies = await asyncio.gather(*burst)
            return early, sorted(r.status_code for r in replies), res.status_code

    early, statuses, alone = asyncio.run(scenario())
    assert early == [429] * 6  # past the running job and QUEUE waiting, refused at once
    assert alone == 200  # the other client did not wait behind the burst
    assert statuses == [200, 200] + [429] * 6  # the two waiting ones ran once released


def test_every_response_has_the_security_headers(client: TestClient) -> None:
    """Pages, API answers, files, images and every kind of error carry the headers."""
    data = new_game(client)
    urls = ["/", "/traditions/minchiate", "/rules/ottocento", "/play/piedicavallo",
            "/static/play.js", "/static/site.css", "/cards/minchiate/T40.svg",
            "/api/packs/ottocento",
            "/openapi.json", "/healthz", "/readyz", f"/api/games/{data['id']}", "/nope",
            "/play/scopa", "/api/games/nope", "/docs", "/redoc", "/api/games/"]  # fmt: skip
    for url in urls:
        res = client.get(url, headers=auth(data["token"]), follow_redirects=False)
        assert res.status_code in (200, 404), url
        for name, value in SECURITY_HEADERS.items():
            assert res.headers[name] == value, (url, name)
    assert client.post("/api/games", json={}).headers["x-frame-options"] == "DENY"
    assert client.get("/docs").status_code == 404 and client.get("/redoc").status_code == 404
    trailing = client.get("/rules/ottocento/", headers={"Host": "evil.example"},
                          follow_redirects=False)  # fmt: skip
    assert trailing.status_code == 404 and "location" not in trailing.headers


def test_pages_errors_are_pages_in_the_readers_language(client: TestClient) -> None:
    res = client.get("/no/such/page", headers={"Accept-Language": "it"})
    assert res.status_code == 404 and res.headers["content-type"].startswith("text/html")
    assert 'lang="it"' in res.text and "/static/site.css" in res.text
    assert "Pagina non trovata" in res.text
    res = client.get("/rules/scopa?lang=hi")
    client.cookies.clear()  # ?lang= is remembered in a cookie
    assert res.status_code == 404 and 'lang="hi"' in res.text
    api = client.get("/api/games/nope", headers={"Authorization": "Bearer x"})
    assert api.status_code == 404 and api.json() == {"detail": "no such game"}


def test_a_crash_is_a_500_page_or_json(tmp_path: Path) -> None:
    """An unexpected error: a page in the reader's language for a page URL, JSON for the
    API, each with the security headers, and nothing of the exception told."""
    app = create_app(tmp_path / "crash.sqlite3")

    async def boom() -> None:
        raise RuntimeError("secret internals")

    app.add_api_route("/boom", boom)
    app.add_api_route("/api/boom", boom)
    crashing = TestClient(app, raise_server_exceptions=False)  # no lifespan: no AI needed
    page = crashing.get("/boom", headers={"Accept-Language": "fi"})
    assert page.status_code == 500 and 'lang="fi"' in page.text and "Jokin meni vikaan" in page.text
    api = crashing.get("/api/boom")
    assert api.status_code == 500 and api.json() == {"detail": "the server failed; try again"}
    for res in (page, api):
        assert "secret" not in res.text and res.headers["x-frame-options"] == "DENY"
