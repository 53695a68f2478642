"""The step-through replay of a finished friends' table, in Chromium: the cards the AI played
for an absent human (marked `"stand_in": true` in the record) carry a visible, translated
badge and a sentence for screen readers; the others do not. The friend at North (Italian)
looks at it on a phone and on a laptop, in dark mode; the replay passes axe-core."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser

from tarocchi.games import game
from tarocchi.games.replay import replay
from tarocchi.record import now
from tarocchi.web.service import outcome
from tarocchi.web.store import Store
from tarocchi.web.store.presence import mark
from tests.browser.conftest import OVER, SHOTS, friend_page
from tests.browser.test_accessibility_browser import serious
from tests.conftest import auth, free_port, start_server, stop_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]
GAME = "piedicavallo"
BADGE = "IA per chi era assente"
SAID = "L'IA ha giocato questa carta per Nord, che era assente."


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """Yield a server's base URL and its SQLite database."""
    db, port = tmp_path / "games.sqlite3", free_port()
    proc = start_server(db, port)
    try:
        yield f"http://127.0.0.1:{port}", db
    finally:
        stop_server(proc)


def finish_marked(db: Path, game_id: str) -> list[int]:
    """Play a stored deal to its end with random legal actions, every other North decision
    marked as the AI's for its absent human; return the tricks (from 1) with a marked play."""
    rules = game(GAME)
    with Store(str(db)) as store:
        row = store.get(game_id)
        state = replay(rules, row.seed, row.actions)
        actions, pick = list(row.actions), random.Random(5)
        while not rules.is_over(state):
            action = pick.choice(rules.legal_actions(state))
            actions.append((state.to_move, rules.action_code(action)))
            state = rules.apply(state, action)
        north = [i for i, (s, _) in enumerate(actions) if s == 2 and i >= len(row.actions)]
        marked = {i: 2 for i in north[::2]}
        assert store.update(game_id, row.version, tuple(actions), True, now(),
                            outcome(rules, state), mark(game_id, marked))  # fmt: skip
    cards = {actions[i][1] for i in marked}
    return [t + 1 for t, trick in enumerate(rules.finished_tricks(state))
            if any(s == 2 and rules.pack.codes[c] in cards for s, c in trick)]  # fmt: skip


def test_the_replay_marks_the_cards_the_ai_played_for_an_absent_human(
    browser: Browser, served: tuple[str, Path]
) -> None:
    base, db = served
    made = httpx.post(f"{base}/api/games", json={"game": GAME, "level": "random", "seed": 51})
    game_id, token = made.json()["id"], made.json()["token"]
    secret = httpx.post(f"{base}/api/games/{game_id}/seats/2/invitation",
                        headers=auth(token)).json()["secret"]  # fmt: skip
    link = f"{base}/play/{GAME}?table={game_id}&seat=2#{secret}"
    laptop = {"viewport": {"width": 1366, "height": 768}, "color_scheme": "dark"}
    page = friend_page(browser, base, link, lang="it", **laptop)
    tricks = finish_marked(db, game_id)
    assert tricks  # (some North card was marked)
    page.reload()
    page.wait_for_function(OVER, timeout=30_000)
    page.click("#end-replay")
    dialog = page.locator("#replay-dialog")
    dialog.wait_for()
    # a trick without a marked play has no badge; one with it names the AI's card
    unmarked = next(t for t in range(1, 20) if t not in tricks)
    shown = 1
    for target in (unmarked, tricks[0]):
        while shown != target:
            page.click("#replay-next" if shown < target else "#replay-prev")
            shown += 1 if shown < target else -1
        badges = dialog.locator(".stand-in-badge")
        if target == unmarked:
            assert badges.count() == 0
    assert badges.count() == 1 and badges.first.is_visible()
    assert badges.first.text_content() == BADGE
    assert badges.first.get_attribute("aria-hidden") == "true"
    north = dialog.locator(".replay-seat.seat-2 figcaption")
    assert SAID in str(north.text_content())
    assert serious(page, "the replay with the AI's cards for an absent human") == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "replay-stand-in-1366x768-it.png"))
    page.set_viewport_size({"width": 360, "height": 640})
    page.screenshot(path=str(SHOTS / "replay-stand-in-360x640-it.png"))
    assert page.errors == []  # type: ignore[attr-defined]
