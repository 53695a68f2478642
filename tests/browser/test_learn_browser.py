"""Learn to play, in Chromium: the guided deal of each game played through (on a desktop in
English, on phones in Italian and Hindi), its lesson said step by step with the cards it
talks about marked and the table still whole, ending with the offer of a real deal; the play
page's one-time offer; axe-core on the new screens."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tarocchi.web.lessons import LESSONS
from tests.browser.conftest import SHOTS
from tests.browser.test_accessibility_browser import serious
from tests.browser.test_play_browser import act_once, my_turn

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 768}


def open_lesson(browser: Browser, base: str, name: str, lang: str, **ctx: Any) -> Page:
    page = browser.new_context(**ctx).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/?lang={lang}")
    page.evaluate("localStorage.setItem('tarocchi-speed', '0')")
    page.goto(f"{base}/learn/{name}")
    page.wait_for_selector(".hand-card", timeout=60_000)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def check_table(page: Page, where: str) -> None:
    """The lesson leaves the table whole: every card of the hand inside the screen, under
    the lesson, and every marked card one the table shows."""
    box = page.eval_on_selector("#lesson", "e => e.getBoundingClientRect().bottom")
    size = page.viewport_size or DESKTOP
    for card in page.query_selector_all(".hand-card"):
        b = card.bounding_box()
        assert b is not None
        assert b["y"] >= box - 1 and b["y"] + b["height"] <= size["height"] + 1, where
        assert b["x"] >= -1 and b["x"] + b["width"] <= size["width"] + 1, where
    for marked in page.query_selector_all(".taught"):
        assert marked.is_visible(), where


def play_lesson(page: Page, name: str, shots: str, last: bool = False) -> list[str]:
    """Play the guided deal through, reading every step (Next while it shows); South plays
    its first legal card (the last with last). Return the steps said, in order."""
    said: list[str] = []
    told = 0
    while (kind := my_turn(page)) != "over":
        # the lesson's answer for this view
        page.wait_for_function("n => Number(document.getElementById('lesson').dataset.told) > n",
                               arg=told)  # fmt: skip
        told = int(page.eval_on_selector("#lesson", "e => e.dataset.told"))
        step = str(page.eval_on_selector("#lesson", "e => e.dataset.step"))
        while True:
            if step not in said:
                said.append(step)
                if len(said) in (1, 4) or step in ("follow", "trump", "king", "declare"):
                    page.screenshot(path=str(SHOTS / f"learn-{shots}-{step}.png"))
                    check_table(page, f"{name} {step}")
            if not page.is_visible("#lesson-next"):
                break
            page.click("#lesson-next")
            step = str(page.eval_on_selector("#lesson", "e => e.dataset.step"))
        if kind == "card" and last:
            cards = page.query_selector_all(".hand-card.legal")
            cards[-1].click(position={"x": 8, "y": 8})
            page.wait_for_function("() => !document.getElementById('prompt').textContent"
                                   ".startsWith('…')")  # fmt: skip
        else:
            act_once(page)
    page.wait_for_function("() => document.getElementById('lesson-end').textContent")
    said.append("end")
    return said


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_the_guided_deal_played_through(browser: Browser, server: str, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_lesson(browser, server, name, "en", viewport=DESKTOP)
    said = play_lesson(page, name, name)
    assert said[:2] == ["pack", "points"]
    assert {"follow", "won", "end"} <= set(said)
    # the end: the count explained, and a real deal offered (in the result and the lesson)
    assert page.inner_text("#lesson-end").startswith("The deal is over.")
    real = page.query_selector(f'#end-dialog a[href="/play/{name}?new"]')
    assert real is not None and real.is_visible()
    page.screenshot(path=str(SHOTS / f"learn-{name}-end.png"))
    page.click("#end-close")
    assert page.is_visible("#lesson-real")
    assert page.errors == []  # type: ignore[attr-defined]
    # a real deal from there: the play page, a deal of its own (not the lesson's)
    page.click("#lesson-real")
    page.wait_for_selector(".hand-card", timeout=60_000)
    assert page.url.endswith(f"/play/{name}")
    assert page.query_selector("#lesson") is None and page.is_hidden("#learn-offer")


@pytest.mark.parametrize(
    ("name", "lang", "size"),
    [("piedicavallo", "it", {"width": 390, "height": 844}),
     ("ottocento", "hi", {"width": 360, "height": 640})],
)  # fmt: skip
def test_the_guided_deal_on_a_phone(
    browser: Browser, server: str, name: str, lang: str, size: dict[str, int]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_lesson(browser, server, name, lang, viewport=size, is_mobile=True, has_touch=True)
    said = play_lesson(page, name, f"{name}-{lang}-phone", last=True)
    assert said[:2] == ["pack", "points"] and "follow" in said
    text = page.inner_text("#lesson-end")
    assert text and "The deal is over" not in text  # in the page's language
    page.screenshot(path=str(SHOTS / f"learn-{name}-{lang}-phone-end.png"))
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_play_page_offers_the_guided_deal_once(browser: Browser, server: str) -> None:
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{server}/play/minchiate?lang=hi")
    page.wait_for_selector(".hand-card", timeout=60_000)
    assert page.is_visible("#learn-offer")
    assert serious(page, "the offer") == []
    page.screenshot(path=str(SHOTS / "learn-offer-hi-phone.png"))
    page.click("#learn-offer-close")
    assert page.is_hidden("#learn-offer")
    page.reload()
    page.wait_for_selector(".hand-card", timeout=60_000)
    assert page.is_hidden("#learn-offer")  # once
    # another game's first visit offers its own; Escape closes it, the table still playable
    page.goto(f"{server}/play/piedicavallo")
    page.wait_for_selector(".hand-card", timeout=60_000)
    assert page.is_visible("#learn-offer")
    page.keyboard.press("Escape")
    assert page.is_hidden("#learn-offer")
    # and from the offer, the lesson
    page.goto(f"{server}/play/ottocento")
    page.wait_for_selector(".hand-card", timeout=60_000)
    page.click("#learn-offer a")
    page.wait_for_selector("#lesson[data-step]", timeout=60_000)
    assert page.url.endswith("/learn/ottocento")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_lesson_is_accessible(browser: Browser, server: str, scheme: str) -> None:
    page = open_lesson(browser, server, "minchiate", "it", viewport=DESKTOP, color_scheme=scheme)
    page.wait_for_selector("#lesson[data-step]")
    assert serious(page, f"lesson {scheme}") == []
    page.click("#lesson-next")
    assert serious(page, f"lesson {scheme}, marked cards") == []


def test_the_rest_of_the_guided_deal_played_for_the_player(browser: Browser, server: str) -> None:
    page = open_lesson(browser, server, "minchiate", "en", viewport={"width": 1280, "height": 720})
    assert page.is_hidden("#lesson-finish")  # not before a few tricks
    for _ in range(30):
        if page.is_visible("#lesson-finish"):
            break
        assert my_turn(page) != "over"
        act_once(page)
        page.wait_for_timeout(300)  # the lesson's answer for the new view
    page.click("#lesson-finish")
    page.wait_for_selector("#end-dialog[open] .breakdown tbody tr", timeout=120_000)
    page.wait_for_function("() => document.getElementById('lesson-end').textContent")
    assert "resti" in page.inner_text("#lesson-end")
    assert len(page.query_selector_all("#log .log-trick")) == 21  # every trick in the log
    page.screenshot(path=str(SHOTS / "learn-minchiate-finished.png"))
    assert page.errors == []  # type: ignore[attr-defined]
