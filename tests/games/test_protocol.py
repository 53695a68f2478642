"""Every game keeps the shared protocol: registry, codes, legal sets, views, results."""

from __future__ import annotations

import random

import pytest

from tarocchi import IllegalAction, game
from tarocchi.bench import random_action
from tarocchi.cards import bits
from tarocchi.games import GAMES


@pytest.mark.parametrize("name", sorted(GAMES))
def test_protocol(name: str) -> None:
    rules = game(name)
    assert rules.name == name and rules.title
    n = rules.pack.size
    for a in range(n + len(rules.extra_actions)):
        assert rules.parse_action(rules.action_code(a)) == a
    for seed in range(60):
        rng = random.Random(seed)
        state = rules.deal(seed)
        assert rules.deal(seed) == state
        while not rules.is_over(state):
            legal = rules.legal_actions(state)
            assert legal == sorted(legal) and legal == bits(rules.legal_mask(state))
            view = rules.view(state, state.to_move)
            assert list(view.legal) == legal
            illegal = next((a for a in range(n) if a not in legal), None)
            if illegal is not None:
                with pytest.raises(IllegalAction):
                    rules.apply(state, illegal)
            state = rules.apply(state, random_action(rules.legal_mask(state), rng))
        assert rules.legal_actions(state) == [] and state.to_move is None
        result = rules.result(state)
        assert result.winner in ("NS", "EW", "draw")


def test_random_action_is_uniform_over_the_set_bits() -> None:
    rng = random.Random(1)
    counts = {3: 0, 10: 0, 61: 0}
    for _ in range(3000):
        counts[random_action(1 << 3 | 1 << 10 | 1 << 61, rng)] += 1
    assert all(900 < c < 1100 for c in counts.values())
