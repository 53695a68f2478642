"""How far the review's marks rest on its seeds: records reviewed twice, independently.

`stability(game, deals)` reviews South's decisions in seeded deals the heuristic bots play
twice, once with the Hint's seeds and once with independent ones (`review.plan`'s salt),
and counts, over the decisions with a real choice, how many get the same mark (with the
share's 95% Wilson interval: a few hundred decisions pin it to a few points), which pairs of
marks the others moved between, and how many move between {best, good} and {mistake,
blunder}, and how many agree but for "close" (the same mark, or close in one review: it
says the search cannot tell, which contradicts no mark). `tarocchi bench GAME
--review-stability N` reports it (the issue's targets: the
same mark in 95% of decisions, such a move in at most 1 in 100).
"""

from __future__ import annotations

import math
import time
from collections import Counter

from tarocchi.match import play_deal
from tarocchi.record import make_record
from tarocchi.review import CLOSE, plan, value

FIRST_SEED = 40_000  # the deals measured: seeds from here on (the review bench uses 30000)
FINE = frozenset({"best", "good"})
BAD = frozenset({"mistake", "blunder"})


def stability(game_name: str, deals: int, salt: int = 1, factor: float = 1.0) -> dict[str, object]:
    """Return the share of South's decisions (with a real choice) in `deals` seeded deals
    whose mark is the same when valued with the Hint's seeds and with `salt`'s, the share
    that moves between {best, good} and {mistake, blunder}, each review's marks counted,
    the pairs of marks that moved, the share that agrees but for close, and the CPU seconds
    per decision valued (factor: times the valuation's playouts)."""
    same = moved = agree = total = 0
    marks: Counter[str] = Counter()
    other: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    cpu = time.process_time()
    for i in range(deals):
        record = make_record(play_deal(game_name, FIRST_SEED + i, ["heuristic"] * 4))
        first = plan(record, 0, "heuristic", 0, factor)
        second = plan(record, 0, "heuristic", salt, factor)
        for k in range(first.total):
            a, b = value(first, k), value(second, k)
            if a.kind == "forced":
                continue
            total += 1
            same += a.mark == b.mark
            agree += a.mark == b.mark or CLOSE in (a.mark, b.mark)
            moved += {a.mark, b.mark} & FINE != set() and {a.mark, b.mark} & BAD != set()
            marks[a.mark or ""] += 1
            other[b.mark or ""] += 1
            if a.mark != b.mark:
                pairs["/".join(sorted((a.mark or "", b.mark or "")))] += 1
    return {
        "stability_deals": deals,
        "stability_decisions": total,
        "stability_same_mark": round(same / total, 3) if total else None,
        "stability_same_mark_ci95": [round(x, 3) for x in wilson(same, total)] if total else None,
        "stability_fine_bad_moves": round(moved / total, 3) if total else None,
        "stability_agree_but_close": round(agree / total, 3) if total else None,
        "stability_moved": dict(pairs.most_common()),
        "stability_marks": dict(sorted(marks.items())),
        "stability_marks_again": dict(sorted(other.items())),
        "stability_cpu_s_per_decision": round((time.process_time() - cpu) / max(1, 2 * total), 2),
    }


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson score interval of a share k/n (z: 1.96 for 95%), which stays
    inside [0, 1] and holds near 100%, where the normal approximation does not."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
