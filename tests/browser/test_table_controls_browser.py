"""The table's controls in Chromium: the score-and-log drawer closes from inside and is
never covered by the bar (six languages, two phone sizes), touch screens play by tapping
with no card left raised, New deal asks before abandoning a deal in progress, a single
legal card plays itself when asked to, the discard prompt counts the cards left to lay
aside, and the hint list never covers the trick."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tarocchi.i18n import LANGUAGES
from tests.browser.conftest import SHOTS
from tests.browser.test_play_browser import EDGE, act_once, my_turn, open_table
from tests.browser.test_table_browser import OVERFLOWS, south_to_act

pytestmark = pytest.mark.browser

PHONES = [(360, 640), (390, 844)]

# where the drawer, the bar, the toggle and the close button are; which element is on top
# at the toggle's and at the close button's centres
PANEL = """() => {
  const el = (id) => document.getElementById(id), box = (id) => el(id).getBoundingClientRect();
  const top = (id) => { const r = box(id);
    return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.id; };
  return {panel: box('panel'), bar: box('game-bar'), toggle: top('panel-toggle'),
          close: top('panel-close'), shown: getComputedStyle(el('panel')).display,
          focus: document.activeElement.id,
          expanded: el('panel-toggle').getAttribute('aria-expanded')};
}"""


def panel_state(page: Page) -> dict[str, object]:
    state: dict[str, object] = page.evaluate(PANEL)
    return state


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_panel_closes_from_inside(browser: Browser, server: str, lang: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_table(browser, server, "minchiate", 5, "easy",
                      viewport={"width": 360, "height": 640})  # fmt: skip
    page.goto(f"{server}/play/minchiate?lang={lang}")  # the same deal, in the language
    south_to_act(page)
    for w, h in PHONES:
        page.set_viewport_size({"width": w, "height": h})
        page.click("#panel-toggle")
        now = panel_state(page)
        assert now["shown"] == "flex" and now["expanded"] == "true"
        assert now["focus"] == "panel-close"  # the keyboard's focus goes into the drawer
        # the drawer starts below the bar, whose buttons (the toggle too) stay on top
        panel, bar = now["panel"], now["bar"]
        assert isinstance(panel, dict) and isinstance(bar, dict)
        assert panel["top"] >= bar["bottom"] and panel["bottom"] <= h
        assert now["toggle"] == "panel-toggle" and now["close"] == "panel-close"
        page.screenshot(path=str(SHOTS / f"panel-{lang}-{w}x{h}.png"))
        # Escape closes it and gives the focus back to the toggle
        page.keyboard.press("Escape")
        now = panel_state(page)
        assert now["shown"] == "none" and now["expanded"] == "false"
        assert now["focus"] == "panel-toggle"
        # so do its Close button and a tap outside it (on the felt, left of the drawer)
        page.click("#panel-toggle")
        page.click("#panel-close")
        assert panel_state(page)["shown"] == "none"
        page.click("#panel-toggle")
        page.mouse.click(4, h / 2)
        assert panel_state(page)["shown"] == "none"
        # the toggle opens and closes it too
        page.click("#panel-toggle")
        page.click("#panel-toggle")
        assert panel_state(page)["shown"] == "none"
    assert not page.errors  # type: ignore[attr-defined]


LIFTED = """() => [...document.querySelectorAll('#hand .card')]
  .filter((c) => getComputedStyle(c).transform !== 'none').map((c) => c.alt)"""


def test_touch_plays_by_tapping(browser: Browser, server: str) -> None:
    page = open_table(browser, server, "piedicavallo", 4, "easy",
                      viewport={"width": 390, "height": 844}, is_mobile=True,
                      has_touch=True)  # fmt: skip
    assert not page.evaluate("matchMedia('(hover: hover)').matches")
    tapped = refused = 0
    while tapped < 4 and my_turn(page) != "over":
        if my_turn(page) == "action":
            act_once(page)
            continue
        illegal = page.query_selector(".hand-card.illegal")
        if illegal and not refused:
            # a tap on a card that may not be played says why, and plays nothing
            cards = page.eval_on_selector_all(".hand-card", "cs => cs.length")
            page.tap(".hand-card.illegal", position=EDGE)
            page.wait_for_selector("#prompt.warn")
            assert page.eval_on_selector_all(".hand-card", "cs => cs.length") == cards
            refused += 1
        code = page.get_attribute(".hand-card.legal", "data-code")
        page.tap(".hand-card.legal", position=EDGE)
        page.wait_for_function(f"() => !document.querySelector('#hand [data-code=\"{code}\"]')")
        tapped += 1
        # nothing stays raised under the finger; every card's index is uncovered
        south_to_act(page)
        assert page.evaluate(LIFTED) == []
        assert page.evaluate(OVERFLOWS) == []
    assert tapped == 4
    page.screenshot(path=str(SHOTS / "touch-after-taps-390x844.png"))
    assert not page.errors  # type: ignore[attr-defined]


SAVED_ID = "JSON.parse(localStorage.getItem('tarocchi-ottocento')).id"


def test_new_deal_asks_before_abandoning_a_deal(browser: Browser, server: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_table(browser, server, "ottocento", 5, "easy",
                      viewport={"width": 390, "height": 844})  # fmt: skip
    south_to_act(page)
    first = page.evaluate(SAVED_ID)
    page.click("#new-deal")
    assert page.eval_on_selector("#abandon-dialog", "d => d.open")
    assert page.evaluate("document.activeElement.value") == "keep"  # the safe choice first
    page.screenshot(path=str(SHOTS / "new-deal-asks-390x844.png"))
    page.keyboard.press("Escape")  # Escape keeps the deal
    assert not page.eval_on_selector("#abandon-dialog", "d => d.open")
    page.click("#new-deal")
    page.click("#abandon-dialog button[value='keep']")
    page.wait_for_timeout(300)
    assert page.evaluate(SAVED_ID) == first
    page.click("#new-deal")
    page.click("#abandon-dialog button[value='new']")
    page.wait_for_function(f"() => {SAVED_ID} !== {first!r}")
    assert not page.errors  # type: ignore[attr-defined]


# the code of the one legal card, when South may play exactly one (else null)
ONE = """() => { const legal = document.querySelectorAll('.hand-card.legal');
  return legal.length === 1 ? legal[0].dataset.code : null; }"""


def gone(code: str) -> str:
    return f"() => !document.querySelector('#hand [data-code=\"{code}\"]')"


def test_a_single_legal_card_plays_itself_when_asked(browser: Browser, server: str) -> None:
    page = open_table(browser, server, "piedicavallo", 6, "easy")
    page.click("#menu summary")
    assert not page.is_checked("#auto-play")  # off by default
    page.click("#menu summary")
    # off: a single legal card waits for the player
    while my_turn(page) != "over" and not page.evaluate(ONE):
        act_once(page)
    code = page.evaluate(ONE)
    assert code, "no single legal card in this deal"
    page.wait_for_timeout(1000)
    assert page.evaluate(ONE) == code
    # on (kept for the next visit): it plays at once, and from then on by itself
    page.click("#menu summary")
    page.check("#auto-play")
    page.click("#menu summary")
    assert page.evaluate("localStorage.getItem('tarocchi-auto-play')") == "on"
    page.wait_for_function(gone(code))
    while my_turn(page) != "over":
        code = page.evaluate(ONE)
        if code:
            page.wait_for_function(gone(code))  # nothing clicked
        else:
            act_once(page)
    # when the deal is over New deal starts the next one without asking
    page.click("#end-close")
    first = page.evaluate("JSON.parse(localStorage.getItem('tarocchi-piedicavallo')).id")
    page.click("#new-deal")
    assert not page.eval_on_selector("#abandon-dialog", "d => d.open")
    page.wait_for_function(
        f"() => JSON.parse(localStorage.getItem('tarocchi-piedicavallo')).id !== {first!r}"
    )
    assert not page.errors  # type: ignore[attr-defined]


def test_the_discard_prompt_counts_the_cards_left(browser: Browser, server: str) -> None:
    # Piedicavallo, seed 2: South deals and lays two cards aside
    page = open_table(browser, server, "piedicavallo", 2, "easy")
    south_to_act(page)
    assert "2 cards still to lay aside" in page.inner_text("#prompt")
    page.click(".hand-card.legal", position=EDGE)
    page.wait_for_function("() => document.getElementById('prompt').textContent"
                           ".includes('1 card still to lay aside')")  # fmt: skip
    assert not page.errors  # type: ignore[attr-defined]


# problems with the open hint list: it overlaps a card of the trick, or leaves the screen
HINT_OVER_TRICK = """() => {
  const h = document.getElementById('hints').getBoundingClientRect(), out = [];
  if (h.top < 0 || h.bottom > innerHeight + 0.5 || h.left < 0 || h.right > innerWidth + 0.5) {
    out.push('hints outside');
  }
  for (const c of document.querySelectorAll('#trick .card')) {
    const r = c.getBoundingClientRect();
    if (r.left < h.right && h.left < r.right && r.top < h.bottom && h.top < r.bottom) {
      out.push(`hints cover ${c.alt}`);
    }
  }
  return out;
}"""


def test_the_hint_list_never_covers_the_trick(browser: Browser, server: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_table(browser, server, "piedicavallo", 8, "easy",
                      viewport={"width": 1366, "height": 768})  # fmt: skip
    page.evaluate("localStorage.setItem('tarocchi-hints', 'on')")
    page.reload()
    for _ in range(20):
        now = south_to_act(page)
        if now["phase"] == "play" and now["trick"] >= 2:
            break
        act_once(page)
    page.click("#hint")
    page.wait_for_selector("#hint-list li", timeout=60_000)
    problems = []
    for w, h in [*PHONES, (844, 390), (1366, 768)]:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        problems += [f"{w}x{h}: {p}" for p in page.evaluate(HINT_OVER_TRICK)]
        page.screenshot(path=str(SHOTS / f"hints-{w}x{h}.png"))
    assert problems == []
    assert not page.errors  # type: ignore[attr-defined]


# problems with the cards the seats have shown: no caption, an index under 11 px or covered,
# a card off the screen
SHOWN = """() => {
  const game = document.getElementById('game'), out = [];
  const ih = Number(game.dataset.indexHeight), iw = Number(game.dataset.indexWidth);
  for (const seat of document.querySelectorAll('.seat-n, .seat-w, .seat-e')) {
    const cards = [...seat.querySelectorAll('.shown .card')];
    const why = seat.querySelector('.shown-why');
    if (cards.length && !why.textContent.trim()) out.push('no caption');
    for (const c of cards) {
      const r = c.getBoundingClientRect(), b = c.parentElement.getBoundingClientRect();
      if (r.height * ih < 10.99) out.push(`${c.alt}: index ${r.height * ih} px`);
      if (b.left < 0 || b.top < 0 || b.right > innerWidth + 0.5 || b.bottom > innerHeight + 0.5) {
        out.push(`${c.alt} off the screen`);
      }
      for (const [fx, fy] of [[0.07, 0.04], [iw - 0.02, ih + 0.03]]) {
        if (document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height) !== c) {
          out.push(`${c.alt}: index covered`);
        }
      }
    }
  }
  return out;
}"""


def test_shown_cards_are_readable_and_say_why(browser: Browser, server: str) -> None:
    # Minchiate, seed 22: East shows ten cards (robbed, from the Fola, declared), North and
    # West one each (dealt face up)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_table(browser, server, "minchiate", 22, "easy",
                      viewport={"width": 1366, "height": 768})  # fmt: skip
    while south_to_act(page)["phase"] != "play":
        act_once(page)
    captions = page.eval_on_selector_all(".seat .shown-why", "ps => ps.map(p => p.textContent)")
    assert "declared" in captions[2] and "from the Fola" in captions[2]  # East, after N, W
    alts = page.eval_on_selector_all(".seat-e .shown .card", "cs => cs.map(c => c.alt)")
    assert len(alts) == 10 and all(a.endswith(("(declared)", "(robbed)", "(from the Fola)",
                                               "(dealt face up)")) for a in alts)  # fmt: skip
    problems = []
    for w, h in [*PHONES, (844, 390), (1366, 768)]:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        problems += [f"{w}x{h}: {p}" for p in page.evaluate(SHOWN) + page.evaluate(OVERFLOWS)]
        page.screenshot(path=str(SHOTS / f"shown-minchiate-{w}x{h}.png"))
    assert problems == []
    assert not page.errors  # type: ignore[attr-defined]
