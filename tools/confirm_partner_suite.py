"""Value the partner suites' wrong moves with a long fair search (run by hand, once).

    .venv/bin/python -m tools.confirm_partner_suite [GAME ...]
    .venv/bin/python -m tools.confirm_partner_suite GAME --part K/N   # then --merge

(With --part, the K-th of every N positions, in a fixed shuffled order, of one game are
valued and kept, one a line as each is valued, in a file beside the suite, so that N
processes share a game; --merge stores them in the suite.)

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
import random
import sys
import time
from pathlib import Path
from typing import Any

from tarocchi.games import game
from tarocchi.review import decide
from tests.bots.test_partner_suite import DATA, GAMES, position

LONG = 10  # times the review's playouts
SALT = 10  # the long search's own seeds


def costs(name: str, pos: dict[str, Any]) -> dict[str, float | None]:
    """Return the long search's cost of each wrong move of a position."""
    rules = game(name)
    state = position(name, pos)
    legal = [rules.action_code(a) for a in rules.legal_actions(state)]
    wrong = [c for c in legal if c not in pos["acceptable"]]
    d = decide(rules, state, wrong[0], SALT, LONG)
    return {code: d.cost_of(code) for code in wrong}


def part_path(name: str, k: int, n: int) -> Path:
    """Return the file of one part's costs (one position a line, as each is valued)."""
    return DATA / f"partner_{name}.long-{k}-of-{n}.jsonl"


def confirm(name: str, k: int = 0, n: int = 1) -> None:
    """Value the k-th of every n positions of a game's suite (in a fixed shuffled order,
    the themes mixed): store their long costs in the
    suite (n == 1), or line by line in the part's file."""
    path = DATA / f"partner_{name}.json"
    data = json.loads(path.read_text())
    start = time.process_time()
    part = part_path(name, k, n)
    done = (
        {json.loads(line)[0] for line in part.read_text().splitlines()} if part.exists() else set()
    )
    found = {}
    order = list(range(len(data["positions"])))
    random.Random(0).shuffle(order)  # the themes mixed: a part cut short covers them all
    for j, i in enumerate(order):
        if j % n == k and i not in done:  # a part stopped goes on where it stood
            found[i] = costs(name, data["positions"][i])
            if n > 1:
                with part.open("a") as out:
                    out.write(json.dumps([i, found[i]]) + "\n")
    if n == 1:
        store(name, data, found)
    print(f"{name} {k}/{n}: {len(found)} positions, {time.process_time() - start:.0f} s")


def store(name: str, data: dict[str, Any], found: dict[int, dict[str, float | None]]) -> None:
    """Write the long costs of the positions valued into the game's suite."""
    for i, pos in enumerate(data["positions"]):
        if i in found:
            pos["long_costs"] = found[i]
    data["long_search"] = {"playouts": f"{LONG} times the review's", "salt": SALT}
    (DATA / f"partner_{name}.json").write_text(json.dumps(data, indent=1) + "\n")


def merge(name: str) -> None:
    """Store the parts' costs in the suite and remove the parts' files."""
    data = json.loads((DATA / f"partner_{name}.json").read_text())
    parts = sorted(DATA.glob(f"partner_{name}.long-*.jsonl"))
    found = {}
    for p in parts:
        for line in p.read_text().splitlines():
            i, c = json.loads(line)
            found[i] = c
    store(name, data, found)
    for p in parts:
        p.unlink()


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--merge" in args:
        merge(args[0])
    elif "--part" in args:
        k, n = (int(x) for x in args[args.index("--part") + 1].split("/"))
        confirm(args[0], k, n)
    else:
        for game_name in args or GAMES:
            confirm(game_name)
