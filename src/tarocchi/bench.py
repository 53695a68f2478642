"""Speed benchmarks: random legal playouts through the public rules API, and bot decisions."""

from __future__ import annotations

import platform
import random
import statistics
import time
from typing import Any

from tarocchi.bots import make_bot
from tarocchi.games import game


def playouts_per_second(game_name: str, seconds: float) -> tuple[float, int]:
    """Play random legal deals from seed to result for about `seconds`; return (rate, deals)."""
    rules = game(game_name)
    deal, legal_actions, apply, result = rules.deal, rules.legal_actions, rules.apply, rules.result
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for seed in range(n, n + 50):
            state = deal(seed)
            rng = random.Random(seed)
            while state.to_move is not None:
                state = apply(state, rng.choice(legal_actions(state)))
            result(state)
        n += 50
    return n / (time.perf_counter() - start), n


def bot_decision_ms(game_name: str, bot: str, seconds: float) -> dict[str, float]:
    """Time a bot's decisions over seeded deals (all four seats the bot); return p50/p95 in ms."""
    rules = game(game_name)
    bots = [make_bot(bot, rules, seed) for seed in range(4)]
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    seed = 0
    while time.perf_counter() < deadline or not times:
        state = rules.deal(10_000 + seed)
        while state.to_move is not None:
            v = rules.view(state, state.to_move)
            t = time.perf_counter()
            action = bots[state.to_move].choose(v)
            times.append((time.perf_counter() - t) * 1000)
            state = rules.apply(state, action)
        seed += 1
    q = statistics.quantiles(times, n=100)
    return {"p50": round(q[49], 3), "p95": round(q[94], 3), "decisions": len(times)}


def run(game_name: str, seconds: float = 3.0) -> dict[str, Any]:
    """Return the benchmark report of a game (DESIGN.md's bench JSON)."""
    # best of three runs: this kind of machine's speed drifts by tens of percent
    rates = [playouts_per_second(game_name, seconds / 3)[0] for _ in range(3)]
    heuristic = bot_decision_ms(game_name, "heuristic", seconds)
    return {
        "game": game_name,
        "playouts_per_s": round(max(rates)),
        "playouts_per_s_runs": [round(r) for r in rates],
        "heuristic_ms_p50": heuristic["p50"],
        "heuristic_ms_p95": heuristic["p95"],
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
