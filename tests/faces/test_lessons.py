"""Learn to play (tarocchi.web.lessons): each game's guided deal says every one of its steps,
marks only cards South can see, and is served from South's view by the API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tarocchi.bots import LEVELS
from tarocchi.cards import bits
from tarocchi.games import GAMES, game
from tarocchi.match import advance, table_bots
from tarocchi.views import view
from tarocchi.web.lessons import LESSONS, LEVEL, steps


def play_lesson(name: str, pick: int) -> Iterator[Any]:
    """Play a game's guided deal as the server does (the AI at the lesson's level, seeded by
    the deal and the log's length), South taking its pick-th legal action (from the end when
    negative); yield South's view at each of its decisions and at the end."""
    rules = game(name)
    seed = LESSONS[name].seed
    state = rules.deal(seed)
    done = 0
    while state.to_move is not None:
        if state.to_move == 0:
            yield view(state, 0)
            legal = rules.legal_actions(state)
            state = rules.apply(state, legal[pick] if pick < 0 else legal[pick % len(legal)])
            done += 1
            continue
        bots = table_bots(rules, [LEVELS[LEVEL]] * 4, seed, (1, 2, 3), done)
        for step in advance(rules, state, bots):
            state = step.state
            done += 1
    yield view(state, 0)


def test_a_lesson_for_every_game() -> None:
    assert set(LESSONS) == set(GAMES)
    for lesson in LESSONS.values():
        keys = [s.key for s in lesson.steps]
        assert len(keys) == len(set(keys)), lesson.game


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("pick", [0, -1])
def test_the_guided_deal_says_every_step(name: str, pick: int) -> None:
    said: list[str] = []
    decisions = 0
    for v in play_lesson(name, pick):
        if v.result is None:
            decisions += 1
            # rules §2: South neither deals nor cuts, so the lesson starts without a discard
            assert v.phase != "discard"
        for step, _, _ in steps(v):
            if step.key not in said:
                said.append(step.key)
    assert said[:2] == ["pack", "points"]  # the pack first, at South's first decision
    assert said[-1] == "end"
    assert set(said) == {s.key for s in LESSONS[name].steps}, name
    assert decisions <= 24  # short: South's cards and its declaration


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_marked_cards_are_cards_south_sees(name: str) -> None:
    for pick in (0, 1, -1):
        for v in play_lesson(name, pick):
            visible = v.hand | v.shown[0] | v.shown[1] | v.shown[2] | v.shown[3]
            visible |= sum(1 << c for _, c in v.trick)
            if v.tricks:
                visible |= sum(1 << c for _, c in v.tricks[-1])
            for step, text, mask in steps(v):
                assert mask & ~visible == 0, (name, step.key, bits(mask & ~visible))
                assert text


def test_following_trumping_and_a_forced_card_mark_the_legal_cards() -> None:
    seen = set()
    for v in play_lesson("piedicavallo", 0):
        legal = sum(1 << a for a in v.legal)
        for step, _, mask in steps(v):
            if step.key in ("follow", "trump", "forced"):
                assert mask and mask & ~legal == 0, step.key  # rules §3: the cards allowed
                seen.add(step.key)
    assert seen == {"follow", "trump", "forced"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from tarocchi.web.app import create_app

    db = tmp_path_factory.mktemp("db") / "games.sqlite3"
    with TestClient(create_app(str(db), ai_workers=1)) as c:
        yield c


def test_the_api_explains_the_lesson_deal_from_south_s_view(client: TestClient) -> None:
    lesson = LESSONS["ottocento"]
    made = client.post("/api/games", json={"game": "ottocento", "seed": lesson.seed,
                                           "level": LEVEL}).json()  # fmt: skip
    url = f"/api/games/{made['id']}/lesson"
    client.cookies.clear()  # (its player's cookie opens the game as its token does)
    assert client.get(url).status_code == 401
    assert client.get(url, headers={"Authorization": "Bearer wrong"}).status_code == 403
    headers = {"Authorization": f"Bearer {made['token']}", "Accept-Language": "it"}
    data = client.get(url, headers=headers).json()
    assert data["version"] == made["version"]
    keys = [s["key"] for s in data["steps"]]
    assert keys[:3] == ["pack", "points", "declare"]
    hand = set(made["view"]["hand"])
    for s in data["steps"]:
        assert set(s["cards"]) <= hand  # before any trick, only South's own cards
    assert data["steps"][0]["text"].startswith("L'Ottocento si gioca")
    declare = data["steps"][2]
    shown = {c for d in made["view"]["action_details"] for c in d["cards"]}
    assert set(declare["cards"]) == shown and declare["again"]


def test_the_learn_page_sets_up_the_lesson(client: TestClient) -> None:
    for name, lesson in LESSONS.items():
        page = client.get(f"/learn/{name}?lang=en").text
        assert f'data-lesson="{lesson.seed}"' in page and f'data-lesson-level="{LEVEL}"' in page
        assert 'id="lesson-text"' in page and f'href="/play/{name}?new"' in page
        played = client.get(f"/play/{name}").text
        assert "data-lesson" not in played and f'href="/learn/{name}"' in played  # the offer
    assert client.get("/learn/tarot").status_code == 404


def test_the_rest_of_the_guided_deal_is_played_for_south(client: TestClient) -> None:
    lesson = LESSONS["piedicavallo"]
    made = client.post("/api/games", json={"game": "piedicavallo", "seed": lesson.seed,
                                           "level": LEVEL}).json()  # fmt: skip
    headers = {"Authorization": f"Bearer {made['token']}"}
    url = f"/api/games/{made['id']}/lesson/finish"
    stale = client.post(url, json={"version": made["version"] + 1}, headers=headers)
    assert stale.status_code == 409
    done = client.post(url, json={"version": made["version"]}, headers=headers)
    assert done.status_code == 200, done.text
    data = done.json()
    assert data["view"]["over"] and data["view"]["result"]["winner"] in ("NS", "EW", "draw")
    assert sum(1 for e in data["events"] if "action" in e) == 15  # South's 15 cards, played
    again = client.get(f"/api/games/{made['id']}", headers=headers).json()
    assert again["version"] == data["version"] and again["view"]["over"]
    record = client.get(f"/api/games/{made['id']}/record", headers=headers).json()
    assert record["seed_chosen"]  # a practice deal, its cards known beforehand
    # a real deal is not played for the player
    real = client.post("/api/games", json={"game": "piedicavallo"}).json()
    other = client.post(f"/api/games/{real['id']}/lesson/finish", json={"version": real["version"]},
                        headers={"Authorization": f"Bearer {real['token']}"})  # fmt: skip
    assert other.status_code == 409
    mine = {"Authorization": f"Bearer {real['token']}"}
    assert client.get(f"/api/games/{real['id']}", headers=mine).json()["version"] == real["version"]
