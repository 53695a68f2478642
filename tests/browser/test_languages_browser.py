"""Chromium reads the site in each language: a rules page and the play page, with
screenshots; Hindi's Devanagari is drawn with real glyphs; in the pseudo-language, no
string of the play page escapes translation (play.js's included)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tarocchi.i18n import LANGUAGES, PSEUDO, translator
from tests.browser.conftest import SHOTS
from tests.browser.test_play_browser import act_once, my_turn
from tests.i18n.pseudo import bare_words

pytestmark = pytest.mark.browser


def fresh_page(browser: Browser) -> Page:
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


# draws two different Devanagari letters with the page's font: a missing font draws the
# same empty box for both
GLYPHS_DIFFER = """() => {
  const draw = (ch) => {
    const c = document.createElement('canvas'); c.width = 60; c.height = 60;
    const g = c.getContext('2d');
    g.font = '40px ' + getComputedStyle(document.body).fontFamily;
    g.fillText(ch, 5, 45);
    return c.toDataURL();
  };
  return draw('\u0915') !== draw('\u0916') && draw('\u0915') !== draw(' ');
}"""


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_rules_and_play_page_in_each_language(browser: Browser, server: str, lang: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    tr = translator(lang)
    page = fresh_page(browser)
    page.goto(f"{server}/rules/minchiate?lang={lang}")
    assert page.get_attribute("html", "lang") == lang
    partner = page.inner_text("#objective p")
    assert partner.strip()
    page.evaluate("document.fonts.ready")
    if lang == "hi":
        assert page.evaluate("document.fonts.check('16px \"Tarocchi Devanagari\"', '\u0915')")
        assert page.evaluate(GLYPHS_DIFFER)
    page.screenshot(path=str(SHOTS / f"rules-{lang}.png"))

    page.evaluate("localStorage.setItem('tarocchi-speed', '0')")
    page.goto(f"{server}/play/piedicavallo?new&seed=4")  # the cookie keeps the language
    page.wait_for_selector(".hand-card", timeout=30_000)
    my_turn(page)
    assert page.inner_text("#new-deal").strip() == tr.gettext("New deal")
    prompt = page.inner_text("#prompt")
    english = {"Your turn", "Your lead", "Waiting", "Choose a card"}
    assert (lang == "en") == any(prompt.startswith(e) for e in english), prompt
    page.evaluate("document.fonts.ready")
    if lang == "hi":
        assert page.evaluate(GLYPHS_DIFFER)
    page.screenshot(path=str(SHOTS / f"play-{lang}.png"))
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_no_play_page_string_escapes_translation(browser: Browser, server: str) -> None:
    page = fresh_page(browser)
    page.goto(f"{server}/?lang={PSEUDO}")
    page.evaluate("localStorage.setItem('tarocchi-speed', '0')")
    page.goto(f"{server}/play/ottocento?new&seed=9")
    page.wait_for_selector(".hand-card", timeout=30_000)
    for _ in range(6):  # a few plays, so the log has events, tricks and prompts
        if my_turn(page) == "over":
            break
        act_once(page)
    text = page.inner_text("body")
    labels = page.eval_on_selector_all(
        "[aria-label], [title], img[alt]",
        "els => els.map(e => [e.getAttribute('aria-label'), e.title, e.alt].join(' '))",
    )
    assert "⟦" in text
    assert bare_words(text + " " + " ".join(labels)) == []
    assert not page.errors  # type: ignore[attr-defined]


def test_the_browser_picks_each_catalogs_plural_form(browser: Browser, server: str) -> None:
    """The page's scripts choose plural forms with Intl.PluralRules (no code built from the
    catalog's C expression): for every language and many counts, the form gettext picks."""
    page = fresh_page(browser)
    page.goto(f"{server}/")
    counts = [*range(0, 120), 1000, 1_000_000, 2_000_000, 3_500_000]
    for lang in sorted(LANGUAGES):
        browser_forms = page.evaluate(
            "async ([lang, counts]) => { const m = await import('/static/i18n.js');"
            " return counts.map((n) => m.pluralIndex(lang, n)); }",
            [lang, counts],
        )
        catalog = translator(lang).catalog
        gettext_forms = [catalog.plural(n) if lang != "en" else int(n != 1) for n in counts]  # type: ignore[attr-defined]
        assert browser_forms == gettext_forms, lang
