"""The deal of the day through the API on both backends: commitments published, one scored
try per player a day (the second is practice and says so), the same AI answers to the same
play, the results only after one's own scored try (rank, histogram, field's choices), no
seed of today told anywhere, and a past day's seed revealed, verified and its standings."""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tarocchi import daily
from tarocchi.web.app import create_app
from tests.conftest import BACKENDS, api_client, store_of
from tests.faces.test_api import auth

NAME = "piedicavallo"
WAIT_S = 600  # the AI's line and a decision's review, at the lowest priority on a busy machine
COOKIE = "tarocchi_device"


@pytest.fixture(scope="module", params=BACKENDS)
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    yield from api_client(request, tmp_path_factory, ai_workers=1)


def today() -> str:
    return datetime.now(UTC).date().isoformat()


class Player:
    """A browser: its device cookie, and everything the API answered it."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.device: str | None = secrets.token_urlsafe(32)  # unknown: the server issues one
        self.seen: list[str] = []

    def call(self, method: str, url: str, **kwargs: Any) -> Any:
        self.client.cookies.clear()
        if self.device:
            self.client.cookies.set(COOKIE, self.device)
        res = self.client.request(method, url, **kwargs)
        self.device = res.cookies.get(COOKIE) or self.device
        self.seen.append(res.text)
        return res

    def start(self) -> dict[str, Any]:
        res = self.call("POST", f"/api/daily/{NAME}")
        assert res.status_code == 201, res.text
        data: dict[str, Any] = res.json()
        return data

    def play(self, data: dict[str, Any], pick: int) -> dict[str, Any]:
        """Play the try to its end, each time the legal action at `pick` (0 first, -1 last)."""
        version, v = data["version"], data["view"]
        while not v["over"]:
            body = {"action": v["legal"][pick], "version": version}
            res = self.call("POST", f"/api/games/{data['id']}/actions",
                            headers=auth(data["token"]), json=body)  # fmt: skip
            assert res.status_code == 200, res.text
            version, v = res.json()["version"], res.json()["view"]
        return v  # type: ignore[no-any-return]

    def results(self) -> Any:
        return self.call("GET", f"/api/daily/{NAME}/{today()}/results")


def wait_for_values(player: Player) -> dict[str, Any]:
    """Return the player's results once the par and the first decision's values are in."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        got: dict[str, Any] = player.results().json()
        if got["par"] is not None and got["decisions"][0]["choices"][0]["value"] is not None:
            return got
        time.sleep(1)
    raise AssertionError("the review did not value the first decision in time")


