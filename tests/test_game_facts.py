"""Facts of a game live with its rules: outside Minchiate's own modules no code asks whether
the game is Minchiate (its unit, its discards, ... are attributes of its rules class)."""

from __future__ import annotations

import ast

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
