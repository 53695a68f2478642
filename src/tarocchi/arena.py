"""The duplicate arena: two bots play every seed twice with the teams swapped.

Bot A takes both seats of one team and bot B the other; the same cards are then
replayed with A and B exchanged, so the luck of the deal cancels. Margins are
A's total minus B's per deal, in the game's own final unit. The 95% confidence
interval is taken over the pairs (the two deals of a seed are not independent).

With a target half-width the match stops early by a fixed-width sequential rule
(Chow and Robbins): after `MIN_PAIRS` pairs and then every `CHECK_EVERY` pairs, in seed
order, it stops once the 95% interval's half-width is at most the target. The pairs are
checked in seed order, so where it stops depends only on the seeds, not on timing.
"""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NotRequired, TypedDict

from tarocchi.match import play_deal
from tarocchi.record import make_record, save

# Student's t quantile (two-sided 95%) for small samples; 1.96 beyond the table.
T95 = {
    1: 12.71,
    2: 4.30,
    3: 3.18,
    4: 2.78,
    5: 2.57,
    6: 2.45,
    7: 2.36,
    8: 2.31,
    9: 2.26,
    10: 2.23,
    15: 2.13,
    20: 2.09,
    25: 2.06,
    30: 2.04,
    40: 2.02,
    60: 2.00,
    120: 1.98,
}


# the sequential rule: no look before MIN_PAIRS pairs (the variance estimate must settle),
# then one look every CHECK_EVERY pairs (fewer looks, less optional-stopping bias)
MIN_PAIRS = 30
CHECK_EVERY = 10


def t95(df: int) -> float:
    """Return the two-sided 95% quantile of Student's t with df degrees of freedom."""
    for k in sorted(T95):
        if df <= k:
            return T95[k]
    return 1.96


@dataclass(frozen=True, slots=True)
class Task:
    """One seed of a duplicate match: both deals are played by one worker."""

    game: str
    a: str
    b: str
    seed: int
    keep_records: bool


class Deal(TypedDict):
    """One deal of a match in the arena's JSON and log: A's team and the totals."""

    seed: int
    a_team: Literal["NS", "EW"]
    ns: float
    ew: float
    winner: str  # "NS", "EW" or "draw"
    # Minchiate: the resti (ns, ew are its net resti) and the raw card points
    ns_resti: NotRequired[int]
    ew_resti: NotRequired[int]
    ns_points: NotRequired[float]
    ew_points: NotRequired[float]


SPLIT: tuple[Literal["ns_resti", "ew_resti", "ns_points", "ew_points"], ...] = (
    "ns_resti",
    "ew_resti",
    "ns_points",
    "ew_points",
)  # a result's parts that a deal keeps beside its totals


class Figures(TypedDict):
    """The arena's figures of a match: A's mean margin per pair with its 95% interval, and
    the deals' wins, draws and losses for A."""

    game: str
    a: str
    b: str
    pairs: int
    seed: int
    mean_margin: float
    ci95: list[float]
    sd: float
    wins: int
    draws: int
    losses: int
    target_ci: NotRequired[float]
    reached: NotRequired[bool]  # whether the interval's half-width came within target_ci
    mean_points_margin: NotRequired[float]  # Minchiate: the same in raw card points
    points_ci95: NotRequired[list[float]]


class Summary(Figures):
    """The arena's JSON (docs/architecture.md): the match's figures, then its deals."""

    deals: list[Deal]


# what a worker hands back for one seed: the two deal summaries, and the two records by file
# name when they are kept (built where the deal is played, written where the match runs)
Pair = tuple[list[Deal], dict[str, dict[str, object]]]


def play_pair(task: Task) -> Pair:
    """Play a seed twice (A as NS, then A as EW); return one summary per deal, and records."""
    out = []
    records = {}
    a_team: Literal["NS", "EW"]
    for a_team in ("NS", "EW"):
        names = (
            [task.a, task.b, task.a, task.b] if a_team == "NS" else [task.b, task.a, task.b, task.a]
        )
        log = play_deal(task.game, task.seed, names)
        result = log.result
        deal: Deal = {
            "seed": task.seed,
            "a_team": a_team,
            "ns": result.ns,
            "ew": result.ew,
            "winner": result.winner,
        }
        extra = dict(result.extra)
        for key in SPLIT:
            if key in extra:
                deal[key] = extra[key]
        if task.keep_records:
            records[f"{task.game}-{task.seed}-A{a_team}.json"] = make_record(log)
        out.append(deal)
    return out, records


def margin(deal: Deal, points: bool = False) -> float:
    """Return A's total minus B's in one deal summary (in the final unit, or in points)."""
    ns, ew = (deal["ns_points"], deal["ew_points"]) if points else (deal["ns"], deal["ew"])
    diff = float(ns - ew)
    return diff if deal["a_team"] == "NS" else -diff


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Return (mean, low, high) of a 95% confidence interval for the mean."""
    mean, sd = mean_sd(values)
    half = t95(len(values) - 1) * sd / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def mean_sd(values: list[float]) -> tuple[float, float]:
    """Return the mean and the sample standard deviation (0 for a single value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))


def pair_margins(deals: list[Deal], points: bool = False) -> list[float]:
    """Return A's mean margin over the two deals of each pair (deals in pair order)."""
    return [
        (margin(deals[i], points) + margin(deals[i + 1], points)) / 2
        for i in range(0, len(deals), 2)
    ]


