"""The view says how many cards its seat must still lay aside at its turn to discard (the
discard prompt counts them down), in each game, and nothing to the other seats."""

from __future__ import annotations

import pytest

import tarocchi
from tarocchi.games import GAMES
from tarocchi.views import to_json


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [0, 2, 200])
def test_the_cards_left_to_lay_aside_count_down(name: str, seed: int) -> None:
    rules = tarocchi.game(name)
    state = rules.deal(seed)
    counts: list[tuple[int, int]] = []  # (seat, cards it must still lay aside)
    while rules.phase_name(state) != "play":
        views = [to_json(rules.view(state, seat)) for seat in range(4)]
        mover = state.to_move
        if views[mover]["phase"] == "discard":
            left = views[mover]["to_lay_aside"]
            assert left == len(views[mover]["hand"]) - rules.hand_size > 0
            counts.append((mover, left))
        assert all(v["to_lay_aside"] == 0 for seat, v in enumerate(views) if seat != mover)
        state = rules.apply(state, rules.legal_actions(state)[0])
    assert counts, "no discard in this deal"
    # each discarder's count falls by one a card, down to its last card
    for (seat, left), (after, then) in zip(counts, [*counts[1:], (-1, 0)], strict=True):
        assert (after, then) == (seat, left - 1) if left > 1 else after != seat
    assert rules.view(state, 0).hand_sizes == (rules.hand_size,) * 4
    assert to_json(rules.view(state, state.to_move))["to_lay_aside"] == 0
