"""The end of a deal at friends' tables (SQLite, PostgreSQL): the hints the creator allows,
each from its seat's view only; each seated human's review and the AI in their seat; and
"same deal again" / "new deal" once every seated human agrees, with the same people in the
same seats and no new link."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tarocchi.cards import team_of
from tarocchi.games import game
from tarocchi.games.replay import replay
from tarocchi.record import now
from tarocchi.views import view
from tarocchi.web.jobs import hint_of
from tarocchi.web.store import token_hash
from tarocchi.web.store.presence import AWAY
from tests.conftest import BACKENDS, api_client, auth, store_of
from tests.faces.test_live import GAME, Seat, live, new_table, words


@pytest.fixture(scope="module", params=BACKENDS)
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    yield from api_client(request, tmp_path_factory, ai_workers=1)


def finish(client: TestClient, game_id: str, seed: int = 0) -> tuple[tuple[int, str], ...]:
    """Play a stored deal to its end with random legal actions (every seat), written as the
    table writes its actions; return the log."""
    store = store_of(client)
    row = store.get(game_id)
    rules = game(row.game)
    state = replay(rules, row.seed, row.actions)
    actions = list(row.actions)
    pick = random.Random(seed)
    while not rules.is_over(state):
        action = pick.choice(rules.legal_actions(state))
        actions.append((state.to_move, rules.action_code(action)))
        state = rules.apply(state, action)
    assert store.update(game_id, row.version, tuple(actions), True, now())
    return tuple(actions)


def hint(client: TestClient, game_id: str, token: str, lang: str = "en") -> Any:
    return client.get(f"/api/games/{game_id}/hint",
                      headers={**auth(token), "accept-language": lang})  # fmt: skip


def test_hints_at_a_table_are_the_creators_choice(client: TestClient) -> None:
    data, tokens = new_table(client, 21, 2)
    game_id = data["id"]
    assert data["view"]["to_move"] == 0
    # two humans seated: off by default, said in the seat's language
    off = hint(client, game_id, tokens[0], "it")
    assert off.status_code == 409, off.text
    said = "i suggerimenti sono disattivati a questo tavolo: decide chi l'ha creato"
    assert off.json()["detail"] == said
    with live(client, game_id) as ws:
        north = Seat(ws, tokens[2])
        assert north.table["hints"] is False and north.table["humans"] == [0, 2]
        # only the creator chooses (a friend's token does not open the game's settings)
        url = f"/api/games/{game_id}/table"
        assert client.put(url, json={"hints": True}, headers=auth(tokens[2])).status_code == 403
        assert client.put(url, json={"hints": "yes"}, headers=auth(tokens[0])).status_code == 422
        assert hint(client, game_id, tokens[0]).status_code == 409  # nothing changed
        on = client.put(url, json={"hints": True}, headers=auth(tokens[0]))
        assert on.status_code == 200 and on.json() == {"hints": True}
        while north.table["hints"] is not True:  # every seat is told
            north.take(north.next())
    got = hint(client, game_id, tokens[0])
    assert got.status_code == 200, got.text
    legal = data["view"]["legal"]
    assert sorted(s["action"] for s in got.json()["suggestions"]) == sorted(legal)
    # North asks at South's turn: refused; its own hint comes only at its turn
    early = hint(client, game_id, tokens[2])
    assert early.status_code == 409 and early.json()["detail"] == "it is not your turn"


def test_a_one_human_table_keeps_its_hints(client: TestClient) -> None:
    res = client.post("/api/games", json={"game": GAME, "level": "random", "seed": 22})
    data = res.json()
    opened = client.post(f"/api/games/{data['id']}/seats/3/invitation", headers=auth(data["token"]))
    assert opened.status_code == 201  # invited, not yet taken: one human seated
    assert hint(client, data["id"], data["token"]).status_code == 200


def test_a_friends_hint_is_its_own_seats() -> None:
    """A hint is a function of the seat's view: two deals differing only in cards hidden from
    the seat (an East card and a West card swapped) give it the same hint, while the seat
    whose hand changed is not told the same."""
    rules = game(GAME)
    state = rules.deal(23)
    while state.to_move != 2:
        state = rules.apply(state, rules.legal_actions(state)[0])
    east, west = state.hands[1], state.hands[3]
    a, b = east & -east, west & -west  # the lowest card of each
    hands = list(state.hands)
    hands[1], hands[3] = east ^ a | b, west ^ b | a
    other = state._replace(hands=tuple(hands))
    assert other != state and view(other, 2) == view(state, 2)
    assert hint_of(other, 2) == hint_of(state, 2)
    assert view(other, 1) != view(state, 1)


def wait_for(client: TestClient, url: str, token: str, ready: Any, timeout: float = 240) -> Any:
    """Poll a review's URL with a seat's token until ready(body); return the body."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        body = client.get(url, headers=auth(token)).json()
        if ready(body):
            return body
        time.sleep(0.3)
    raise AssertionError(f"not ready in time: {body}")


