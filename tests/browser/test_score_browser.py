"""Chromium: the score panel shows the server's running score part by part after every one of
South's turns, counted as the end counts (Ottocento: the combinations each side's taken cards
make, in its total), and the result's breakdown once the deal is over; screenshots of the
panel mid-deal on a phone and a laptop, in Italian and Hindi."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tarocchi.games import GAMES, game
from tests.browser.conftest import SHOTS
from tests.browser.test_play_browser import act_once, my_turn, open_table

pytestmark = pytest.mark.browser

SEED = 7
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}
SHOT_AT = 6  # tricks played before the screenshots
COMBINATIONS = {"ottocento": "Combinations captured by {team}",
                "minchiate": "Captured versicole ({side})"}  # fmt: skip


def panel(page: Page) -> dict[str, Any]:
    """Return what the score panel shows: the totals and each part's row."""
    return page.evaluate(
        """() => ({
            NS: document.getElementById('ns-points').textContent,
            EW: document.getElementById('ew-points').textContent,
            rows: [...document.querySelectorAll('#score-parts tr')].map((r) => [
                r.cells[0].textContent, r.cells[1].textContent, r.cells[2].textContent]),
        })"""
    )


def shown(score: dict[str, Any]) -> dict[str, Any]:
    """Return what the panel must show of the view's score (a lone part without a note is
    the total itself, and is left out)."""
    parts = [p for p in score["parts"] if len(score["parts"]) > 1 or p["note"]]
    rows = [[p["label"] + p["note"], str(p["NS"]), str(p["EW"])] for p in parts]
    return {"NS": str(score["NS"]), "EW": str(score["EW"]), "rows": rows}


def screenshots(page: Page, server: str, name: str) -> None:
    """Save the open panel mid-deal in Italian and Hindi at a phone's and a laptop's size."""
    for lang in ("it", "hi"):
        page.goto(f"{server}/play/{name}?lang={lang}")
        page.wait_for_selector(".hand-card")
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            if size == "phone":
                toggle_panel(page)
            page.wait_for_function("() => document.querySelector('#score-parts tr')")
            page.screenshot(path=str(SHOTS / f"score-{name}-{lang}-{size}.png"))
            if size == "phone":
                toggle_panel(page)
    page.goto(f"{server}/play/{name}?lang=en")
    page.wait_for_selector(".hand-card")


def toggle_panel(page: Page) -> None:
    # the button itself: whether the open panel leaves it uncovered is another test's matter
    page.eval_on_selector("#panel-toggle", "b => b.click()")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_panel_shows_the_running_score_counted_as_the_end_counts(
    browser: Browser, server: str, name: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    rules = game(name)
    page = open_table(browser, server, name, SEED, "easy", viewport=SIZES["laptop"])
    checked = captured = 0
    shot = False
    while my_turn(page) != "over":
        with page.expect_response(lambda r: r.url.endswith("/actions")) as answer:
            act_once(page)
        v = answer.value.json()["view"]
        assert panel(page) == shown(v["score"]), (name, len(v["tricks"]))
        checked += 1
        parts = {p["label"]: p for p in v["score"]["parts"]}
        if name != "piedicavallo" and not v["over"]:
            # rules §5: each side's combinations are those its taken cards make
            for team, side in (("NS", "North-South"), ("EW", "East-West")):
                value = rules.combination_score(v["won"][team])
                label = COMBINATIONS[name].format(team=team, side=side)
                assert parts.get(label, {team: 0})[team] == value, label
                captured += value
        if len(v["tricks"]) >= SHOT_AT and not shot:
            screenshots(page, server, name)
            shot = True
    lines = v["result"]["lines"]
    rows = [[x["label"] + x["note"], str(x["ns"]), str(x["ew"])] for x in lines]
    assert panel(page)["rows"] == rows  # at the end, the result's breakdown itself
    assert checked >= 10
    if name != "piedicavallo":
        assert captured > 0  # the deal's sides took combinations during play
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
