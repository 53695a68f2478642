"""Friends at one table, in Chromium, on SQLite and on two server processes over PostgreSQL
(the friend on the other process): the creator invites a friend to North from the menu,
the friend opens the link in another browser and sits at the bottom of a turned table,
and the two partners play a whole deal against the AI, each seeing the other's cards as
they are played; the friend reloads mid-deal and plays on. The invitation dialog passes
axe-core in dark mode; screenshots at a laptop's size in Italian and a phone's in Hindi."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import OVER, SHOTS, friend_page, play_some
from tests.browser.test_accessibility_browser import serious
from tests.browser.test_play_browser import open_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_two_friends_play_a_deal_as_partners(
    browser: Browser, servers: tuple[str, str, str]
) -> None:
    backend, server, elsewhere = servers
    SHOTS.mkdir(parents=True, exist_ok=True)
    laptop = {"viewport": {"width": 1366, "height": 768}, "color_scheme": "dark"}
    creator = open_table(browser, server, "piedicavallo", 31, level="easy", **laptop)
    creator.goto(f"{server}/play/piedicavallo?lang=it")  # the same deal, in Italian
    creator.wait_for_selector(".hand-card")
    creator.click("#menu summary")
    creator.click("#invite")
    creator.click('#invite-dialog .invite-open[data-seat="2"]')
    field = creator.wait_for_selector('#invite-dialog li[data-seat="2"] .invite-link:not([hidden])')
    link = field.input_value()
    assert "#" in link and "seat=2" in link
    assert serious(creator, "the invitation dialog") == []
    creator.screenshot(path=str(SHOTS / f"friends-{backend}-invite-1366x768-it.png"))
    creator.click("#invite-dialog form button")

    # on PostgreSQL the friend plays through the other server process
    link = link.replace(server, elsewhere)
    friend = friend_page(browser, elsewhere, link, viewport={"width": 360, "height": 640})
    assert "#" not in friend.url  # the secret leaves the address bar
    assert friend.is_hidden("#learn-offer")  # a first visit, but friends wait to play
    assert friend.get_attribute(".south", "data-seat") == "2"  # North sits at the bottom
    assert friend.get_attribute(".seat-n", "data-seat") == "0"  # South across the table
    pages, played, reloaded = [creator, friend], [0, 0], False
    deadline = time.monotonic() + 300
    while not all(p.evaluate(OVER) for p in pages):
        assert time.monotonic() < deadline, "the deal did not end"
        moved = False
        for i, p in enumerate(pages):
            if play_some(p):
                played[i] += 1
                moved = True
        if played[1] == 4 and not reloaded:  # the friend leaves and comes back mid-deal
            friend.screenshot(path=str(SHOTS / f"friends-{backend}-mid-deal-360x640-hi.png"))
            creator.screenshot(path=str(SHOTS / f"friends-{backend}-mid-deal-1366x768-it.png"))
            friend.reload()
            friend.wait_for_selector(".hand-card")
            assert friend.get_attribute(".south", "data-seat") == "2"
            assert creator.text_content(".seat-n .role") == "compagno"  # a person, not the AI
            reloaded = True
        if not moved:
            time.sleep(0.1)
    assert reloaded and min(played) >= 10
    # both see the same end, each with its own team first; the friend's record opened with
    # the friend's own token
    said = friend.text_content("#end-winner") + friend.text_content("#breakdown")
    assert "आप और दक्षिण" in said and "आप और उत्तर" not in said  # "you and South", not North
    assert friend.text_content(".tally-name") == "आप और दक्षिण"
    friend.wait_for_selector("#end-hands .card")
    friend.screenshot(path=str(SHOTS / f"friends-{backend}-end-360x640-hi.png"))
    creator.screenshot(path=str(SHOTS / f"friends-{backend}-end-1366x768-it.png"))
    assert creator.errors == [] and friend.errors == []  # type: ignore[attr-defined]
