"""Friends' tables on one process (SQLite, PostgreSQL): invitations and seats over HTTP,
then the live WebSocket of each seat: two humans play a whole deal as partners against the AI, each
message a seat gets holds no card hidden from it, an action id sent twice applies once,
an action out of turn or stale is refused in the seat's language, a reconnect from a
version gets exactly what was missed, and the connection's bounds hold."""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tarocchi.games import GAMES, game
from tarocchi.games.replay import ReplayError, replay
from tarocchi.views import to_json, view
from tarocchi.web import service
from tarocchi.web.service import Live, caught_up
from tarocchi.web.store import GameRow
from tests.conftest import BACKENDS, api_client, auth

GAME = "piedicavallo"  # nothing is shown in it but the cards played: every other card hidden


@pytest.fixture(scope="module", params=BACKENDS)
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    yield from api_client(request, tmp_path_factory, ai_workers=1)


def new_table(
    client: TestClient, seed: int, *seats: int, name: str = GAME
) -> tuple[dict[str, Any], dict[int, str]]:
    """Start a deal at the random level and seat a friend in each of seats; return the
    creation's answer and each human seat's token."""
    res = client.post("/api/games", json={"game": name, "level": "random", "seed": seed})
    assert res.status_code == 201, res.text
    data: dict[str, Any] = res.json()
    tokens = {0: data["token"]}
    for seat in seats:
        opened = client.post(f"/api/games/{data['id']}/seats/{seat}/invitation",
                             headers=auth(data["token"]))  # fmt: skip
        assert opened.status_code == 201, opened.text
        taken = client.post(f"/api/games/{data['id']}/seats/{seat}",
                            json={"secret": opened.json()["secret"]})  # fmt: skip
        assert taken.status_code == 201, taken.text
        tokens[seat] = taken.json()["token"]
    return data, tokens


