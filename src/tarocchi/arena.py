"""The duplicate arena: two bots play every seed twice with the teams swapped.

Bot A takes both seats of one team and bot B the other; the same cards are then
replayed with A and B exchanged, so the luck of the deal cancels. Margins are
A's total minus B's per deal, in the game's own final unit. The 95% confidence
interval is taken over the pairs (the two deals of a seed are not independent).
"""

from __future__ import annotations

import json
import math
import multiprocessing
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    save_dir: str | None


def play_pair(task: Task) -> list[dict[str, Any]]:
    """Play a seed twice (A as NS, then A as EW); return one summary per deal."""
    out = []
    for a_team in ("NS", "EW"):
        names = (
            [task.a, task.b, task.a, task.b] if a_team == "NS" else [task.b, task.a, task.b, task.a]
        )
        log = play_deal(task.game, task.seed, names)
        result = log.result
        deal: dict[str, Any] = {
            "seed": task.seed,
            "a_team": a_team,
            "ns": result.ns,
            "ew": result.ew,
            "winner": result.winner,
        }
        deal.update(
            {
                k: v
                for k, v in result.extra
                if k in ("ns_resti", "ew_resti", "ns_points", "ew_points")
            }
        )
        if task.save_dir is not None:
            path = Path(task.save_dir) / f"{task.game}-{task.seed}-A{a_team}.json"
            save(make_record(log), path)
        out.append(deal)
    return out


def margin(deal: dict[str, Any], key: str = "") -> float:
    """Return A's total minus B's in one deal summary (key "" = the final unit, or "points")."""
    ns, ew = (deal["ns"], deal["ew"]) if not key else (deal[f"ns_{key}"], deal[f"ew_{key}"])
    diff = float(ns - ew)
    return diff if deal["a_team"] == "NS" else -diff


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Return (mean, low, high) of a 95% confidence interval for the mean."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def iter_pairs(
    game: str,
    a: str,
    b: str,
    seeds: list[int],
    jobs: int,
    save_dir: Path | None,
) -> Iterator[list[dict[str, Any]]]:
    """Yield the two deal summaries of each seed, in the order given."""
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    tasks = [Task(game, a, b, s, str(save_dir) if save_dir else None) for s in seeds]
    if jobs <= 1:
        yield from map(play_pair, tasks)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap(play_pair, tasks, chunksize=max(1, len(tasks) // (jobs * 8)))


def read_log(path: Path, game: str, a: str, b: str) -> dict[int, list[dict[str, Any]]]:
    """Return the pairs already played in an arena log, by seed (none if it does not exist).

    A log holds one JSON object per line: the game, both bots and the pair's two deal
    summaries. A line of another match, or one that is not such an object, is an error."""
    if not path.exists():
        return {}
    out: dict[int, list[dict[str, Any]]] = {}
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
) -> dict[str, Any]:
    """Run a duplicate match; return its summary (the arena's JSON, docs/architecture.md).
    With a log, each pair is appended to it as it ends, and seeds already there are not played
    again, so a long match can be stopped and resumed, or split among processes by seed
    ranges."""
    if pairs < 1:
        raise ValueError("--pairs must be at least 1")
    seeds = list(range(seed, seed + pairs))
    done = read_log(log, game, a, b) if log is not None else {}
    played = {}
    todo = [s for s in seeds if s not in done]
    for pair in iter_pairs(game, a, b, todo, jobs, save_dir):
        played[pair[0]["seed"]] = pair
        if log is not None:
            with log.open("a") as f:
                f.write(json.dumps({"game": game, "a": a, "b": b, "deals": pair}) + "\n")
    deals = [d for s in seeds for d in (done.get(s) or played[s])]
    pair_means = [(margin(deals[i]) + margin(deals[i + 1])) / 2 for i in range(0, len(deals), 2)]
    mean, low, high = mean_ci(pair_means)
    wins = sum(1 for d in deals if margin(d) > 0)
    losses = sum(1 for d in deals if margin(d) < 0)
    summary: dict[str, Any] = {
        "game": game,
        "a": a,
        "b": b,
        "pairs": pairs,
        "seed": seed,
        "mean_margin": round(mean, 3),
        "ci95": [round(low, 3), round(high, 3)],
        "wins": wins,
        "draws": len(deals) - wins - losses,
        "losses": losses,
    }
    if deals and "ns_points" in deals[0]:
        pm, pl, ph = mean_ci(
            [
                (margin(deals[i], "points") + margin(deals[i + 1], "points")) / 2
                for i in range(0, len(deals), 2)
            ]
        )
        summary["mean_points_margin"] = round(pm, 3)
        summary["points_ci95"] = [round(pl, 3), round(ph, 3)]
    summary["deals"] = deals
    return summary
