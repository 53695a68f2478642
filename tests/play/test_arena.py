"""The duplicate arena: pairs of deals with the teams swapped, statistics, saved records."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tarocchi.arena import CHECK_EVERY, MIN_PAIRS, mean_ci, mean_sd, pair_margins, run
from tarocchi.record import load, replay


def test_duplicate_pairs_swap_the_teams(tmp_path: Path) -> None:
    summary = run("piedicavallo", "random", "random", pairs=6, seed=100, jobs=2, save_dir=tmp_path)
    deals = summary["deals"]
    assert len(deals) == 12
    assert [d["seed"] for d in deals] == [s for s in range(100, 106) for _ in range(2)]
    assert [d["a_team"] for d in deals[:2]] == ["NS", "EW"]
    assert summary["wins"] + summary["draws"] + summary["losses"] == 12
    for d in deals:
        assert d["ns"] + d["ew"] == 114
    low, high = summary["ci95"]
    assert low <= summary["mean_margin"] <= high
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 12
    rules, state = replay(load(files[0]))
    assert rules.is_over(state)


def test_same_bots_same_seeds_same_outcome() -> None:
    """Bots are seeded by deal and seat, so a run repeats exactly, with one or two jobs."""
    one = run("piedicavallo", "random", "random", pairs=4, seed=7, jobs=1)
    two = run("piedicavallo", "random", "random", pairs=4, seed=7, jobs=2)
    assert one["deals"] == two["deals"]


def test_mean_ci() -> None:
    mean, low, high = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and low < 2.5 < high
    assert mean_ci([5.0]) == (5.0, 5.0, 5.0)
    assert mean_sd([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) == (5.0, math.sqrt(32 / 7))


def test_summary_has_the_sd_and_per_deal_counts() -> None:
    summary = run("piedicavallo", "random", "heuristic", pairs=5, seed=11)
    margins = pair_margins(summary["deals"])
    assert len(margins) == summary["pairs"] == 5
    assert summary["sd"] == round(mean_sd(margins)[1], 3) > 0
    signs = [(-1 if d["a_team"] == "EW" else 1) * (d["ns"] - d["ew"]) for d in summary["deals"]]
    assert summary["wins"] == sum(m > 0 for m in signs)
    assert summary["losses"] == sum(m < 0 for m in signs)
    assert summary["draws"] == sum(m == 0 for m in signs)


def test_target_ci_stops_at_the_first_look_that_is_precise_enough() -> None:
    """The sequential rule looks at MIN_PAIRS, then every CHECK_EVERY pairs, in seed order.

    (Random against random would not do: both deals of a pair replay alike, margin 0.)"""
    cap = MIN_PAIRS + 3 * CHECK_EVERY
    full = run("piedicavallo", "random", "heuristic", pairs=cap, seed=0, jobs=2)
    margins = pair_margins(full["deals"])
    looks = range(MIN_PAIRS, cap + 1, CHECK_EVERY)
    half = {n: (mean_ci(margins[:n])[2] - mean_ci(margins[:n])[1]) / 2 for n in looks}
    # a target between the widths of the first and the last look stops in between
    target = (half[MIN_PAIRS] + min(half.values())) / 2
    expected = next(n for n in looks if half[n] <= target)
    stopped = run(
        "piedicavallo", "random", "heuristic", pairs=cap, seed=0, jobs=2, target_ci=target
    )
    assert MIN_PAIRS < expected <= cap
    assert stopped["pairs"] == expected and stopped["reached"] is True
    assert stopped["deals"] == full["deals"][: 2 * expected]
    # a target never met plays every pair and says so
    unmet = run("piedicavallo", "random", "heuristic", pairs=cap, seed=0, target_ci=0.001)
    assert unmet["pairs"] == cap and unmet["reached"] is False
    with pytest.raises(ValueError, match="target-ci"):
        run("piedicavallo", "random", "heuristic", pairs=1, target_ci=0)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="pairs"):
        run("piedicavallo", "random", "random", pairs=0)
    with pytest.raises(ValueError, match="unknown bot"):
        run("piedicavallo", "random", "genius", pairs=1)


def test_an_adapter_bot_without_its_extra_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from tarocchi.bots import make_bot
    from tarocchi.games import game

    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if open_spiel were not installed
    monkeypatch.delitem(sys.modules, "tarocchi.adapters.openspiel", raising=False)
    with pytest.raises(ValueError, match=r"needs pyspiel: pip install 'tarocchi\[openspiel\]'"):
        make_bot("openspiel-ismcts", game("piedicavallo"))


def test_a_log_resumes_a_match_and_refuses_another(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    first = run("piedicavallo", "random", "heuristic", pairs=2, seed=3, log=log)
    assert len(log.read_text().splitlines()) == 2
    # the longer run plays only the seeds the log lacks and sums up every pair
    whole = run("piedicavallo", "random", "heuristic", pairs=4, seed=3, log=log)
    assert len(log.read_text().splitlines()) == 4
    assert whole["deals"][:4] == first["deals"]
    assert whole["deals"] == run("piedicavallo", "random", "heuristic", pairs=4, seed=3)["deals"]
    with pytest.raises(ValueError, match="another match"):
        run("piedicavallo", "heuristic", "random", pairs=1, seed=3, log=log)
    before = log.read_text()
    log.write_text(before + "{not json\n")
    with pytest.raises(ValueError, match="line 5: not an arena log entry"):
        run("piedicavallo", "random", "heuristic", pairs=5, seed=3, log=log)
    assert log.read_text() == before + "{not json\n"  # nothing played, nothing appended


def test_ray_without_its_extra_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # as if ray were not installed
    log = tmp_path / "match.jsonl"
    with pytest.raises(ValueError, match=r"--ray needs ray: pip install 'tarocchi\[ray\]'"):
        run("piedicavallo", "random", "heuristic", pairs=2, log=log, ray="")
    assert not log.exists()  # nothing played, nothing appended


def test_minchiate_deals_keep_resti_and_points_and_the_points_margin() -> None:
    summary = run("minchiate", "random", "random", pairs=2, seed=3)
    for d in summary["deals"]:
        assert (d["ns"], d["ew"]) == (d["ns_resti"], d["ew_resti"])
        assert d["ns_points"] + d["ew_points"] > 0
    points = pair_margins(summary["deals"], points=True)
    assert summary["mean_points_margin"] == round(mean_ci(points)[0], 3)
    assert list(summary)[-1] == "deals"  # the figures first, the long list last
