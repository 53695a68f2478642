"""What the browser tests share: Debian's Chromium, launched once per test module; for
friends' tables, the servers (one on SQLite, or two processes on PostgreSQL), a friend's
page and a seat's move."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Error, Page, sync_playwright

from tests.conftest import OUTPUT, free_port, start_server, stop_server

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]  # fmt: skip
SHOTS = OUTPUT / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        yield b
        b.close()


OVER = "() => document.getElementById('end-dialog').open"


def friend_page(browser: Browser, base: str, link: str, *, lang: str = "hi", **ctx: Any
                ) -> Page:  # fmt: skip
    """Open a friend's seat link in a browser context of its own, in a language."""
    page = browser.new_context(**ctx).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/?lang={lang}")
    page.evaluate("localStorage.setItem('tarocchi-speed', '0')")
    page.goto(link)
    page.wait_for_selector(".hand-card", timeout=30_000)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def play_some(page: Page) -> bool:
    """Choose the page's first action button, or else play its first legal card, if it is
    its turn; return whether it did."""
    from tests.browser.test_play_browser import EDGE  # (which imports this module)

    if page.evaluate(OVER):
        return False
    button = page.query_selector("#actions button")
    card = None if button else page.query_selector(".hand-card.legal")
    try:
        if button is not None:
            button.click(timeout=2000)
        elif card is not None:
            card.click(position=EDGE, timeout=2000)
        else:
            return False
    except Error:  # the hand was drawn again meanwhile
        return False
    return True


@pytest.fixture(params=["sqlite", "postgresql"])
def servers(request: pytest.FixtureRequest, server: str) -> Iterator[tuple[str, str, str]]:
    """Yield the backend and the servers of the creator and the friend: the module's one
    server on SQLite, or two server processes on one PostgreSQL database."""
    if request.param == "sqlite":
        yield "sqlite", server, server
        return
    url = request.getfixturevalue("postgres").new_database()
    ports = [free_port(), free_port()]
    procs = [start_server(url, port, "--ai-workers", "1") for port in ports]
    try:
        yield "postgresql", *(f"http://127.0.0.1:{p}" for p in ports)
    finally:
        for proc in procs:
            stop_server(proc)
