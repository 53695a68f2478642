"""Leaving a friends' table and coming back: when the AI may play a human's turn (a fixed
clock), the stored presence, stand-ins and timers on both backends, and over the live
connections (SQLite): an away seat's turn is played by the AI once its grace has run out and
the pages say so, the seat is its human's again on return, a seat handed to the AI is played
at once until taken back, a turn timer plays one turn, and the record marks each decision the
AI made for an absent human."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tarocchi.record import replay as replay_record
from tarocchi.web.driver import due
from tarocchi.web.store import GameRow, Store
from tarocchi.web.store.presence import AWAY, HANDED, Clock, Presence, mark
from tests.conftest import api_client, auth
from tests.faces.test_live import Seat, live, new_table

T0 = datetime(2026, 12, 5, 6, 0, tzinfo=UTC)
GRACE_S = 60.0


def at(seconds: float) -> str:
    return (T0 + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


def clock(*seats: Presence, turn_s: float | None = None) -> Clock:
    """A table whose turn began at T0."""
    return Clock(T0.isoformat(timespec="seconds"), turn_s, seats)


def test_the_grace_counts_from_the_later_of_the_turn_and_the_seat_leaving() -> None:
    # gone before its turn began: its grace runs from the turn's start (rules of the table:
    # the grace counts only while it is that seat's turn)
    assert due(clock(Presence(2, at(-40), None)), 2, GRACE_S) == (T0 + timedelta(seconds=60), True)
    # gone during its turn, or here until its pings lapse 30 s on: from then
    assert due(clock(Presence(2, at(30), None)), 2, GRACE_S) == (T0 + timedelta(seconds=90), True)
    # a seat that never connected has not come yet: no deadline, unless a turn timer runs
    assert due(clock(Presence(0, at(30), None)), 2, GRACE_S) is None
    assert due(clock(turn_s=20), 2, GRACE_S) == (T0 + timedelta(seconds=20), False)
    # no grace runs for a human alone at a table (nobody waits on them); a timer does
    assert due(clock(Presence(2, at(-40), None)), 2, None) is None
    assert due(clock(Presence(2, at(-40), None), turn_s=20), 2, None) == (
        T0 + timedelta(seconds=20), False)  # fmt: skip
    # the timer and the grace: whichever runs out first, and which it is
    assert due(clock(Presence(2, at(-5), None), turn_s=120), 2, 10) == (
        T0 + timedelta(seconds=10), True)  # fmt: skip
    assert due(clock(Presence(2, at(30), None), turn_s=45), 2, GRACE_S) == (
        T0 + timedelta(seconds=45), False)  # fmt: skip


def test_presence_stand_ins_and_timers_are_stored(db_url: str) -> None:
    with Store(db_url) as store:
        store.upgrade()
        store.create(GameRow("t", "h", "piedicavallo", 1, "random", (), 0, False, at(0)))
        p = store.presence
        assert p.clock("nope") is None
        assert p.clock("t") == Clock(at(0), None, ())
        assert not p.seen("t", 2, at(30))
        p.stand_in("t", 2, AWAY)
        p.seen("t", 0, at(31))
        assert table(p).seats == (Presence(0, at(31), None), Presence(2, at(30), AWAY))
        # leaving keeps the AI standing in; coming back ends it, once
        assert not p.seen("t", 2, at(40), back=False)
        assert p.seen("t", 2, at(50)) and not p.seen("t", 2, at(60))
        assert table(p).of(2) == Presence(2, at(60), None)
        # a seat handed over stays the AI's while its human is here, until taken back
        p.stand_in("t", 2, HANDED)
        assert not p.seen("t", 2, at(70)) and stand_in(p) == HANDED
        p.stand_in("t", 2, None)
        assert stand_in(p) is None
        p.set_timer("t", 20)
        p.set_timer("t", 25)
        assert table(p).turn_s == 25
        p.set_timer("t", None)
        assert table(p).turn_s is None
        # the AI's decisions for absent humans are written with the move, or not at all
        log = ((3, "SW-2"), (0, "SW-3"))
        assert not store.update("t", 1, log, False, at(80), then=mark("t", {1: 0}))
        assert p.marks("t") == {}
        assert store.update("t", 0, log, False, at(80), then=mark("t", {1: 0}))
        assert p.marks("t") == {1: 0}


def stand_in(p: Any) -> str | None:
    """Return whom the AI stands in for at table t's North (it has connected)."""
    north = table(p).of(2)
    assert north is not None
    return north.stand_in


def table(p: Any) -> Clock:
    """Return table t's clock (it exists)."""
    found = p.clock("t")
    assert found is not None
    return found  # type: ignore[no-any-return]


@pytest.fixture(scope="module", params=["sqlite"])
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    yield from api_client(request, tmp_path_factory, ai_workers=1)


def driver(client: TestClient) -> Any:
    return client.app.state.channels.driver  # type: ignore[attr-defined]


