"""The jobs the AI's worker processes run: set a worker up, play the AI's turns (at a
table of one human, at a table with friends, the deal of the day's), rank a seat's actions
for a hint.

Each job is a plain function of picklable values (a game's name, seed and action log): it
rebuilds the state by replay in the worker, so a worker holds no game between jobs.
"""

from __future__ import annotations

import itertools
from typing import Any

from tarocchi import daily
from tarocchi.bots import LEVELS
from tarocchi.games import GAMES, game
from tarocchi.games.replay import replay
from tarocchi.match import advance, table_bots
from tarocchi.views import view
from tarocchi.web.workers import lower_priority

HUMAN = 0
AI_SEATS = (1, 2, 3)  # the AI's seats at a table of one human
# the search levels, and the bot that stands in for them when every AI worker is busy
SEARCH_LEVELS = {"normal", "hard"}
SHORT = "short"


def prepare_worker(niceness: int) -> None:
    """Set up an AI worker process: a lower priority, the rules and the bots loaded."""
    from tarocchi.bots.search import warm_up

    lower_priority(niceness)
    import tarocchi.bots.hints  # noqa: F401  (the search behind the levels and the hints)

    for name in GAMES:
        warm_up(game(name))  # the search's compiled playouts


def ai_turns(
    game_name: str, seed: int, level: str, actions: tuple[tuple[int, str], ...], short: bool
) -> list[tuple[int, str]]:
    """Play the AI seats until South must act or the deal ends; return their actions.

    Runs in a worker process; with short (every worker busy) a search level thinks at
    the short budget. Bots are seeded by the deal and the log length."""
    return table_turns(game_name, seed, level, actions, AI_SEATS, short)


def table_turns(
    game_name: str,
    seed: int,
    level: str,
    actions: tuple[tuple[int, str], ...],
    seats: tuple[int, ...],
    short: bool,
    most: int | None = None,
) -> list[tuple[int, str]]:
    """Play the AI in some seats until another seat must act or the deal ends (or `most`
    actions are played); return their actions (as ai_turns, at a table where those seats
    are the AI's)."""
    rules = game(game_name)
    state = replay(rules, seed, actions)
    bot = SHORT if short and level in SEARCH_LEVELS else LEVELS[level]
    bots = table_bots(rules, [bot] * 4, seed, seats, len(actions))
    steps = itertools.islice(advance(rules, state, bots), most)
    return [(move.seat, rules.action_code(move.action)) for move in steps]


def daily_turns(
    game_name: str, seed: int, actions: tuple[tuple[int, str], ...]
) -> list[tuple[int, str]]:
    """Play the AI seats of a deal of the day until South must act or the deal ends (in a
    worker process): the normal level unclocked, so every player meets the same answers."""
    rules = game(game_name)
    state = replay(rules, seed, actions)
    steps = daily.answers(rules, seed, state, len(actions))
    return [(move.seat, rules.action_code(move.action)) for move in steps]


def hint_for(
    game_name: str, seed: int, actions: tuple[tuple[int, str], ...], seat: int = HUMAN
) -> list[dict[str, Any]]:
    """Rank a seat's legal actions (in a worker process): `hint_of` the stored game's state."""
    return hint_of(replay(game(game_name), seed, actions), seat)


def hint_of(state: Any, seat: int) -> list[dict[str, Any]]:
    """Rank a seat's legal actions by the fair valuation, from that seat's view only: the
    values the review gives this decision, so the Hint is never cut short."""
    from tarocchi.bots.hints import suggest

    return [{"action": h.code, "value": h.value, "reason": h.reason}
            for h in suggest(view(state, seat))]  # fmt: skip
