"""A player's history on both backends: only their own deals, newest first, filtered and
paginated; the statistics summed in SQL equal the arithmetic on the deals themselves; the
exports; a deal opened by its player's cookie; the page and its charts."""

from __future__ import annotations

import csv
import io
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tarocchi.arena import mean_ci
from tarocchi.progress import line, mean_of, moving_average, sums_of
from tarocchi.web.charts import Words, chart
from tarocchi.web.players import COOKIE
from tarocchi.web.store import GameRow, Outcome, Store, token_hash
from tarocchi.web.store.players import Filter
from tests.conftest import BACKENDS, api_client, auth

RESULT = {1: "win", 0: "draw", -1: "loss"}


def seed_deals(store: Store, player: str, n: int, rng: random.Random) -> list[dict[str, Any]]:
    """Store n ended deals of a player (a few left), each a minute after the last."""
    out = []
    for i in range(n):
        game_name, level = rng.choice(["piedicavallo", "minchiate"]), rng.choice(["easy", "hard"])
        stamp = f"2026-01-01T{i // 60:02d}:{i % 60:02d}:00+00:00"
        row = GameRow(f"{player}-{i}", "h", game_name, i, level, (), 0, False, stamp,
                      player_id=player)  # fmt: skip
        store.create(row)
        if i % 7 == 3:  # left: superseded by the next deal
            out.append({"id": row.id, "game": game_name, "level": level, "result": "left",
                        "margin": None})  # fmt: skip
            continue
        margin = float(rng.randint(-40, 40))
        result = RESULT[(margin > 0) - (margin < 0)]
        store.update(row.id, 0, ((0, "SW-K"),), True, stamp, Outcome(margin, result))
        out.append({"id": row.id, "game": game_name, "level": level, "result": result,
                    "margin": margin})  # fmt: skip
    return out


def test_the_sums_in_sql_are_the_deals_arithmetic(store: Store) -> None:
    """The database's sums per game and level give the statistics that the deals give in
    Python (the terminal's way), and the mean and interval are the arena's."""
    rng = random.Random(5)
    store.players.create("p1", token_hash("p1"), "2026-01-01T00:00:00+00:00")
    store.players.create("p2", token_hash("p2"), "2026-01-01T00:00:00+00:00")
    mine = seed_deals(store, "p1", 61, rng)  # (the last one finished)
    seed_deals(store, "p2", 10, rng)  # another player's: never counted
    got = [line(s) for s in store.players.sums(Filter("p1"))]
    expected = [
        line(s) for s in sums_of((d["game"], d["level"], d["result"], d["margin"]) for d in mine)
    ]
    assert len(got) == len(expected) == 4
    for a, b in zip(got, expected, strict=True):
        assert (a.game, a.level, a.deals, a.wins, a.draws, a.losses, a.left) == (
            b.game, b.level, b.deals, b.wins, b.draws, b.losses, b.left)  # fmt: skip
        assert a.margin is not None and b.margin is not None
        assert a.margin.mean == pytest.approx(b.margin.mean)
        assert a.margin.low == pytest.approx(b.margin.low)
        margins = [d["margin"] for d in mine if (d["game"], d["level"]) == (a.game, a.level)
                   and d["margin"] is not None]  # fmt: skip
        assert (a.margin.mean, a.margin.low, a.margin.high) == pytest.approx(mean_ci(margins))
    total, page = store.players.deals(Filter("p1", result="left"), 5, 0)
    assert total == sum(d["result"] == "left" for d in mine) and len(page) == 5
    assert [d.id for d in page] == [d["id"] for d in reversed(mine) if d["result"] == "left"][:5]


def test_the_arithmetic_of_progress() -> None:
    assert mean_of(0, 0.0, 0.0) is None
    one = mean_of(1, 4.0, 16.0)
    assert one is not None and (one.mean, one.low, one.high) == (4.0, 4.0, 4.0)
    values = [3.0, -1.0, 7.0, 2.0]
    m = mean_of(4, sum(values), sum(v * v for v in values))
    assert m is not None and (m.mean, m.low, m.high) == pytest.approx(mean_ci(values))
    assert moving_average([2.0, 4.0, 6.0, 8.0], window=2) == [2.0, 3.0, 5.0, 7.0]


def test_a_chart_draws_each_value_and_its_average() -> None:
    words = Words("T<", "D", "old", "new")
    svg = chart([5.0, -3.0, 0.0], words, "c", bars=True)
    assert svg.count("<rect") == 3 and 'class="bar up"' in svg and 'class="bar down"' in svg
    assert '<title id="c-t">T&lt;</title>' in svg and "<polyline" in svg
    dots = chart([0.5, 1.0], words, "a", bars=False, percent=True)
    assert dots.count("<circle") == 2 and "100%" in dots
    assert chart([], words, "e", bars=True) == ""


@pytest.fixture(scope="module", params=BACKENDS)
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    yield from api_client(request, tmp_path_factory, ai_workers=1)


