"""Facts of a game live with their owners: its rules class holds its own (unit, discards,
largest margin), so outside Minchiate's own modules no code asks whether the game is
Minchiate; each layer keeps one table of its parts, and every table has exactly the
registry's games."""

from __future__ import annotations

import ast
import random
from typing import get_args

from tarocchi.bots.parts import PARTS
from tarocchi.games import GAMES, GameName, game
from tarocchi.web import content
from tests.test_layers import modules


def compares_to(tree: ast.AST, name: str) -> list[int]:
    """Return the lines where a comparison has the string `name` on one side."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        and any(
            isinstance(x, ast.Constant) and x.value == name for x in (node.left, *node.comparators)
        )
    ]


def test_only_minchiate_s_modules_ask_for_minchiate() -> None:
    found = {
        module: lines
        for module, path in modules().items()
        if "minchiate" not in module.rpartition(".")[2]
        and (lines := compares_to(ast.parse(path.read_text()), "minchiate"))
    }
    assert found == {}


def test_every_layer_s_table_has_exactly_the_registry_s_games() -> None:
    names = set(get_args(GameName))
    assert set(GAMES) == names
    assert set(PARTS) == names
    assert set(content.GAMES) == names
    for name in names:  # each entry is its own game's, and its module loads
        assert GAMES[name].name == content.GAMES[name].slug == game(name).name == name
        assert PARTS[name].heuristic.__module__.endswith(f".{name}") and PARTS[name].search
        assert {t for t in content.TRADITIONS.values() if name in t.games}


def test_every_deal_ends_within_its_game_s_largest_margin() -> None:
    for name in GAMES:
        rules = game(name)
        for seed in range(20):
            state = rules.deal(seed)
            rng = random.Random(seed)
            while not rules.is_over(state):
                state = rules.apply(state, rng.choice(rules.legal_actions(state)))
            assert abs(rules.result(state).margin(0)) <= rules.max_margin
