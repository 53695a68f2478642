"""Minchiate's pre-play sequence: the cut, the cutter's and the dealer's robbing, the deal
with its exposed cards and the Fola, the discards and the declarations, up to the first lead
(rules §2-§3 of docs/rules.md, Minchiate). The trick play is tarocchi.games.minchiate's.
"""

from __future__ import annotations

from tarocchi.cards import BIT, bits, mask_of
from tarocchi.games.minchiate_combos import combos, has_versicola
from tarocchi.games.minchiate_deal import (
    DECLARE,
    DISCARD,
    DISCARDABLE,
    DONE,
    HAND_SIZE,
    N_CARDS,
    PLAY,
    POINTS,
    ROB_LIMIT,
    ROBBABLE,
    SPECIAL,
    T29_BIT,
    DealInfo,
    State,
)


def is_robbable(card: int) -> bool:
    """Return True if card may be robbed: a counting card or a trump above 20 (rules §2.2)."""
    return bool(ROBBABLE >> card & 1)


def discard_mask(hand: int) -> int:
    """Return the cards the cutter or dealer may discard next (rules §2.5: zero-point cards
    but T29; §6.2: when none is left, T29 first, then the lowest-valued special cards)."""
    m = hand & DISCARDABLE
    if m or not hand:
        return m
    if hand & T29_BIT:
        return T29_BIT
    low = min(POINTS[c] for c in bits(hand))
    return mask_of(c for c in bits(hand) if POINTS[c] == low)


def cut_of(seed: int) -> int:
    """Return the cut (cards lifted, 1-96) of a seed: a SplitMix64 hash, the same everywhere."""
    z = (seed * 0x9E3779B97F4A7C15 + 0x6D696E6368696174) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ z >> 30) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ z >> 27) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return 1 + (z ^ z >> 31) % (N_CARDS - 1)


def declarable(hand: int) -> int:
    """Return the declaration actions open to a hand as a mask: one per canonical versicola
    it holds, plus DECL-DONE; 0 if it holds none."""
    if not has_versicola(hand):
        return 0
    m = 1 << DONE
    for c in combos(hand):
        m |= 1 << (N_CARDS + c.kind)
    return m


_new_state = tuple.__new__  # builds a State without the Python-level __new__ (hot path)


def turn(
    state: State,
    phase: int,
    to_move: int,
    legal: int,
    declared: tuple[tuple[int, int, int, int], ...],
) -> State:
    """Return state with another phase, player to move, legal mask and declarations."""
    hands, dealer, _, _, leader, trick, tricks, winners, piles, _, led, discards, _, info = state
    return _new_state(
        State,
        (hands, dealer, phase, to_move, leader, trick, tricks, winners, piles, legal, led, discards,
         declared, info),
    )  # fmt: skip


