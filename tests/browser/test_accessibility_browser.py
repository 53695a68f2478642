"""Accessibility and the Content-Security-Policy, in Chromium: axe-core finds no serious or
critical violation on any page (the play page mid-deal, at a declaration, with the end
dialog, the replay, New deal's question and a phone's score-and-log drawer open, light and
dark), and no page breaks the strict policy the
server sends (every response here carries it, so a stray inline script or style attribute
is refused and reported)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route

from tests.browser.test_play_browser import act_once, my_turn, play_deal

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / ".axe/node_modules/axe-core/axe.min.js"  # `make test` installs it
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; "
       "form-action 'self'")  # fmt: skip
GAMES = ["piedicavallo", "ottocento", "minchiate"]
TRADITIONS = ["tarocco-piemontese", "tarocchino-bolognese", "minchiate"]
PAGES = ["/", "/daily"] + [f"/traditions/{t}" for t in TRADITIONS] + [f"/rules/{g}" for g in GAMES]


def with_csp(route: Route) -> None:
    response = route.fetch()
    route.fulfill(response=response, headers={**response.headers, "content-security-policy": CSP})


def strict_page(browser: Browser, base: str, **ctx: Any) -> Page:
    """A page whose every response carries the policy; its violations are collected."""
    page = browser.new_context(viewport={"width": 1280, "height": 800}, **ctx).new_page()
    page.route(f"{base}/**", with_csp)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    page.on("pageerror", lambda e: refused.append(str(e)))
    page.refused = refused  # type: ignore[attr-defined]
    return page


def serious(page: Page, where: str) -> list[str]:
    """Return axe-core's serious and critical violations on the page as it is now."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""async () => (await axe.run(document)).violations
        .filter(v => ['serious', 'critical'].includes(v.impact))
        .map(v => `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`)""")
    return [f"{where}: {v}" for v in found]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pages_are_accessible_under_the_policy(browser: Browser, server: str, scheme: str) -> None:
    page = strict_page(browser, server, color_scheme=scheme)
    problems: list[str] = []
    for path in PAGES:
        page.goto(f"{server}{path}")
        problems += serious(page, path)
    page.evaluate("localStorage.setItem('tarocchi-speed', '0')")
    page.evaluate("localStorage.setItem('tarocchi-level', 'easy')")
    page.goto(f"{server}/play/ottocento?new&seed=0")  # South's first decision: declare or pass
    assert my_turn(page) == "action"
    page.keyboard.press("Tab")  # the shortcut keys show
    problems += serious(page, "declaration")
    page.click("#menu summary")
    problems += serious(page, "menu")
    page.click("#menu summary")
    act_once(page)
    act_once(page)
    problems += serious(page, "mid-deal")
    page.click("#new-deal")  # the question before abandoning the deal
    problems += serious(page, "new deal question")
    page.keyboard.press("Escape")
    page.set_viewport_size({"width": 390, "height": 844})
    page.click("#panel-toggle")  # the score-and-log drawer of a phone
    problems += serious(page, "drawer")
    page.keyboard.press("Escape")
    page.set_viewport_size({"width": 1280, "height": 800})
    play_deal(page)
    page.wait_for_selector("#end-hands .card-row")
    problems += serious(page, "end dialog")
    page.click("#end-replay")
    problems += serious(page, "replay")
    assert problems == []
    assert page.refused == []  # type: ignore[attr-defined]


# the focused element's ring (its outline, or its card picture's) against the colour behind
# it (the nearest ancestor's background), as a WCAG contrast ratio
FOCUS_CONTRAST = """() => {
  const lum = (c) => {
    const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      v = Number(v) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const el = document.activeElement;
  if (el === document.body) return ['body', 'nothing focused', 21];  // the tabs went round
  const own = getComputedStyle(el);
  const picture = el.querySelector('.card');
  const ring = getComputedStyle(own.outlineStyle === 'none' && picture ? picture : el);
  if (ring.outlineStyle === 'none') return [el.id || el.className || el.tagName, 'no ring', 0];
  let p = el.parentElement, bg = 'rgb(255, 255, 255)';
  for (; p; p = p.parentElement) {
    const b = getComputedStyle(p).backgroundColor;
    if (b !== 'transparent' && !/, 0\\)$/.test(b)) { bg = b; break; }
  }
  const [hi, lo] = [lum(ring.outlineColor), lum(bg)].sort((x, y) => y - x);
  const what = el.id || el.className || el.tagName;
  return [what, `${ring.outlineColor} on ${bg}`, (hi + 0.05) / (lo + 0.05)];
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_focus_rings_reach_3_to_1(browser: Browser, server: str, scheme: str) -> None:
    page = browser.new_context(
        viewport={"width": 1280, "height": 800}, color_scheme=scheme
    ).new_page()
    weak = []
    page.goto(f"{server}/")
    page.evaluate("localStorage.setItem('tarocchi-speed', '0')")
    for path, tabs in [("/", 14), ("/play/piedicavallo?new&seed=3", 30)]:
        page.goto(f"{server}{path}")
        if path != "/":
            my_turn(page)
        for _ in range(tabs):
            page.keyboard.press("Tab")
            what, colours, ratio = page.evaluate(FOCUS_CONTRAST)
            if ratio < 3:
                weak.append(f"{path} {what}: {colours} {ratio:.2f}")
    assert weak == []
