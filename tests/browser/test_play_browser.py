"""End-to-end: Chromium plays a whole deal of each game by clicking through the play page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page

from tarocchi.games import GAMES
from tests.browser.conftest import SHOTS

pytestmark = pytest.mark.browser

EDGE = {"x": 8, "y": 8}  # cards in a fanned hand overlap: click the corner index, always in view


def open_table(
    browser: Browser, base: str, name: str, seed: int, level: str = "normal", **ctx: object
) -> Page:
    page = browser.new_context(**ctx).new_page()  # type: ignore[arg-type]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/")
    page.evaluate("localStorage.setItem('tarocchi-speed', '0')")
    page.evaluate(f"localStorage.setItem('tarocchi-level', {level!r})")
    # the table as a returning player sees it (test_learn_browser tests the first visit's offer)
    page.evaluate(f"localStorage.setItem('tarocchi-learn-offered-{name}', 'yes')")
    page.goto(f"{base}/play/{name}?new&seed={seed}")
    page.wait_for_selector(".hand-card", timeout=30_000)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def my_turn(page: Page) -> str:
    """Wait until South must act or the deal is over; return "card", "action" or "over"."""
    page.wait_for_function(
        """() => document.getElementById('end-dialog').open
              || document.querySelector('.hand-card.legal')
              || document.querySelector('#actions button')""",
        timeout=60_000,
    )
    if page.eval_on_selector("#end-dialog", "d => d.open"):
        return "over"
    return "action" if page.query_selector("#actions button") else "card"


def act_once(page: Page) -> None:
    """Choose South's first action button, or else its first legal card; wait for the answer."""
    button = page.query_selector("#actions button")
    if button:
        button.click()
    else:
        page.click(".hand-card.legal", position=EDGE)
    page.wait_for_function("() => !document.getElementById('prompt').textContent"
                           ".startsWith('…')")  # fmt: skip


def play_deal(page: Page) -> dict[str, int]:
    seen = {"cards": 0, "actions": 0, "refusals": 0, "keys": 0}
    while (kind := my_turn(page)) != "over":
        illegal = page.query_selector(".hand-card.illegal")
        if illegal and seen["refusals"] < 2 and kind == "card":
            illegal.click(position=EDGE)
            # the refusal's reason shows as a warning (in the page's language)
            page.wait_for_selector("#prompt.warn")
            seen["refusals"] += 1
        if kind == "action":
            page.click("#actions button")
            seen["actions"] += 1
        elif seen["keys"] == 0:
            page.keyboard.press("1")  # digits choose the n-th legal card
            seen["keys"] += 1
        else:
            page.click(".hand-card.legal", position=EDGE)
            seen["cards"] += 1
        page.wait_for_function("() => !document.querySelector('.prompt').textContent"
                               ".startsWith('…')")  # fmt: skip
    return seen


