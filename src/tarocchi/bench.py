"""Speed benchmarks: random legal playouts through the public rules API, and bot decisions."""

from __future__ import annotations

import platform
import random
import statistics
import time

from tarocchi.bots import LEVELS, make_bot
from tarocchi.bots.search import warm_up
from tarocchi.games import game


def random_action(mask: int, rng: random.Random) -> int:
    """Return a uniformly random set bit of a non-empty mask (a random legal action)."""
    for _ in range(int(rng.random() * mask.bit_count())):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def playouts_per_second(game_name: str, seconds: float) -> tuple[float, int]:
    """Play random legal deals from seed to result for about `seconds`; return (rate, deals).

    Each deal goes through the public rules API: deal, legal_mask (the legal actions as a
    mask), apply and result."""
    rules = game(game_name)
    deal, legal_mask, apply, result = rules.deal, rules.legal_mask, rules.apply, rules.result
    n = 0
    rng = random.Random(0)  # one stream for every choice: the harness costs little
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for seed in range(n, n + 50):
            state = deal(seed)
            while state.to_move is not None:
                state = apply(state, random_action(legal_mask(state), rng))
            result(state)
        n += 50
    return n / (time.perf_counter() - start), n


def bot_decision_ms(
    game_name: str, bot: str, seconds: float, sample: float = 1.0
) -> dict[str, float]:
    """Time a bot's decisions over seeded deals for about `seconds`; return p50/p95 in ms.

    With sample 1 the bot plays all four seats of whole deals. A slow bot is timed on a
    random share `sample` of the decisions of deals the heuristic bot plays, so that its
    few timed decisions still spread over every stage of the deal (the first tricks,
    with the most cards out, cost a search the most). Search bots also report their
    playouts per second of thinking."""
    rules = game(game_name)
    bots = [make_bot(bot, rules, seed) for seed in range(4)]
    movers = bots if sample >= 1 else [make_bot("heuristic", rules, s) for s in range(4)]
    pick = random.Random(1)
    times: list[float] = []
    playouts = 0
    busy = 0.0  # seconds spent in decisions that ran playouts
    deadline = time.perf_counter() + seconds
    seed = 0
    while time.perf_counter() < deadline or len(times) < 2:
        state = rules.deal(10_000 + seed)
        while state.to_move is not None:
            v = rules.view(state, state.to_move)
            if sample >= 1 or pick.random() < sample:
                t = time.perf_counter()
                action = bots[state.to_move].choose(v)
                dt = time.perf_counter() - t
                times.append(dt * 1000)
                done = getattr(bots[state.to_move], "last_playouts", 0)
                if done:
                    playouts += done
                    busy += dt
            if sample < 1:
                action = movers[state.to_move].choose(v)
            state = rules.apply(state, action)
        seed += 1
    q = statistics.quantiles(times, n=100)
    out = {"p50": round(q[49], 3), "p95": round(q[94], 3), "decisions": len(times)}
    if busy:
        out["playouts_per_s"] = round(playouts / busy)
    return out


def percentiles(name: str, xs: list[float], *ps: int) -> dict[str, float]:
    """Return {name_pP: the P-th percentile of xs} for each P, rounded to 2 places."""
    q = statistics.quantiles(xs, n=100)
    return {f"{name}_p{p}": round(q[p - 1], 2) for p in ps}


def review_seconds(game_name: str, deals: int) -> dict[str, float]:
    """Review South's play in `deals` seeded deals the heuristic bots play, the AI in South's
    seat the hard level; return the p50/p95 of a whole review's time on one core (the
    process's CPU time: a shared machine's other work does not count) and of its first
    decision's, and the p95 of the wall-clock time; and the p50/p95 of a hint's time at each
    of South's decisions in the first three deals (the same valuation, without the review's
    hindsight). The compiled playouts are loaded first, as a server's workers have them."""
    from tarocchi.bots.hints import suggest
    from tarocchi.match import play_deal
    from tarocchi.record import make_record
    from tarocchi.review import plan, review
    from tarocchi.views import view

    warm_up(game(game_name))
    whole: list[float] = []
    first: list[float] = []
    wall: list[float] = []
    stamps: list[float] = []  # when each decision's values came
    hints: list[float] = []
    for i in range(deals):
        record = make_record(play_deal(game_name, 30_000 + i, ["heuristic"] * 4))
        stamps.clear()
        cpu, start = time.process_time(), time.perf_counter()
        review(record, 0, "hard", lambda *_: stamps.append(time.process_time()))
        whole.append(time.process_time() - cpu)
        wall.append(time.perf_counter() - start)
        first.append(stamps[0] - cpu)
        if i < 3:
            p = plan(record, 0, "heuristic")
            for at in p.mine:
                cpu = time.process_time()
                suggest(view(p.states[at], 0))
                hints.append(time.process_time() - cpu)
    # statistics.quantiles needs two points: one deal stands for every percentile
    return {
        **percentiles("hint_s", hints * 2, 50, 95),
        **percentiles("review_s", whole * 2, 50, 95),
        **percentiles("review_first_s", first * 2, 50, 95),
        **percentiles("review_wall_s", wall * 2, 95),
        "review_deals": deals,
    }


def run(
    game_name: str, seconds: float = 3.0, ai_seconds: float = 20.0, review_deals: int = 10
) -> dict[str, object]:
    """Return the benchmark report of a game (docs/architecture.md)."""
    # best of three runs: this kind of machine's speed drifts by tens of percent
    rates = [playouts_per_second(game_name, seconds / 3)[0] for _ in range(3)]
    heuristic = bot_decision_ms(game_name, "heuristic", seconds)
    report: dict[str, object] = {
        "game": game_name,
        "playouts_per_s": round(max(rates)),
        "playouts_per_s_runs": [round(r) for r in rates],
        "heuristic_ms_p50": heuristic["p50"],
        "heuristic_ms_p95": heuristic["p95"],
    }
    # the levels offered to players (issue 6): decision times, and the search's speed
    levels: dict[str, dict[str, float]] = {}
    for level in ("easy", "normal", "hard"):
        slow = level != "easy"
        timing = bot_decision_ms(
            game_name, LEVELS[level], ai_seconds if slow else seconds, 0.25 if slow else 1.0
        )
        levels[level] = {
            "ai_ms_p50": timing["p50"],
            "ai_ms_p95": timing["p95"],
            "decisions": timing["decisions"],
        }
        if "playouts_per_s" in timing:
            levels[level]["search_playouts_per_s"] = timing["playouts_per_s"]
    report["levels"] = levels
    report["ai_ms_p50"] = levels["normal"]["ai_ms_p50"]  # the default level
    report["ai_ms_p95"] = levels["normal"]["ai_ms_p95"]
    report["search_playouts_per_s"] = levels["normal"].get("search_playouts_per_s", 0)
    if review_deals:
        report.update(review_seconds(game_name, review_deals))
    report["python"] = platform.python_version()
    report["machine"] = platform.machine()
    return report
