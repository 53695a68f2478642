"""Partner play: in positions where a good partner's move is clear, `normal` makes it.

The suites in tests/data/partner_<game>.json (built by tools/make_partner_suite.py) hold
real deals stopped where a partnership theme decides the move: load points on
the partner's trick, do not overtrump the partner's sure winner, keep the
Matto's points home, give the least to a lost trick, capture a combination.
The `normal` level must choose an acceptable move in at least 90% of them (with
its fixed number of playouts: its clock, a safety bound, is lifted so that the
test does not depend on how busy the machine is).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tarocchi.bots import LEVELS, make_bot
from tarocchi.bots.search import SearchBot
from tarocchi.games import game
from tarocchi.views import view

DATA = Path(__file__).resolve().parent.parent / "data"
GAMES = ["piedicavallo", "ottocento", "minchiate"]


def load(name: str) -> list[dict[str, Any]]:
    """Return the positions of a game's suite."""
    suite: list[dict[str, Any]] = json.loads((DATA / f"partner_{name}.json").read_text())[
        "positions"
    ]
    return suite


def position(name: str, pos: dict[str, Any]) -> Any:
    """Return the state of a suite position: its deal replayed through its actions."""
    rules = game(name)
    if "deck" in pos:
        deck = [rules.card_id(c) for c in pos["deck"]]
        state = rules.deal_from(deck, pos["dealer"], pos["cut"])  # type: ignore[attr-defined]
    else:
        south, east, north, west = (rules.pack.mask(h) for h in pos["hands"])
        state = rules.start((south, east, north, west), pos["dealer"])
    for code in pos["actions"]:
        state = rules.apply(state, rules.parse_action(code))
    assert state.to_move == pos["seat"]
    return state


@pytest.mark.parametrize("name", GAMES)
def test_suite_is_well_formed(name: str) -> None:
    rules = game(name)
    suite = load(name)
    assert len(suite) >= 40
    for pos in suite:
        state = position(name, pos)
        legal = {rules.action_code(a) for a in rules.legal_actions(state)}
        acceptable = set(pos["acceptable"])
        assert acceptable and acceptable < legal, pos["theme"]


@pytest.mark.parametrize("name", GAMES)
def test_normal_plays_like_a_good_partner(name: str) -> None:
    rules = game(name)
    suite = load(name)
    good = 0
    missed = []
    for i, pos in enumerate(suite):
        state = position(name, pos)
        bot = make_bot(LEVELS["normal"], rules, 1000 + i)
        if isinstance(bot, SearchBot):
            # the level's fixed playouts, not its clock: the same choice on a busy machine
            bot.cfg = replace(bot.cfg, seconds=60.0)
        action = rules.action_code(bot.choose(view(state, state.to_move)))
        if action in pos["acceptable"]:
            good += 1
        else:
            missed.append((pos["theme"], pos["seed"], action, pos["acceptable"]))
    assert good >= 0.9 * len(suite), missed
