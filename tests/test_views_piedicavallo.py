"""Views never hold a card their seat cannot know (Piedicavallo), over 1,000 seeded deals."""

from __future__ import annotations

import random
from typing import Any

from tarocchi.games.piedicavallo import PACK, RULES, State
from tarocchi.views import to_json, view
from tests.conftest import THOUSAND_DEALS

CODES = set(PACK.codes)


def codes_in(obj: Any) -> set[str]:
    """Return every card code mentioned anywhere in a JSON-like value."""
    if isinstance(obj, str):
        return {obj} & CODES
    if isinstance(obj, dict):
        return set().union(*(codes_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list | tuple):
        return set().union(*(codes_in(v) for v in obj)) if obj else set()
    return set()


def may_know(state: State, seat: int) -> int:
    """The cards seat may know, from the state: its hand, every card played, and its own
    discard if it is the dealer (rules §2: D is hidden; only the count is announced)."""
    played = 0
    for trick in (*state.tricks, state.trick):
        for _, c in trick:
            played |= 1 << c
    return state.hands[seat] | played | (state.discard if seat == state.dealer else 0)


@THOUSAND_DEALS
def test_no_view_leaks_a_hidden_card(seeds: range) -> None:
    """Over 1,000 deals, every seat's view (as data and as JSON) holds only knowable cards."""
    for seed in seeds:
        rng = random.Random(seed)
        state = RULES.deal(seed)
        step = 0
        while state.to_move is not None:
            for seat in range(4):
                v = view(state, seat)
                allowed = may_know(state, seat)
                assert not v.known & ~allowed, (seed, step, seat)
                assert v.hand == state.hands[seat]
                assert (v.legal != ()) == (seat == state.to_move)
                if step % 9 == 0:
                    assert codes_in(to_json(v)) <= set(PACK.codes_of(allowed)), (seed, seat)
            state = RULES.apply(state, rng.choice(RULES.legal_actions(state)))
            step += 1


def test_view_contents() -> None:
    """A view holds the hand, hand sizes, the announcement and the legal actions."""
    state = RULES.deal(8)
    dealer = state.dealer
    v = view(state, dealer)
    assert v.phase == "discard" and v.legal and v.hand_sizes[dealer] == 17
    assert view(state, (dealer + 1) % 4).legal == ()
    while state.phase != 1:
        state = RULES.apply(state, RULES.legal_actions(state)[0])
    other = view(state, (dealer + 2) % 4)
    assert other.events[0].kind == "announce" and other.private == 0
    assert other.hand_sizes[dealer] == 15
    data = to_json(other)
    assert data["phase"] == "play" and data["over"] is False and "result" not in data
    assert " discarded " in data["events"][0]["text"]


def test_the_result_is_public_at_the_end() -> None:
    """At the end every view carries the result, with the discard revealed (rules §7.7)."""
    state = RULES.deal(21)
    while state.to_move is not None:
        state = RULES.apply(state, RULES.legal_actions(state)[0])
    for seat in range(4):
        data = to_json(view(state, seat))
        assert data["over"] and data["result"]["ns"] + data["result"]["ew"] == 114
        assert data["result"]["discard"] == PACK.codes_of(state.discard)
