"""Friends' tables of every game in Chromium, on SQLite and on two server processes over
PostgreSQL: two partners (two browser contexts) play a whole deal of each game against the
AI, the friend closing its page mid-deal and coming back by its seat link; four people play
a whole deal at one table, spread over both processes. Screenshots at a phone's size and a
laptop's, in Hindi and Italian."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tarocchi.games import GAMES
from tests.browser.conftest import OVER, SHOTS, friend_page, play_some
from tests.browser.test_play_browser import open_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
LAPTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}, "color_scheme": "dark"}
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 640}}
DEAL_S = 400  # a whole deal's time, however loaded the machine


def creator_page(browser: Browser, base: str, name: str, seed: int) -> Page:
    """Start a deal (the AI at the easy level, quick to answer) on a laptop, in Italian."""
    page = open_table(browser, base, name, seed, level="easy", **LAPTOP)
    page.goto(f"{base}/play/{name}?lang=it")  # the same deal, in Italian
    page.wait_for_selector(".hand-card")
    return page


def invite(creator: Page, *seats: int) -> dict[int, str]:
    """Open seats to friends from the creator's menu; return each seat's link."""
    creator.click("#menu summary")
    creator.click("#invite")
    links = {}
    for seat in seats:
        creator.click(f'#invite-dialog .invite-open[data-seat="{seat}"]')
        field = f'#invite-dialog li[data-seat="{seat}"] .invite-link:not([hidden])'
        creator.wait_for_selector(field)
        links[seat] = creator.input_value(field)
    creator.click("#invite-dialog form button")
    assert not creator.eval_on_selector("#menu", "m => m.open")  # nor left over the table
    return links


def play_round(pages: list[Page], played: list[int]) -> bool:
    """Play each page's turn if it has one; return whether any did."""
    moved = False
    for i, page in enumerate(pages):
        if play_some(page):
            played[i] += 1
            moved = True
    return moved


def reopen(page: Page, link: str) -> Page:
    """Close a seat's page and open its link again in the same browser (its token kept,
    the link's secret spent); return the new page once it shows the hand."""
    context = page.context
    page.close()
    again = context.new_page()
    errors: list[str] = []
    again.on("pageerror", lambda e: errors.append(str(e)))
    again.goto(link)
    again.wait_for_selector(".hand-card", timeout=30_000)
    again.errors = errors  # type: ignore[attr-defined]
    return again


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or {"width": 0, "height": 0}
    lang = page.evaluate("document.documentElement.lang")
    page.screenshot(path=str(SHOTS / f"{name}-{size['width']}x{size['height']}-{lang}.png"))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_partners_play_each_game_and_one_leaves_and_comes_back(
    browser: Browser, servers: tuple[str, str, str], name: str
) -> None:
    backend, server, elsewhere = servers
    creator = creator_page(browser, server, name, 41)
    # on PostgreSQL the friend plays through the other server process
    link = invite(creator, 2)[2].replace(server, elsewhere)
    friend = friend_page(browser, elsewhere, link, **PHONE)
    pages, played, left = [creator, friend], [0, 0], False
    deadline = time.monotonic() + DEAL_S
    while not all(p.evaluate(OVER) for p in pages):
        assert time.monotonic() < deadline, "the deal did not end"
        moved = play_round(pages, played)
        if played[1] == 3 and not left:  # the friend closes its page mid-deal
            shoot(friend, f"friends-{name}-{backend}-mid-deal")
            shoot(creator, f"friends-{name}-{backend}-mid-deal")
            friend.close()
            # the table goes on without North up to its turn (the creator's cards, the AI's)
            while play_round([creator], played):
                pass
            friend = pages[1] = reopen(friend, link)
            assert friend.get_attribute(".south", "data-seat") == "2"  # back in its seat
            assert not friend.is_visible("#prompt.warn"), friend.text_content("#prompt")
            left = True
        if not moved:
            time.sleep(0.1)
    assert left and min(played) >= 5
    # both see the same end: the friend, back, missed none of the cards played meanwhile
    friend.wait_for_selector("#end-hands .card")
    assert friend.text_content("#end-winner") and creator.text_content("#end-winner")
    assert scores(friend) == scores(creator)
    shoot(friend, f"friends-{name}-{backend}-end")
    shoot(creator, f"friends-{name}-{backend}-end")
    assert creator.errors == [] and friend.errors == []  # type: ignore[attr-defined]


def scores(page: Page) -> tuple[str | None, str | None]:
    """Return the two teams' points a page's tally shows (NS, EW)."""
    return page.text_content("#ns-score"), page.text_content("#ew-score")


def test_four_people_play_a_deal_at_one_table(
    browser: Browser, servers: tuple[str, str, str]
) -> None:
    backend, server, elsewhere = servers
    creator = creator_page(browser, server, "ottocento", 43)
    links = invite(creator, 1, 2, 3)
    # East and West through the other process on PostgreSQL; each in a browser of its own
    friends = {
        1: friend_page(browser, elsewhere, links[1].replace(server, elsewhere), **PHONE),
        2: friend_page(browser, server, links[2], **LAPTOP),
        3: friend_page(browser, elsewhere, links[3].replace(server, elsewhere), lang="it",
                       **PHONE),
    }  # fmt: skip
    pages = [creator, *friends.values()]
    for seat, page in friends.items():
        assert page.get_attribute(".south", "data-seat") == str(seat)
    played, shot = [0] * 4, False
    deadline = time.monotonic() + DEAL_S
    while not all(p.evaluate(OVER) for p in pages):
        assert time.monotonic() < deadline, "the deal did not end"
        if not play_round(pages, played):
            time.sleep(0.05)
        elif sum(played) >= 12 and not shot:
            for page in pages:
                seat = page.get_attribute(".south", "data-seat")
                shoot(page, f"friends-four-{backend}-seat{seat}")
            shot = True
    assert min(played) >= 10  # each seat played its own cards
    # the creator's table names a person in each seat, none the AI (in Italian)
    roles = "() => ['.seat-e', '.seat-n', '.seat-w'].map(s => " \
            "document.querySelector(s + ' .role').textContent).join()"  # fmt: skip
    assert creator.evaluate(roles) == "avversario,compagno,avversario"
    teams = "s => [...document.querySelectorAll(s)].map(e => e.textContent)"
    for page in pages:
        page.wait_for_selector("#end-hands .card")
        assert scores(page) == scores(creator)
        # the panel's score names the teams as the tally does, the seat's own "you"
        assert page.evaluate(teams, "#score tbody th") == page.evaluate(teams, ".tally-name")
        assert page.errors == []  # type: ignore[attr-defined]
    for page in (creator, friends[1]):
        shoot(page, f"friends-four-{backend}-end")