class Seat:
    """A seat's live connection (anything with send_json and receive_json), keeping every
    message it got with the version it tells."""

    def __init__(self, ws: Any, token: str, since: int | None = None) -> None:
        self.ws = ws
        self.got: list[dict[str, Any]] = []
        self.answers: dict[str, dict[str, Any]] = {}
        ws.send_json({"type": "hello", "token": token, "since": since})
        self.last = self.next()
        self.table = self.next()  # then the table: who sits where, hints, wishes
        assert self.table["type"] == "table", self.table

    def next(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.got.append(message)
        if message["type"] == "answer":
            self.answers[message["id"]] = message
        return message

    def act(self, action_id: str, action: str, version: int) -> dict[str, Any]:
        self.send(action_id, action, version)
        return self.wait(action_id)

    def send(self, action_id: str, action: str, version: int) -> None:
        self.ws.send_json({"type": "act", "id": action_id, "action": action, "version": version})

    def wait(self, action_id: str) -> dict[str, Any]:
        """Read until the answer to an action id comes; return it."""
        while action_id not in self.answers:
            self.take(self.next())
        return self.answers.pop(action_id)

    def take(self, message: dict[str, Any]) -> None:
        if message["type"] in ("state", "update"):
            self.last = message
        elif message["type"] == "table":
            self.table = message

    def settle(self, humans: set[int], floor: int = 0) -> dict[str, Any]:
        """Read until the table is at floor or later, a human seat to move or the deal over;
        return that message."""
        while self.last["version"] < floor or not (
            self.last["view"]["over"] or self.last["view"]["to_move"] in humans
        ):
            self.take(self.next())
        return self.last


def live(client: TestClient, game_id: str, lang: str = "en") -> Any:
    return client.websocket_connect(f"/api/games/{game_id}/live?lang={lang}")


def test_invitations_take_a_seat_once(client: TestClient) -> None:
    data, _ = new_table(client, 5)
    game_id, h = data["id"], auth(data["token"])
    opened = client.post(f"/api/games/{game_id}/seats/1/invitation", headers=h)
    assert opened.status_code == 201
    secret = opened.json()["secret"]
    url = f"/api/games/{game_id}/seats/1"
    assert client.post(url, json={"secret": "not-it"}).status_code == 403
    assert client.post(f"/api/games/{game_id}/seats/3", json={"secret": secret}).status_code == 404
    assert client.post(url, json={"secret": secret}).status_code == 201
    second = client.post(url, json={"secret": secret}, headers={"accept-language": "it"})
    assert second.status_code == 409 and second.json()["detail"] == "questo posto è occupato"
    assert client.get(f"/api/games/{game_id}/seats", headers=h).json() == {
        "seats": [{"seat": 1, "taken": True}]
    }
    # only the creator opens seats, and South's seat is never one of them
    mine = dict(client.cookies)  # the creator's device cookie opens their deal as the token does
    client.cookies.clear()
    assert client.post(f"/api/games/{game_id}/seats/2/invitation").status_code == 401
    client.cookies.update(mine)
    assert client.post(f"/api/games/{game_id}/seats/0/invitation", headers=h).status_code == 422
    # at a table with friends, the one-human API refuses to act (it would play their seats)
    v = client.get(f"/api/games/{game_id}", headers=h).json()
    move = {"action": v["view"]["legal"][0], "version": v["version"]}
    refused = client.post(f"/api/games/{game_id}/actions", headers=h, json=move)
    assert refused.status_code == 409 and "live" in refused.json()["detail"]
    assert client.get(f"/api/games/{game_id}", headers=h).json()["version"] == v["version"]


def test_a_reissued_invitation_refuses_the_old_link_and_holder(client: TestClient) -> None:
    data, tokens = new_table(client, 6, 3)
    game_id = data["id"]
    # a friend's token never opens South's view; the record, only once the deal is over
    assert client.get(f"/api/games/{game_id}", headers=auth(tokens[3])).status_code == 403
    early = client.get(f"/api/games/{game_id}/record", headers=auth(tokens[3]))
    assert early.status_code == 409
    again = client.post(f"/api/games/{game_id}/seats/3/invitation", headers=auth(data["token"]))
    assert again.status_code == 201
    with live(client, game_id) as ws:
        ws.send_json({"type": "hello", "token": tokens[3]})
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    url = f"/api/games/{game_id}/seats/3"
    assert client.post(url, json={"secret": again.json()["secret"]}).status_code == 201


def hidden_cards(state: Any, seat: int, dealt: int) -> set[str]:
    """Return the codes of the cards a seat (dealt a mask of cards) cannot see in a
    Piedicavallo state: those in the other hands and those another seat laid aside (in a
    pile, never played to a trick)."""
    rules = game(GAME)
    played = {c for t in (*state.tricks, state.trick) for _, c in t}
    out = {c for c in range(rules.pack.size) for s in range(4)
           if s != seat and state.hands[s] >> c & 1}  # fmt: skip
    aside = {c for c in range(rules.pack.size) if any(p >> c & 1 for p in state.piles)}
    out |= aside - played - {c for c in range(rules.pack.size) if dealt >> c & 1}
    return {rules.pack.codes[c] for c in out}


def words(message: dict[str, Any]) -> tuple[set[str], str]:
    """Return every string of a message, and all of them joined."""
    found: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, str):
            found.append(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(message)
    return set(found), "\n".join(found)


def check_hidden(record: dict[str, Any], seat: int, messages: list[dict[str, Any]]) -> int:
    """Check no message a seat got names a card hidden from it at the message's version;
    return how many messages were checked."""
    rules = game(GAME)
    log = tuple((a["seat"], a["action"]) for a in record["actions"])
    names = {c.code: c.name_en for c in rules.pack.cards}
    dealt = rules.deal(record["seed"]).hands[seat]
    checked = 0
    for m in messages:
        if m["type"] not in ("state", "update") or m["view"]["over"]:
            continue  # at the end every hand is shown
        state = replay(rules, record["seed"], log[: m["version"]])
        assert m["view"]["hand"] == [rules.pack.codes[c] for c in sorted(
            (c for c in range(rules.pack.size) if state.hands[seat] >> c & 1),
            key=rules.pack.sort_key)]  # fmt: skip
        strings, text = words(m)
        for code in hidden_cards(state, seat, dealt):
            assert code not in strings, (seat, m["version"], code)
            assert not re.search(rf"(?<![0-9]){re.escape(names[code])}", text), (seat, code)
        checked += 1
    return checked


@pytest.mark.slow
def test_two_partners_play_a_deal_live_and_see_only_their_own(client: TestClient) -> None:
    data, tokens = new_table(client, 11, 2)
    game_id = data["id"]
    humans = {0, 2}
    with live(client, game_id) as w0, live(client, game_id) as w2:
        seats = {0: Seat(w0, tokens[0]), 2: Seat(w2, tokens[2])}
        assert {s: seats[s].last["seat"] for s in seats} == {0: 0, 2: 2}
        n = floor = 0
        while True:
            now = {s: seats[s].settle(humans, floor) for s in seats}
            assert now[0]["version"] == now[2]["version"]  # both see the same table
            v = now[0]["view"]
            if v["over"]:
                break
            mover = v["to_move"]
            mine = now[mover]
            answer = seats[mover].act(f"a{n}", mine["view"]["legal"][0], mine["version"])
            assert answer["ok"] and answer["version"] == mine["version"] + 1, answer
            n, floor = n + 1, answer["version"]
        assert now[0]["view"]["result"] == now[2]["view"]["result"]
    record = client.get(f"/api/games/{game_id}/record", headers=auth(tokens[0])).json()
    assert sum(1 for a in record["actions"] if a["seat"] in humans) == n
    # the friend reads the record too, once the deal is over
    assert client.get(f"/api/games/{game_id}/record", headers=auth(tokens[2])).json() == record
    for s in humans:
        assert check_hidden(record, s, seats[s].got) > 20


def test_an_action_id_applies_once_and_refusals_are_told_in_the_seats_language(
    client: TestClient,
) -> None:
    data, tokens = new_table(client, 12, 2)
    game_id = data["id"]
    with live(client, game_id, "it") as w0, live(client, game_id, "it") as w2:
        south, north = Seat(w0, tokens[0]), Seat(w2, tokens[2])
        at = south.last
        assert at["view"]["to_move"] == 0
        # North out of turn: refused, in Italian, and its id keeps that answer
        out = north.act("n1", at["view"]["legal"][0], at["version"])
        assert not out["ok"] and out["reason"] == "non è il tuo turno"
        # a stale version is refused, changing nothing
        stale = south.act("s0", at["view"]["legal"][0], at["version"] - 1)
        assert not stale["ok"] and "versione" in stale["reason"]
        first = south.act("s1", at["view"]["legal"][0], at["version"])
        assert first["ok"] and first["version"] == at["version"] + 1
        # the same id again, even with another card: the first answer, nothing applied
        again = south.act("s1", at["view"]["legal"][-1], at["version"])
        assert again == first
        assert north.act("n1", at["view"]["legal"][0], at["version"]) == out
    # in the stored log, South's card once, where it was played; then the AI's East
    row = client.app.state.games.store.get(game_id)  # type: ignore[attr-defined]
    played = row.actions[at["version"] :]
    assert played[0] == (0, at["view"]["legal"][0]) and all(s != 0 for s, _ in played[1:])


def test_a_reconnect_gets_exactly_what_it_missed(client: TestClient) -> None:
    data, tokens = new_table(client, 13, 2)
    game_id = data["id"]
    humans = {0, 2}
    with live(client, game_id) as w2:
        north = Seat(w2, tokens[2])
        since = north.last["version"]
        with live(client, game_id) as w0:
            south = Seat(w0, tokens[0])
            floor = 0
            for n in range(3):  # North stays; South plays three of its turns
                at = south.settle(humans, floor)
                mover = at["view"]["to_move"]
                seat = north if mover == 2 else south
                at = seat.settle(humans, floor)
                answer = seat.act(f"m{n}", at["view"]["legal"][0], at["version"])
                assert answer["ok"], answer
                floor = answer["version"]
            south.settle(humans, floor)
            target = north.settle(humans, floor)["version"]
        stayed = [e for m in north.got if m["type"] == "update" for e in m["events"]]
        # a second North connection from the first version it saw: the same events, once
        with live(client, game_id) as again:
            back = Seat(again, tokens[2], since=since)
            assert back.last["type"] == "update" and back.last["version"] == target
            assert back.last["events"] == stayed
            assert back.last["view"] == north.last["view"]


def test_the_connections_bounds(client: TestClient) -> None:
    data, tokens = new_table(client, 14, 1)
    game_id = data["id"]

    def closed_with(ws: WebSocketTestSession) -> int:
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
        return closed.value.code

    with live(client, game_id) as ws:  # anything but a hello first
        ws.send_json({"type": "ping"})
        assert closed_with(ws) == 4401
    with live(client, game_id) as ws:
        ws.send_json({"type": "hello", "token": "x" * 30})
        assert closed_with(ws) == 4403
    with live(client, "nope") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        assert closed_with(ws) == 4404
    with live(client, game_id) as a, live(client, game_id) as b, live(client, game_id) as c:
        Seat(a, tokens[1])
        Seat(b, tokens[1])
        c.send_json({"type": "hello", "token": tokens[1]})
        assert closed_with(c) == 4429  # a third connection of one seat
        a.send_text(json.dumps({"type": "ping", "pad": "x" * 4100}))
        assert closed_with(a) == 1009  # over 4 KB
        b.send_json({"type": "act", "id": "bad id!", "action": "SW-K", "version": 1})
        assert b.receive_json() == {"type": "error", "reason": "malformed message"}
        b.send_json({"type": "ping"})  # answered with who plays each seat, none away
        assert b.receive_json() == {"type": "pong", "humans": [0, 1], "away": [], "ai_for": []}


def check_views_only(record: dict[str, Any], seat: int, messages: list[dict[str, Any]]) -> int:
    """Check that every card a message to a seat names, by code or by name, is one the
    seat's views (views.view: hidden cards never in them, a property test of their own) had
    shown it by the message's version; return how many messages were checked."""
    rules = game(record["game"])
    log = tuple((a["seat"], a["action"]) for a in record["actions"])
    state = rules.deal(record["seed"])
    seen = words(to_json(view(state, seat)))[0]  # every string of the seat's views so far
    at = 0
    checked = 0
    for m in messages:
        if m["type"] not in ("state", "update") or m["view"]["over"]:
            continue  # at the end every hand is shown
        while at < m["version"]:
            state = rules.apply(state, rules.parse_action(log[at][1]))
            at += 1
            seen |= words(to_json(view(state, seat)))[0]
        strings, text = words(m)
        for card in rules.pack.cards:
            if card.code in seen:
                continue
            assert card.code not in strings, (seat, m["version"], card.code)
            assert not re.search(rf"(?<![0-9]){re.escape(card.name_en)}(?![0-9])", text), card
        checked += 1
    return checked


def test_the_views_check_finds_a_card_the_seat_cannot_see() -> None:
    rules = game(GAME)
    state = rules.deal(5)
    record = {"game": GAME, "seed": 5, "actions": []}
    own, east = (next(c for c in range(rules.pack.size) if state.hands[s] >> c & 1)
                 for s in (0, 1))  # fmt: skip
    told = {"type": "update", "version": 0, "view": {"over": False}, "events": []}
    assert check_views_only(record, 0, [{**told, "events": [rules.pack.codes[own]]}]) == 1
    for leak in (rules.pack.codes[east], f"the {rules.pack.cards[east].name_en}"):
        with pytest.raises(AssertionError):
            check_views_only(record, 0, [{**told, "events": [leak]}])


TABLES = 6  # tables of four people per game: dealers, discards and declarations vary


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(19, 19 + TABLES))
@pytest.mark.parametrize("name", sorted(GAMES))
def test_four_humans_in_each_game_see_only_what_their_views_show(
    client: TestClient, name: str, seed: int
) -> None:
    data, tokens = new_table(client, seed, 1, 2, 3, name=name)
    record, got = play_four(client, data, tokens)
    for s in range(4):
        assert check_views_only(record, s, got[s]) > 10


