"""Perft: count legal action sequences, by the engine or by a spec reference's legal sets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tarocchi.games.base import TrickGame


def perft(
    rules: TrickGame,
    state: Any,
    depth: int,
    legal: Callable[[Any], set[str]] | None = None,
) -> int:
    """Return the number of legal action sequences of length `depth` from state; the legal
    actions come from the engine, or from `legal(state)` (codes) when given."""
    if depth == 0 or state.to_move is None:
        return 1
    if legal is None:
        return sum(
            perft(rules, rules.apply(state, a), depth - 1) for a in rules.legal_actions(state)
        )
    return sum(
        perft(rules, rules.apply(state, rules.parse_action(code)), depth - 1, legal)
        for code in legal(state)
    )
