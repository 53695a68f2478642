"""The stored reviews on both backends: one process at a time holds a review (claims are
conditional updates), an expired lease is taken up, a lost holder cannot write, a request
starts a review once, the review goes with its game, and a database at 0003 upgrades; a
game has one review per human seat, and a database at 0008 keeps its reviews as South's."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tarocchi.match import play_deal
from tarocchi.record import now
from tarocchi.web.app import create_app
from tarocchi.web.store import GameRow, Store, token_hash

T0 = "2026-01-01T00:00:00+00:00"
T1 = "2026-01-01T00:00:30+00:00"
T2 = "2026-01-01T00:01:00+00:00"


def finished(game_id: str, token: str = "t", seed: int = 4, at: str = T0) -> GameRow:
    """Return the row of a deal South played with the random bot, to its end."""
    log = play_deal("piedicavallo", seed, ["random"] * 4)
    codes = tuple((s, log.rules.action_code(a)) for s, a in log.actions)
    return GameRow(game_id, token_hash(token), "piedicavallo", seed, "random", codes,
                   len(codes), True, at)  # fmt: skip


def test_one_holder_at_a_time_and_an_expired_lease_is_taken_up(store: Store) -> None:
    store.create(finished("a"))
    reviews = store.reviews
    assert reviews.open("a", T0) and reviews.open("a", T0)  # the second changes nothing
    first = reviews.get("a")
    assert first is not None and first.status == "none" and first.pending
    assert reviews.claim("p1", T0, T1) == ("a", 0)
    assert reviews.claim("p2", T0, T1) is None  # held until T1
    assert reviews.keep(("a", 0), "p1", T1, done=0)
    assert reviews.claim("p2", T2, T2) == ("a", 0)  # p1's lease ran out (p1 died)
    assert not reviews.keep(("a", 0), "p1", T2, ai="{}")  # p1 lost it: its writes go nowhere
    assert reviews.keep(("a", 0), "p2", T2, ai='{"level": "random"}')
    assert reviews.release(("a", 0), "p2", T2)
    got = reviews.get("a")
    assert got is not None and not got.pending and got.owner is None and got.ai
    assert reviews.claim("p3", T2, T2) is None  # no work left


def test_concurrent_claims_take_each_review_once(store: Store) -> None:
    for g in "abc":
        store.create(finished(g))
        store.reviews.open(g, T0)
    barrier = threading.Barrier(6)
    taken: list[tuple[str, int] | None] = []

    def claim(i: int) -> None:
        barrier.wait()
        taken.append(store.reviews.claim(f"p{i}", T0, T1))

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(g for g in taken if g) == [("a", 0), ("b", 0), ("c", 0)]
    assert taken.count(None) == 3


def test_a_review_is_asked_for_once_and_asked_ones_come_first(store: Store) -> None:
    for g in "ab":
        store.create(finished(g))
        store.reviews.open(g, T0)
    assert store.reviews.request("b", 15, T1)
    assert not store.reviews.request("b", 15, T1)  # running: nothing new starts
    got = store.reviews.get("b")
    assert got is not None and got.status == "running" and got.total == 15
    assert store.reviews.claim("p", T1, T2) == ("b", 0)  # asked for: before the older "a"
    assert not store.reviews.release(("b", 0), "p", T2)  # running: work is left
    assert store.reviews.fail(("b", 0), "p", '{"msg": "x"}', T2)
    assert store.reviews.request("b", 15, T2)  # a failed review may be asked for again


def test_the_review_goes_with_its_game(store: Store) -> None:
    store.create(finished("a"))
    store.reviews.open("a", T0)
    assert store.delete_stale(None, T1) == 1
    assert store.get("a") is None and store.reviews.get("a") is None
    assert not store.reviews.open("a", T1)  # no review of a game that is gone


def wait_for(client: TestClient, url: str, h: dict[str, str], key: str) -> dict[str, Any]:
    deadline = time.time() + 300
    while time.time() < deadline:
        res = client.get(url, headers=h)
        assert res.status_code == 200, res.text
        if res.json()[key]:
            return dict(res.json())
        time.sleep(0.5)
    raise AssertionError(f"no {key} in time")


@pytest.mark.slow
def test_a_database_at_0003_upgrades_and_its_finished_games_get_the_ai_line(
    db_url: str,
) -> None:
    """Games finished before reviews existed: kept by the upgrade, and their AI line is
    computed when their review is first read."""
    game = finished("a", "tok", at=now())  # recent: the retention keeps it
    with Store(db_url) as old:
        assert old.upgrade("0003") == "0003"
        old.create(game)
    with TestClient(create_app(db_url, ai_workers=1)) as client:
        h = {"Authorization": "Bearer tok"}
        res = client.get("/api/games/a", headers=h)
        assert res.status_code == 200 and res.json()["view"]["over"], res.text
        got = wait_for(client, "/api/games/a/review", h, "ai")
        assert got["status"] == "none" and got["ai"]["level"] == "random"
    with Store(db_url) as new:
        assert new.upgrade() == "0010"
        assert new.get("a") == game


def test_each_seat_of_a_game_has_its_own_review(store: Store) -> None:
    store.create(finished("a"))
    assert store.reviews.open("a", T0, 0) and store.reviews.open("a", T0, 2)
    assert store.reviews.request("a", 15, T1, seat=2)
    south, north = store.reviews.get("a"), store.reviews.get("a", 2)
    assert south is not None and south.status == "none"
    assert north is not None and north.status == "running" and north.seat == 2
    taken = {store.reviews.claim("p", T1, T2), store.reviews.claim("q", T1, T2)}
    assert taken == {("a", 0), ("a", 2)}
    assert store.reviews.keep(("a", 2), "p", T2, done=1) != store.reviews.keep(("a", 2), "q", T2)


def test_a_database_at_0008_keeps_its_reviews_as_souths(db_url: str) -> None:
    with Store(db_url) as old:
        assert old.upgrade("0008") == "0008"
        old.create(finished("a"))
        row = {"t": T0, "ai": '{"level": "random"}'}
        old.atomic(lambda conn: conn.execute(sa.text(
            "INSERT INTO reviews (game_id, status, pending, done, ai, created_at, updated_at) "
            "VALUES ('a', 'none', false, 0, :ai, :t, :t)"), row))  # fmt: skip
    with Store(db_url) as new:
        assert new.upgrade() == "0010"
        kept = new.reviews.get("a")
        assert kept is not None and kept.seat == 0 and kept.ai == '{"level": "random"}'
        assert new.reviews.get("a", 1) is None and new.reviews.open("a", T1, 1)
