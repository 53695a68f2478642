"""End-to-end: Chromium finishes a deal of each game, reads the AI on its cards in the result,
opens the review, follows it to the end (the progress bar, the graph, the marks, the key
moments) and goes from a key moment and from a graph point into the replay at their trick;
axe-core and the strict Content-Security-Policy check the review dialog on the way."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from playwright.sync_api import Browser, Page

from tarocchi.i18n import PSEUDO, translator
from tarocchi.packs.piemontese import PACK
from tarocchi.web.store.schema import games
from tests.browser.conftest import SHOTS
from tests.browser.test_accessibility_browser import serious, with_csp
from tests.browser.test_play_browser import EDGE, act_once, my_turn, play_deal
from tests.conftest import free_port, start_server, stop_server
from tests.i18n.pseudo import bare_words

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
FAIR, HINDSIGHT = "Fair value (what you could know)", "Hindsight value (every card seen)"
MARKS = {"best", "good", "inaccuracy", "mistake", "blunder", "close", "forced", "not valued"}
# the review as the API serves it to the page's game (its id and token from the page's storage)
REVIEW = """async (name) => {
  const saved = JSON.parse(localStorage.getItem(`tarocchi-${name}`));
  const res = await fetch(`/api/games/${saved.id}/review`,
                          {headers: {Authorization: `Bearer ${saved.token}`}});
  return await res.json();
}"""
HINT = REVIEW.replace("/review`", "/hint`")  # the hint the API gives the page's game now


def strict_table(browser: Browser, base: str, name: str, seed: int) -> Page:
    """The play page of a new deal at the easy level, under the strict policy (its refusals
    and the page's errors collected)."""
    page = browser.new_context(viewport=LAPTOP).new_page()  # type: ignore[arg-type]
    page.route(f"{base}/**", with_csp)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    page.on("pageerror", lambda e: refused.append(str(e)))
    page.refused = refused  # type: ignore[attr-defined]
    page.goto(f"{base}/")
    page.evaluate("localStorage.setItem('tarocchi-speed', '0')")
    page.evaluate("localStorage.setItem('tarocchi-level', 'easy')")
    page.goto(f"{base}/play/{name}?new&seed={seed}")
    page.wait_for_selector(".hand-card", timeout=30_000)
    return page


def when(trick: int) -> str:
    """The replay's first words at a trick."""
    return f"Trick {trick} of " if trick else "Before the first trick"


def check_ai_line(page: Page, name: str) -> None:
    page.wait_for_function(
        "() => !document.getElementById('end-ai').textContent.includes('computing')",
        timeout=180_000,
    )
    line = page.inner_text("#end-ai")
    ai = page.evaluate(REVIEW, name)["ai"]
    assert ai is not None, line
    unit = "resti?o?" if name == "minchiate" else "points?"
    assert re.match(rf"You [+-]?[\d.,]+ {unit}, the AI in your seat \(easy\) [+-]?[\d.,]+ {unit}: ",
                    line), line  # fmt: skip
    verdict = ("you beat it by" if ai["yours"] > ai["margin"]
               else "it beat you by" if ai["yours"] < ai["margin"] else "a tie")  # fmt: skip
    assert verdict in line


def check_review(page: Page, review: dict[str, Any], total: int) -> None:
    """The finished review as the dialog shows it, against the API's."""
    assert page.inner_text("#review-count") == f"All {total} decisions valued."
    assert page.eval_on_selector("#review-bar", "b => [b.value, b.max]") == [total, total]
    # the graph: one point per point of the review, each a labelled button, the zero line drawn
    points = page.eval_on_selector_all(
        "#review-graph .graph-point",
        "ps => ps.map(p => [p.getAttribute('role'), p.getAttribute('aria-label'), p.dataset.kind])",
    )
    assert len(points) == len(review["graph"]) > 1
    assert [p[2] for p in points] == [g["kind"] for g in review["graph"]]
    assert all(role == "button" and label for role, label, _ in points)
    assert points[-1][1].startswith("End of the deal: ")
    assert page.query_selector("#review-graph line.zero")
    # the decisions: each with its mark (in words), the fair and hindsight values apart
    items = page.query_selector_all("#review-decisions > li")
    assert len(items) == len(review["decisions"]) == total
    shown = [i.eval_on_selector(".mark", "m => m.textContent") for i in items]
    assert set(shown) <= MARKS
    assert shown == [d["mark"] or "not valued" for d in review["decisions"]]
    for item, d in zip(items, review["decisions"], strict=True):
        terms = item.eval_on_selector_all("dt", "ds => ds.map(d => d.textContent)")
        if d["kind"] == "heuristic":  # ranked as hints are: it says so, and shows no value
            assert terms == [] and "not valued by the search" in item.inner_text()
        elif d["kind"] == "searched":
            assert terms == [FAIR, HINDSIGHT]
    # the marks' thresholds, in the game's unit
    marks = page.inner_text("#review-marks")
    for v in review["thresholds"].values():
        assert f"{v:g}" in marks
    summary = page.inner_text("#review-summary")
    assert summary.startswith("Accuracy: ") and "The sum of the costs: " in summary


# seeds whose deal, played by the first legal choice, has key moments (and in Ottocento a
# declaration, which the review ranks as hints are)
DEALS = [("piedicavallo", 11), ("ottocento", 0), ("minchiate", 5)]


@pytest.mark.parametrize(("name", "seed"), DEALS)
def test_review_of_a_deal(browser: Browser, server: str, name: str, seed: int) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = strict_table(browser, server, name, seed)
    play_deal(page)
    check_ai_line(page, name)
    page.screenshot(path=str(SHOTS / f"{name}-end-ai-laptop.png"))
    page.click("#end-review")
    assert page.eval_on_selector("#review-dialog", "d => d.open")
    # under way: the bar and the count of decisions valued so far, then the first values
    page.wait_for_function("() => / valued/.test(document.getElementById('review-count')"
                           ".textContent)", timeout=60_000)  # fmt: skip
    count = re.fullmatch(r"(\d+) of (\d+) decisions valued…", page.inner_text("#review-count"))
    assert count and int(count[1]) < int(count[2])
    assert page.eval_on_selector("#review-bar", "b => b.value < b.max")
    page.wait_for_selector("#review-decisions > li", timeout=180_000)
    page.wait_for_function(
        "() => /^All /.test(document.getElementById('review-count').textContent)"
        " || !document.getElementById('review-error').hidden",
        timeout=600_000,
    )
    assert page.is_hidden("#review-error"), page.inner_text("#review-error")
    data = page.evaluate(REVIEW, name)
    assert data["status"] == "done"
    check_review(page, data["review"], data["total"])
    problems = serious(page, "review")
    page.screenshot(path=str(SHOTS / f"review-{name}-laptop.png"))
    page.emulate_media(color_scheme="dark")
    problems += serious(page, "review, dark")
    page.screenshot(path=str(SHOTS / f"review-{name}-laptop-dark.png"))
    page.emulate_media(color_scheme="light")
    # a key moment opens the replay at its trick; Review brings the review back
    moments = data["review"]["key_moments"]
    assert moments and len(page.query_selector_all("#review-moments .moment")) == len(moments)
    trick = data["review"]["decisions"][moments[0]["decision"]]["trick"]
    page.click("#review-moments .moment")
    page.wait_for_selector("#replay-dialog[open]")
    assert not page.eval_on_selector("#review-dialog", "d => d.open")
    # (at the decision: the trick so far and South's hand)
    at = f"Trick {trick}, your turn" if trick else "Before the first trick, your turn"
    assert page.inner_text("#replay-step").startswith(at)
    page.click("#replay-review")
    page.wait_for_selector("#review-dialog[open] #review-decisions > li")
    # a graph point, chosen with the keyboard (one stop for Tab, the arrows between points),
    # does the same
    point = data["review"]["graph"][-2]
    assert page.eval_on_selector_all("#review-graph [tabindex='0']", "ps => ps.length") == 1
    page.focus("#review-graph [tabindex='0']")
    for key in ["End", "ArrowLeft", "ArrowRight", "ArrowLeft"]:
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.dataset.kind") == point["kind"]
    page.keyboard.press("Enter")
    page.wait_for_selector("#replay-dialog[open]")
    assert page.inner_text("#replay-step").startswith(when(point["trick"]))
    page.click("#replay-review")
    # on a phone the review fits the screen's width, its graph drawn anew to that width
    page.set_viewport_size(PHONE)
    page.wait_for_function("() => document.querySelector('#review-graph svg').width.baseVal.value"
                           " < 400")  # fmt: skip
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.eval_on_selector("#review-dialog", "d => d.getBoundingClientRect().toJSON()")
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=str(SHOTS / f"review-{name}-phone.png"))
    page.eval_on_selector("#review-graph", "g => g.scrollIntoView()")
    page.screenshot(path=str(SHOTS / f"review-{name}-phone-graph.png"))
    problems += serious(page, "review on a phone")
    assert problems == []
    # in the pseudo-language no word of the result's AI line or of the review escapes
    # translation (the stored review is served again, in the reader's language)
    page.goto(f"{server}/play/{name}?lang={PSEUDO}")
    page.wait_for_selector("#end-dialog[open]")
    page.wait_for_function("() => /\\d/.test(document.getElementById('end-ai').textContent)")
    page.click("#end-review")
    page.wait_for_selector("#review-graph .graph-point")
    labels = page.eval_on_selector_all(
        "#review-dialog [aria-label], #review-dialog img[alt]",
        "els => els.map(e => [e.getAttribute('aria-label'), e.alt].join(' '))",
    )
    text = " ".join([page.inner_text("#end-ai"), page.inner_text("#review-dialog"), *labels])
    assert "⟦" in text and bare_words(text) == []
    assert page.refused == []  # type: ignore[attr-defined]