@pytest.mark.slow
def test_the_day_for_three_players(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    index = client.get("/api/daily").json()
    days = {(d["game"], d["date"]): d for d in index["days"]}
    tomorrow = (datetime.now(UTC).date() + timedelta(days=1)).isoformat()
    assert index["today"] == today() and (NAME, today()) in days and (NAME, tomorrow) in days
    assert all(d["seed"] is None for d in index["days"])  # no day before: nothing revealed
    store = store_of(client)
    seed = daily.seed_of(store.daily.key("now"), NAME, datetime.now(UTC).date())
    assert days[(NAME, today())]["commitment"] == daily.commitment(
        NAME, datetime.now(UTC).date(), seed
    )
    a, b, c = Player(client), Player(client), Player(client)
    first = a.start()
    assert first["scored"] and first["view"]["daily"] == {"date": today(), "scored": True}
    b_first = b.start()
    assert b_first["events"] == first["events"]  # the same deal, the same AI up to South
    assert a.results().status_code == 409  # before one's scored try is over: nothing
    assert b.results().status_code == 409
    stranger = Player(client)
    stranger.device = None  # no player at all
    assert stranger.results().status_code == 401
    end_a = a.play(first, 0)
    assert "seed" not in end_a
    record = a.call("GET", f"/api/games/{first['id']}/record", headers=auth(first["token"]))
    assert record.status_code == 409  # the record holds the seed: not before the day is over
    assert b.results().status_code == 409  # b's try is not over: a's margin stays hidden
    mine = a.results().json()
    assert (mine["tries"], mine["percentile"]) == (1, 100.0)
    again = a.start()  # the second try of the day: practice
    assert not again["scored"] and again["view"]["daily"]["scored"] is False
    assert again["events"] == first["events"]
    a.play(again, -1)
    b.play(b_first, -1)
    c.play(c.start(), 0)  # c plays a's way: the same AI answers, the same margin
    got = a.results().json()
    margin_a, margin_b = got["margin"], b.results().json()["margin"]
    assert got["tries"] == 3  # a's practice is not ranked
    assert c.results().json()["margin"] == margin_a
    beaten = 1.0 if margin_a > margin_b else 0.0 if margin_a < margin_b else 0.5
    assert got["matchpoints"] == beaten + 0.5  # c tied a
    assert got["percentile"] == pytest.approx(100 * got["matchpoints"] / 2)
    assert sum(bar["count"] for bar in got["bars"]) == 3
    assert [bar["yours"] for bar in got["bars"]].count(True) == 1
    # where b first chose otherwise (the day's deal is the key's: any decision may be it)
    split = next(d for d in got["decisions"] if len(d["choices"]) > 1)
    shares = {ch["action"]: ch["share"] for ch in split["choices"]}
    assert shares[split["made"]] == pytest.approx(2 / 3)  # a and c; b chose otherwise
    assert sum(shares.values()) == pytest.approx(1.0)
    before = got["decisions"][: got["decisions"].index(split)]
    assert all(len(d["choices"]) == 1 and d["choices"][0]["share"] == 1.0 for d in before)
    for path in ("/daily", f"/daily/{NAME}/{today()}", f"/daily/{NAME}/{today()}/verify",
                 f"/api/daily/{NAME}/{tomorrow}"):  # fmt: skip
        assert a.call("GET", path).status_code == 200, path
    assert "you beat" in a.seen[-3] and "shown once the day is over" in a.seen[-2]
    assert str(seed) not in caplog.text
    valued = wait_for_values(a)  # the review's values and the par, once the server has them
    review = a.call("GET", f"/api/games/{first['id']}/review", headers=auth(first["token"]))
    body = review.json()
    assert valued["par"] == body["ai"]["margin"]
    first_made = body["review"]["decisions"][0]
    fair = {ch["action"]: ch["fair"] for ch in first_made["choices"]}
    for ch in valued["decisions"][0]["choices"]:
        assert ch["value"] == fair[ch["action"]]
    exported = a.call("GET", "/api/me/export.json").json()  # a's finished tries, no seed
    assert len(exported) == 2 and not any("seed" in r for r in exported)
    for p in (a, b, c):  # today's seed is in no answer any player got (the export included)
        assert not any(str(seed) in text for text in p.seen)


def test_a_past_day_is_revealed_and_checks(client: TestClient) -> None:
    store = store_of(client)
    day = datetime.now(UTC).date() - timedelta(days=1)
    seed = daily.seed_of(store.daily.key("now"), NAME, day)
    assert client.get(f"/api/daily/{NAME}/{day}").status_code == 404  # never published
    store.daily.publish(NAME, day.isoformat(), daily.commitment(NAME, day, seed), "then")
    got = client.get(f"/api/daily/{NAME}/{day}").json()
    assert got["seed"] == seed
    assert daily.verify(NAME, day, got["seed"], got["commitment"]).seed == seed
    page = client.get(f"/daily/{NAME}/{day}/verify")
    assert page.status_code == 200 and "matches the commitment" in page.text
    later = datetime.now(UTC).date() + timedelta(days=2)
    assert client.get(f"/api/daily/{NAME}/{later}").status_code == 404
    assert client.get(f"/api/daily/{NAME}/5-12-2026").status_code == 422
    assert client.get(f"/api/daily/scopa/{day}").status_code == 422
    assert client.get(f"/api/daily/{NAME}/{today()}/standings").status_code == 409
    standings = client.get(f"/api/daily/{NAME}/{day}/standings").json()
    assert standings == {"game": NAME, "date": day.isoformat(), "standings": []}
    assert json.dumps(seed) not in client.get("/daily").text.split(str(day))[0]


@pytest.mark.slow
def test_a_server_publishes_today_and_tomorrow_unasked(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    tomorrow = (datetime.now(UTC).date() + timedelta(days=1)).isoformat()
    with TestClient(create_app(db, ai_workers=1)) as started:
        store = store_of(started)
        deadline = time.monotonic() + 60
        while store.daily.commitment(NAME, tomorrow) is None and time.monotonic() < deadline:
            time.sleep(0.2)  # (no request made: the server's own round publishes it)
        for day in (today(), tomorrow):
            for name in ("minchiate", "ottocento", NAME):
                assert store.daily.commitment(name, day) is not None, (name, day)


@pytest.mark.slow
def test_the_verify_page_checks_a_record_of_the_day(client: TestClient) -> None:
    """The verify page's check (POST .../verify) replays a record sent as the page sends it
    (without what the replay derives) and answers in the reader's language; a tampered
    record is told what does not hold, and today's deal is not checked before its end."""
    from tests.play.test_daily import played

    store = store_of(client)
    day = datetime.now(UTC).date() - timedelta(days=3)
    seed = daily.seed_of(store.daily.key("now"), NAME, day)
    store.daily.publish(NAME, day.isoformat(), daily.commitment(NAME, day, seed), "then")
    page = client.get(f"/daily/{NAME}/{day}/verify", params={"lang": "it"})
    assert 'id="verify-record"' in page.text and "Controlla il registro" in page.text
    record = played(seed)
    ai = sum(1 for a in record["actions"] if a["seat"] != 0)
    sent = {k: v for k, v in record.items() if k not in ("tricks", "events")}
    url = f"/api/daily/{NAME}/{day}/verify"
    it = {"Accept-Language": "it"}
    got = client.post(url, json=sent, headers=it)
    assert got.status_code == 200, got.text
    assert got.json()["ok"] and got.json()["ai_actions"] == ai > 30
    assert f"tutte le sue {ai} azioni dell'IA" in got.json()["text"]
    tampered = {**sent, "result": {**sent["result"], "ns": sent["result"]["ns"] + 1}}
    bad = client.post(url, json=tampered, headers=it).json()
    assert bad == {"ok": False, "ai_actions": None, "text": bad["text"]}
    assert bad["text"].startswith("il risultato salvato ha ns=")
    today_url = f"/api/daily/{NAME}/{today()}/verify"
    assert client.post(today_url, json=sent).status_code == 409  # its seed is secret
    assert client.post(url, json=[1, 2]).status_code == 422
    assert client.post(f"/api/daily/{NAME}/2001-01-01/verify", json=sent).status_code == 404
