"""A player's progress: the statistics of their deals per game and level, one arithmetic for
the web history (whose database sums the deals in SQL) and `tarocchi history` (which sums
the records the terminal kept).

Everything here starts from sums: a count, a sum and a sum of squares give a mean and its
95% interval (Student's t, as the arena's), so the database never sends its rows (SQLite
has no standard deviation; the sums are plain aggregates on both backends).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tarocchi.arena import t95

RESULTS = ("win", "draw", "loss", "left")
WINDOW = 10  # deals in the moving average of a chart


@dataclass(frozen=True, slots=True)
class Mean:
    """A mean over n values with its 95% interval (low = high = mean for one value)."""

    n: int
    mean: float
    low: float
    high: float


def mean_of(n: int, total: float, squares: float) -> Mean | None:
    """Return the mean of n values from their sum and sum of squares (None for none)."""
    if n <= 0:
        return None
    mean = total / n
    if n == 1:
        return Mean(1, mean, mean, mean)
    # the sample variance, by the sums (clamped: rounding may make a zero slightly negative)
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = t95(n - 1) * math.sqrt(variance / n)
    return Mean(n, mean, mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class Sums:
    """What the statistics of one game and level are made of: counts and sums of deals."""

    game: str
    level: str
    counts: tuple[int, int, int, int, int]  # deals, and those won, drawn, lost and left
    margins: tuple[int, float, float] = (0, 0.0, 0.0)  # count, sum, sum of squares
    over_ai: tuple[int, float, float] = (0, 0.0, 0.0)  # of your margin minus the AI's
    accuracy: tuple[int, float] = (0, 0.0)  # reviewed deals, sum of their accuracies


@dataclass(frozen=True, slots=True)
class Line:
    """The statistics of one game and level."""

    game: str
    level: str
    deals: int
    wins: int
    draws: int
    losses: int
    left: int
    margin: Mean | None  # South's team's margin per finished deal
    over_ai: Mean | None  # your margin minus the AI's in your seat, where it played
    accuracy: float | None  # the mean accuracy of the reviewed deals
    reviewed: int


def line(s: Sums) -> Line:
    """Return the statistics that sums make."""
    n, total = s.accuracy
    return Line(s.game, s.level, *s.counts, mean_of(*s.margins), mean_of(*s.over_ai),
                total / n if n else None, n)  # fmt: skip


def outcome(record: Mapping[str, object]) -> tuple[float, str]:
    """Return South's team's margin in a finished deal's record and its result (ValueError
    for a record without one)."""
    result = record["result"]
    if not isinstance(result, dict):
        raise ValueError("the record has no result")
    margin = float(result["ns"]) - float(result["ew"])
    verdict = {"NS": "win", "EW": "loss"}.get(result["winner"], "draw")
    return margin, verdict


def sums_of(deals: Iterable[tuple[str, str, str, float | None]]) -> list[Sums]:
    """Return the sums per game and level of deals given as (game, level, result, margin),
    sorted by game and level (what the database's GROUP BY gives the web)."""
    found: dict[tuple[str, str], list[Any]] = {}
    for game, level, result, margin in deals:
        s = found.setdefault((game, level), [0, 0, 0, 0, 0, 0, 0.0, 0.0])
        s[0] += 1
        s[1 + RESULTS.index(result)] += 1
        if margin is not None:
            s[5], s[6], s[7] = s[5] + 1, s[6] + margin, s[7] + margin * margin
    return [Sums(g, lv, (s[0], s[1], s[2], s[3], s[4]), (s[5], s[6], s[7]))
            for (g, lv), s in sorted(found.items())]  # fmt: skip


def moving_average(values: Sequence[float], window: int = WINDOW) -> list[float]:
    """Return the trailing moving average of values (over fewer at the start)."""
    out: list[float] = []
    total = 0.0
    for i, v in enumerate(values):
        total += v
        if i >= window:
            total -= values[i - window]
        out.append(total / min(i + 1, window))
    return out
