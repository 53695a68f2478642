"""Ottocento: differential tests against the spec's pseudo-code, views that never leak,
conservation of cards and points, and perft counts."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tarocchi.cards import bits, popcount
from tarocchi.games.ottocento import DECLARE, DISCARD, PACK, PLAY, RULES, State
from tarocchi.views import to_json, view
from tests.conftest import THOUSAND_DEALS
from tests.games import reference_ottocento as ref
from tests.games.perft import perft

DATA = Path(__file__).parent.parent / "data" / "ottocento_perft.json"
PROTECTED = {"ANGEL", "WORLD", "BEGATO", "MATTO", "SW-K", "BA-K", "CU-K", "CO-K"}


def codes(mask: int) -> list[str]:
    return PACK.codes_of(mask)


def random_deal(seed: int, keep_matto: bool = False) -> list[State]:
    """Play a deal with random legal actions (keep_matto: the Matto only when nothing else
    is legal, so that it falls in the last trick); return every state."""
    rng = random.Random(seed)
    state = RULES.deal(seed)
    states = [state]
    while state.to_move is not None:
        actions = RULES.legal_actions(state)
        if keep_matto and len(actions) > 1 and PACK.matto in actions:
            actions.remove(PACK.matto)
        state = RULES.apply(state, rng.choice(actions))
        states.append(state)
    return states


def reference_legal(state: State) -> set[str]:
    """The legal actions by the spec alone."""
    p = state.to_move
    assert p is not None
    hand = codes(state.hands[p])
    if state.phase == DISCARD:
        return {c for c in hand if c not in PROTECTED}
    if state.phase == DECLARE:
        return {"DECLARE", "PASS"}
    return set(ref.legal(hand, [PACK.codes[c] for _, c in state.trick]))


def test_engine_matches_the_spec_pseudo_code() -> None:
    """On 400 random deals: every legal set, every declaration, every trick winner and the
    final totals (the Matto's card found by trying every candidate) equal the spec's."""
    seen: Counter[str] = Counter()
    for seed in range(400):
        states = random_deal(seed, keep_matto=seed % 4 == 0)
        for before in states[:-1]:
            actions = RULES.legal_actions(before)
            assert actions == bits(RULES.legal_mask(before))  # ascending ids
            engine = {RULES.action_code(a) for a in actions}
            assert engine == reference_legal(before), (seed, before)
        final = states[-1]
        for _, cards, value in final.declarations:
            if cards:
                assert value == ref.evaluate(codes(cards))
                seen["declared"] += 1
        plays = [[(s, PACK.codes[c]) for s, c in t] for t in final.tricks]
        assert [ref.winner(t) for t in plays] == list(final.winners)
        for trick, t in zip(final.tricks, plays, strict=True):
            for k in range(1, 5):
                # the winner so far of a partial trick, as bots and faces ask for it
                got = RULES.winning_play(trick[:k])
                real = [p for p in t[:k] if p[1] != "MATTO"]
                assert (got[0] if got else None) == (ref.winner(t[:k]) if real else None)
        declared = [0, 0]
        for s, _, value in final.declarations:
            declared[s & 1] += value
        ns, ew, card = ref.end_of_deal(plays, set(codes(final.discard)), final.dealer, declared)
        r = RULES.result(final)
        assert (r.ns, r.ew) == (ns, ew), seed
        assert dict(r.extra)["matto_settlement"] == card, seed
        # how often the rarer clauses came up, so that the comparison covers them
        matto_trick = next(i for i, t in enumerate(plays) if any(c == "MATTO" for _, c in t))
        owner = next(s for s, c in plays[matto_trick] if c == "MATTO")
        seen["matto in the last trick"] += matto_trick == 14
        seen["matto in an own trick"] += final.winners[matto_trick] & 1 == owner & 1
        seen["matto settled"] += card is not None
        seen["moor tie"] += any(sum(c.startswith("MOOR") for _, c in t) >= 2 for t in plays)
    assert min(seen.values()) >= 3 and len(seen) == 5, seen


def test_declaration_phase_follows_the_hand() -> None:
    """Every player is asked to declare exactly when his hand at his first turn scores."""
    for seed in range(300):
        for state in random_deal(seed):
            p = state.to_move
            if p is None or state.winners or state.phase == DISCARD:
                continue
            decided = {s for s, _, _ in state.declarations}
            if p not in decided:
                assert state.phase == DECLARE
                assert ref.evaluate(codes(state.hands[p])) > 0
            else:
                assert state.phase == PLAY
        final = state
        assert [s for s, _, _ in final.declarations] == [
            (final.dealer + 1 + k) % 4 for k in range(4)
        ]


def _check_views(states: list[State], as_json: bool) -> None:
    for state in states:
        played = 0
        for t in (*state.tricks, state.trick):
            for _, c in t:
                played |= 1 << c
        declared = 0
        for _, cards, _ in state.declarations:
            declared |= cards
        for seat in range(4):
            v = view(state, seat)
            allowed = state.hands[seat] | played | declared
            if seat == state.dealer:
                allowed |= state.discard
            if state.to_move is None:
                allowed = PACK.full_mask  # the result shows every pile
            assert v.known & ~allowed == 0, (seat, codes(v.known & ~allowed))
            assert v.hand == state.hands[seat]
            assert v.won[0] | v.won[1] == played & ~_current(state)
            assert all(s & ~declared == 0 for s in v.shown)
            assert v.private == (state.discard if seat == state.dealer else 0)
            assert (v.result is None) == (state.to_move is not None)
            assert bool(v.legal) == (state.to_move == seat)
            if as_json and state.to_move is not None:
                text = json.dumps(to_json(v))
                for c in range(PACK.size):
                    code = f'"{PACK.codes[c]}"'
                    if not allowed >> c & 1:
                        assert code not in text, (seat, code)


def _current(state: State) -> int:
    m = 0
    for _, c in state.trick:
        m |= 1 << c
    return m


@THOUSAND_DEALS
def test_views_never_leak_on_1000_deals(seeds: range) -> None:
    """In 1000 seeded random deals no view of any seat, at any step, holds a card that seat
    cannot know: other hands stay hidden, the discard is the dealer's alone, declared cards
    are public. Every tenth deal is also checked through its JSON form."""
    for seed in seeds:
        _check_views(random_deal(seed), as_json=seed % 10 == 0)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**40))
def test_conservation(seed: int) -> None:
    """Every step partitions the 62 cards; every final pile is even, cp sums to 87 (93 with
    the last trick), and the breakdown adds up to the totals."""
    states = random_deal(seed)
    for state in states:
        masks = [*state.hands, *state.piles, state.discard, _current(state)]
        union = 0
        for mask in masks:
            assert not union & mask
            union |= mask
        assert union == PACK.full_mask
    final = states[-1]
    assert len(final.winners) == 15 and all(len(t) == 4 for t in final.tricks)
    r = RULES.result(final)
    ns, ew = r.piles
    assert not ns & ew and ns | ew == PACK.full_mask
    assert popcount(ns) % 2 == 0 and popcount(ew) % 2 == 0
    extra = dict(r.extra)
    assert sum(extra["card_points"]) == 87
    assert sum(x.ns for x in r.lines) == r.ns and sum(x.ew for x in r.lines) == r.ew
    assert r.ns == sum(extra[k][0] for k in ("card_points", "captured", "declared")) + 6 * (
        final.winners[-1] % 2 == 0
    )
    assert r.winner == ("NS" if r.ns > r.ew else "EW" if r.ew > r.ns else "draw")


def test_perft_counts() -> None:
    """Move generation (discards, declarations, plays) is pinned by stored counts."""
    stored = json.loads(DATA.read_text())
    assert len(stored["seeds"]) >= 3 and stored["depth"] >= 4
    for seed, counts in stored["seeds"].items():
        state = RULES.deal(int(seed))
        assert [perft(RULES, state, d) for d in range(1, stored["depth"] + 1)] == counts, seed


def test_perft_counts_agree_with_the_reference() -> None:
    """The stored counts are also what the spec alone generates (depth 4)."""
    stored = json.loads(DATA.read_text())

    for seed, counts in stored["seeds"].items():
        assert perft(RULES, RULES.deal(int(seed)), 4, reference_legal) == counts[3]
