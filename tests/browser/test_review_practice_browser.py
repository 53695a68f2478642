"""End-to-end: Chromium finishes a deal, follows its review to the end and checks what the
review explains: the graph's large moves numbered and labelled as in their list, each decision
opening its position in the replay (the trick so far and South's hand), the AI in your seat's
first different choice and its own deal in the replay; then "Try again" from a key moment
starts a practice deal at that position, South plays another card and finishes it, and the
result shows the new margin beside the original. Screenshots at a laptop's and a phone's size,
in English, Italian and Hindi."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.conftest import SHOTS
from tests.browser.test_accessibility_browser import serious
from tests.browser.test_play_browser import EDGE, play_deal
from tests.browser.test_review_browser import LAPTOP, PHONE, REVIEW, strict_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAME, SEED = "piedicavallo", 11  # a deal with key moments (test_review_browser.DEALS)
SAVED = "() => JSON.parse(localStorage.getItem('tarocchi-piedicavallo'))"
RECORD = """async () => {
  const saved = JSON.parse(localStorage.getItem('tarocchi-piedicavallo'));
  const res = await fetch(`/api/games/${saved.id}/record`,
                          {headers: {Authorization: `Bearer ${saved.token}`}});
  return await res.json();
}"""


def signed(value: float) -> str:
    """A margin as the page writes it in English: +3, -2, 0."""
    return f"{value:+g}" if value else "0"


def finished_review(page: Page) -> dict[str, Any]:
    """Open the review of the finished deal and wait until it is done; return the API's."""
    page.click("#end-review")
    page.wait_for_function(
        "() => /^All /.test(document.getElementById('review-count').textContent)"
        " || !document.getElementById('review-error').hidden",
        timeout=600_000,
    )
    assert page.is_hidden("#review-error"), page.inner_text("#review-error")
    data: dict[str, Any] = page.evaluate(REVIEW, NAME)
    assert data["status"] == "done"
    return data


def check_swings(page: Page, review: dict[str, Any]) -> None:
    """Every large move: a numbered box on the graph and an item of the list, both saying
    what caused it and by how much."""
    swings = review["swings"]
    labels = "gs => gs.map(g => g.getAttribute('aria-label'))"
    marks = page.eval_on_selector_all("#review-graph .graph-swing", labels)
    items = page.eval_on_selector_all("#review-swings > li", "ls => ls.map(l => l.innerText)")
    assert swings and len(marks) == len(items) == len(swings)
    threshold = review["thresholds"]["mistake"]
    for n, (mark, item, s) in enumerate(zip(marks, items, swings, strict=True), start=1):
        assert mark.startswith(f"Move {n}: ")
        biggest = max(s["causes"], key=lambda c: abs(c["change"]))
        assert biggest["label"] in mark and biggest["label"] in item
        for c in s["causes"]:
            assert (c["label"] in item) == (abs(c["change"]) >= threshold or c is biggest), item
        assert re.search(r"[+-][\d.]+ points? in all", item), item


