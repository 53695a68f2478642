"""The jobs the AI's and the reviews' worker processes run: set a worker up, play the AI's
turns (at a table of one human, at a table with friends, the deal of the day's), rank a
seat's actions for a hint, value a seat's next decision of a review, play the AI's line on
a seat's cards; and the stored form of a review they hand back.

Each job is a plain function of picklable values (a game's name, seed and action log, a
record, stored JSON): it rebuilds the state by replay in the worker, so a worker holds no
game between jobs.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping
from typing import Any

from tarocchi import daily
from tarocchi.bots import LEVELS
from tarocchi.bots.hints import HintJson
from tarocchi.cards import Card
from tarocchi.games import GAMES, game
from tarocchi.games.base import GameState
from tarocchi.games.replay import replay
from tarocchi.i18n import from_recipe, recipe
from tarocchi.match import advance, table_bots
from tarocchi.review import (
    Review,
    ai_from_json,
    ai_line,
    ai_to_json,
    assemble,
    from_json,
    plan,
    to_json,
    value,
)
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
) -> list[HintJson]:
    """Rank a seat's legal actions (in a worker process): `hint_of` the stored game's state."""
    return hint_of(replay(game(game_name), seed, actions), seat)


def hint_of(state: GameState, seat: int) -> list[HintJson]:
    """Rank a seat's legal actions by the fair valuation, from that seat's view only: the
    values the review gives this decision, so the Hint is never cut short."""
    from tarocchi.bots.hints import suggest, to_json

    return to_json(suggest(view(state, seat)))


# -- a review's jobs, in the review pool's process -----------------------------------------


def review_step(record: Mapping[str, object], level: str, data: str | None, ai: str | None,
                seat: int = HUMAN) -> str:  # fmt: skip
    """Value a seat's next decision of a record not yet in the stored review data (none
    left: nothing) and return the review so far as stored, with the AI's line if given."""
    p = plan(record, seat, level)
    so_far = restored(data) if data else None
    decisions = list(so_far.decisions) if so_far else []
    if len(decisions) < p.total:
        decisions.append(value(p, len(decisions)))
    line = ai_from_json(json.loads(ai)) if ai else None
    return stored(assemble(p, decisions, line, so_far.swings if so_far else ()))


def ai_job(record: Mapping[str, object], level: str, seat: int = HUMAN) -> str:
    """Play the deal again with the AI of the level in a seat; return its line as stored
    (JSON)."""
    return json.dumps(ai_to_json(ai_line(plan(record, seat, level))))


# -- a review's stored form: reasons as message recipes ------------------------------------


def _reasons(data: dict[str, Any], convert: Callable[[object], object]) -> dict[str, object]:
    """Return a review's JSON form with each reason (the choices', the key moments')
    converted."""
    out = dict(data)
    out["decisions"] = [
        {**d, "choices": [{**c, "reason": convert(c["reason"])} for c in d["choices"]]}
        for d in data["decisions"]
    ]
    out["key_moments"] = [{**k, "reason": convert(k["reason"])} for k in data["key_moments"]]
    out["swings"] = [
        {**s, "causes": [{**c, "label": convert(c["label"])} for c in s["causes"]]}
        for s in data.get("swings", ())
    ]
    out["lessons"] = [
        {**x, "made": convert(x["made"]), "best": convert(x["best"])}
        for x in data.get("lessons", ())
    ]
    return out


def stored(r: Review) -> str:
    """Return a review as stored: JSON, its reasons as message recipes."""
    english = to_json(r)
    reasons = iter(
        [c.reason for d in r.decisions for c in d.choices]
        + [k.reason for k in r.key_moments]
        + [c.label for s in r.swings for c in s.causes]
        + [text for x in r.lessons for text in (x.made, x.best)]
    )
    return json.dumps(_reasons(english, lambda _text: recipe(next(reasons))))


def restored(text: str) -> Review:
    """Return the review stored as `stored` wrote it, its reasons messages again."""
    data = json.loads(text)
    return from_json(_reasons(data, lambda r: from_recipe(r, card_of(data["game"]))))


def card_of(game_name: str) -> Callable[[str], Card]:
    """Return what reads a card code of a game as its card (a recipe's cards)."""
    pack = game(game_name).pack
    return lambda code: pack.cards[pack.card_id(code)]