def until_turn(seats: dict[int, Seat], seat: int, floor: int = 0) -> dict[str, Any]:
    """Play the other humans' turns (their first legal card) until seat is to move; return
    its seat's message then."""
    humans = set(seats)
    while True:
        now = seats[seat].settle(humans, floor)
        mover = now["view"]["to_move"]
        assert not now["view"]["over"]
        if mover == seat:
            return now
        mine = seats[mover].settle(humans, floor)
        answer = seats[mover].act(f"p{mine['version']}", mine["view"]["legal"][0], mine["version"])
        assert answer["ok"], answer
        floor = answer["version"]


def updates_until(seat: Seat, floor: int) -> list[dict[str, Any]]:
    """Read a seat's messages until an update reaches floor; return the updates read."""
    got = []
    while True:
        message = seat.next()
        seat.take(message)
        if message["type"] == "update":
            got.append(message)
            if message["version"] >= floor:
                return got


def test_an_away_seat_is_played_by_the_ai_after_its_grace_until_it_comes_back(
    client: TestClient,
) -> None:
    grace = 3.0
    driver(client).grace_s = grace
    data, tokens = new_table(client, 41, 2)
    game_id = data["id"]
    try:
        with live(client, game_id) as a:
            south = Seat(a, tokens[0])
            with live(client, game_id) as b:
                north = Seat(b, tokens[2])
                before = until_turn({0: south, 2: north}, 2)["version"]
            left = time.monotonic()  # North's tab closed on its turn
            # South's page shows North away at its next ping, the grace running
            while (said := pong(south))["away"] != [2]:
                time.sleep(0.05)
            assert said == {"type": "pong", "humans": [0, 2], "away": [2], "ai_for": []}
            assert south.last["version"] == before  # the AI has not played for North yet
            played = updates_until(south, before + 1)[-1]
            assert time.monotonic() - left >= grace - 0.05  # not before the grace ran out
            assert played["stood_in"] == [2] and played["ai_for"] == [2]
            assert played["events"][0]["seat"] == 2
            # North comes back: the seat is its human's again from its next turn
            with live(client, game_id) as b:
                north = Seat(b, tokens[2], since=played["version"])
                assert north.last["ai_for"] == [] and north.last["away"] == []
                back = until_turn({0: south, 2: north}, 2)
                assert back["ai_for"] == []
                mine = north.act("back", back["view"]["legal"][0], back["version"])
                assert mine["ok"]
                end = finish({0: south, 2: north})
        marks = stand_ins_of(client, game_id, tokens[0])
        assert marks and set(marks.values()) == {2} and before in marks
        assert mine["version"] - 1 not in marks  # North's own card, played on return
        assert end["view"]["over"]
    finally:
        driver(client).grace_s = 60.0


def test_a_turn_timer_plays_a_present_humans_turn_only_where_the_server_sets_one(
    client: TestClient,
) -> None:
    tables = client.app.state.tables  # type: ignore[attr-defined]
    store = tables.store
    untimed, _ = new_table(client, 43, 2)  # the default: no timer at a friends' table
    assert store.presence.clock(untimed["id"]).turn_s is None
    tables.turn_s = 1.5
    try:
        data, tokens = new_table(client, 44, 2)
    finally:
        tables.turn_s = None
    game_id = data["id"]
    assert store.presence.clock(game_id).turn_s == 1.5
    with live(client, game_id) as a, live(client, game_id) as b:
        south, north = Seat(a, tokens[0]), Seat(b, tokens[2])
        before = until_turn({0: south, 2: north}, 0)["version"]
        # South is here and pinging, yet its turn runs out: the AI plays that one turn (when:
        # `due`, tested above; a wall clock under load says nothing sure of it)
        played = updates_until(north, before + 1)[-1]
        assert played["events"][0]["seat"] == 0 and played["stood_in"] == [0]
        assert played["away"] == [] and played["ai_for"] == []  # nobody left the table
    assert store.presence.marks(game_id)[before] == 0  # marked for the record


def pong(seat: Seat) -> dict[str, Any]:
    """Ping a seat's connection; return the answer (the table's messages before it taken)."""
    seat.ws.send_json({"type": "ping"})
    while (message := seat.next())["type"] != "pong":
        seat.take(message)
    return message


def finish(seats: dict[int, Seat]) -> dict[str, Any]:
    """Play the humans' turns to the deal's end; return South's last message."""
    humans = set(seats)
    floor = max(seat.last["version"] for seat in seats.values())
    while True:
        now = {s: seats[s].settle(humans, floor) for s in seats}
        floor = max(m["version"] for m in now.values())
        if any(m["version"] < floor for m in now.values()):
            continue  # a seat saw a later version first: all to it
        if now[0]["view"]["over"]:
            return now[0]
        mover = now[0]["view"]["to_move"]
        mine = now[mover]
        seats[mover].act(f"f{floor}", mine["view"]["legal"][0], floor)


