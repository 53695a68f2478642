"""Players without an account: the device cookie, a game linked to its player, the deals a
player leaves, the move to another browser, deleting a player, on both backends."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tarocchi.web.app import create_app
from tarocchi.web.players import COOKIE
from tarocchi.web.rates import Rates
from tarocchi.web.store import GameRow, Outcome, Store, token_hash
from tarocchi.web.store.retention import Retention
from tarocchi.web.store.schema import devices, games, transfers
from tests.conftest import BACKENDS, api_client

T0 = "2026-01-01T00:00:00+00:00"
LATER = "2026-01-01T00:10:00+00:00"


def row(game_id: str, player_id: str | None = None, started: str = T0) -> GameRow:
    return GameRow(game_id, "h", "piedicavallo", 7, "normal", (), 0, False, started,
                   player_id=player_id)  # fmt: skip


def column(store: Store, name: str, game_id: str) -> object:
    query = sa.select(games.c[name]).where(games.c.id == game_id)
    return store._run(lambda conn: conn.execute(query).scalar_one())


def test_a_player_s_devices_name_and_deletion(store: Store) -> None:
    """A player is found by a device secret's hash only; deleting them takes their devices
    and codes and leaves their games anonymous."""
    p = store.players.create("p1", token_hash("secret"), T0)
    assert store.players.by_device(token_hash("secret"), T0) == p
    assert store.players.by_device(token_hash("other"), T0) is None
    assert store.players.by_device("secret", T0) is None  # the secret itself opens nothing
    assert store.players.rename("p1", "Ada")
    assert store.players.by_device(token_hash("secret"), LATER) == replace(p, name="Ada")
    store.create(row("g1", "p1"))
    store.players.offer("p1", token_hash("CODE"), T0, LATER)
    assert store.players.delete("p1")
    assert store.players.by_device(token_hash("secret"), T0) is None
    assert column(store, "player_id", "g1") is None and store.get("g1") is not None
    for table in (devices, transfers):
        count = sa.select(sa.func.count()).select_from(table)
        assert store._run(lambda conn, q=count: conn.execute(q).scalar_one()) == 0
    assert not store.players.delete("p1") and not store.players.rename("p1", "Ada")


def test_a_new_deal_leaves_the_player_s_unfinished_one(store: Store) -> None:
    """A player's unfinished deal is left when they start another; a finished one, and
    another player's, are not; a left deal that is finished after all ends as played."""
    for p in ("p1", "p2"):
        store.players.create(p, token_hash(p), T0)
    store.create(row("done", "p1"))
    assert store.update("done", 0, ((0, "SW-K"),), True, T0, Outcome(12.0, "win"))
    store.create(row("open", "p1"))
    store.create(row("theirs", "p2"))
    store.create(row("new", "p1", started=LATER))
    assert [column(store, "result", g) for g in ("done", "open", "theirs", "new")] == [
        "win", "left", None, None
    ]  # fmt: skip
    assert column(store, "finished_at", "open") == LATER
    assert column(store, "margin", "done") == 12.0
    assert store.update("open", 0, ((0, "SW-K"),), True, LATER, Outcome(-3.0, "loss"))
    assert (column(store, "result", "open"), column(store, "margin", "open")) == ("loss", -3.0)


def test_a_move_code_opens_one_browser_once(store: Store) -> None:
    """A move code gives a second device to its player, once, before it expires; the second
    browser's own player, if it had one, joins the history."""
    store.players.create("p1", token_hash("one"), T0)
    store.players.create("p2", token_hash("two"), T0)
    store.create(row("g2", "p2"))
    store.players.offer("p1", token_hash("CODE"), T0, LATER)
    assert store.players.redeem(token_hash("CODE"), token_hash("three"), LATER, None) is None
    store.players.offer("p1", token_hash("NEWER"), T0, LATER)  # replaces CODE
    assert store.players.redeem(token_hash("CODE"), token_hash("three"), T0, None) is None
    moved = store.players.redeem(token_hash("NEWER"), token_hash("two2"), T0, "p2")
    assert moved is not None and moved.id == "p1"
    assert store.players.redeem(token_hash("NEWER"), token_hash("four"), T0, None) is None
    assert store.players.by_device(token_hash("two2"), T0) == moved
    assert store.players.by_device(token_hash("one"), T0) == moved
    assert store.players.by_device(token_hash("two"), T0) is None  # p2 went, its device too
    assert column(store, "player_id", "g2") == "p1"


@pytest.fixture(scope="module", params=BACKENDS)
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    yield from api_client(request, tmp_path_factory, ai_workers=1)


def new_game(client: TestClient) -> dict[str, str]:
    res = client.post("/api/games", json={"game": "piedicavallo", "level": "random"})
    assert res.status_code == 201, res.text
    return {"id": res.json()["id"], "cookie": res.headers.get("set-cookie", "")}


