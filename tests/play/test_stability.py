"""The measurement of the review's marks against its seeds: two reviews of the same deals,
one with the Hint's seeds and one with independent ones (a small, quick version of `tarocchi
bench GAME --review-stability N`)."""

from __future__ import annotations

import pytest

from tarocchi.match import play_deal
from tarocchi.record import make_record
from tarocchi.review import plan, value
from tarocchi.stability import FIRST_SEED, stability, wilson

QUICK = 0.1  # a tenth of the valuation's playouts


def test_another_salt_values_with_other_deals_and_the_first_is_the_hint_s() -> None:
    record = make_record(play_deal("piedicavallo", FIRST_SEED, ["heuristic"] * 4))
    hint, again, other = (plan(record, 0, "heuristic", salt, QUICK) for salt in (0, 0, 1))
    k = next(k for k in range(hint.total) if value(hint, k).kind == "searched")
    assert value(hint, k) == value(again, k)  # the same seeds: the same values
    assert value(hint, k).choices != value(other, k).choices  # independent ones: others


@pytest.mark.measure
def test_two_reviews_mostly_agree_and_never_swap_fine_for_bad() -> None:
    out = stability("piedicavallo", 1, factor=QUICK)
    assert out["stability_deals"] == 1 and out["stability_decisions"] >= 8
    assert sum(out["stability_marks"].values()) == out["stability_decisions"]
    assert sum(out["stability_marks_again"].values()) == out["stability_decisions"]
    # at a tenth of the playouts: 9 of 12 alike (the full valuation's figures: README)
    assert out["stability_same_mark"] >= 0.66
    low, high = out["stability_same_mark_ci95"]
    assert low < out["stability_same_mark"] < high or out["stability_same_mark"] == high == 1
    closes = sum(n for pair, n in out["stability_moved"].items() if "close" in pair.split("/"))
    agree = out["stability_decisions"] * out["stability_agree_but_close"]
    assert round(agree) == round(out["stability_decisions"] * out["stability_same_mark"]) + closes
    moved = out["stability_decisions"] * (1 - out["stability_same_mark"])
    assert sum(out["stability_moved"].values()) == round(moved)
    assert all(
        "/" in pair and pair.split("/")[0] < pair.split("/")[1] for pair in out["stability_moved"]
    )
    assert out["stability_fine_bad_moves"] == 0.0


def test_the_wilson_interval_of_a_share() -> None:
    # 95 of 100: 88.8% to 97.8% (Wilson); all of 10: from 72.2%, never past 1
    assert [round(x, 3) for x in wilson(95, 100)] == [0.888, 0.978]
    low, high = wilson(10, 10)
    assert round(low, 3) == 0.722 and high == 1.0
    assert wilson(0, 10)[0] == 0.0