def check_positions(page: Page, review: dict[str, Any]) -> None:
    """Each decision's "Show the position" opens the replay there: the trick so far and the
    hand South held; Next shows the whole trick."""
    items = page.query_selector_all("#review-decisions > li")
    assert len(items) == len(review["decisions"]) == len(review["positions"])
    for k in (0, len(items) // 2, len(items) - 1):
        p = review["positions"][k]
        page.query_selector_all("#review-decisions .show-position")[k].click()
        page.wait_for_selector("#replay-dialog[open]")
        step = page.inner_text("#replay-step")
        assert step.startswith(f"Trick {p['trick']}, your turn" if p["trick"] else
                               "Before the first trick, your turn")  # fmt: skip
        shown = page.eval_on_selector_all("#replay-table .card-row img", "is => is.length")
        assert shown == len(p["hand"])
        plays = page.eval_on_selector_all("#replay-table .replay-seat", "fs => fs.length")
        assert plays == len(p["plays"])
        if k == len(items) // 2:
            page.screenshot(path=str(SHOTS / "review-position-laptop.png"))
        page.click("#replay-next")
        if p["trick"]:
            assert page.inner_text("#replay-step").startswith(f"Trick {p['trick']} of ")
        page.click("#replay-review")
        page.wait_for_selector("#review-dialog[open] #review-decisions > li")


def check_ai(page: Page, data: dict[str, Any]) -> None:
    """The AI in your seat: where it first chose otherwise, and its deal in the replay."""
    ai = data["ai"]
    text = page.inner_text("#review-ai")
    if ai["diverged"] is None:
        assert "It made every choice you made." in text
        return
    first = ai["first"]
    assert f"Where it first chose otherwise (Trick {first['trick']})" in text, text
    page.click("#review-ai-replay")
    page.wait_for_selector("#replay-dialog[open]")
    assert page.inner_text("#replay-title") == "The AI's deal on your cards"
    assert page.inner_text("#replay-step").startswith(f"Trick {first['trick']} of ")
    page.screenshot(path=str(SHOTS / "review-ai-deal-laptop.png"))
    page.click("#replay-last")
    page.click("#replay-review")
    page.wait_for_selector("#review-dialog[open] #review-decisions > li")


def practice_from_a_key_moment(page: Page, review: dict[str, Any], original: str) -> None:
    """Try again from the first key moment: South is back at that position, plays another card,
    finishes the practice deal and sees both margins."""
    moment = review["key_moments"][0]
    d = review["decisions"][moment["decision"]]
    position = review["positions"][moment["decision"]]
    page.click("#review-moments .try-again")
    page.wait_for_function(f"() => ({SAVED})().id !== {original!r}")
    page.wait_for_selector(".hand-card.legal")
    hand = page.eval_on_selector_all("#hand .hand-card", "cs => cs.map(c => c.dataset.code)")
    assert sorted(hand) == sorted(position["hand"])
    other = page.query_selector(f".hand-card.legal:not([data-code='{d['made']}'])")
    assert other is not None  # a costly decision had another legal card
    other.click(position=EDGE)
    page.wait_for_function("() => !document.querySelector('.prompt').textContent.startsWith('…')")
    play_deal(page)
    page.wait_for_selector("#end-dialog[open]")
    record = page.evaluate(RECORD)
    assert record["practice"] == {"from": original, "action": d["index"]}
    assert record["actions"][d["index"]]["action"] != d["made"]
    line = page.inner_text("#end-practice")
    now = record["result"]["ns"] - record["result"]["ew"]
    assert re.fullmatch(r"A practice deal: your margin now .+; in the deal you played, .+\.", line)
    assert f"now {signed(now)} point" in line, line
    assert f"played, {signed(review['margin'])} point" in line, line
    page.screenshot(path=str(SHOTS / "practice-end-laptop.png"))


def test_review_explains_and_tries_again(browser: Browser, server: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = strict_table(browser, server, NAME, SEED)
    play_deal(page)
    page.wait_for_selector("#end-dialog[open]")
    original = page.evaluate(SAVED)
    data = finished_review(page)
    review = data["review"]
    check_swings(page, review)
    page.eval_on_selector("#review-swings", "s => s.scrollIntoView()")
    page.screenshot(path=str(SHOTS / "review-swings-laptop.png"))
    # the lessons: a costly decision says what came of it and what the best would have done
    lessons = page.eval_on_selector_all(".decision-lesson", "ls => ls.map(l => l.innerText)")
    assert len(lessons) == len(review["lessons"]) > 0
    for text, x in zip(lessons, review["lessons"], strict=True):
        assert x["made"] in text and x["best"] in text and text.startswith("What came of it: ")
    check_positions(page, review)
    check_ai(page, data)
    assert serious(page, "review with swings") == []
    page.set_viewport_size(PHONE)
    page.eval_on_selector("#review-graph", "g => g.scrollIntoView()")
    page.screenshot(path=str(SHOTS / "review-swings-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(LAPTOP)
    practice_from_a_key_moment(page, review, original["id"])
    assert page.refused == []  # type: ignore[attr-defined]
    # in long languages: the practice's result, then the original's review again
    practice = page.evaluate(SAVED)
    for lang, size in (("it", PHONE), ("hi", LAPTOP), ("hi", PHONE)):
        page.set_viewport_size(size)
        page.evaluate(f"localStorage.setItem('tarocchi-piedicavallo', JSON.stringify({practice}))")
        page.goto(f"{server}/play/{NAME}?lang={lang}")
        page.wait_for_selector("#end-dialog[open]")
        assert page.inner_text("#end-practice")
        wide = "phone" if size == PHONE else "laptop"
        page.screenshot(path=str(SHOTS / f"practice-end-{lang}-{wide}.png"))
        page.evaluate(f"localStorage.setItem('tarocchi-piedicavallo', JSON.stringify({original}))")
        page.goto(f"{server}/play/{NAME}?lang={lang}")
        page.wait_for_selector("#end-dialog[open]")
        page.click("#end-review")
        page.wait_for_selector("#review-swings > li .moment-why")
        page.eval_on_selector("#review-graph", "g => g.scrollIntoView()")
        page.screenshot(path=str(SHOTS / f"review-swings-{lang}-{wide}.png"))
        first = page.query_selector("#review-decisions .decision-lesson")
        assert first is not None
        first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"review-lesson-{lang}-{wide}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