def test_the_hint_followed_is_marked_best_in_the_review(browser: Browser, server: str) -> None:
    """Ask a hint at a card with a real choice, play its first card, finish the deal: the
    review shows that decision with the hint's values in the hint's order, marked best."""
    name = "piedicavallo"
    page = strict_table(browser, server, name, 12)
    page.click("#menu summary")  # the Hints switch is in the menu
    page.check("#hints-on")
    page.click("#menu summary")
    while my_turn(page) != "card" or len(page.query_selector_all(".hand-card.legal")) < 3:
        act_once(page)
    page.click("#hint")
    page.wait_for_selector("#hints li")
    hint = page.evaluate(HINT, name)["suggestions"]
    page.click(".hand-card.hinted.legal", position=EDGE)
    play_deal(page)
    page.click("#end-review")
    page.wait_for_function("() => /^All /.test(document.getElementById('review-count')"
                           ".textContent)", timeout=900_000)  # fmt: skip
    review = page.evaluate(REVIEW, name)["review"]
    shown = [[(c["action"], c["fair"]) for c in d["choices"]] for d in review["decisions"]]
    at = shown.index([(h["action"], h["value"]) for h in hint])
    d = review["decisions"][at]
    assert d["made"] == d["best"] == hint[0]["action"] and d["mark"] == "best"
    item = page.query_selector_all("#review-decisions > li")[at]
    assert item.eval_on_selector(".mark", "m => m.textContent") == "best"
    assert page.refused == []  # type: ignore[attr-defined]


