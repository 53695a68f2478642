"""Measure the spreads behind the review's marks (run by hand; docs/benchmarks.md).

    .venv/bin/python -m tools.measure_review GAME [DEALS] [FACTORS]

For the decisions of South in DEALS deals played by the heuristic bots (seeds 0..), it
values each decision twice with two seeds at each playout factor and prints, per factor,
the noise (what the first seed's best choice costs by the second seed's values), the noise
in the differences between choices (how far the second seed's estimate of what a choice
loses against the first seed's best is from the first's; the choices share their sampled
deals, so this is the paired noise) beside the noise of a single choice's value, and the
cost of the heuristic bot's own choices; then the costs of the moves the partner suite
marks as clearly wrong (tests/data/partner_<game>.json) at each factor.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from dataclasses import replace

from tarocchi import review as rv
from tarocchi.bots import parts as bp
from tarocchi.games import game
from tarocchi.match import play_deal
from tests.bots.test_partner_suite import load, position


def set_review_playouts(factor: int) -> None:
    """Value every game's decisions on factor times the level's playouts (for this run)."""
    for name, p in bp.PARTS.items():
        if p.search is not None:
            bp.PARTS[name] = replace(p, search=replace(p.search, review_playouts=factor))


def quantiles(xs: list[float]) -> str:
    """Return the share of zeros and the 50th, 75th, 90th and 95th percentiles of xs."""
    if len(xs) < 2:
        return f"n={len(xs)}"
    q = statistics.quantiles(xs, n=20)
    zero = sum(x == 0 for x in xs) / len(xs)
    return (
        f"n={len(xs)} zero={zero:.0%} p50={q[9]:.2f} p75={q[14]:.2f} p90={q[17]:.2f} "
        f"p95={q[18]:.2f} max={max(xs):.2f}"
    )


def rms(xs: list[float]) -> float:
    """Return the root mean square of xs (0 for none)."""
    return math.sqrt(statistics.fmean(x * x for x in xs)) if xs else 0.0


def two_seeds(a: rv.Decision, b: rv.Decision) -> tuple[list[float], list[float]]:
    """Return, per choice of a decision valued with two seeds (a, b), how far apart the two
    estimate what it loses against a's best, and how far apart its value, each divided by
    the square root of 2 (one estimate's noise)."""
    diffs, values = [], []
    best_a, best_b = a.choice(a.best).fair, b.choice(a.best).fair
    for c in a.choices:
        other = b.choice(c.action).fair
        if c.fair is None or other is None or best_a is None or best_b is None:
            continue
        values.append((c.fair - other) / math.sqrt(2))
        if c.action != a.best:
            diffs.append(((best_a - c.fair) - (best_b - other)) / math.sqrt(2))
    return diffs, values


def spreads(name: str, deals: int, factors: list[int]) -> None:
    """Print the noise and the heuristic's costs at each factor."""
    rules = game(name)
    positions = []
    for seed in range(deals):
        log = play_deal(name, seed, ["heuristic"] * 4)
        state = log.initial
        for i, (s, a) in enumerate(log.actions):
            if s == 0 and len(rules.legal_actions(state)) > 1:
                positions.append((state, rules.action_code(a), seed * 1000 + i))
            state = rules.apply(state, a)
    for f in factors:
        set_review_playouts(f)
        noise, made, diffs, values = [], [], [], []
        t = time.process_time()
        for state, code, seed in positions:
            first = rv.decide(rules, state, code, seed)
            if first.kind != "searched":
                continue
            second = rv.decide(rules, state, code, seed + 1)
            cost = second.cost_of(first.best)
            if cost is not None:
                noise.append(cost)
            if first.cost is not None:
                made.append(first.cost)
            d, v = two_seeds(first, second)
            diffs += d
            values += v
        cpu = (time.process_time() - t) / max(1, 2 * len(noise))
        print(f"{name} x{f} ({cpu:.2f} s per decision): noise {quantiles(noise)}")
        print(
            f"{name} x{f} differences between choices: rms {rms(diffs):.2f}, "
            f"{quantiles([abs(x) for x in diffs])}; one choice's value: rms {rms(values):.2f}"
        )
        print(f"{name} x{f} heuristic's choices: {quantiles(made)}")


def suite(name: str) -> None:
    """Print the costs and marks of the suite's clearly wrong moves."""
    rules = game(name)
    costs: list[float] = []
    marks, themes = [], []
    for i, pos in enumerate(load(name)):
        state = position(name, pos)
        legal = [rules.action_code(a) for a in rules.legal_actions(state)]
        wrong = [c for c in legal if c not in pos["acceptable"]]
        d = rv.decide(rules, state, wrong[0], 1000 + i)
        for code in wrong:
            cost = d.cost_of(code)
            if cost is not None:
                costs.append(cost)
                marks.append(rv.mark_of(name, cost, d.choice(code).spread))
                themes.append(pos["theme"])
    bad = sum(m in ("mistake", "blunder") for m in marks)
    print(f"{name} suite, wrong moves: {quantiles(costs)}; mistake or blunder {bad}/{len(marks)}")
    print(f"  lowest costs: {sorted(costs)[:16]}")
    for theme in sorted(set(themes)):
        mine = [c for c, t in zip(costs, themes, strict=True) if t == theme]
        print(f"  {theme}: {quantiles(mine)}")


if __name__ == "__main__":
    game_name = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    fs = [int(x) for x in sys.argv[3].split(",")] if len(sys.argv) > 3 else [1, 2, 4]
    if n:
        spreads(game_name, n, fs)
    for f in fs:
        set_review_playouts(f)
        print(f"x{f}:", end=" ")
        suite(game_name)
