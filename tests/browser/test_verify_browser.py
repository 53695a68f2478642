"""The verify page's record check in Chromium: a record of a past day's deal, opened from a
file, is replayed by the site and found to follow (its 64-bit seed kept whole on the way);
a tampered one, pasted and sent with the keyboard, is told what does not hold, in the
page's language. Axe-core checks the page with its verdict; screenshots at a laptop's size
in Italian and a phone's in Hindi, dark."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tarocchi import daily
from tarocchi.i18n import translator
from tarocchi.record import save
from tarocchi.web.store import Store
from tests.browser.conftest import SHOTS
from tests.browser.test_accessibility_browser import serious
from tests.conftest import free_port, start_server, stop_server
from tests.play.test_daily import played

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAME = "piedicavallo"
SIZES = {"laptop-it": ({"width": 1366, "height": 768}, "it", "light"),
         "phone-hi": ({"width": 360, "height": 640}, "hi", "dark")}  # fmt: skip


def test_the_verify_page_checks_a_record_of_the_day(browser: Browser, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    day = datetime.now(UTC).date() - timedelta(days=1)
    with Store(db) as store:
        store.upgrade()
        seed = daily.seed_of(store.daily.key("now"), NAME, day)
        store.daily.publish(NAME, str(day), daily.commitment(NAME, day, seed), "then")
    assert seed > 2**53  # past what a JavaScript Number holds exactly
    record = played(seed)
    save(record, tmp_path / "record.json")
    ai = sum(1 for a in record["actions"] if a["seat"] != daily.HUMAN)
    SHOTS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    proc = start_server(db, port)
    try:
        for name, (viewport, lang, scheme) in SIZES.items():
            page = browser.new_page(viewport=viewport, color_scheme=scheme)
            page.goto(f"http://127.0.0.1:{port}/daily/{NAME}/{day}/verify?lang={lang}")
            page.set_input_files("#record-file", str(tmp_path / "record.json"))
            page.wait_for_function("() => document.querySelector('#record-text').value.length")
            page.click("#verify-record button[type=submit]")
            verdict = page.locator("#record-verdict[data-ok=true]")
            verdict.wait_for(timeout=300_000)
            assert f" {ai} " in verdict.inner_text()
            assert not serious(page, name)
            verdict.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"daily-verify-record-{name}.png"))
        tampered = {**record, "result": {**record["result"], "ns": record["result"]["ns"] + 1}}
        page.fill("#record-text", json.dumps(tampered))
        page.focus("#verify-record button[type=submit]")
        page.keyboard.press("Enter")
        refused = page.locator("#record-verdict[data-ok=false]")
        refused.wait_for(timeout=300_000)
        said = translator("hi").gettext("the stored result has %(claim)s but replay gives %(got)s")
        assert refused.inner_text().startswith(said.split("%(claim)s")[0])
        page.fill("#record-text", "{not json")
        page.focus("#verify-record button[type=submit]")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('#record-verdict')"
                               ".textContent.startsWith('यह रिकॉर्ड नहीं')")  # fmt: skip
    finally:
        stop_server(proc)