def play_four(client: TestClient, data: dict[str, Any], tokens: dict[int, str]
              ) -> tuple[dict[str, Any], dict[int, list[dict[str, Any]]]]:  # fmt: skip
    """Play a deal with four humans, each its first legal action; return the record and
    every message each seat got."""
    game_id = data["id"]
    humans = {0, 1, 2, 3}
    with contextlib.ExitStack() as stack:
        seats = {s: Seat(stack.enter_context(live(client, game_id)), tokens[s]) for s in humans}
        floor = 0
        while True:
            now = {s: seats[s].settle(humans, floor) for s in humans}
            assert len({m["version"] for m in now.values()}) == 1
            v = now[0]["view"]
            if v["over"]:
                break
            mine = now[v["to_move"]]
            answer = seats[v["to_move"]].act(f"a{floor}", mine["view"]["legal"][0], mine["version"])
            assert answer["ok"], answer
            floor = answer["version"]
    record = client.get(f"/api/games/{game_id}/record", headers=auth(tokens[0])).json()
    return record, {s: seats[s].got for s in humans}


@pytest.mark.slow
def test_four_humans_at_one_table_each_see_only_their_own(client: TestClient) -> None:
    data, tokens = new_table(client, 15, 1, 2, 3)
    record, got = play_four(client, data, tokens)
    assert record["result"]["winner"] in ("NS", "EW", "draw")
    for s in range(4):
        assert check_hidden(record, s, got[s]) > 10