def stand_ins_of(client: TestClient, game_id: str, token: str) -> dict[int, int]:
    """Return the record's marks of the AI's decisions for absent humans (seat by index),
    checking that the record replays."""
    res = client.get(f"/api/games/{game_id}/record", headers=auth(token))
    assert res.status_code == 200, res.text
    record = res.json()
    replay_record(record)  # the marks change nothing a replay checks
    assert record["players"][2]["kind"] == "human"
    return {i: a["seat"] for i, a in enumerate(record["actions"]) if a.get("stand_in")}


def test_a_seat_handed_to_the_ai_is_played_at_once_until_taken_back(client: TestClient) -> None:
    data, tokens = new_table(client, 42, 2)
    game_id = data["id"]
    with live(client, game_id) as a, live(client, game_id) as b:
        south, north = Seat(a, tokens[0]), Seat(b, tokens[2])
        mine = until_turn({0: south, 2: north}, 0)
        b.send_json({"type": "hand", "ai": True})
        said = b.receive_json()
        assert said == {"type": "seats", "humans": [0, 2], "away": [2], "ai_for": [2]}
        start = time.monotonic()
        while not any(2 in m.get("stood_in", ()) for m in south.got):  # South plays on
            answer = south.act(f"s{mine['version']}", mine["view"]["legal"][0], mine["version"])
            assert answer["ok"]
            mine = south.settle({0}, answer["version"])
        assert time.monotonic() - start < 30  # at once: no grace (60 s) for a seat handed over
        b.send_json({"type": "hand", "ai": False})
        while (taken := north.next())["type"] != "seats":
            north.take(taken)
        assert taken["ai_for"] == [] and taken["away"] == []
        # North's next turn waits for North
        back = until_turn({0: south, 2: north}, 2, mine["version"])
        assert back["view"]["legal"] and north.act("n", back["view"]["legal"][0],
                                                   back["version"])["ok"]  # fmt: skip
        finish({0: south, 2: north})
    marks = stand_ins_of(client, game_id, tokens[0])
    assert marks and set(marks.values()) == {2}


def test_a_turn_timer_plays_one_turn_of_a_human(client: TestClient) -> None:
    """Friends' tables have no turn timer; one set through the store plays a human's turn
    (here South's, present) once it runs out, and only that turn."""
    data, tokens = new_table(client, 43, 2)
    game_id = data["id"]
    store = client.app.state.games.store  # type: ignore[attr-defined]
    with live(client, game_id) as a, live(client, game_id) as b:
        south, north = Seat(a, tokens[0]), Seat(b, tokens[2])
        mine = until_turn({0: south, 2: north}, 0)
        store.presence.set_timer(game_id, 4.0)
        start = time.monotonic()
        client.portal.call(driver(client).kick, game_id)  # type: ignore[union-attr]
        timed = updates_until(south, mine["version"] + 1)[-1]
        # (the turn began just before: its start is stored to the second)
        assert time.monotonic() - start >= 2.5
        assert timed["stood_in"] == [0] and timed["ai_for"] == []  # that turn only
        assert timed["events"][0]["seat"] == 0
        store.presence.set_timer(game_id, None)


def test_a_human_alone_at_a_table_is_waited_for(client: TestClient) -> None:
    """South opened a seat nobody took, and leaves on its turn: nobody waits on South, so no
    grace runs and the AI plays nothing for South."""
    driver(client).grace_s = 0.5
    try:
        data = client.post("/api/games", json={"game": "piedicavallo", "level": "random",
                                               "seed": 44}).json()  # fmt: skip
        game_id, h = data["id"], auth(data["token"])
        assert client.post(f"/api/games/{game_id}/seats/2/invitation", headers=h).is_success
        with live(client, game_id) as a:
            at = Seat(a, data["token"]).settle({0})
        time.sleep(2)
        assert client.get(f"/api/games/{game_id}", headers=h).json()["version"] == at["version"]
    finally:
        driver(client).grace_s = 60.0


def test_a_seat_handed_over_on_its_turn_stays_handed_over(client: TestClient) -> None:
    """Handed over on its own turn, North's turn is played at once, and the seat stays the
    AI's (handed, not merely away: coming back does not take it back, only asking does)."""
    data, tokens = new_table(client, 45, 2)
    game_id = data["id"]
    store = client.app.state.games.store  # type: ignore[attr-defined]
    with live(client, game_id) as a, live(client, game_id) as b:
        south, north = Seat(a, tokens[0]), Seat(b, tokens[2])
        mine = until_turn({0: south, 2: north}, 2)
        b.send_json({"type": "hand", "ai": True})
        played = updates_until(north, mine["version"] + 1)[-1]
        assert 2 in played["stood_in"]
        seat = store.presence.clock(game_id).of(2)
        assert seat.stand_in == HANDED
        # a connection of North's coming in (a second tab) leaves the seat the AI's
        with live(client, game_id) as c:
            assert Seat(c, tokens[2]).last["ai_for"] == [2]
