"""The end of a deal at a friends' table, in Chromium: the creator (South, Italian, a
laptop) and a friend (North, Hindi, a phone) play a deal as partners; at its end each sees
the result, the hands and the AI in their own seat; both choose "Play this deal again",
each seeing who has agreed; the same deal starts for both in the same seats, with no new
link. The result dialog with the table's wishes passes axe-core in dark mode."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.conftest import SHOTS
from tests.browser.test_accessibility_browser import serious
from tests.browser.test_friends_browser import OVER, friend_page, play_some
from tests.browser.test_play_browser import open_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
HAND = "els => els.map((e) => e.dataset.code).sort()"
NAMES_IT = ("Sud", "Est", "Nord", "Ovest")


def table_id(page: Page) -> str:
    return str(page.evaluate("new URLSearchParams(location.search).get('table')"))


def menu(browser: Browser, server: str, name: str, seed: int) -> Page:
    """Return a deal's page on a laptop in dark mode, in Italian, its menu open."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    laptop = {"viewport": {"width": 1366, "height": 768}, "color_scheme": "dark"}
    page = open_table(browser, server, name, seed, level="easy", **laptop)
    page.goto(f"{server}/play/{name}?lang=it")
    page.wait_for_selector(".hand-card")
    page.click("#menu summary")
    return page


def test_two_friends_agree_to_play_the_same_deal_again(browser: Browser, server: str) -> None:
    creator = menu(browser, server, "piedicavallo", 41)
    creator.click("#invite")
    creator.click('#invite-dialog .invite-open[data-seat="2"]')
    link = creator.wait_for_selector(
        '#invite-dialog li[data-seat="2"] .invite-link:not([hidden])'
    ).input_value()
    creator.click("#invite-dialog form button")
    friend = friend_page(browser, server, link, viewport={"width": 360, "height": 640})
    first_id = table_id(friend)
    dealt = friend.eval_on_selector_all(".hand-card", HAND)
    pages = [creator, friend]
    deadline = time.monotonic() + 300
    while not all(p.evaluate(OVER) for p in pages):
        assert time.monotonic() < deadline, "the deal did not end"
        if not any([play_some(p) for p in pages]):
            time.sleep(0.1)
    # each sees the hands and the AI in their own seat
    for p in pages:
        p.wait_for_selector("#end-hands .card")
        p.wait_for_function("() => !document.getElementById('end-ai').hidden")
        assert p.is_visible("#end-review")
    creator.click("#end-again")
    # the friend is told who wished what: South wishes the same deal, North not yet
    told = "() => document.getElementById('end-table').textContent.includes('यही बाज़ी फिर से')"
    friend.wait_for_function(told)
    said = friend.text_content("#end-table")
    assert "दक्षिण: यही बाज़ी फिर से" in said and "आप: अभी नहीं" in said, said
    creator.wait_for_selector("#end-table:not([hidden])")
    assert serious(creator, "the result with the table's wishes") == []
    creator.screenshot(path=str(SHOTS / "table-end-agree-1366x768-it.png"))
    friend.screenshot(path=str(SHOTS / "table-end-agree-360x640-hi.png"))
    friend.click("#end-again")
    # both move to the next game: the same deal, the same seats, no new link
    moved = f"() => location.search.includes('table=') && !location.search.includes('{first_id}')"
    for p in pages:
        p.wait_for_function(moved)
        p.wait_for_selector(".hand-card", timeout=30_000)
    assert table_id(creator) == table_id(friend) != first_id
    assert friend.get_attribute(".south", "data-seat") == "2"
    assert creator.get_attribute(".south", "data-seat") == "0"
    assert friend.eval_on_selector_all(".hand-card", HAND) == dealt
    friend.screenshot(path=str(SHOTS / "table-end-next-360x640-hi.png"))
    assert creator.errors == [] and friend.errors == []  # type: ignore[attr-defined]


def test_four_ai_players_are_watched_from_the_menu(browser: Browser, server: str) -> None:
    page = menu(browser, server, "ottocento", 42)
    page.click("#watch")
    page.wait_for_url(f"{server}/watch/*")
    # the AI plays card after card on the play page's felt: the trick, each hand's backs and
    # count, whose turn it is, the running score, in the page's language
    page.wait_for_selector(".watch-slot .card", timeout=30_000)
    page.wait_for_function("() => document.querySelectorAll('.watch-slot .card').length >= 3")
    counts = page.eval_on_selector_all(".watch-seat .count", "els => els.map((e) => e.textContent)")
    assert len(counts) == 4 and all("carte" in c for c in counts), counts
    assert page.query_selector(".hand-card") is None and page.is_hidden("#watch-end")
    assert page.eval_on_selector_all(".watch-seat .backs .card", "els => els.length") >= 4
    page.wait_for_function("() => /^Tocca a /.test(document.getElementById('watch-status')"
                           ".textContent)")  # fmt: skip
    turn = page.eval_on_selector_all(
        ".watch-seat .turn-badge:not([hidden])",
        "els => els.map((e) => e.closest('.seat').dataset.seat)",
    )
    said = str(page.text_content("#watch-status"))
    assert len(turn) == 1 and said.endswith(f"{NAMES_IT[int(turn[0])]}."), (turn, said)
    assert "Nord e Sud" in str(page.text_content("#watch-score"))
    assert page.text_content("#score-unit") == "punti"
    assert serious(page, "the watching page") == []
    page.screenshot(path=str(SHOTS / "watch-1366x768-it.png"))
    phone = browser.new_context(viewport={"width": 360, "height": 640}).new_page()
    phone.goto(page.url.replace("?lang=it", "") + "?lang=hi")
    phone.wait_for_selector(".watch-slot .card", timeout=30_000)
    assert "चार AI खिलाड़ी" in phone.text_content("h1")
    # the felt fits the phone's width: no seat or card beyond it
    wide = phone.evaluate("() => Math.max(...[...document.querySelectorAll('.table, .table *')]"
                          ".map((e) => e.getBoundingClientRect().right))")  # fmt: skip
    assert wide <= 360, wide
    phone.screenshot(path=str(SHOTS / "watch-360x640-hi.png"), full_page=True)
    assert serious(phone, "the watching page on a phone, in Hindi") == []
    assert page.errors == []  # type: ignore[attr-defined]