def test_a_change_is_read_once_for_all_the_connections_of_a_process(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four seats (and South twice) connected to one process: each action is read from the
    store once for all of them, not once a connection."""
    data, tokens = new_table(client, 18, 1, 2, 3)
    latest = client.app.state.channels.latest  # type: ignore[attr-defined]
    reads: list[str] = []

    def read(game_id: str) -> Any:
        reads.append(game_id)
        return real(game_id)

    real = latest.read
    monkeypatch.setattr(latest, "read", read)
    humans = {0, 1, 2, 3}
    with contextlib.ExitStack() as stack:
        seats = [(s, Seat(stack.enter_context(live(client, data["id"])), tokens[s]))
                 for s in (0, 0, 1, 2, 3)]  # fmt: skip
        floor = 0
        for n in range(3):
            now = {s: seat.settle(humans, floor) for s, seat in seats}
            reads.clear()
            mover = now[0]["view"]["to_move"]
            seat = next(seat for s, seat in seats if s == mover)
            answer = seat.act(f"r{n}", now[mover]["view"]["legal"][0], now[mover]["version"])
            floor = answer["version"]
            for _, each in seats:
                assert each.settle(humans, floor)["version"] == floor
            assert reads == [data["id"]]


def test_a_change_is_read_in_one_statement_a_part(client: TestClient) -> None:
    """A table's read after a change (its game, the AI's marks, its clock, its seats) is four
    statements: the clock's turn and presence are one, not two."""
    data, _ = new_table(client, 19, 1, 2, 3)
    app = client.app
    store = app.state.channels.store  # type: ignore[attr-defined]
    selects: list[str] = []

    reader = threading.get_ident()  # the app's own tasks use the engine meanwhile

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if threading.get_ident() == reader and statement.lstrip().upper().startswith("SELECT"):
            selects.append(statement)

    sa.event.listen(store.engine, "before_cursor_execute", count)
    try:
        got = app.state.channels.latest.read(data["id"])  # type: ignore[attr-defined]
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", count)
    assert got.row is not None and got.row.id == data["id"]
    assert got.humans["humans"] == [0, 1, 2, 3]
    assert len(selects) == 4, selects