@pytest.mark.parametrize("name", sorted(GAMES))
def test_play_a_whole_deal(browser: Browser, server: str, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_table(browser, server, name, seed=11, viewport={"width": 1280, "height": 900})
    page.screenshot(path=str(SHOTS / f"{name}-table.png"), full_page=True)
    seen = play_deal(page)
    assert seen["cards"] + seen["keys"] > 5
    page.wait_for_selector("#end-dialog[open] .breakdown tbody tr")
    page.wait_for_selector("#end-hands .card-row")
    text = page.inner_text("#end-dialog")
    assert "Total" in text and ("win" in text or "draw" in text)
    assert len(page.query_selector_all("#end-hands .card-row")) == 4
    # the result opens at its headline: the heading focused, the dialog at its top
    assert page.evaluate("document.activeElement.id") == "end-title"
    assert page.eval_on_selector("#end-dialog", "d => d.scrollTop") == 0
    page.screenshot(path=str(SHOTS / f"{name}-end.png"), full_page=True)
    # closed, it leaves a Result control; the Hint and Last trick controls are gone
    page.click("#end-close")
    assert page.is_hidden("#hint") and page.is_hidden("#last-trick")
    page.click("#result")
    assert page.eval_on_selector("#end-dialog", "d => d.open")
    # the replay's running score, from the trick entries the answers' events told
    page.click("#end-replay")
    played = page.inner_text("#replay-score")
    assert "From the tricks so far" in played
    page.click("#replay-close")
    page.click("#result")
    # a reload shows the finished deal and its result, not a new deal
    winner = page.inner_text("#end-winner")
    page.reload()
    page.wait_for_selector("#end-dialog[open] .breakdown tbody tr")
    assert page.inner_text("#end-winner") == winner
    # the replay, trick by trick: buttons and keys step; each trick shows the four seats
    page.click("#end-replay")
    assert page.inner_text("#replay-step").startswith("Trick 1 of ")
    assert page.inner_text("#replay-score") == played  # the reload's history tells the same
    assert len(page.query_selector_all("#replay-table figure")) == 4
    page.click("#replay-next")
    assert page.inner_text("#replay-step").startswith("Trick 2 of ")
    page.keyboard.press("End")
    last = page.inner_text("#replay-step")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#replay-step") == last
    assert " led, " in last and last.endswith(" won.")
    page.keyboard.press("Home")
    assert page.inner_text("#replay-step").startswith("Before the first trick")
    # on a phone, a trick and the buttons fit the screen
    page.keyboard.press("ArrowRight")
    page.set_viewport_size({"width": 360, "height": 640})
    boxes = "es => es.map(e => e.getBoundingClientRect())"
    for box in page.eval_on_selector_all("#replay-table figure, .replay-buttons button", boxes):
        assert box["x"] >= 0 and box["y"] >= 0
        assert box["x"] + box["width"] <= 360 and box["y"] + box["height"] <= 640
    page.screenshot(path=str(SHOTS / f"{name}-replay-phone.png"))
    page.click("#replay-close")
    assert not page.errors  # type: ignore[attr-defined]


def test_record_download_and_play_again(browser: Browser, server: str) -> None:
    page = open_table(browser, server, "piedicavallo", seed=4)
    play_deal(page)
    with page.expect_download() as info:
        page.click("#end-download")
    path = info.value.path()
    assert path is not None and b'"tarocchi-record"' in path.read_bytes()
    first_hand = page.inner_text("#end-hands")
    page.click("#end-again")
    page.wait_for_selector(".hand-card")
    page.wait_for_function("() => !document.getElementById('end-dialog').open")
    play_deal(page)
    page.wait_for_selector("#end-hands .card-row")
    assert page.inner_text("#end-hands") == first_hand  # the same seed deals the same cards


def test_phone_sized_screen_and_last_trick(browser: Browser, server: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_table(browser, server, "piedicavallo", seed=8,
                      viewport={"width": 390, "height": 844}, is_mobile=True,
                      has_touch=True, reduced_motion="reduce")  # fmt: skip
    for _ in range(6):
        if my_turn(page) == "card":
            page.click(".hand-card.legal", position=EDGE)
    page.wait_for_selector("#last-trick:not([disabled])")
    assert page.is_hidden("#hint")  # hints are off by default
    page.click("#menu summary")  # the Hints switch is in the menu
    page.check("#hints-on")
    page.click("#menu summary")
    if my_turn(page) == "card":
        hand_at = page.eval_on_selector("#hand", "h => h.getBoundingClientRect().top")
        page.click("#hint")
        page.wait_for_selector("#hints li")
        # the hinted card's outline is its own colour, and the list does not move the hand
        # (the same card's outline without the hint is the legal one it overrides)
        hinted, legal = page.eval_on_selector(
            ".hand-card.hinted.legal",
            """c => { const img = c.querySelector('.card'), colour = () => getComputedStyle(img)
                .outlineColor; const hinted = colour(); c.classList.remove('hinted');
                const legal = colour(); c.classList.add('hinted'); return [hinted, legal]; }""",
        )
        assert hinted not in (legal, "rgba(0, 0, 0, 0)")
        assert page.eval_on_selector("#hand", "h => h.getBoundingClientRect().top") == hand_at
        values = page.inner_text("#hint-list")
        assert "points" in values or "(" not in values  # values name their unit
        # with the keyboard, each legal card shows the key that plays it
        page.keyboard.press("Tab")
        key = page.eval_on_selector(
            ".hand-card.legal", "c => getComputedStyle(c, '::after').content + c.dataset.key"
        )
        assert key == '"1"1'
    page.click("#last-trick")
    assert page.eval_on_selector("#last-dialog", "d => d.open")
    assert len(page.query_selector_all("#last-cards figure")) == 4
    page.screenshot(path=str(SHOTS / "phone-last-trick.png"), full_page=True)
    page.click("#last-dialog button")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400  # no sideways scrolling on a phone
    alts = page.eval_on_selector_all(".hand-card img", "imgs => imgs.map(i => i.alt)")
    assert alts and all(" " in a for a in alts)  # card names, not codes, as accessible text


def test_level_choice_sets_the_next_deal(browser: Browser, server: str) -> None:
    page = open_table(browser, server, "ottocento", seed=5)
    game_level = """async () => {
        const saved = JSON.parse(localStorage.getItem('tarocchi-ottocento'));
        const res = await fetch(`/api/games/${saved.id}`,
                                {headers: {Authorization: `Bearer ${saved.token}`}});
        return (await res.json()).view.level;
    }"""
    assert page.evaluate(game_level) == "normal"  # the default level
    saved_id = "JSON.parse(localStorage.getItem('tarocchi-ottocento')).id"
    first = page.evaluate(saved_id)
    page.click("#menu summary")
    page.select_option("#level", "easy")
    page.click("#new-deal")
    page.click("#abandon-dialog button[value='new']")  # the deal in progress is abandoned
    page.wait_for_function(f"() => {saved_id} !== {first!r}")
    assert page.evaluate(game_level) == "easy"
    assert page.evaluate("localStorage.getItem('tarocchi-level')") == "easy"
    assert not page.errors  # type: ignore[attr-defined]


def test_the_log_survives_a_reload_in_play_order(browser: Browser, server: str) -> None:
    page = open_table(browser, server, "piedicavallo", seed=4, level="easy")
    for _ in range(3):
        my_turn(page)
        act_once(page)
    log = "() => [...document.querySelectorAll('#log li')].map(li => li.textContent)"
    before = page.evaluate(log)
    assert before[0].startswith("Deal begins") and before[-1].startswith("Trick ")
    tricks = [int(t.split()[1].rstrip(":")) for t in before if t.startswith("Trick ")]
    assert tricks == sorted(tricks) and len(tricks) >= 3  # one line a trick, in play order
    page.reload()
    my_turn(page)
    assert page.evaluate(log) == before


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_cards_move_unless_motion_is_reduced(browser: Browser, server: str, motion: str) -> None:
    page = open_table(browser, server, "piedicavallo", seed=4, level="easy",
                      reduced_motion=motion)  # fmt: skip
    my_turn(page)
    page.evaluate("document.getElementById('speed').value = '0.4'")  # fast, not instant
    page.evaluate("""() => { window.moves = 0; setInterval(() => {
        window.moves = Math.max(window.moves, document.getAnimations().length); }, 10); }""")
    act_once(page)
    moved = page.evaluate("window.moves")
    assert (moved > 0) == (motion == "no-preference")


def test_declarations_say_what_they_do(browser: Browser, server: str) -> None:
    # Ottocento: the declare button names the combinations and their points, with the cards
    page = open_table(browser, server, "ottocento", seed=0, level="easy")
    assert my_turn(page) == "action"
    declare = page.inner_text("#actions button[data-code='DECLARE']")
    assert "points" in declare and "(" in declare
    assert page.query_selector_all("#actions button[data-code='DECLARE'] img.card")
    # its hint reads as that sentence (not "Declare: declare: ..."), then its value
    page.click("#menu summary")
    page.check("#hints-on")
    page.click("#menu summary")
    page.click("#hint")
    page.wait_for_selector("#hint-list li")
    hints = page.eval_on_selector_all("#hint-list li", "lis => lis.map(li => li.textContent)")
    labels = page.eval_on_selector_all("#actions button", "bs => bs.map(b => b.textContent)")
    assert len(hints) == len(labels) == 2
    for label in labels:
        (hint,) = [h for h in hints if h.startswith(label)]
        assert re.fullmatch(r" \(-?[\d.,]+ points?\)", hint[len(label) :]), hint
    # Minchiate: each declaration button shows the cards it declares
    page = open_table(browser, server, "minchiate", seed=22, level="easy")
    assert my_turn(page) == "action"
    button = "#actions button:not([data-code='DECL-DONE'])"
    assert page.query_selector_all(f"{button} img.card")
