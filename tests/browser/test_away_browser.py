"""Leaving a friends' table and coming back, in Chromium: the friend at North closes its page
on its turn mid-deal; the creator's page (Italian, a laptop) shows North away, then, once the
grace (3 s here) has run out, the AI playing for North; the friend opens the table again
(Hindi, a phone), has its seat back and plays on; its "Hand my seat to the AI" (in the menu)
and "Take my seat back" (in the bar, while the AI has the seat) hand the seat over and back.
Screenshots at both sizes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page

from tarocchi.web.settings import GRACE_ENV
from tests.browser.conftest import SHOTS
from tests.browser.test_friends_browser import OVER, friend_page, play_some
from tests.browser.test_play_browser import open_table
from tests.conftest import free_port, start_server, stop_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]
GRACE_S = 3
AWAY = "compagno, assente"  # North's role on the creator's Italian page
STOOD_IN = "compagno, assente: l'IA gioca per lui"


@pytest.fixture
def quick_grace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Yield the base URL of a server whose away seats' grace is GRACE_S seconds."""
    monkeypatch.setenv(GRACE_ENV, str(GRACE_S))
    port = free_port()
    proc = start_server(tmp_path / "games.sqlite3", port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(proc)


def north_role(page: Page) -> str:
    return str(page.text_content(".seat-n .role"))


def until_legal(pages: list[Page], page: Page) -> None:
    """Play the other pages' cards until page has a legal card."""
    deadline = time.monotonic() + 120
    while page.query_selector(".hand-card.legal") is None:
        assert time.monotonic() < deadline and not page.evaluate(OVER)
        if not any(play_some(p) for p in pages if p is not page):
            time.sleep(0.1)


def test_a_friend_leaves_the_ai_plays_for_them_and_they_come_back(
    browser: Browser, quick_grace: str
) -> None:
    base = quick_grace
    SHOTS.mkdir(parents=True, exist_ok=True)
    laptop = {"viewport": {"width": 1366, "height": 768}, "color_scheme": "dark"}
    creator = open_table(browser, base, "piedicavallo", 33, level="easy", **laptop)
    creator.goto(f"{base}/play/piedicavallo?lang=it")
    creator.wait_for_selector(".hand-card")
    creator.click("#menu summary")
    creator.click("#invite")
    creator.click('#invite-dialog .invite-open[data-seat="2"]')
    link = creator.input_value('#invite-dialog li[data-seat="2"] .invite-link:not([hidden])')
    creator.click("#invite-dialog form button")
    phone = {"viewport": {"width": 360, "height": 640}}
    friend = friend_page(browser, base, link, **phone)
    game_id = parse_qs(urlsplit(link).query)["table"][0]
    for _ in range(2):  # a few cards each, then North leaves on its turn
        until_legal([creator, friend], friend)
        play_some(friend)
    until_legal([creator, friend], friend)
    assert north_role(creator) == "compagno"
    context = friend.context
    friend.close()
    left = time.monotonic()
    # the creator's page says North is away (at its next ping), then that the AI plays for
    # North once the grace has run out, and its log says the AI played for North
    creator.wait_for_function(f"() => document.querySelector('.seat-n .role').textContent"
                              f".startsWith({AWAY!r})", timeout=30_000)  # fmt: skip
    creator.wait_for_function(f"() => document.querySelector('.seat-n .role').textContent"
                              f" === {STOOD_IN!r}", timeout=40_000)  # fmt: skip
    assert time.monotonic() - left >= GRACE_S - 0.5
    # (the log tells each card at the table's pace, after the badge has changed)
    said = "L'IA ha giocato per Nord, che è assente."
    creator.wait_for_function(f"() => document.querySelector('#log').textContent"
                              f".includes({said!r})", timeout=15_000)  # fmt: skip
    creator.click("#menu summary")  # (left open by the invitation)
    creator.screenshot(path=str(SHOTS / "away-ai-plays-1366x768-it.png"))
    creator.set_viewport_size({"width": 360, "height": 640})  # a phone says it too
    assert creator.is_visible(".seat-n .role")
    creator.screenshot(path=str(SHOTS / "away-ai-plays-360x640-it.png"))
    creator.set_viewport_size(laptop["viewport"])

    # North comes back (its seat kept in this browser) and plays its next turn itself
    back = context.new_page()
    errors: list[str] = []
    back.on("pageerror", lambda e: errors.append(str(e)))
    back.goto(f"{base}/play/piedicavallo?table={game_id}&seat=2&lang=hi")
    back.wait_for_selector(".hand-card", timeout=30_000)
    assert back.get_attribute(".south", "data-seat") == "2"
    until_legal([creator, back], back)
    before = back.eval_on_selector_all(".hand-card", "cs => cs.length")
    assert play_some(back)
    back.wait_for_function(f"() => document.querySelectorAll('.hand-card').length < {before}")
    creator.wait_for_function("() => document.querySelector('.seat-n .role').textContent"
                              " === 'compagno'", timeout=30_000)  # fmt: skip
    back.screenshot(path=str(SHOTS / "away-back-360x640-hi.png"))

    # handing the seat over on purpose, and taking it back
    assert back.is_hidden("#take-back")
    back.click("#menu summary")
    back.click("#hand-ai")
    back.wait_for_selector("#take-back:not([hidden])")
    assert back.is_hidden("#hand-ai")
    assert "AI" in str(back.text_content(".south .role"))
    back.screenshot(path=str(SHOTS / "away-handed-360x640-hi.png"))
    back.click("#take-back")
    back.wait_for_selector("#take-back", state="hidden")
    assert back.evaluate("!document.getElementById('hand-ai').hidden")  # (in the menu)
    assert creator.errors == [] and errors == []  # type: ignore[attr-defined]
