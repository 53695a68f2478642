"""End-to-end: Chromium plays two deals, reads its history (the progress, the charts, the
deals, a deal opened again), downloads the exports, moves the history to a second
browser with the move code and deletes it; axe-core and the strict Content-Security-Policy
check the page, at a laptop's size and a phone's, light and dark, in Italian and Hindi."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.conftest import SHOTS
from tests.browser.test_accessibility_browser import serious, strict_page
from tests.browser.test_play_browser import play_deal

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 640}


def strict(browser: Browser, base: str, **ctx: Any) -> Page:
    """A laptop-sized page of a new browser context under the strict policy."""
    page = strict_page(browser, base, accept_downloads=True, **ctx)
    page.set_viewport_size(LAPTOP)
    return page


def download(page: Page, selector: str) -> str:
    with page.expect_download() as info:
        page.click(selector)
    path = info.value.path()
    assert path is not None
    return path.read_text(encoding="utf-8")


def test_history_progress_exports_move_and_delete(browser: Browser, server: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = strict(browser, server)
    page.goto(f"{server}/history")
    assert "no deals yet" in page.inner_text("main")
    page.evaluate("localStorage.setItem('tarocchi-speed', '0')")
    page.evaluate("localStorage.setItem('tarocchi-level', 'easy')")
    for seed in (11, 12):
        page.goto(f"{server}/play/piedicavallo?new&seed={seed}")
        page.wait_for_selector(".hand-card", timeout=30_000)
        play_deal(page)
    page.goto(f"{server}/history")
    rows = page.query_selector_all("table.deals tbody tr")
    assert len(rows) == 2
    assert page.inner_text("table.progress tbody").count("Piedicavallo Tarocchi") == 1
    assert "2" in page.inner_text("table.progress tbody td.num")
    assert page.query_selector("svg.chart rect.bar") is not None
    assert len(page.query_selector_all("svg.chart rect.bar")) == 2
    problems = serious(page, "history")
    page.screenshot(path=str(SHOTS / "history-laptop.png"), full_page=True)
    records = json.loads(download(page, "a[href='/api/me/export.json']"))
    assert len(records) == 2 and {r["seed"] for r in records} == {11, 12}
    table = list(csv.DictReader(io.StringIO(download(page, "a[href='/api/me/export.csv']"))))
    assert len(table) == 2 and {r["result"] for r in table} <= {"win", "draw", "loss"}
    # a deal opens again by its date: the table, its end and its review
    page.click("table.deals tbody tr:last-child a")
    page.wait_for_function("() => document.getElementById('end-dialog').open", timeout=30_000)
    page.goto(f"{server}/history")
    page.fill("#name", "Ada")
    page.click("#name-form button")
    page.wait_for_function("() => document.getElementById('name-saved').textContent")
    # move to another device: the code, its link and its QR code; a second browser takes it
    page.click("#move")
    page.wait_for_selector("#move-code:not([hidden]) #qr svg")
    box = page.eval_on_selector("#qr svg", "s => s.getBoundingClientRect().width")
    assert box > 100  # drawn: an SVG element, not a stray XML one
    code, link = page.inner_text("#code"), page.get_attribute("#code-link", "href")
    assert link is not None and link.endswith(f"/move#{code}")
    page.screenshot(path=str(SHOTS / "history-move-laptop.png"), full_page=True)
    other = strict(browser, server, color_scheme="dark")
    other.goto(link)
    assert other.input_value("#redeem-code") == code
    problems += serious(other, "move")
    other.click("#redeem-form button")
    other.wait_for_url(f"{server}/history")
    assert len(other.query_selector_all("table.deals tbody tr")) == 2
    assert "Ada" in other.inner_text(".lead")
    problems += serious(other, "history dark")
    other.screenshot(path=str(SHOTS / "history-laptop-dark.png"), full_page=True)
    for lang in ("it", "hi"):
        other.set_viewport_size(PHONE)
        other.goto(f"{server}/history?lang={lang}")
        problems += serious(other, f"history {lang} phone")
        width = other.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (lang, width)  # nothing wider than a phone
        other.screenshot(path=str(SHOTS / f"history-phone-{lang}.png"), full_page=True)
    other.goto(f"{server}/history?lang=en")
    # the code worked once
    third = strict(browser, server)
    third.goto(link)
    third.click("#redeem-form button")
    third.wait_for_selector("#me-error:not([hidden])")
    assert "no such code" in third.inner_text("#me-error")
    # delete my data: gone on every device
    other.set_viewport_size(LAPTOP)
    other.once("dialog", lambda d: d.accept())
    other.click("#delete")
    other.wait_for_function("() => !document.getElementById('delete')")
    assert "no deals yet" in other.inner_text("main")
    page.goto(f"{server}/history")
    assert "no deals yet" in page.inner_text("main")
    assert problems == []
    assert page.refused == [] and other.refused == []  # type: ignore[attr-defined]
