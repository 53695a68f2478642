"""Trick play compiled with numba: the search's playouts at machine speed.

The kernels (`kernel_<game>.py`) play a deal to its end in Python with the greedy
players of `kernel_common.Policy`. For packs of at most 63 cards (Piedicavallo,
Ottocento) this module plays the same players from the same tables, compiled to
machine code: follow suit, else trump, else any card (the Matto always); the
trick goes to its best card by the pack's beat table (so Ottocento's later Moor
beats an earlier one); the Matto never wins and returns to its player's team. It
returns what each team took and the Matto's fate; each game's kernel scores
that by its own rules and proves, in tests/bots/test_compiled.py, that without
random moves its compiled playout is move for move its Python playout.

Random moves (chance eps) come from a SplitMix64 stream seeded per playout, so a
search that gives every action of one sampled deal the same seed compares the
actions on common random numbers.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from tarocchi.bots.kernel_common import Policy
from tarocchi.cards import Pack

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
SEED_MASK = (1 << 63) - 1  # seeds are taken modulo 2**63


class Tables(NamedTuple):
    """A pack's tables for the compiled players (see kernel_common.Policy)."""

    beat: np.ndarray  # per card: the cards that beat it when it is winning
    led: np.ndarray  # per card: the suit it sets when led (0: the Matto)
    points: np.ndarray
    duck: np.ndarray  # per card: the cost of giving it to a lost trick
    load: np.ndarray  # per card: the worth of giving it to the partner's trick
    groups: np.ndarray  # the four suits' masks, then the trumps'
    cheap: int  # the trumps of the lowest value
    trumps: int
    matto: int


def tables(pack: Pack, beat: tuple[int, ...], led: tuple[int, ...], policy: Policy) -> Tables:
    """Return the compiled players' tables of a pack and a policy's judgements."""
    if pack.size > 63:
        raise ValueError(f"a pack of {pack.size} cards does not fit the compiled masks")

    def arr(values: tuple[int, ...] | list[int]) -> np.ndarray:
        return np.array(values, dtype=np.int64)

    return Tables(
        arr(beat), arr(led), arr(list(pack.points)), arr(policy.duck), arr(policy.load),
        arr(list(policy.groups)), policy.cheap_trumps, pack.trump_mask, pack.matto,
    )  # fmt: skip


@njit(cache=True)
def _low(x: int) -> int:
    """The lowest card of a non-empty mask."""
    return trailing_zeros(x)  # type: ignore[call-arg]


@njit(cache=True)
def _high(x: int) -> int:
    """The highest card of a non-empty mask."""
    return 63 - leading_zeros(x)  # type: ignore[call-arg]


@njit(cache=True)
def _count(x: int) -> int:
    """The number of cards in a mask."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _next(state: np.uint64) -> tuple[np.uint64, float]:
    """Advance a SplitMix64 stream; return the new state and a number in [0, 1)."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return state, float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _min_duck(t: Tables, m: int) -> int:
    """The card of m cheapest to give to a lost trick (Policy.min_duck)."""
    if m >> t.matto & 1:
        return t.matto
    best, cost = -1, 1 << 30
    for g in t.groups:
        x = m & g
        if x:
            c = _low(x)
            if t.duck[c] < cost:
                best, cost = c, t.duck[c]
            x &= t.cheap
            if x:
                c = _low(x)
                if t.duck[c] < cost:
                    best, cost = c, t.duck[c]
    return best


@njit(cache=True)
def _max_load(t: Tables, m: int) -> int:
    """The card of m best given to a trick the partner surely wins (Policy.max_load)."""
    best, value = t.matto, -(1 << 30)
    for g in t.groups:
        x = m & g
        if x:
            c = _high(x)
            if t.load[c] > value:
                best, value = c, t.load[c]
            c = _low(x)
            if t.load[c] > value:
                best, value = c, t.load[c]
    return best


@njit(cache=True)
def _legal(t: Tables, hand: int, led: int) -> int:
    """The cards of hand that may be played to a trick whose led suit is the mask led (0:
    the lead): follow suit, else trump, else any card; the Matto always."""
    if not led:
        return hand
    m = hand & led
    if not m:
        m = hand & t.trumps
    return m | (hand & (1 << t.matto)) if m else hand