def test_the_first_deal_makes_a_player_with_a_device_cookie(client: TestClient) -> None:
    client.cookies.clear()
    assert client.get("/api/me").status_code == 401
    bad = client.post("/api/games", json={"game": "nope"})
    assert bad.status_code == 422 and "set-cookie" not in bad.headers  # no player made
    first = new_game(client)
    cookie = first["cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain HTTP (tested over HTTPS below)
    me = client.get("/api/me").json()
    second = new_game(client)
    assert second["cookie"] == ""  # the browser keeps its player
    store: Store = client.app.state.games.store  # type: ignore[attr-defined]
    assert column(store, "player_id", first["id"]) == me["id"] == column(store, "player_id",
                                                                          second["id"])  # fmt: skip
    assert column(store, "result", first["id"]) == "left"
    assert len(me["id"]) >= 16 and me["name"] is None
    assert client.put("/api/me/name", json={"name": "  Ada "}).json()["name"] == "Ada"
    assert client.put("/api/me/name", json={"name": "a\x07"}).status_code == 422
    assert client.get("/api/me").json()["name"] == "Ada"


BROWSER = {"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0"}


def device_cookie(res: Any) -> str | None:
    """Return the device secret an answer sets, if any."""
    for header in res.headers.get_list("set-cookie"):
        if header.startswith(f"{COOKIE}="):
            return str(header.split(";")[0].split("=", 1)[1])
    return None


def test_the_first_page_view_gets_a_device_id(client: TestClient) -> None:
    """A browser's first page gives it its player; a static file, an API's GET, a robot's
    visit and a page that is not there give none; the deals then join that player."""
    client.cookies.clear()
    for path in ("/static/common.js", "/api/daily", "/openapi.json", "/healthz", "/nope"):
        assert device_cookie(client.get(path, headers=BROWSER)) is None, path
    for robot in ("Mozilla/5.0 (compatible; Googlebot/2.1)", "curl/8.5.0", ""):
        assert device_cookie(client.get("/", headers={"User-Agent": robot})) is None, robot
    assert client.get("/api/me").status_code == 401
    first = client.get("/", headers=BROWSER)
    assert first.status_code == 200 and device_cookie(first)
    me = client.get("/api/me").json()
    assert device_cookie(client.get("/history", headers=BROWSER)) is None  # it has one
    game_id = new_game(client)["id"]
    assert client.get("/api/me").json()["id"] == me["id"]
    store: Store = client.app.state.games.store  # type: ignore[attr-defined]
    assert column(store, "player_id", game_id) == me["id"]


def test_deleting_my_data_forgets_the_player(client: TestClient) -> None:
    client.cookies.clear()
    game_id = new_game(client)["id"]
    res = client.delete("/api/me")
    assert res.status_code == 200 and "Max-Age=0" in res.headers["set-cookie"]
    store: Store = client.app.state.games.store  # type: ignore[attr-defined]
    assert column(store, "player_id", game_id) is None
    assert client.get("/api/me").status_code == 401
    assert client.delete("/api/me").status_code == 401


def test_moving_to_another_browser(client: TestClient) -> None:
    client.cookies.clear()
    new_game(client)
    me = client.get("/api/me").json()
    move = client.post("/api/me/move")
    assert move.status_code == 201
    data = move.json()
    assert data["url"].endswith(f"/move#{data['code']}")  # (a fragment: never sent, never logged)
    assert data["qr"].startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in data["qr"]
    first_browser = dict(client.cookies)
    client.cookies.clear()  # another browser
    assert client.post("/api/me/move").status_code == 401
    got = client.post("/api/me/move/redeem", json={"code": data["code"].lower()})
    assert got.status_code == 200 and got.json()["id"] == me["id"]
    assert client.cookies[COOKIE] != first_browser[COOKIE]  # a device secret of its own
    assert client.get("/api/me").json()["id"] == me["id"]
    client.cookies.clear()
    again = client.post("/api/me/move/redeem", json={"code": data["code"]})
    assert again.status_code == 404 and "set-cookie" not in again.headers


@pytest.mark.slow
def test_new_players_and_move_codes_are_rate_limited(tmp_path_factory: pytest.TempPathFactory
                                                     ) -> None:  # fmt: skip
    db = tmp_path_factory.mktemp("rates") / "games.sqlite3"
    app = create_app(db, ai_workers=1, rates=Rates(device="2/minute", move="2/minute"))
    with TestClient(app) as c:
        made = []
        for _ in range(3):
            c.cookies.clear()
            made.append(new_game(c)["cookie"])
        assert made[0] and made[1] and made[2] == ""  # the third deal is nobody's
        c.cookies.clear()  # nor does a page view past the rate make a player
        assert device_cookie(c.get("/", headers=BROWSER)) is None
        for _ in range(2):
            assert c.post("/api/me/move/redeem", json={"code": "AAAAA-AAAAA"}).status_code == 404
        refused = c.post("/api/me/move/redeem", json={"code": "AAAAA-AAAAA"})
        assert refused.status_code == 429 and "retry-after" in refused.headers


@pytest.mark.slow
def test_the_cookie_is_secure_over_https(tmp_path_factory: pytest.TempPathFactory) -> None:
    db = tmp_path_factory.mktemp("https") / "games.sqlite3"
    with TestClient(create_app(db, ai_workers=1), base_url="https://testserver") as c:
        assert "; Secure" in new_game(c)["cookie"]


def test_retention_keeps_a_player_s_deals_and_marks_the_untouched_left(store: Store) -> None:
    """A player's deals are their history: the retention deletes only anonymous games, and
    marks left a player's unfinished deal untouched past the unfinished age."""
    store.players.create("p1", token_hash("p1"), T0)
    kinds = (("mine-open", "p1", False), ("mine-done", "p1", True),
             ("anon-open", None, False), ("anon-done", None, True))  # fmt: skip
    for game_id, player, over in kinds:
        store.create(row(game_id, player, started=T0))
        store.update(game_id, 0, ((0, "CU-3"),), over, T0)
    gone = Retention(1.0, 1.0).apply(store, datetime(2026, 2, 1, tzinfo=UTC))
    assert gone == 2 and store.get("anon-open") is None and store.get("anon-done") is None
    assert store.get("mine-open") is not None and store.get("mine-done") is not None
    assert column(store, "result", "mine-open") == "left"
    assert column(store, "finished_at", "mine-open") == T0
    assert column(store, "result", "mine-done") is None  # (ended without an outcome here)