def test_a_review_that_cannot_start_says_why_and_asks_again(
    browser: Browser, tmp_path: Path
) -> None:
    """A finished deal whose stored log was altered: the review says it could not start and
    why (the first bad action), with a button to ask again; the log put back, that button
    starts the review."""
    db = tmp_path / "games.sqlite3"
    port = free_port()
    proc = start_server(db, port)
    try:
        name = "piedicavallo"
        page = strict_table(browser, f"http://127.0.0.1:{port}", name, 11)
        play_deal(page)
        check_ai_line(page, name)
        game_id = page.evaluate(f"JSON.parse(localStorage.getItem('tarocchi-{name}')).id")
        engine = sa.create_engine(f"sqlite:///{db}")
        row = games.c.id == game_id
        with engine.begin() as conn:
            kept = conn.execute(sa.select(games.c.actions).where(row)).scalar_one()
            actions = json.loads(kept)
            k = next(i for i, (seat, _) in enumerate(actions) if seat == 0 and i > 10)
            actions[k][1] = next(code for seat, code in actions[:k] if seat == 0)  # played before
            conn.execute(sa.update(games).where(row).values(actions=json.dumps(actions)))
        page.click("#end-review")
        page.wait_for_selector("#review-error:not([hidden])")
        said = page.inner_text("#review-error")
        named = translator("en").text(PACK.cards[PACK.card_id(actions[k][1])])  # not its code
        assert said.startswith("The review could not start: ")
        assert f"action {k + 1} ({named} by seat 0)" in said
        assert page.is_visible("#review-retry")
        # nothing to show but why: no bar still moving, no empty graph or lists
        assert page.is_hidden("#review-progress") and page.is_hidden("#review-body")
        page.screenshot(path=str(SHOTS / "review-failed-laptop.png"))
        assert serious(page, "a review that could not start") == []
        with engine.begin() as conn:
            conn.execute(sa.update(games).where(row).values(actions=kept))
        page.click("#review-retry")
        page.wait_for_selector("#review-decisions > li", timeout=180_000)
        assert page.is_hidden("#review-error") and page.is_hidden("#review-retry")
        assert page.is_visible("#review-progress") and page.is_visible("#review-graph svg")
        assert page.refused == []  # type: ignore[attr-defined]
    finally:
        stop_server(proc)
