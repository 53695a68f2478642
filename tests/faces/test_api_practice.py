"""Practice deals on both backends: "try again" from a decision of a finished deal puts South
back at that position (same cards, same AI), shows South's view only, says where it started
and the deal's margin, and its record is marked; refused before the end and for a decision
South did not have. The AI's own deal on your cards, served for the replay."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tarocchi.games import game
from tarocchi.views import view
from tests.conftest import BACKENDS, api_client
from tests.faces.test_api import auth, new_game, play_to_end

WAIT_S = 300  # the AI's line on a busy machine, at the lowest priority


@pytest.fixture(scope="module", params=BACKENDS)
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    yield from api_client(request, tmp_path_factory, ai_workers=1)


def practice(client: TestClient, data: dict[str, Any], decision: int) -> Any:
    return client.post(f"/api/games/{data['id']}/practice", headers=auth(data["token"]),
                       json={"decision": decision})  # fmt: skip


def record(client: TestClient, data: dict[str, Any]) -> dict[str, Any]:
    res = client.get(f"/api/games/{data['id']}/record", headers=auth(data["token"]))
    assert res.status_code == 200, res.text
    out: dict[str, Any] = res.json()
    return out


def test_try_again_puts_south_back_at_the_decision_with_the_same_cards_and_ai(
    client: TestClient,
) -> None:
    data = new_game(client, seed=31)
    end = play_to_end(client, data)
    original = record(client, data)
    mine = [i for i, a in enumerate(original["actions"]) if a["seat"] == 0]
    k = 4
    res = practice(client, data, k)
    assert res.status_code == 201, res.text
    body = res.json()
    assert body["id"] != data["id"] and body["token"] != data["token"]
    v = body["view"]
    at = mine[k]
    margin = end["result"]["ns"] - end["result"]["ew"]
    assert v["practice"] == {"from": data["id"], "action": at, "margin": margin}
    assert body["version"] == at and v["to_move"] == 0 and not v["over"]
    # South's view at that decision, and nothing more: no seed, no other hand
    rules = game("piedicavallo")
    state = rules.deal(original["seed"])
    for a in original["actions"][:at]:
        state = rules.apply(state, rules.parse_action(a["action"]))
    seen = view(state, 0)
    codes = rules.pack.codes
    assert sorted(v["hand"]) == sorted(
        codes[c] for c in range(rules.pack.size) if seen.hand >> c & 1
    )
    assert sorted(v["legal"]) == sorted(rules.action_code(a) for a in seen.legal)
    assert "seed" not in v and "hands" not in v
    assert len(v["history"]) > 0  # the deal so far, as South saw it
    # South plays as before: the same AI (seeded as in the deal) plays the same deal again
    version, v = body["version"], v
    for a in original["actions"][at:]:
        if a["seat"] != 0:
            continue
        res = client.post(f"/api/games/{body['id']}/actions", headers=auth(body["token"]),
                          json={"action": a["action"], "version": version})  # fmt: skip
        assert res.status_code == 200, res.text
        version, v = res.json()["version"], res.json()["view"]
    assert v["over"] and v["practice"]["margin"] == margin
    again = record(client, body)
    assert again["actions"] == original["actions"] and again["result"] == original["result"]
    assert again["practice"] == {"from": data["id"], "action": at}
    assert "practice" not in original


def test_try_again_refuses_a_deal_in_play_and_a_decision_south_did_not_have(
    client: TestClient,
) -> None:
    data = new_game(client, seed=32)
    res = practice(client, data, 0)
    assert res.status_code == 409 and "not over" in res.json()["detail"]
    play_to_end(client, data)
    total = sum(a["seat"] == 0 for a in record(client, data)["actions"])
    res = practice(client, data, total)
    assert res.status_code == 422 and f"it has {total}" in res.json()["detail"]
    assert practice(client, data, -1).status_code == 422
    wrong = client.post(f"/api/games/{data['id']}/practice", headers=auth("wrong"),
                        json={"decision": 0})  # fmt: skip
    assert wrong.status_code == 403
    # a practice deal of a practice deal: from where the first one stood
    first = practice(client, data, 2).json()
    play_to_end(client, first)
    second = practice(client, first, 0)
    assert second.status_code == 201 and second.json()["view"]["practice"]["from"] == first["id"]


@pytest.mark.slow
def test_the_ai_s_own_deal_on_your_cards_for_the_replay(client: TestClient) -> None:
    data = new_game(client, seed=33)
    play_to_end(client, data)
    h = auth(data["token"])
    deadline = time.time() + WAIT_S
    while not (body := client.get(f"/api/games/{data['id']}/review", headers=h).json())["ai"]:
        assert time.time() < deadline
        time.sleep(0.3)
    res = client.get(f"/api/games/{data['id']}/review/ai", headers=h)
    assert res.status_code == 200, res.text
    deal = res.json()
    ai = body["ai"]
    rec = deal["record"]
    ns, ew = rec["result"]["ns"], rec["result"]["ew"]
    assert ns - ew == ai["margin"] and rec["seed"] == record(client, data)["seed"]
    assert deal["history"] and all("type" in e for e in deal["history"])
    first = ai["first"]
    if ai["diverged"] is None:
        assert first is None and rec["actions"] == record(client, data)["actions"]
    else:
        ours = record(client, data)["actions"]
        at = first["index"]
        assert at == ai["diverged"] and rec["actions"][:at] == ours[:at]
        assert first["ai"] == rec["actions"][at]["action"] != first["yours"]
        assert first["yours"] == ours[at]["action"]