def play(client: TestClient, name: str = "piedicavallo") -> dict[str, Any]:
    data = client.post("/api/games", json={"game": name, "level": "random"}).json()
    version, v = data["version"], data["view"]
    while not v["over"]:
        body = {"action": v["legal"][0], "version": version}
        res = client.post(f"/api/games/{data['id']}/actions", headers=auth(data["token"]),
                          json=body).json()  # fmt: skip
        version, v = res["version"], res["view"]
    return data


def test_a_history_is_its_player_s_only(client: TestClient) -> None:
    client.cookies.clear()
    for path in ("/api/me/history", "/api/me/stats", "/api/me/export.json", "/api/me/export.csv"):
        assert client.get(path).status_code == 401, path
    first = play(client)
    # (seed 1: East deals and lays four cards aside before South's first turn)
    left = client.post("/api/games", json={"game": "minchiate", "level": "random",
                                           "seed": 1}).json()  # fmt: skip
    second = play(client)
    mine = client.cookies[COOKIE]
    history = client.get("/api/me/history").json()
    # newest first (these three end within a second or two: the order of equal times is
    # the started times', then the ids')
    ended = [d["finished_at"] for d in history["deals"]]
    assert ended == sorted(ended, reverse=True) and history["total"] == 3
    assert {d["id"]: d["result"] for d in history["deals"]}[left["id"]] == "left"
    assert {d["id"] for d in history["deals"]} == {first["id"], left["id"], second["id"]}
    assert f"/play/piedicavallo?deal={second['id']}" in {d["url"] for d in history["deals"]}
    only = client.get("/api/me/history", params={"game": "minchiate"}).json()
    assert [d["id"] for d in only["deals"]] == [left["id"]]
    assert client.get("/api/me/history", params={"result": "nope"}).status_code == 422
    assert client.get("/api/me/history", params={"page": 0}).status_code == 422
    # the deal opens by the cookie, for its player only
    assert client.get(f"/api/games/{first['id']}").status_code == 200
    records = client.get("/api/me/export.json").json()
    record = client.get(f"/api/games/{first['id']}/record", headers=auth(first["token"])).json()
    assert len(records) == 3 and record in records
    # the left deal as far as South saw it: South's hand, the other seats' discards hidden
    gone = next(r for r in records if r.get("left"))
    assert gone["game"] == "minchiate" and gone["result"] is None and "seed" not in gone
    assert gone["hands"][1:] == [None, None, None] and len(gone["hands"][0]) >= 19
    seen = client.get(f"/api/games/{left['id']}", headers=auth(left["token"])).json()["view"]
    played = {e["card"] for e in seen["history"] if e["type"] == "play"}
    for a in gone["actions"]:
        if a["seat"] != 0 and a["action"] is not None and not a["action"].startswith("DECL"):
            assert a["action"] in played, a
    hidden = sum(e["type"] == "aside" and e["seat"] != 0 for e in seen["history"])
    assert sum(a["action"] is None for a in gone["actions"]) == hidden == 4
    rows = list(csv.DictReader(io.StringIO(client.get("/api/me/export.csv").text)))
    assert [r["id"] for r in rows] == [d["id"] for d in history["deals"]]
    assert rows[0]["result"] == history["deals"][0]["result"]
    stats = client.get("/api/me/stats").json()["lines"]
    assert {(x["game"], x["deals"], x["left"]) for x in stats} == {
        ("minchiate", 1, 1), ("piedicavallo", 2, 0)
    }  # fmt: skip
    client.cookies.clear()
    play(client)  # another browser, another player
    assert first["id"] not in {d["id"] for d in client.get("/api/me/history").json()["deals"]}
    assert client.get(f"/api/games/{first['id']}").status_code == 403
    client.cookies.set(COOKIE, mine)
    assert client.get("/api/me/history").json()["total"] == 3


@pytest.mark.slow
def test_the_ai_in_your_seat_and_the_accuracy_join_the_statistics(client: TestClient) -> None:
    client.cookies.clear()
    data = play(client)
    h = auth(data["token"])
    assert client.post(f"/api/games/{data['id']}/review", headers=h).status_code in (200, 202)
    deadline = time.time() + 600  # a review values each decision by a search
    while time.time() < deadline:
        deal = client.get("/api/me/history").json()["deals"][0]
        if deal["accuracy"] is not None and deal["ai_margin"] is not None:
            break
        time.sleep(1)
    review = client.get(f"/api/games/{data['id']}/review", headers=h).json()
    assert deal["ai_margin"] == review["ai"]["margin"]
    assert deal["accuracy"] == review["review"]["accuracy"]
    stats = client.get("/api/me/stats").json()["lines"][0]
    assert stats["reviewed"] == 1 and stats["accuracy"] == deal["accuracy"]
    assert stats["over_ai"]["mean"] == pytest.approx(deal["margin"] - deal["ai_margin"])


def test_the_history_page(client: TestClient) -> None:
    client.cookies.clear()
    empty = client.get("/history")
    assert empty.status_code == 200 and "/move" in empty.text and "<svg" not in empty.text
    play(client)
    play(client)
    page = client.get("/history", params={"lang": "it"})
    assert page.status_code == 200 and 'class="chart"' in page.text
    assert "La tua cronologia" in page.text and "?deal=" in page.text
    assert client.get("/move").status_code == 200
