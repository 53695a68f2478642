"""A deal as chance outcomes (rules §2 of each game): the seeded deal, dealing from
outcomes, and the outcomes of a state's deal, the adapters' explicit chance."""

from __future__ import annotations

import random

import pytest

from tarocchi.bots.parts import belief
from tarocchi.games import GAMES, game

NAMES = list(GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_a_seeded_deal_is_its_chance_outcomes(name: str) -> None:
    rules = game(name)
    for seed in range(20):
        outcomes = rules.chance_outcomes(seed)
        state = rules.deal(seed)
        assert rules.deal_outcomes(outcomes) == state
        # another deck may deal the same hands (Minchiate keeps its deck: the very one)
        assert rules.deal_outcomes(rules.outcomes_of(state)) == state
        assert state.dealer == outcomes[0]


@pytest.mark.parametrize("name", NAMES)
def test_chance_options_are_every_outcome_left(name: str) -> None:
    rules = game(name)
    outcomes = rules.chance_outcomes(3)
    assert rules.chance_options(()) == [0, 1, 2, 3]
    head = 1 + (rules.cut_range is not None)
    if rules.cut_range is not None:
        assert rules.chance_options(outcomes[:1]) == list(range(1, rules.pack.size))
    assert rules.chance_options(outcomes[:head]) == list(range(rules.pack.size))
    for i in range(head, len(outcomes)):
        options = rules.chance_options(outcomes[:i])
        assert outcomes[i] in options
        assert len(options) == rules.pack.size - (i - head)
    assert rules.chance_options(outcomes) == []


@pytest.mark.parametrize("name", NAMES)
def test_bad_outcomes_are_refused(name: str) -> None:
    rules = game(name)
    outcomes = list(rules.chance_outcomes(1))
    with pytest.raises(ValueError):
        rules.deal_outcomes([4, *outcomes[1:]])
    with pytest.raises(ValueError):
        rules.deal_outcomes(outcomes[:-1])
    twice = [*outcomes[:-1], outcomes[-2]]
    with pytest.raises(ValueError):
        rules.deal_outcomes(twice)


@pytest.mark.parametrize("name", NAMES)
def test_outcomes_of_a_sampled_deal_deal_its_hands(name: str) -> None:
    """A deal drawn from a view mid-deal has outcomes whose deal holds the same cards per
    seat (each seat's hand now, its plays and its discard)."""
    rules = game(name)
    rng = random.Random(0)
    state = rules.deal(7)
    while state.to_move is not None and (
        rules.phase_name(state) != "play" or len(state.tricks) < 3
    ):
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    sampled = belief(rules.view(state, 0)).sample(rng)
    start = rules.deal_outcomes(rules.outcomes_of(sampled))
    assert rules.dealt_hands(start) == rules.dealt_hands(
        rules.deal_outcomes(rules.outcomes_of(start))
    )
    played = [0, 0, 0, 0]
    for trick in (*sampled.tricks, sampled.trick):
        for seat, card in trick:
            played[seat] |= 1 << card
    if name != "minchiate":  # Minchiate's hands also gain robbed and taken cards
        for s in range(4):
            assert start.hands[s] == sampled.hands[s] | played[s] | rules.discards(sampled, s)