@pytest.mark.slow
def test_each_human_gets_the_review_of_their_own_seat(client: TestClient) -> None:
    data, tokens = new_table(client, 24, 1)
    game_id = data["id"]
    log = finish(client, game_id)
    url = f"/api/games/{game_id}/review"
    # East's AI line is East's: the AI in East's seat, East's team's margin beside it
    east = wait_for(client, url, tokens[1], lambda b: b["ai"] is not None)
    rules = game(GAME)
    final = replay(rules, 24, log)
    assert east["ai"]["yours"] == rules.result(final).margin(team_of(1))
    south = wait_for(client, url, tokens[0], lambda b: b["ai"] is not None)
    assert south["ai"]["yours"] == rules.result(final).margin(team_of(0))
    # the AI's own deal on East's cards, told as East saw it: East's hand, no other
    history = client.get(f"{url}/ai", headers=auth(tokens[1])).json()["history"]
    assert any(e.get("seat") == 1 for e in history)
    mine = [i for i, (s, _) in enumerate(log) if s == 1]
    asked = client.post(url, headers=auth(tokens[1])).json()
    assert asked["status"] in ("running", "done") and asked["total"] == len(mine)
    first = wait_for(client, url, tokens[1], lambda b: b["done"] >= 1)
    assert first["review"]["seat"] == 1
    assert first["review"]["decisions"][0]["index"] == mine[0]
    # South's review is not asked for by East's: it stays as it was
    assert client.get(url, headers=auth(tokens[0])).json()["status"] == "none"


def agree(seat: Seat, kind: str) -> None:
    seat.ws.send_json({"type": "agree", "kind": kind})


def until(seat: Seat, ready: Any) -> dict[str, Any]:
    """Read a seat's messages until its table message is ready(table); return it."""
    while not ready(seat.table):
        seat.take(seat.next())
    return seat.table


@pytest.mark.parametrize("kind", ["same", "new"])
def test_the_next_deal_starts_when_every_human_agrees(client: TestClient, kind: str) -> None:
    data, tokens = new_table(client, 25, 2)
    game_id = data["id"]
    with live(client, game_id, "it") as w0, live(client, game_id) as w2:
        south, north = Seat(w0, tokens[0]), Seat(w2, tokens[2])
        agree(south, kind)  # before the end: refused, in South's language, nothing kept
        refused = south.next()
        assert refused == {"type": "error", "reason": "la smazzata non è ancora finita"}
        finish(client, game_id)
        agree(south, kind)
        assert until(north, lambda t: t["agreed"]) == {
            "type": "table", "humans": [0, 2], "hints": False, "agreed": {"0": kind},
            "next": None}  # fmt: skip
        other = "new" if kind == "same" else "same"
        agree(north, other)  # they differ: nothing starts
        assert until(south, lambda t: "2" in t["agreed"])["agreed"] == {"0": kind, "2": other}
        agree(north, kind)
        nxt = until(south, lambda t: t["next"])["next"]
        assert until(north, lambda t: t["next"])["next"] == nxt
    # the same tokens open the next game, each its own seat
    old, new = store_of(client).get(game_id), store_of(client).get(nxt)
    assert new.token_hash == old.token_hash and new.player_id == old.player_id
    assert (new.seed == old.seed) == (kind == "same")
    assert client.get(f"/api/games/{nxt}", headers=auth(tokens[2])).status_code == 403
    with live(client, nxt) as w0, live(client, nxt) as w2:
        south, north = Seat(w0, tokens[0]), Seat(w2, tokens[2])
        assert (south.last["seat"], north.last["seat"]) == (0, 2)
        assert north.table["humans"] == [0, 2] and north.table["next"] is None
        dealt = replay(game(GAME), old.seed, ()).hands[2]
        hand = {game(GAME).pack.codes[c] for c in range(game(GAME).pack.size) if dealt >> c & 1}
        assert (set(north.last["view"]["hand"]) <= hand) == (kind == "same")
    # the old table keeps pointing at it; a late wish changes nothing
    with live(client, game_id) as w2:
        late = Seat(w2, tokens[2])
        assert late.table["next"] == nxt
        agree(late, kind)
    assert store_of(client).tables.options(game_id).next_game == nxt


