"""Friends at one table, in Chromium, on SQLite and on two server processes over PostgreSQL
(the friend on the other process): the creator invites a friend to North from the menu,
the friend opens the link in another browser and sits at the bottom of a turned table,
and the two partners play a whole deal against the AI, each seeing the other's cards as
they are played; the friend reloads mid-deal and plays on. The invitation dialog passes
axe-core in dark mode; screenshots at a laptop's size in Italian and a phone's in Hindi."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Error, Page

from tests.browser.conftest import SHOTS
from tests.browser.test_accessibility_browser import serious
from tests.browser.test_play_browser import EDGE, open_table
from tests.conftest import free_port, start_server, stop_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]
OVER = "() => document.getElementById('end-dialog').open"


def friend_page(browser: Browser, base: str, link: str, **ctx: Any) -> Page:
    page = browser.new_context(**ctx).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/?lang=hi")
    page.evaluate("localStorage.setItem('tarocchi-speed', '0')")
    page.goto(link)
    page.wait_for_selector(".hand-card", timeout=30_000)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def play_some(page: Page) -> bool:
    """Play the page's first legal card if it is its turn; return whether it did."""
    card = page.query_selector(".hand-card.legal")
    if card is None or page.evaluate(OVER):
        return False
    try:
        card.click(position=EDGE, timeout=2000)
    except Error:  # the hand was drawn again meanwhile
        return False
    return True


@pytest.fixture(params=["sqlite", "postgresql"])
def servers(request: pytest.FixtureRequest, server: str) -> Iterator[tuple[str, str, str]]:
    """Yield the backend and the servers of the creator and the friend: the module's one
    server on SQLite, or two server processes on one PostgreSQL database."""
    if request.param == "sqlite":
        yield "sqlite", server, server
        return
    url = request.getfixturevalue("postgres").new_database()
    ports = [free_port(), free_port()]
    procs = [start_server(url, port, "--ai-workers", "1") for port in ports]
    try:
        yield "postgresql", *(f"http://127.0.0.1:{p}" for p in ports)
    finally:
        for proc in procs:
            stop_server(proc)


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
