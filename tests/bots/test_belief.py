"""Belief sampling: sampled deals never contradict the seat's view.

For each game, positions come from seeded deals played by random legal moves;
at each position every seat samples deals. A sample is consistent when the
deal it implies, replayed from the start through the rules with the public
history, is legal at every step and shows the seat exactly its view.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from tarocchi.bots.belief import Infeasible, assign, played_by
from tarocchi.bots.inference import void_masks
from tarocchi.bots.parts import belief
from tarocchi.cards import bits, popcount
from tarocchi.games import game
from tarocchi.games.piedicavallo import DISCARDABLE_SUIT, DISCARDABLE_TRUMPS
from tarocchi.games.piedicavallo import RULES as PIEDICAVALLO
from tarocchi.views import View, view


def positions(name: str, deals: int, every: int, seed: int = 0) -> Iterator[tuple[Any, int]]:
    """Yield (state, seat) along seeded random deals: every `every`-th state, all four seats."""
    rules = game(name)
    for d in range(deals):
        rng = random.Random(seed + d)
        state = rules.deal(seed + d)
        k = 0
        while state.to_move is not None:
            if k % every == 0:
                for seat in range(4):
                    yield state, seat
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
            k += 1


def replay_piedicavallo(v: View, d: Any) -> Any:
    """Replay the deal a sample implies from the deal itself: the dealer's 17 cards are its
    hand, its discard and what it played; the discard goes down first, then the tricks."""
    played = played_by(v)
    hands = [d.hands[s] | played[s] for s in range(4)]
    hands[v.dealer] |= d.discard
    state = PIEDICAVALLO.start((hands[0], hands[1], hands[2], hands[3]), v.dealer)
    down = bits(d.discard)
    if len(down) == 2 and not PIEDICAVALLO.legal_mask(state) >> down[0] & 1:
        down.reverse()
    for card in down:
        state = PIEDICAVALLO.apply(state, card)
    for trick in (*v.tricks, v.trick):
        for seat, card in trick:
            assert state.to_move == seat
            state = PIEDICAVALLO.apply(state, card)
    return state


def replay_ottocento(v: View, d: Any) -> Any:
    """Replay the deal a sample implies from the deal itself: the discard, then each player's
    declaration or pass at its first turn (as the events tell), and the tricks."""
    rules = game("ottocento")
    played = played_by(v)
    hands = [d.hands[s] | played[s] for s in range(4)]
    hands[v.dealer] |= d.discard
    state = rules.start((hands[0], hands[1], hands[2], hands[3]), v.dealer)
    for card in bits(d.discard):
        state = rules.apply(state, card)
    choices = {
        e.seat: rules.parse_action("DECLARE" if e.kind == "declare" else "PASS")
        for e in v.events
        if e.kind in ("declare", "pass")
    }
    for trick in (*v.tricks, v.trick):
        for seat, card in trick:
            if rules.phase_name(state) == "declare":
                state = rules.apply(state, choices[seat])
            assert state.to_move == seat
            state = rules.apply(state, card)
    if rules.phase_name(state) == "declare" and state.to_move in choices:
        state = rules.apply(state, choices[state.to_move])
    return state


def test_assign_respects_places_and_sizes() -> None:
    rng = random.Random(1)
    cards = (1 << 12) - 1
    places = [(0b000000111111, 3), (0b111111000000, 6), ((1 << 12) - 1, 3)]
    for _ in range(200):
        out = assign(cards, places, rng)
        assert [popcount(m) for m in out] == [3, 6, 3]
        assert out[0] | out[1] | out[2] == cards
        for m, (allowed, _) in zip(out, places, strict=True):
            assert not m & ~allowed


def test_assign_finds_the_only_deal() -> None:
    # Hall's condition forces every card: the sampler must never get stuck
    rng = random.Random(2)
    places = [(0b0011, 2), (0b0111, 1), (0b1111, 1)]
    for _ in range(50):
        assert assign(0b1111, places, rng) == [0b0011, 0b0100, 0b1000]


def test_assign_reports_an_impossible_deal() -> None:
    with pytest.raises(Infeasible):
        assign(0b111, [(0b001, 2), (0b110, 1)], random.Random(0))
    with pytest.raises(Infeasible):
        assign(0b111, [(0b111, 2)], random.Random(0))


def test_assign_is_uniform_without_constraints() -> None:
    rng = random.Random(3)
    counts = [0, 0, 0]
    for _ in range(3000):
        out = assign(0b111111, [(0b111111, 1), (0b111111, 2), (0b111111, 3)], rng)
        for i in range(3):
            counts[i] += out[i] & 1
    # card 0 lands in each place in proportion to its size: 1/6, 2/6, 3/6
    assert abs(counts[0] / 3000 - 1 / 6) < 0.03
    assert abs(counts[1] / 3000 - 2 / 6) < 0.03
    assert abs(counts[2] / 3000 - 3 / 6) < 0.03


def test_piedicavallo_samples_never_contradict_the_view() -> None:
    rng = random.Random(7)
    checked = 0
    for state, seat in positions("piedicavallo", 40, 5):
        v = view(state, seat)
        for _ in range(2):
            d = belief(v).sample(rng)
            assert view(d, seat) == v
            voids = void_masks(v)
            for s in range(4):
                assert not d.hands[s] & voids[s]
            assert view(replay_piedicavallo(v, d), seat) == v
            checked += 1
    assert checked > 1000


def test_piedicavallo_discard_holds_the_announced_trumps() -> None:
    rng = random.Random(8)
    for state, seat in positions("piedicavallo", 60, 7, seed=100):
        if state.phase == 0 or seat == state.dealer:
            continue
        v = view(state, seat)
        k = next(e.value for e in v.events if e.kind == "announce")
        for _ in range(3):
            d = belief(v).sample(rng)
            assert popcount(d.discard & DISCARDABLE_TRUMPS) == k
            assert popcount(d.discard & DISCARDABLE_SUIT) == 2 - k


def test_piedicavallo_dealer_discarding_trumps_kept_none() -> None:
    # rules §2: T5 and T9 are the dealer's only trumps; discarding both announces 2, so
    # every sample must leave the dealer without trumps (clause b)
    from tests.games.piedicavallo_helpers import play, table

    swords = ["SW-5", "SW-6", "SW-7", "SW-8", "SW-9", "SW-10", "SW-J", "SW-N", "SW-Q", "SW-K"]
    state = table(3, {3: ["T5", "T9", *swords, "BA-5", "BA-6", "BA-7", "BA-8", "BA-9"]})
    state = play(state, "T5", "T9")
    v = view(state, 0)
    rng = random.Random(4)
    for _ in range(50):
        d = belief(v).sample(rng)
        assert popcount(d.discard & DISCARDABLE_TRUMPS) == 2
        assert not d.hands[3] & PIEDICAVALLO.pack.trump_mask


def test_ottocento_samples_never_contradict_the_view() -> None:
    rng = random.Random(9)
    checked = 0
    for state, seat in positions("ottocento", 30, 5):
        v = view(state, seat)
        known = belief(v)
        for _ in range(2):
            d = known.sample(rng)
            assert view(d, seat) == v
            voids = void_masks(v)
            for s in range(4):
                assert not d.hands[s] & voids[s]
            if v.phase != "discard":
                assert view(replay_ottocento(v, d), seat) == v
            checked += 1
    assert checked > 800


def test_ottocento_declarer_holds_nothing_more() -> None:
    # a declarer of three Kings cannot hold the fourth: it would have declared four
    from tarocchi.games.ottocento_combos import combination_value

    rules = game("ottocento")
    rng = random.Random(10)
    found = 0
    for state, seat in positions("ottocento", 60, 9, seed=500):
        v = view(state, seat)
        if v.phase != "play":
            continue
        for e in v.events:
            if e.kind == "declare" and e.seat != seat:
                assert e.seat is not None
                d = belief(v).sample(rng)
                hand = d.hands[e.seat] | played_by(v)[e.seat]
                assert combination_value(hand) == e.value
                found += 1
    assert found > 50
    assert rules.name == "ottocento"


def replay_minchiate(v: View, d: Any) -> Any:
    """Replay a sampled Minchiate deal from its rebuilt deck: the pre-play sequence, the
    discards, each declaration (then DECL-DONE while the declarer is still asked), the
    tricks."""
    from tarocchi.games.minchiate import DONE, N_CARDS

    rules = game("minchiate")
    info = d.info
    state = rules.deal_from(info.deck, v.dealer, info.cut)
    cutter_d, dealer_d = d.discards
    for card in (*bits(cutter_d), *bits(dealer_d)):
        state = rules.apply(state, card)
    while rules.phase_name(state) == "declare":
        p = state.to_move
        for s, kind, _, _ in d.declared:
            if s == p and state.to_move == p and rules.phase_name(state) == "declare":
                state = rules.apply(state, N_CARDS + kind)
        if state.to_move == p and rules.phase_name(state) == "declare":
            state = rules.apply(state, DONE)
    for trick in (*v.tricks, v.trick):
        for seat, card in trick:
            assert state.to_move == seat
            state = rules.apply(state, card)
    return state


def test_minchiate_samples_never_contradict_the_view() -> None:
    rng = random.Random(11)
    checked = 0
    for state, seat in positions("minchiate", 16, 9):
        if game("minchiate").phase_name(state) != "play":
            continue
        v = view(state, seat)
        known = belief(v)
        for _ in range(2):
            d = known.sample(rng)
            assert view(d, seat) == v
            voids = void_masks(v)
            for s in range(4):
                assert not d.hands[s] & voids[s]
            assert view(replay_minchiate(v, d), seat) == v
            checked += 1
    assert checked > 400


def test_minchiate_preplay_samples_never_contradict_the_view() -> None:
    """Before the first lead the discards and the Fola's cards are hidden too: each sample's
    deck deals exactly its hands, robbed and taken cards; discards and the Fola rest are
    zero-point cards other than T29; a zero-point face-up card of the cutter or the dealer
    stays with its holder or in its discards; the view is the same."""
    from tarocchi.games.minchiate import DISCARDABLE, SPECIAL

    rules = game("minchiate")
    rng = random.Random(12)
    checked = 0
    for state, seat in positions("minchiate", 40, 1):
        if rules.phase_name(state) not in ("discard", "declare"):
            continue
        v = view(state, seat)
        known = belief(v)
        d = known.sample(rng)
        assert view(d, seat) == v
        info = d.info
        start = rules.deal_from(info.deck, v.dealer, info.cut)
        assert start.info == info
        assert not (d.discards[0] | d.discards[1]) & ~DISCARDABLE
        assert not info.fola_rest & SPECIAL
        for s in (info.cutter, v.dealer):
            loose = info.faceup[s] & DISCARDABLE
            mine = d.hands[s] | d.discards[0 if s == info.cutter else 1]
            assert loose & mine == loose
        checked += 1
    assert checked > 60


def test_minchiate_king_rule_reveals_the_king() -> None:
    # rules §4 (spec test 5): in the first Cups trick, after a trump, a player who still
    # follows with another Cup does not hold CU-K
    from tarocchi.games.minchiate import KING_MASK, LED_MASK, TRUMP_MASK

    rng = random.Random(12)
    seen = 0
    for state, seat in positions("minchiate", 40, 3, seed=300):
        if game("minchiate").phase_name(state) != "play" or len(state.tricks) > 6:
            continue
        v = view(state, seat)
        led_before = 0
        for trick in v.tricks:
            suit = LED_MASK[trick[0][1]] or LED_MASK[trick[1][1]]
            if suit != TRUMP_MASK and not led_before & suit:
                king = suit & KING_MASK
                trumped = False
                for s, card in trick:
                    if trumped and s != seat and 1 << card & suit and 1 << card != king:
                        d = belief(v).sample(rng)
                        assert not d.hands[s] & king
                        seen += 1
                    trumped = trumped or bool(TRUMP_MASK >> card & 1)
            led_before |= suit
    assert seen > 5


def test_ottocento_declarer_shows_exactly_the_declared_cards() -> None:
    """A position where South declared four Kings holding the Matto (West's view): the
    Matto can lie nowhere else (it would have added to East's and North's declarations),
    so South cannot hold a card that scores with it either. Every sample shows, at South's
    declaration, exactly the declared cards (before, most draws were refused and 200 refusals
    in a row kept a deal that contradicts the view)."""
    from tarocchi.games.ottocento_combos import analyse

    rules = game("ottocento")
    state = rules.deal(9)
    for code in ["T10", "MOOR1", "DECLARE", "CU-K", "DECLARE", "CU-9", "DECLARE", "CU-8", "T14"]:
        state = rules.apply(state, rules.parse_action(code))
    v = view(state, 3)
    known = belief(v)
    rng = random.Random(11)
    for _ in range(300):
        d = known.sample(rng)
        for e in v.events:
            if e.kind == "declare":
                assert e.seat is not None
                hand = d.hands[e.seat] | played_by(v)[e.seat]
                assert analyse(hand).cards == e.cards


REPLAYS = {
    "piedicavallo": replay_piedicavallo,
    "ottocento": replay_ottocento,
    "minchiate": replay_minchiate,
}


@pytest.mark.parametrize("name", sorted(REPLAYS))
def test_swapped_deals_never_contradict_the_view(name: str) -> None:
    """`neighbour` (the step of the hard level's chains) swaps two hidden cards between
    places that allow them and keeps every rule `accept` checks: a walk of swaps from a
    sampled deal stays consistent with the view, as the sampled deal itself is."""
    rules = game(name)
    rng = random.Random(13)
    checked = swapped = 0
    for state, seat in positions(name, 12, 7, seed=40):
        if rules.phase_name(state) != "play":
            continue
        v = view(state, seat)
        known = belief(v)
        dealt = known.deal(rng)
        for _ in range(12):
            new = known.neighbour(dealt, rng)
            if new is not None:
                assert new != dealt
                dealt = new
                swapped += 1
        d = known.build(dealt)
        assert view(d, seat) == v
        voids = void_masks(v)
        for s in range(4):
            assert not d.hands[s] & voids[s]
        assert view(REPLAYS[name](v, d), seat) == v
        checked += 1
    assert checked > 150
    assert swapped > 5 * checked
