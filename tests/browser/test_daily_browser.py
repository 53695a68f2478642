"""The deal of the day in Chromium, as three players (three browser contexts, each its own
device): each plays the day's deal from /daily on the table page, then sees its rank as a
percentile, the histogram of the three margins and how the field chose; a second try is
practice and says so. Axe-core checks the pages; screenshots at a phone's and a laptop's
size, in Italian and Hindi."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.conftest import SHOTS
from tests.browser.test_accessibility_browser import serious
from tests.browser.test_play_browser import EDGE, my_turn

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAME = "piedicavallo"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 640}
VALUES = "ps => ps.map(p => Number(p.value))"
VALUES = "ps => ps.map(p => Number(p.value))"


def start(browser: Browser, base: str) -> Page:
    """Open /daily in a new browser and start today's try; return the table page."""
    context = browser.new_context(viewport=LAPTOP)
    # a device the server does not know: it issues this browser a player of its own
    context.add_cookies([{"name": "tarocchi_device", "value": secrets.token_urlsafe(32),
                          "url": base}])  # fmt: skip
    page = context.new_page()
    page.goto(f"{base}/daily")
    page.evaluate("localStorage.setItem('tarocchi-speed', '0')")
    page.evaluate(f"localStorage.setItem('tarocchi-learn-offered-{NAME}', 'yes')")
    page.click(f".daily-play[data-game={NAME}]")
    page.wait_for_url(f"**/play/{NAME}")
    page.wait_for_selector(".hand-card", timeout=60_000)
    return page


def play(page: Page, last: bool) -> None:
    """Play the deal to its end, each time the first legal card (or action), or the last."""
    while (kind := my_turn(page)) != "over":
        if kind == "action":
            page.click("#actions button")
        else:
            cards = page.locator(".hand-card.legal")
            (cards.last if last else cards.first).click(position=EDGE)
        page.wait_for_function("() => !document.querySelector('.prompt').textContent"
                               ".startsWith('…')")  # fmt: skip


def shown(page: Page) -> dict[str, object]:
    """Return what the results page shows: the rank's words, the bars, each decision's
    shares."""
    return {
        "rank": page.inner_text("#daily-rank"),
        "bars": page.eval_on_selector_all("#daily-histogram progress", VALUES),
        "yours": page.locator("#daily-histogram li.yours").count(),
        "field": page.eval_on_selector_all("#daily-field > li", "ls => ls.map(l => l.innerText)"),
    }


def test_three_players_meet_the_same_deal_and_see_the_field(browser: Browser, server: str) -> None:
    today = datetime.now(UTC).date().isoformat()
    players = [start(browser, server) for _ in range(3)]
    for i, page in enumerate(players):
        play(page, last=i == 1)  # the second player chooses otherwise
        # the end says the try counted and leads to the field's results
        assert "this try counts" in page.inner_text("#end-daily")
        assert page.get_attribute("#end-daily a", "href") == f"/daily/{NAME}/{today}"
    results = f"{server}/daily/{NAME}/{today}"
    views = []
    for page in players:
        page.goto(results)
        views.append(shown(page))
    for v in views:
        assert sum(v["bars"]) == 3 and v["yours"] == 1  # type: ignore[arg-type]
        found = re.search(r"you beat (\d+)% of the field \(([\d.]+) matchpoints, 3 scored",
                          str(v["rank"]))  # fmt: skip
        assert found, v["rank"]
        assert int(found[1]) == round(100 * float(found[2]) / 2)  # of the two others
    # the first and third played alike: the same AI answers, the same margin and rank
    assert views[0]["rank"] == views[2]["rank"]
    # where the second player first chose otherwise: two thirds one way, a third the other
    split = [d for d in views[0]["field"] if "67%" in d and "33%" in d]  # type: ignore[attr-defined]
    assert len(split) == 1, views[0]["field"]
    first = players[0]
    problems = serious(first, "results")
    first.goto(f"{server}/daily")
    first.click(f".daily-play[data-game={NAME}]")  # a second try: practice, and it says so
    first.wait_for_selector(f"#daily-practice-{NAME}:not([hidden])")
    problems += serious(first, "daily")
    assert not problems, problems
    SHOTS.mkdir(parents=True, exist_ok=True)
    first.screenshot(path=SHOTS / "daily-laptop-en.png", full_page=True)
    for lang, size, where in (("it", PHONE, results), ("hi", PHONE, f"{server}/daily"),
                              ("hi", LAPTOP, results)):  # fmt: skip
        first.set_viewport_size(size)
        first.goto(f"{where}?lang={lang}")
        width = first.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], (lang, where, width)  # nothing runs off the screen
        kind = "results" if where == results else "daily"
        first.screenshot(path=SHOTS / f"daily-{kind}-{lang}-{size['width']}.png", full_page=True)
