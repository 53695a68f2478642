"""Piedicavallo: differential tests against the spec's pseudo-code, perft counts, properties."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tarocchi.cards import bits, popcount
from tarocchi.games.piedicavallo import PACK, PLAY, RULES, State
from tests.games import reference_piedicavallo as ref
from tests.games.perft import perft

DATA = Path(__file__).parent.parent / "data" / "piedicavallo_perft.json"
BY_CODE = {c.code: c for c in ref.DECK}


def cards(mask: int) -> set[ref.C]:
    return {BY_CODE[PACK.codes[c]] for c in bits(mask)}


def reference_legal(state: State) -> set[str]:
    """The legal actions by the spec's pseudo-code alone."""
    p = state.to_move
    assert p is not None
    if state.phase == PLAY:
        hand = sorted(cards(state.hands[p]), key=lambda c: c.code)
        trick = [BY_CODE[PACK.codes[c]] for _, c in state.trick]
        return {c.code for c in ref.legal_moves(hand, trick)}
    full = cards(state.hands[p] | state.discard)
    kept = cards(state.hands[p])
    chosen = cards(state.discard)
    if not chosen:
        return {a.code for a in kept if any(ref.discard_legal(full, {a, b}) for b in kept - {a})}
    return {a.code for a in kept if ref.discard_legal(full, chosen | {a})}


def random_deal(seed: int) -> list[State]:
    """Play a deal with random legal actions; return every state."""
    rng = random.Random(seed)
    state = RULES.deal(seed)
    states = [state]
    while state.to_move is not None:
        state = RULES.apply(state, rng.choice(RULES.legal_actions(state)))
        states.append(state)
    return states


def test_engine_matches_the_spec_pseudo_code() -> None:
    """On 300 random deals, every legal set, trick winner and final score equals the spec's."""
    for seed in range(300):
        states = random_deal(seed)
        for state in states[:-1]:
            engine = {RULES.action_code(a) for a in RULES.legal_actions(state)}
            assert engine == reference_legal(state), (seed, state)
        final = states[-1]
        plays = [[(s, BY_CODE[PACK.codes[c]]) for s, c in t] for t in final.tricks]
        assert [ref.trick_winner(p) for p in plays] == list(final.winners)
        r = RULES.result(final)
        assert (r.ns, r.ew) == ref.score(plays, cards(final.discard), final.dealer), seed


def test_perft_counts() -> None:
    """Move generation is pinned by stored counts of action sequences from fixed deals."""
    stored = json.loads(DATA.read_text())
    assert len(stored["seeds"]) >= 3 and stored["depth"] >= 5
    for seed, counts in stored["seeds"].items():
        state = RULES.deal(int(seed))
        assert [perft(RULES, state, d) for d in range(1, stored["depth"] + 1)] == counts, seed


def test_perft_counts_agree_with_the_reference() -> None:
    """The stored counts are also what the spec's pseudo-code generates (depth 4)."""
    stored = json.loads(DATA.read_text())

    for seed, counts in stored["seeds"].items():
        assert perft(RULES, RULES.deal(int(seed)), 4, reference_legal) == counts[3]


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**40))
def test_random_deal_invariants(seed: int) -> None:
    """§6.23: 15 tricks; scores sum to 114; piles plus the discard hold all 62 cards once."""
    final = random_deal(seed)[-1]
    assert len(final.winners) == 15 and all(len(t) == 4 for t in final.tricks)
    assert final.hands == (0, 0, 0, 0)
    r = RULES.result(final)
    assert r.ns + r.ew == 114
    assert r.winner == ("NS" if r.ns > r.ew else "EW" if r.ew > r.ns else "draw")
    ns, ew = final.piles
    assert not ns & ew and not (ns | ew) & final.discard
    assert popcount(ns) + popcount(ew) + popcount(final.discard) == 62
    assert r.piles[0] | r.piles[1] == PACK.full_mask and not r.piles[0] & r.piles[1]
    assert PACK.points_of(r.piles[0]) == r.ns and PACK.points_of(r.piles[1]) == r.ew
    assert popcount(final.discard & PACK.trump_mask) == RULES.public_events(final)[0].value


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**40))
def test_cards_conserved_at_every_step(seed: int) -> None:
    """At every step the hands, current trick, piles and discard partition the 62 cards."""
    for state in random_deal(seed):
        masks = [*state.hands, *state.piles, state.discard, sum(1 << c for _, c in state.trick)]
        union = 0
        for mask in masks:
            assert not union & mask
            union |= mask
        assert union == PACK.full_mask
