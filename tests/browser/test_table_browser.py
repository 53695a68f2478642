"""The table on one screen: at South's turn, the whole hand (every card's corner index
uncovered and at least 11 CSS px tall), the trick, the prompt, every action button and the
last trick lie inside the viewport (the last trick inside the felt) without scrolling, for
each game at each screen size, in the hardest positions we know (Minchiate's 28-card
discard hand, the declarations) and mid-trick, with the mouse and in keyboard mode (after
Tab, an arrow key, a number key: the cards keep their places and every shortcut key is
readable and uncovered); the hint list never covers the trick; one screenshot per game,
position and size."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tarocchi.games import game
from tarocchi.i18n import LANGUAGES
from tests.browser.conftest import SHOTS
from tests.browser.test_play_browser import act_once, my_turn, open_table, play_deal
from tests.faces.test_api_texts import CODE, leaks

pytestmark = pytest.mark.browser

SIZES = [(360, 640), (390, 844), (844, 390), (768, 1024), (1280, 720), (1366, 768),
         (1920, 1080), (2560, 1440)]  # fmt: skip
# seeds whose first decision for South is the hardest to fit: South deals and discards
# (Minchiate: 28 cards after the Fola), or declares (Ottocento)
FIRST = {"piedicavallo": 2, "ottocento": 0, "minchiate": 200}

# every problem with the table as it is drawn now, as text (none: it fits)
OVERFLOWS = """() => {
  const vw = innerWidth, vh = innerHeight, out = [];
  const inside = (r) =>
    r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
  const box = (e) => e.getBoundingClientRect();
  const game = document.getElementById('game');
  const ih = Number(game.dataset.indexHeight), iw = Number(game.dataset.indexWidth);
  if (scrollY !== 0 || scrollX !== 0) out.push('scrolled');
  const cards = [...document.querySelectorAll('#hand .hand-card')];
  if (!cards.length) out.push('no hand');
  for (const c of cards) {
    const r = box(c), code = c.dataset.code;
    if (!inside(r)) out.push(`card ${code} outside: ${JSON.stringify(r)}`);
    if (r.height * ih < 11) out.push(`card ${code} index ${(r.height * ih).toFixed(1)} px`);
    // the index's corners are the card's own pixels: nothing covers them
    const corners = [[0.07, 0.04], [iw - 0.02, 0.04], [0.07, ih + 0.03], [iw - 0.02, ih + 0.03]];
    for (const [fx, fy] of corners) {
      const hit = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
      if (!hit || hit.closest('.hand-card') !== c) out.push(`card ${code} index covered`);
    }
  }
  const must = [...document.querySelectorAll('#trick .card, #prompt, #actions button')];
  for (const e of must) if (!inside(box(e))) out.push(`${e.id || e.className} outside`);
  // the last trick's miniatures stay on the felt
  const felt = box(document.getElementById('table'));
  for (const e of document.querySelectorAll('#last-trick:not([hidden]) .card')) {
    const r = box(e);
    if (r.left < felt.left || r.right > felt.right || r.top < felt.top || r.bottom > felt.bottom) {
      out.push(`last trick off the felt: ${JSON.stringify(r)}`);
    }
  }
  // in keyboard mode, each shortcut key is shown on its card or button, at least 11 px
  // tall, inside the screen and on top at its centre
  if (document.body.classList.contains('keyboard')) {
    for (const k of document.querySelectorAll('#hand [data-key], #actions [data-key]')) {
      const s = getComputedStyle(k, '::after'), r = box(k), key = k.dataset.key;
      const x = r.left + k.clientLeft + parseFloat(s.left) + parseFloat(s.width) / 2;
      const y = r.top + k.clientTop + parseFloat(s.top) + parseFloat(s.height) / 2;
      if (s.content !== `"${key}"`) out.push(`key ${key} not shown`);
      if (parseFloat(s.fontSize) < 11) out.push(`key ${key} ${s.fontSize}`);
      if (!(x >= 0 && y >= 0 && x <= vw && y <= vh)) out.push(`key ${key} outside`);
      else if (!k.contains(document.elementFromPoint(x, y))) out.push(`key ${key} covered`);
    }
  }
  if (!document.getElementById('prompt').textContent.trim()) out.push('no prompt');
  // the seats' names and counts, the score, the trick number and the last trick never overlap
  const named = '.seat-name, .count, .shown-why, .tally, .trick-no, .last-trick';
  const shown = (e) => e.offsetParent && e.textContent.trim();
  const labels = [...document.querySelectorAll(named)].filter(shown);
  labels.forEach((a, i) => labels.slice(i + 1).forEach((b) => {
    const [p, q] = [box(a), box(b)];
    if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) {
      out.push(`${a.className} overlaps ${b.className}`);
    }
  }));
  return out;
}"""


def south_to_act(page: Page) -> dict[str, Any]:
    page.wait_for_function("() => document.querySelector('.hand-card.legal, #actions button')",
                           timeout=60_000)  # fmt: skip
    return page.evaluate("() => ({phase: document.querySelector('#game').dataset.phase,"
                         " trick: document.querySelectorAll('#trick .card').length})")  # fmt: skip


def check_sizes(page: Page, name: str, label: str) -> list[str]:
    problems = []
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        if "key" not in label:
            page.mouse.move(0, 0)
        page.wait_for_timeout(150)  # the hand refits when the table's size changes
        problems += [f"{name} {label} {w}x{h}: {p}" for p in page.evaluate(OVERFLOWS)]
        page.screenshot(path=str(SHOTS / f"table-{name}-{label}-{w}x{h}.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    page.wait_for_timeout(150)
    return problems


PLACES = "() => [...document.querySelectorAll('#hand .hand-card, #actions button')].map(" \
    "e => [e.dataset.code, JSON.stringify(e.getBoundingClientRect())])"  # fmt: skip


def press(page: Page, key: str) -> list[str]:
    """Press a key that turns keyboard mode on; return the cards and buttons it moved."""
    before = page.evaluate(PLACES)
    page.keyboard.press(key)
    page.wait_for_timeout(150)
    assert page.evaluate("document.body.classList.contains('keyboard')")
    return [f"{key} moved {code}" for code, at in before if [code, at] not in page.evaluate(PLACES)]


@pytest.mark.parametrize("name", sorted(FIRST))
def test_the_table_fits_one_screen(browser: Browser, server: str, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_table(browser, server, name, FIRST[name], "easy",
                      viewport={"width": 1280, "height": 720})  # fmt: skip
    south_to_act(page)
    problems = check_sizes(page, name, "first")
    # the same in keyboard mode, after Tab (at the discard, or Ottocento's declaration)
    problems += press(page, "Tab") + check_sizes(page, name, "first-key-tab")
    page.dispatch_event("body", "pointerdown")  # a pointer ends keyboard mode
    # then on to a trick in progress with South to play
    for _ in range(40):
        now = south_to_act(page)
        if now["phase"] == "play" and now["trick"]:
            break
        act_once(page)
    problems += check_sizes(page, name, "trick")
    problems += press(page, "ArrowRight") + check_sizes(page, name, "trick-key-arrow")
    # a number key plays a legal card; at South's next turn the keys show on the cards
    page.keyboard.press("1")
    page.wait_for_function("() => !document.getElementById('prompt').textContent"
                           ".startsWith('…')")  # fmt: skip
    south_to_act(page)
    problems += check_sizes(page, name, "next-key-number")
    assert problems == []
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_no_card_code_in_any_text(browser: Browser, server: str, lang: str) -> None:
    """A whole deal in each language (the games in turn), hints, the AI in your seat and
    replay included: no card code in the page's visible text or in any text field of the
    API's answers; the AI's first different choice, a declaration or a pass, is named."""
    name = sorted(FIRST)[sorted(LANGUAGES).index(lang) % len(FIRST)]
    answers: list[Any] = []
    page = open_table(browser, server, name, 5, "easy")
    page.on("response", lambda r: answers.append(r.json())
            if "/api/games" in r.url and "/record" not in r.url and r.ok else None)  # fmt: skip
    page.evaluate("localStorage.setItem('tarocchi-hints', 'on')")
    page.goto(f"{server}/play/{name}?new&seed=5&lang={lang}")
    if my_turn(page) != "over":
        page.click("#hint")
        page.wait_for_selector("#hint-list li", timeout=60_000)
    seen = [page.inner_text("body")]
    play_deal(page)
    page.wait_for_selector("#end-hands .card-row")
    seen.append(page.inner_text("body"))
    # the AI in your seat, once played: where it first chose otherwise is named (Ottocento's
    # deal 5: it passes where South declared, both in their buttons' words)
    page.wait_for_function("() => /\\d/.test(document.getElementById('end-ai').textContent)",
                           timeout=120_000)  # fmt: skip
    line = page.inner_text("#end-ai")
    seen.append(line)
    first = next(a["ai"]["first"] for a in answers if isinstance(a, dict) and a.get("ai"))
    if first is not None and first["ai"] not in game(name).pack.codes:
        assert first["ai_words"] in line and first["yours_words"] in line
    assert name != "ottocento" or first["ai_words"] in line
    page.click("#end-replay")
    for key in ["Home", "ArrowRight", "End"]:
        page.keyboard.press(key)
        seen.append(page.inner_text("#replay-dialog"))
    assert [m.group() for t in seen for m in CODE.finditer(t)] == []
    assert [x for i, a in enumerate(answers) for x in leaks(a, f"answer {i}")] == []