def test_a_table_of_four_ais_is_watched_without_a_hidden_card(client: TestClient) -> None:
    client.app.state.channels.driver.pace_s = 0.02  # type: ignore[attr-defined]
    res = client.post("/api/watch", json={"game": GAME, "level": "random", "seed": 26})
    assert res.status_code == 201, res.text
    game_id = res.json()["id"]
    assert res.json()["link"] == f"/watch/{game_id}"
    assert client.get(res.json()["link"]).status_code == 200
    got = []
    with client.websocket_connect(f"/api/games/{game_id}/watch") as ws:
        while not (got and got[-1]["view"]["over"]):
            got.append(ws.receive_json())
    row = store_of(client).get(game_id)
    rules = game(GAME)
    names = {c.code: c.name_en for c in rules.pack.cards}
    # one move at a time: the watcher saw the deal grow card by card
    assert len({m["version"] for m in got}) > 40 and row.over
    for m in got[:-1]:
        state = replay(rules, 26, row.actions[: m["version"]])
        played = {c for t in (*state.tricks, state.trick) for _, c in t}
        held = {c for s in range(4) for c in range(rules.pack.size) if state.hands[s] >> c & 1}
        aside = {c for c in range(rules.pack.size) if any(p >> c & 1 for p in state.piles)}
        strings, text = words(m)
        for c in held | (aside - played):
            assert rules.pack.codes[c] not in strings, (m["version"], rules.pack.codes[c])
            assert not re.search(rf"(?<![0-9]){re.escape(names[rules.pack.codes[c]])}", text)
        assert m["view"]["hand"] == [] and "hands" not in m
    # at the end, the hands as dealt, as the record has them
    record = client.get(f"/api/games/{game_id}/record", headers=auth("x" * 32))
    assert record.status_code == 403  # nobody holds a seat: the game's token was never told
    dealt = rules.deal(26).hands
    assert got[-1]["hands"] == [[rules.pack.codes[c] for c in range(rules.pack.size)
                                 if dealt[s] >> c & 1] for s in range(4)]  # fmt: skip


def test_only_a_table_of_four_ais_is_watched(client: TestClient) -> None:
    data, _ = new_table(client, 27, 2)
    assert client.get(f"/watch/{data['id']}").status_code == 404
    with client.websocket_connect(f"/api/games/{data['id']}/watch?lang=fi") as ws:
        said = ws.receive_json()
        assert said == {
            "type": "error",
            "reason": "täällä ei ole katsottavaa neljän tekoälypelaajan pöytää",
        }
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


@pytest.mark.timeout(90)  # (without it the wait for the next deal never ends)
@pytest.mark.parametrize("leaves_first", [True, False])
def test_a_human_away_does_not_hold_up_the_next_deal(client: TestClient, leaves_first: bool
                                                     ) -> None:  # fmt: skip
    data, tokens = new_table(client, 29, 2)
    game_id, store = data["id"], store_of(client)
    finish(client, game_id)
    with live(client, game_id) as w0:
        south = Seat(w0, tokens[0])
        with live(client, game_id) as w2:
            Seat(w2, tokens[2])
            if not leaves_first:  # North is here and has not answered: South waits
                agree(south, "same")
                assert until(south, lambda t: t["agreed"])["next"] is None
        # North closed the tab: South's wish alone decides (before or after North left)
        if leaves_first:
            agree(south, "same")
        nxt = until(south, lambda t: t["next"])["next"]
    new = store.get(nxt)
    assert new.seed == store.get(game_id).seed and new.version == 0
    # North keeps the seat: its token opens it, and the AI plays it until North is back
    north = store.presence.clock(nxt).of(2)
    assert north is not None and north.stand_in == AWAY
    assert store.tables.holder(nxt, token_hash(tokens[2])) == 2
    with live(client, nxt) as w0:
        south = Seat(w0, tokens[0])
        stood: set[int] = set()
        while not (stood or south.last["view"]["over"]):
            message = south.settle({0}, south.last["version"])
            if message["view"]["to_move"] == 0:
                south.act(f"n{message['version']}", message["view"]["legal"][0],
                          message["version"])  # fmt: skip
                south.settle({0}, message["version"] + 1)
            stood |= {s for m in south.got for s in m.get("stood_in", ())}
        assert stood == {2}  # North's cards, played by the AI, marked for the record
    with live(client, nxt) as w2:  # North is back: the seat is North's again
        assert Seat(w2, tokens[2]).last["seat"] == 2
        assert store.presence.clock(nxt).of(2).stand_in is None