def is_precise_enough(deals: list[Deal], target_ci: float) -> bool:
    """Return whether the sequential rule stops here: a look is due and the half-width fits."""
    n = len(deals) // 2
    if n < MIN_PAIRS or (n - MIN_PAIRS) % CHECK_EVERY:
        return False
    _, low, high = mean_ci(pair_margins(deals))
    return (high - low) / 2 <= target_ci


def iter_pairs(
    game: str,
    a: str,
    b: str,
    seeds: list[int],
    jobs: int,
    save_dir: Path | None,
    ray: str | None = None,
) -> Generator[list[Deal]]:
    """Yield the two deal summaries of each seed, in the order given, saving records if asked.

    The pairs are played in this process (jobs 1), a local process pool, or as Ray tasks
    (`ray`: a cluster's address, "" for a local Ray instance of `jobs` CPUs)."""
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    tasks = [Task(game, a, b, s, save_dir is not None) for s in seeds]
    with contextlib.ExitStack() as stack:  # a match that stops early leaves no worker behind
        pairs: Iterator[Pair]
        if ray is not None:
            from tarocchi.arena_ray import ray_map

            pairs = stack.enter_context(contextlib.closing(ray_map(play_pair, tasks, ray, jobs)))
        elif jobs <= 1:
            pairs = map(play_pair, tasks)
        else:
            pool = stack.enter_context(multiprocessing.get_context("fork").Pool(jobs))
            pairs = pool.imap(play_pair, tasks, chunksize=max(1, len(tasks) // (jobs * 8)))
        for deals, records in pairs:
            for name, record in records.items():
                save(record, Path(str(save_dir)) / name)  # records are kept only with a save_dir
            yield deals


def read_log(path: Path, game: str, a: str, b: str) -> dict[int, list[Deal]]:
    """Return the pairs already played in an arena log, by seed (none if it does not exist).

    A log holds one JSON object per line: the game, both bots and the pair's two deal
    summaries. A line of another match, or one that is not such an object, is an error."""
    if not path.exists():
        return {}
    out: dict[int, list[Deal]] = {}
    for n, line in enumerate(path.read_text().splitlines(), start=1):
        try:
            entry = json.loads(line)
            deals = entry["deals"]
            seed = deals[0]["seed"]
            ok = (entry["game"], entry["a"], entry["b"]) == (game, a, b) and len(deals) == 2
        except (ValueError, KeyError, IndexError, TypeError):
            raise ValueError(f"{path}, line {n}: not an arena log entry") from None
        if not ok:
            raise ValueError(f"{path}, line {n}: a pair of another match than {game} {a} vs {b}")
        out[seed] = deals
    return out


def run(
    game: str,
    a: str,
    b: str,
    pairs: int,
    seed: int = 0,
    jobs: int = 1,
    save_dir: Path | None = None,
    log: Path | None = None,
    target_ci: float | None = None,
    ray: str | None = None,
) -> Summary:
    """Run a duplicate match; return its summary (the arena's JSON, docs/architecture.md).
    With a log, each pair is appended to it as it ends, and seeds already there are not played
    again, so a long match can be stopped and resumed, or split among processes by seed
    ranges. With target_ci, `pairs` is the most to play: the match stops as soon as the
    sequential rule finds the 95% interval's half-width at most target_ci. With ray (an
    address, "" for a local instance of `jobs` CPUs) the pairs are played as Ray tasks."""
    if pairs < 1:
        raise ValueError("--pairs must be at least 1")
    if target_ci is not None and not target_ci > 0:
        raise ValueError("--target-ci must be a positive half-width")
    seeds = list(range(seed, seed + pairs))
    done = read_log(log, game, a, b) if log is not None else {}
    todo = [s for s in seeds if s not in done]
    fresh = iter_pairs(game, a, b, todo, jobs, save_dir, ray)
    deals: list[Deal] = []
    try:
        for s in seeds:  # in seed order, so the stopping point does not depend on timing
            pair = done.get(s)
            if pair is None:
                pair = next(fresh)
                if log is not None:
                    with log.open("a") as f:
                        f.write(json.dumps({"game": game, "a": a, "b": b, "deals": pair}) + "\n")
            deals.extend(pair)
            if target_ci is not None and is_precise_enough(deals, target_ci):
                break
    finally:
        fresh.close()  # stops the workers of a match that ended early
    return summarize(game, a, b, seed, deals, target_ci)


def summarize(
    game: str, a: str, b: str, seed: int, deals: list[Deal], target_ci: float | None
) -> Summary:
    """Return the arena's JSON summary of the deals played, two per pair in seed order."""
    margins = pair_margins(deals)
    mean, low, high = mean_ci(margins)
    wins = sum(1 for d in deals if margin(d) > 0)
    losses = sum(1 for d in deals if margin(d) < 0)
    figures: Figures = {
        "game": game,
        "a": a,
        "b": b,
        "pairs": len(margins),
        "seed": seed,
        "mean_margin": round(mean, 3),
        "ci95": [round(low, 3), round(high, 3)],
        "sd": round(mean_sd(margins)[1], 3),
        "wins": wins,
        "draws": len(deals) - wins - losses,
        "losses": losses,
    }
    if target_ci is not None:
        figures["target_ci"] = target_ci
        figures["reached"] = (high - low) / 2 <= target_ci
    if deals and "ns_points" in deals[0]:
        pm, pl, ph = mean_ci(pair_margins(deals, points=True))
        figures["mean_points_margin"] = round(pm, 3)
        figures["points_ci95"] = [round(pl, 3), round(ph, 3)]
    return {**figures, "deals": deals}
