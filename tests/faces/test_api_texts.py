"""Names, never codes: every text a player reads through the API (events, history, refusals,
declaration labels, the score, hints, the result's lines and notes, errors) names cards in
the reader's language and holds no card code, in every language and every game."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tarocchi.games import GAMES, game
from tarocchi.i18n import LANGUAGES
from tests.faces.test_api import auth, client

__all__ = ["client"]  # the API test's fixture: a TestClient on a fresh database

# every card code and every action code of the three games, as a whole word
CODES = sorted({c for name in GAMES for c in (*game(name).pack.codes, *game(name).extra_actions)})
CODE = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, CODES)) + r")(?![\w-])")
# fields that hold an id or a token, not text
NOT_TEXT = {"id", "token"}


def leaks(obj: Any, where: str = "") -> list[str]:
    """Return the texts of a response that hold a card or action code. A string that is a
    code and nothing else is a code field (`hand`, `card`, `legal`...), not a text."""
    if isinstance(obj, str):
        if obj in CODES or not CODE.search(obj):
            return []
        return [f"{where}: {obj}"]
    if isinstance(obj, dict):
        return [x for k, v in obj.items() if k not in NOT_TEXT for x in leaks(v, f"{where}.{k}")]
    if isinstance(obj, list):
        return [x for i, v in enumerate(obj) for x in leaks(v, f"{where}[{i}]")]
    return []


def test_the_scan_finds_codes_in_texts() -> None:
    assert leaks({"text": "4 Kings 34 (SW-K BA-K CU-K CO-K)"})
    assert leaks({"note": "T40 is worth 10 points"})
    assert leaks({"a": ["Lacking zero-point cards, West had to discard MOOR2, BEGATO"]})
    assert leaks({"label": "declare all your combinations (DECLARE) or PASS"})
    assert not leaks({"hand": ["SW-K", "T40", "MATTO"], "text": "King of Swords, 40 Trumpets"})
    assert not leaks({"token": "a-T12-b", "text": "Trumps 1, 13 and 28"})


# the fast tier scans Minchiate (the most texts: versicole, the Fola, resti) in Hindi (another
# script); `make test` every language of every game
FAST = (("minchiate", "hi"),)


@pytest.mark.parametrize(
    ("name", "lang"),
    [
        pair if pair in FAST else pytest.param(*pair, marks=pytest.mark.slow)
        for pair in itertools.product(sorted(GAMES), sorted(LANGUAGES))
    ],
)
def test_no_text_holds_a_card_code(client: TestClient, name: str, lang: str) -> None:
    seed = 3 + sorted(LANGUAGES).index(lang)
    h = {"Accept-Language": lang}
    res = client.post("/api/games", json={"game": name, "level": "random", "seed": seed},
                      headers=h)  # fmt: skip
    assert res.status_code == 201
    data = res.json()
    h = {**h, **auth(data["token"])}
    url = f"/api/games/{data['id']}"
    found = leaks(data, "create")
    version, v = data["version"], data["view"]
    asked = 0
    while not v["over"]:
        if asked < 2 and (asked == 0 or v["action_details"] or version > 40):
            hint = client.get(f"{url}/hint", headers=h)
            assert hint.status_code == 200
            found += leaks(hint.json(), "hint")
            asked += 1
        refused = [c for c in v["hand"] if c in v["illegal"]]
        if refused:  # a refusal's error text
            res = client.post(f"{url}/actions", headers=h,
                              json={"action": refused[0], "version": version})  # fmt: skip
            assert res.status_code == 409
            found += leaks(res.json(), "refusal")
        res = client.post(f"{url}/actions", headers=h,
                          json={"action": v["legal"][-1], "version": version})  # fmt: skip
        assert res.status_code == 200, res.text
        body = res.json()
        found += leaks(body, f"version {version}")
        version, v = body["version"], body["view"]
    assert "result" in v and v["result"]["headline"]
    for bad in ({"action": v["legal"][0] if v["legal"] else "PASS", "version": version},
                {"action": "ZZ-1", "version": 0}):  # fmt: skip
        res = client.post(f"{url}/actions", headers=h, json=bad)
        assert res.status_code >= 400
        found += leaks(res.json(), "error")
    found += leaks(client.get(url, headers=h).json(), "reload")
    assert found == [], "\n".join(found[:20])
