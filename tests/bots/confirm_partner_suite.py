"""Value the partner suites' wrong moves with a long fair search (run by hand, once).

    .venv/bin/python -m tests.bots.confirm_partner_suite [GAME ...]

The suites (tests/data/partner_<game>.json) name each position's acceptable moves by a
partnership rule and an oracle check that sees every card. Whether a move the rule calls
wrong is clearly wrong from what the seat can see is for the fair valuation to say, given
time: each position is valued with `LONG` times the review's playouts (and a salt of its
own, so that its sampled deals are not the review's), and the cost of each wrong move
against that search's best is stored as the position's `long_costs`. A wrong move is
clearly wrong when its long cost passes the game's mistake threshold
(tests/play/test_review.py checks that the review marks at least 90% of those mistake or
blunder).
"""

from __future__ import annotations

import json
import sys
import time

from tarocchi.games import game
from tarocchi.review import decide
from tests.bots.test_partner_suite import DATA, GAMES, position

LONG = 10  # times the review's playouts
SALT = 10  # the long search's own seeds


def confirm(name: str) -> None:
    """Store every position's long costs in the game's suite."""
    rules = game(name)
    path = DATA / f"partner_{name}.json"
    data = json.loads(path.read_text())
    start = time.process_time()
    for pos in data["positions"]:
        state = position(name, pos)
        legal = [rules.action_code(a) for a in rules.legal_actions(state)]
        wrong = [c for c in legal if c not in pos["acceptable"]]
        d = decide(rules, state, wrong[0], SALT, LONG)
        pos["long_costs"] = {code: d.cost_of(code) for code in wrong}
    data["long_search"] = {"playouts": f"{LONG} times the review's", "salt": SALT}
    path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{name}: {len(data['positions'])} positions, {time.process_time() - start:.0f} s")


if __name__ == "__main__":
    for game_name in sys.argv[1:] or GAMES:
        confirm(game_name)