@njit(cache=True)
def _lead(t: Tables, seeing: bool, hands: np.ndarray, p: int, legal_m: int) -> int:
    """The card to lead (Policy.lead, or its counting variant when not seeing): a sure
    winner that pays most, else the lowest card of the shortest plain suit, else the
    lowest trump."""
    opp1, opp2 = hands[(p + 1) & 3], hands[(p + 3) & 3]
    out = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[p]
    best, best_pts = -1, -1
    short, short_n = 0, 99
    for g in t.groups:
        mask = legal_m & g
        if not mask:
            continue
        c = _high(mask)
        b = t.beat[c]
        if seeing:
            threat1 = opp1 & g if opp1 & g else opp1 & t.trumps
            threat2 = opp2 & g if opp2 & g else opp2 & t.trumps
            sure = not threat1 & b and not threat2 & b
        else:
            sure = not out & g & b  # a master of its suit (ruffs aside)
        if t.points[c] > best_pts and sure:
            best, best_pts = c, t.points[c]
        if g != t.trumps:
            k = _count(mask)
            if k < short_n:
                short, short_n = mask, k
    if best >= 0:
        return best
    if short:
        return _low(short)
    mask = legal_m & t.trumps
    return _low(mask if mask else legal_m)


@njit(cache=True)
def _follow(
    t: Tables,
    seeing: bool,
    hands: np.ndarray,
    p: int,
    n: int,
    led: int,
    top: int,
    top_seat: int,
    legal_m: int,
) -> int:
    """The card to play to a trick already led (Policy.follow, or its counting variant):
    load the partner's sure trick, else win as cheaply as is safe, else duck."""
    beat = t.beat
    m = legal_m & beat[top]
    if seeing:
        nxt = hands[(p + 1) & 3]
        nxt = nxt & led if nxt & led else nxt & t.trumps
        threat_top = nxt
        plain = trumps = nxt  # the next player's possible cards, whatever the card
    else:
        out = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[p]
        plain = out & led & ~t.trumps
        trumps = out & t.trumps
        threat_top = trumps if t.trumps >> top & 1 else plain
    if (top_seat ^ p) & 1 == 0:
        if n == 3 or not threat_top & beat[top]:
            return _max_load(t, legal_m)
        while m:
            c = _low(m)
            if not (trumps if t.trumps >> c & 1 else plain) & beat[c]:
                return c  # cover the partner with a card the opponents cannot beat
            m &= m - 1
        return _min_duck(t, legal_m)
    while m:
        c = _low(m)
        if n == 3 or not (trumps if t.trumps >> c & 1 else plain) & beat[c]:
            return c  # the cheapest card that surely wins
        m &= m - 1
    return _min_duck(t, legal_m)


@njit(cache=True)
def _playout(
    t: Tables,
    seeing: bool,
    h0: int,
    h1: int,
    h2: int,
    h3: int,
    p: int,
    trick: tuple[int, int, int],
    ntrick: int,
    won0: int,
    won1: int,
    eps: float,
    seed: int,
    moves: np.ndarray,
) -> tuple[int, int, int, int, int, int, int]:
    """Play the deal to its end from p's turn, the trick's first ntrick cards down; return
    (the cards each team takes from here, the Matto excluded; the tricks each team has won
    in all; the seat that plays the Matto from here, the seat that wins its trick, or -1s;
    the last trick's winner) and write the cards played to moves, then -1."""
    hands = np.array([h0, h1, h2, h3], dtype=np.int64)
    piles = np.zeros(2, dtype=np.int64)
    won = np.array([won0, won1], dtype=np.int64)
    rng = np.uint64(seed)
    matto = t.matto
    owner, taker, last = -1, -1, -1
    top, top_seat, led, n, cards = -1, -1, 0, 0, 0
    for i in range(ntrick):
        c = trick[i]
        seat = (p - ntrick + n) & 3
        n += 1
        cards |= 1 << c
        if c == matto:
            owner = seat
            continue
        if not led:
            led = t.led[c]
        if top < 0 or t.beat[top] >> c & 1:
            top, top_seat = c, seat
    left = _count(h0 | h1 | h2 | h3)
    played = 0
    while left:
        hand = hands[p]
        legal_m = _legal(t, hand, led)
        if legal_m & (legal_m - 1) == 0:
            card = _high(legal_m)
        else:
            r = 1.0
            if eps:
                rng, r = _next(rng)
            if r < eps:
                rng, r = _next(rng)
                x = legal_m
                for _ in range(int(r * _count(legal_m))):
                    x &= x - 1
                card = _low(x)
            elif top < 0:
                card = _lead(t, seeing, hands, p, legal_m)
            else:
                card = _follow(t, seeing, hands, p, n, led, top, top_seat, legal_m)
        hands[p] = hand ^ (1 << card)
        left -= 1
        moves[played] = card
        played += 1
        cards |= 1 << card
        if card == matto:
            owner = p
        else:
            if not led:
                led = t.led[card]
            if top < 0 or t.beat[top] >> card & 1:
                top, top_seat = card, p
        if n < 3:
            n += 1
            p = (p + 1) & 3
            continue
        real = cards & ~(1 << matto)
        piles[top_seat & 1] |= real
        if real != cards:
            taker = top_seat  # the Matto's trick (its player is `owner`)
        won[top_seat & 1] += 1
        last = p = top_seat
        top, top_seat, led, n, cards = -1, -1, 0, 0, 0
    moves[played] = -1
    return piles[0], piles[1], won[0], won[1], owner, taker, last


