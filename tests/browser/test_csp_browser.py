"""The pages live within their Content-Security-Policy: Chromium reports no violation on any
page (the play page mid-deal, a card image, an error page, in a language with plurals of
its own), and a 64-bit seed in the address bar deals that seed's deal."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

SEED = 2**64 - 1  # past what a JavaScript Number holds exactly
SOUTH = {"SW-5", "SW-7", "SW-Q", "BA-6", "BA-8", "BA-J", "BA-N", "CU-6", "CU-J", "CO-A",
         "CO-Q", "CO-K", "T3", "T11", "T12", "T14", "T21"}  # fmt: skip


def test_no_page_breaks_the_csp(browser: Browser, server: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(str(e)))
    for url in ("/?lang=hi", "/traditions/minchiate", "/rules/ottocento", "/no/such/page",
                "/cards/minchiate/T40.svg", "/?lang=en"):  # fmt: skip
        page.goto(server + url)
    page.goto(f"{server}/play/piedicavallo?new&seed={SEED}")
    page.wait_for_selector(".hand-card", timeout=30_000)
    saved = page.evaluate("JSON.parse(localStorage.getItem('tarocchi-piedicavallo'))")
    assert refused == []
    got = context.request.get(f"{server}/api/games/{saved['id']}",
                              headers={"Authorization": f"Bearer {saved['token']}"})  # fmt: skip
    assert set(got.json()["view"]["hand"]) == SOUTH
    context.close()