def deal(deck: list[int], dealer: int, cut: int) -> State:
    """Run the pre-play sequence (rules §2) from a checked deck, dealer and cut."""
    cutter = (dealer + 3) & 3  # rules §2.1: the dealer's left, prev(dealer)
    # rules §2.2 [I1]: the cutter robs an unbroken run from the bottom of the lifted packet
    low = cut
    stop = max(0, cut - ROB_LIMIT)
    while low > stop and ROBBABLE >> deck[low - 1] & 1:
        low -= 1
    robbed = tuple(reversed(deck[low:cut]))
    rest = deck[cut:] + deck[:low]
    # rules §2.3: 10 each then 11 each, from next(dealer) round to the dealer
    dealt = [0, 0, 0, 0]
    exposed = [0, 0, 0, 0]
    bit = BIT
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        start = 40 + 11 * k
        dealt[seat] = sum(
            map(bit.__getitem__, rest[10 * k : 10 * k + 10] + rest[start : start + 11])
        )
        exposed[seat] = rest[start + 10]
    fola = rest[84:]
    # rules §2.4 [I2]: the dealer robs from the top of the Fola while he can, then must
    # take every counting card and T29 left in it
    i = 0
    while i < len(fola) and ROBBABLE >> fola[i] & 1:
        i += 1
    fola_robbed = mask_of(fola[:i])
    left = mask_of(fola[i:])
    taken = left & SPECIAL
    robbed_mask = mask_of(robbed)
    faceup = [bit[exposed[0]], bit[exposed[1]], bit[exposed[2]], bit[exposed[3]]]
    faceup[cutter] |= robbed_mask
    faceup[dealer] |= fola_robbed | taken
    hands = list(dealt)
    hands[cutter] |= robbed_mask
    hands[dealer] |= fola_robbed | taken
    info = DealInfo(
        tuple(deck),
        cut,
        cutter,
        robbed,
        (exposed[0], exposed[1], exposed[2], exposed[3]),
        (dealt[0], dealt[1], dealt[2], dealt[3]),
        tuple(fola),
        tuple(fola[:i]),
        fola[i] if i < len(fola) else -1,
        taken,
        left & ~taken,
        (faceup[0], faceup[1], faceup[2], faceup[3]),
    )
    # rules §2.5: the cutter discards first, then the dealer, back to 21 each
    if robbed_mask:
        to_move, legal = cutter, discard_mask(hands[cutter])
    elif fola_robbed | taken:
        to_move, legal = dealer, discard_mask(hands[dealer])
    else:
        to_move, legal = None, 0
    state = _new_state(
        State,
        (
            (hands[0], hands[1], hands[2], hands[3]),
            dealer,
            DISCARD,
            to_move,
            (dealer + 1) & 3,
            (),
            (),
            (),
            (0, 0),
            legal,
            0,
            (0, 0),
            (),
            info,
        ),
    )
    return state if to_move is not None else next_declarer(state, (dealer + 1) & 3)


def next_declarer(state: State, seat: int) -> State:
    """Return state with the first player from seat on (the dealer declares last) who holds
    an undeclared versicola to move; else the play (rules §3: players without a
    combination are skipped)."""
    dealer = state.dealer
    while True:
        legal = declarable(state.hands[seat])
        if legal:
            return turn(state, DECLARE, seat, legal, state.declared)
        if seat == dealer:
            return start_play(state)
        seat = (seat + 1) & 3


def after_discard(state: State, card: int) -> State:
    """Return the state after the cutter or the dealer discards card (rules §2.5)."""
    hands, dealer, _, p, leader, _, _, _, _, legal, _, discards, declared, info = state
    assert p is not None
    bit = 1 << card
    h = list(hands)
    h[p] ^= bit
    hands = (h[0], h[1], h[2], h[3])
    cutter_d, dealer_d = discards
    if p == dealer:
        dealer_d |= bit
    else:
        cutter_d |= bit
    if h[p].bit_count() > HAND_SIZE:
        # the next discard: the same choice less this card, unless it was the last one
        legal = legal & ~bit if legal & DISCARDABLE & ~bit else discard_mask(h[p])
    elif p != dealer and h[dealer].bit_count() > HAND_SIZE:
        p, legal = dealer, discard_mask(h[dealer])
    else:
        p, legal = None, 0
    state = _new_state(
        State,
        (
            hands,
            dealer,
            DISCARD,
            p,
            leader,
            (),
            (),
            (),
            (0, 0),
            legal,
            0,
            (cutter_d, dealer_d),
            declared,
            info,
        ),
    )
    return state if p is not None else next_declarer(state, (dealer + 1) & 3)


def after_declaration(state: State, action: int) -> State:
    """Return the state after a declaration choice (rules §3): a versicola is shown and
    scored, or DECL-DONE passes to the next player."""
    p = state.to_move
    assert p is not None
    if action != DONE:
        kind = action - N_CARDS
        combo = next(c for c in combos(state.hands[p]) if c.kind == kind)
        declared = (*state.declared, (p, kind, combo.cards, combo.value))
        legal = state.legal & ~(1 << action)
        if legal != 1 << DONE:
            return turn(state, DECLARE, p, legal, declared)
        state = turn(state, DECLARE, p, 0, declared)
    if p == state.dealer:
        return start_play(state)
    return next_declarer(state, (p + 1) & 3)


def start_play(state: State) -> State:
    """Return state at the first lead (rules §2.6: the Fola is now shown; §4: next(dealer)
    leads the first trick)."""
    leader = (state.dealer + 1) & 3
    return turn(state, PLAY, leader, state.hands[leader], state.declared)