def test_a_game_in_memory_takes_only_its_logs_new_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game held at an earlier point of its log reaches the stored one by the new actions
    alone, each checked; a log that does not extend the held one is replayed from the deal."""
    rules = game(GAME)
    state, log = rules.deal(7), []
    for _ in range(9):
        action = rules.legal_actions(state)[0]
        log.append((state.to_move, rules.action_code(action)))
        state = rules.apply(state, action)

    def row(actions: list[tuple[int, str]]) -> GameRow:
        return GameRow("g", "h", GAME, 7, "random", tuple(actions), len(actions), False, "t")

    held = replay(rules, 7, log[:4])
    live_game = Live(row(log[:4]), held, view(held, 0))
    with monkeypatch.context() as m:
        m.setattr(service, "replay", lambda *a: pytest.fail("the deal was replayed"))
        assert caught_up(row(log), live_game) == state
        bad = [*log[:4], (log[4][0], "SW-NOPE")]
        with pytest.raises(ReplayError, match="action 5"):
            caught_up(row(bad), live_game)
    other = replay(rules, 7, log[:2])  # (a log the held game is not a start of)
    assert caught_up(row(log[:2]), live_game) == other
    assert caught_up(row(log), None) == state


def test_two_actions_at_once_apply_one(client: TestClient) -> None:
    """South's two connections and North send their cards together: one lands, the others
    are refused with a reason, and the log holds one action."""
    data, tokens = new_table(client, 16, 2)
    game_id = data["id"]
    with live(client, game_id) as a, live(client, game_id) as b, live(client, game_id) as c:
        first, second, north = Seat(a, tokens[0]), Seat(b, tokens[0]), Seat(c, tokens[2])
        at = first.last
        legal, version = at["view"]["legal"], at["version"]
        first.send("x", legal[0], version)
        second.send("y", legal[-1], version)
        north.send("z", legal[0], version)
        answers = [first.wait("x"), second.wait("y"), north.wait("z")]
    assert [x["ok"] for x in answers].count(True) == 1, answers
    assert all(x["reason"] for x in answers if not x["ok"])
    row = client.app.state.games.store.get(game_id)  # type: ignore[attr-defined]
    assert sum(1 for s, _ in row.actions[version:] if s == 0) == 1


@pytest.mark.slow
def test_a_reconnect_during_the_ais_turn_misses_nothing(client: TestClient) -> None:
    """South plays and leaves while the AI (a search level) thinks; back from the version
    its card made, it gets the AI's cards once, up to its partner's turn."""
    res = client.post("/api/games", json={"game": GAME, "level": "normal", "seed": 17})
    data = res.json()
    game_id = data["id"]
    opened = client.post(f"/api/games/{game_id}/seats/2/invitation", headers=auth(data["token"]))
    north = client.post(f"/api/games/{game_id}/seats/2", json={"secret": opened.json()["secret"]})
    with live(client, game_id) as ws:
        south = Seat(ws, data["token"])
        at = south.last
        answer = south.act("s", at["view"]["legal"][0], at["version"])
        assert answer["ok"]
    with live(client, game_id) as ws:  # back at once: East is still thinking, most likely
        back = Seat(ws, data["token"], since=answer["version"])
        back.settle({0, 2}, answer["version"] + 1)
        told = [c for m in back.got if m["type"] == "update" for e in m["events"]
                for c in e["changes"] if c["type"] == "play"]  # fmt: skip
    row = client.app.state.games.store.get(game_id)  # type: ignore[attr-defined]
    assert [(c["seat"], c["card"]) for c in told] == list(row.actions[answer["version"] :])
    assert north.status_code == 201


def test_a_silent_connection_is_closed(client: TestClient, monkeypatch: pytest.MonkeyPatch
                                       ) -> None:  # fmt: skip
    data, tokens = new_table(client, 18)
    monkeypatch.setattr("tarocchi.web.live.IDLE_S", 0.5)
    with live(client, data["id"], "hi") as ws:
        Seat(ws, tokens[0])
        error = ws.receive_json()
        assert error["type"] == "error" and "30" in error["reason"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4408
