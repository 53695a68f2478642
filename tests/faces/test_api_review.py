"""The review's API on both backends: refused before the deal ends, the AI on your cards after
every deal, a review started once that fills in and ends equal to the library's, stored
without a language and served in the reader's, and a stored log altered after the end
refused with its first bad action named."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tarocchi.i18n import translator
from tarocchi.match import play_deal
from tarocchi.packs.piemontese import PACK
from tarocchi.record import make_record
from tarocchi.review import AiLine, ai_to_json, plan, review, table_level, to_json, value
from tarocchi.web.jobs import hint_for
from tarocchi.web.reviews import first_difference
from tarocchi.web.store.schema import games
from tests.conftest import BACKENDS, api_client, store_of
from tests.faces.test_api import auth, new_game, play_to_end
from tests.faces.test_api_texts import leaks

WAIT_S = 600  # a whole review on a busy machine, at the lowest priority


@pytest.fixture(scope="module", params=BACKENDS)
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    yield from api_client(request, tmp_path_factory, ai_workers=1)


def url(data: dict[str, Any]) -> str:
    return f"/api/games/{data['id']}/review"


def get(client: TestClient, data: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    res = client.get(url(data), headers={**auth(data["token"]), "Accept-Language": lang})
    assert res.status_code == 200, res.text
    body: dict[str, Any] = res.json()
    return body


def until(client: TestClient, data: dict[str, Any], done: Any) -> list[dict[str, Any]]:
    """Poll the review until done(body); return every body read."""
    seen = [get(client, data)]
    deadline = time.time() + WAIT_S
    while not done(seen[-1]):
        assert time.time() < deadline, seen[-1]
        time.sleep(0.3)
        seen.append(get(client, data))
    return seen


def test_nothing_before_the_end_and_the_game_s_token_only(client: TestClient) -> None:
    """The game's token, or its player's device cookie (the history's way), opens it."""
    data = new_game(client, seed=11)
    h = auth(data["token"])
    mine = dict(client.cookies)
    for method in (client.get, client.post):
        res = method(url(data), headers=h)
        assert res.status_code == 409 and "not over" in res.json()["detail"]
        assert method(url(data)).status_code == 409  # opened by the cookie: not over yet
        client.cookies.clear()
        assert method(url(data)).status_code == 401
        client.cookies.update(mine)
        assert method(url(data), headers=auth("wrong")).status_code == 403
        assert method("/api/games/nope/review", headers=h).status_code == 404


@pytest.mark.slow
def test_the_ai_on_your_cards_after_every_deal(client: TestClient) -> None:
    """Nobody asks for a review: the AI's line is computed anyway, once the deal ends."""
    data = new_game(client, seed=12)
    end = play_to_end(client, data)
    body = until(client, data, lambda b: b["ai"])[-1]
    assert body["status"] == "none" and body["review"] is None and body["total"] is None
    ai = body["ai"]
    assert ai["level"] == "random"
    assert ai["yours"] == end["result"]["ns"] - end["result"]["ew"]
    assert ai["diverged"] is None or ai["diverged"] >= 0


@pytest.mark.slow
def test_a_review_starts_once_fills_in_and_equals_the_library_s(client: TestClient) -> None:
    data = new_game(client, seed=13)
    play_to_end(client, data)
    h = auth(data["token"])
    first = client.post(url(data), headers=h)
    assert first.status_code == 202, first.text
    assert first.json()["status"] == "running" and first.json()["total"] > 1
    again = client.post(url(data), headers=h)
    assert again.status_code == 202 and again.json()["total"] == first.json()["total"]
    assert not store_of(client).reviews.request(data["id"], 1, "")  # running: not again
    seen = until(client, data, lambda b: b["status"] == "done")
    dones = [b["done"] for b in seen]
    assert dones == sorted(dones)  # it fills in
    for b in seen:
        if b["review"] is not None:  # the decisions valued so far
            assert len(b["review"]["decisions"]) == b["done"]
    end = seen[-1]
    assert end["done"] == end["total"] and end["error"] is None
    record = client.get(f"/api/games/{data['id']}/record", headers=h).json()
    assert table_level(record) == "random"  # what `tarocchi review` replays by default
    mine = review(record, 0, "random")
    assert end["review"] == to_json(mine, translator("en"))
    assert mine.ai is not None and end["ai"]["margin"] == mine.ai.margin
    assert get(client, data, "it")["review"] == to_json(mine, translator("it"))
    done = client.post(url(data), headers=h)
    assert done.status_code == 200 and done.json() == end  # served, not computed again
    stored = store_of(client).reviews.get(data["id"])
    assert stored is not None and stored.data is not None
    reasons = [c["reason"] for d in json.loads(stored.data)["decisions"] for c in d["choices"]]
    assert reasons and all(isinstance(r, dict) and "msg" in r for r in reasons)  # no language


def test_a_log_altered_after_the_end_is_refused_naming_its_first_bad_action(
    client: TestClient,
) -> None:
    data = new_game(client, seed=14)
    play_to_end(client, data)
    store = store_of(client)
    row = store.get(data["id"])
    assert row is not None
    actions = [list(a) for a in row.actions]
    k = next(i for i, (seat, _) in enumerate(actions) if seat == 0 and i > 10)
    # South plays a card it played before: no longer in its hand
    earlier = next(code for seat, code in actions[:k] if seat == 0)
    actions[k][1] = earlier
    with store.engine.begin() as conn:
        conn.execute(sa.update(games).where(games.c.id == data["id"])
                     .values(actions=json.dumps(actions)))  # fmt: skip
    for method in (client.get, client.post):
        res = method(url(data), headers=auth(data["token"]))
        assert res.status_code == 409, res.text
        name = translator("en").text(PACK.cards[PACK.card_id(earlier)])
        assert f"action {k + 1} ({name} by seat 0)" in res.json()["detail"]  # a name, no code


# the fast tier: Ottocento's; make test: Minchiate's too
@pytest.mark.parametrize(
    ("name", "seed"), [("ottocento", 5), pytest.param("minchiate", 2, marks=pytest.mark.slow)]
)
def test_the_hint_the_api_gives_is_the_review_s_decision(name: str, seed: int) -> None:
    """At South's first decision (Ottocento's declaration, Minchiate's discard) and its first
    card: the hint route's job gives the values, order and best of the review's decision."""
    record = make_record(play_deal(name, seed, ["heuristic"] * 4))
    p = plan(record, 0, "heuristic")
    first_card = next(k for k, i in enumerate(p.mine) if p.rules.phase_name(p.states[i]) == "play")
    for k in (0, first_card):
        i = p.mine[k]
        actions = tuple((e["seat"], e["action"]) for e in record["actions"][:i])
        hints = hint_for(name, record["seed"], actions)
        d = value(p, k)
        assert [(h["action"], h["value"]) for h in hints] == [(c.action, c.fair) for c in d.choices]
        assert (d.phase == "play") == (k == first_card)  # a setup decision, then a card
        assert hints[0]["action"] == d.best and d.cost_of(d.best) == 0.0


@pytest.mark.parametrize(
    ("name", "seed"), [("ottocento", 5), pytest.param("minchiate", 7, marks=pytest.mark.slow)]
)
def test_a_first_different_declaration_is_named_by_its_button_s_words(name: str, seed: int) -> None:
    """The AI in your seat first chose otherwise at a declaration: the API gives both
    choices in the words of their buttons at the table, in the reader's language, no code."""
    record = make_record(play_deal(name, seed, ["heuristic"] * 4))
    p = plan(record, 0, "heuristic")
    at = next(i for i in p.mine if len(p.rules.legal_actions(p.states[i])) > 1
              and min(p.rules.legal_actions(p.states[i])) >= p.rules.pack.size)  # fmt: skip
    actions = tuple((e["seat"], e["action"]) for e in record["actions"])
    hand = p.rules.view(p.states[at], 0).hand
    other = next(a for a in p.rules.legal_actions(p.states[at]) if a != p.actions[at])
    line = AiLine("hard", 0.0, at, (*actions[:at], (0, p.rules.action_code(other))))
    for lang in ("it", "hi"):
        first = first_difference(name, seed, actions, json.dumps(ai_to_json(line)), lang)
        assert first is not None and (first["index"], first["trick"]) == (at, 0)
        said = {a: translator(lang).text(p.rules.action_detail(hand, a).label)
                for a in (other, p.actions[at])}  # fmt: skip
        assert (first["ai_words"], first["yours_words"]) == (said[other], said[p.actions[at]])
        assert leaks(first["ai_words"]) == leaks(first["yours_words"]) == []
    # a card play: the page names the cards itself
    at = next(i for i in p.mine if p.rules.phase_name(p.states[i]) == "play"
              and len(p.rules.legal_actions(p.states[i])) > 1)  # fmt: skip
    other = next(a for a in p.rules.legal_actions(p.states[at]) if a != p.actions[at])
    line = AiLine("hard", 0.0, at, (*actions[:at], (0, p.rules.action_code(other))))
    first = first_difference(name, seed, actions, json.dumps(ai_to_json(line)), "it")
    assert first is not None and first["ai"] == p.rules.action_code(other)
    assert first["ai_words"] is None and first["yours_words"] is None