_MOVES = np.empty(64, dtype=np.int64)  # the cards of the latest playout (one per process)


class Outcome(NamedTuple):
    """What a compiled playout leaves to score."""

    piles: tuple[int, int]  # the cards each team took in the playout, the Matto excluded
    won: tuple[int, int]  # the tricks each team won in the whole deal
    owner: int  # the seat that played the Matto in the playout (-1: none)
    taker: int  # the winner of the Matto's trick, if it ended in the playout (else -1)
    last: int  # the winner of the last trick
    moves: tuple[int, ...]  # the cards played


def playout(
    t: Tables,
    seeing: bool,
    hands: tuple[int, int, int, int],
    to_move: int,
    trick: tuple[int, ...],
    won: tuple[int, int],
    eps: float,
    seed: int,
    record: bool = False,
) -> Outcome:
    """Play a trick-phase position to the end with the compiled players (seeing every
    hand, or counting cards only); the seed fixes the random moves (chance eps). The
    cards played are listed in the outcome only when record is set."""
    x = (*trick, -1, -1, -1)
    ns, ew, won_ns, won_ew, owner, taker, last = _playout(
        t, seeing, hands[0], hands[1], hands[2], hands[3], to_move, (x[0], x[1], x[2]),
        len(trick), won[0], won[1], eps, seed & SEED_MASK, _MOVES,
    )  # fmt: skip
    moves: list[int] = []
    if record:
        for c in _MOVES:
            if c < 0:
                break
            moves.append(int(c))
    return Outcome((ns, ew), (won_ns, won_ew), owner, taker, last, tuple(moves))


@njit(cache=True)
def _replay(
    t: Tables, seeing: bool, hands: np.ndarray, seats: np.ndarray, cards: np.ndarray, skip: int
) -> tuple[int, int]:
    """Replay the plays so far (seats[i] played cards[i], tricks of four from the first) from
    the hands before the first of them; return how many of the plays by seats other than
    skip, with a choice, the players would have made differently: (another card of the same
    suit and points, any other card)."""
    hands = hands.copy()
    near, miss = 0, 0
    top, top_seat, led, n = -1, -1, 0, 0
    for i in range(len(cards)):
        p = seats[i]
        card = cards[i]
        hand = hands[p]
        if p != skip:
            legal_m = _legal(t, hand, led)
            if legal_m & (legal_m - 1):
                if top < 0:
                    want = _lead(t, seeing, hands, p, legal_m)
                else:
                    want = _follow(t, seeing, hands, p, n, led, top, top_seat, legal_m)
                if want != card:
                    same = False
                    if t.points[want] == t.points[card]:
                        for g in t.groups:
                            if g >> want & 1 and g >> card & 1:
                                same = True
                    if same:
                        near += 1
                    else:
                        miss += 1
        hands[p] = hand & ~(1 << card)
        if card != t.matto:
            if not led:
                led = t.led[card]
            if top < 0 or t.beat[top] >> card & 1:
                top, top_seat = card, p
        n += 1
        if n == 4:
            top, top_seat, led, n = -1, -1, 0, 0
    return near, miss


def replay(
    t: Tables,
    seeing: bool,
    hands: tuple[int, int, int, int],
    seats: np.ndarray,
    cards: np.ndarray,
    skip: int,
) -> tuple[int, int]:
    """Return how many past plays (by seats other than skip, with a choice) the compiled
    players would have made differently from the hands before them (see `_replay`): (with
    a card of the same suit and points, with any other card)."""
    h = np.array(hands, dtype=np.int64)
    near, miss = _replay(t, seeing, h, seats, cards, skip)
    return int(near), int(miss)
