"""Minchiate's trick play compiled with numba, on masks of two 64-bit words.

The 97-card pack does not fit one machine word, so a mask here is a pair: the
56 suit cards (ids 0-55) in the low word, the 40 trumps and the Matto (ids
56-96) in the high word. Every group the players reason about (a suit, the
trumps) lies within one word. The module plays `kernel_minchiate.playout`'s
greedy players from the same tables (rules §4: follow suit, else trump, else
any card, the Matto anywhere but under the King rule, which forces a King in
the first trick of its suit once a trump has fallen; rules §5: the winners
score their opponents' counting cards at once, through the resti ledger) and
returns the piles and the ledger, which the kernel scores at the end.
tests/bots/test_compiled.py proves it move for move equal to the Python kernel
without random moves, and scored like the rules with them.

Random moves come from a SplitMix64 stream seeded per playout (as in
`tarocchi.bots.compiled`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from tarocchi.bots.compiled import SEED_MASK, _count, _high, _low, _next
from tarocchi.bots.kernel_common import Policy
from tarocchi.cards import Pack

SPLIT = 56  # the first card of the high word
LOW = (1 << SPLIT) - 1
RESTO = 60  # rules §5: each 60-point lead makes a resto


class Tables(NamedTuple):
    """The pack's tables, masks split into (low word, high word)."""

    beat_lo: np.ndarray  # per card: the cards that beat it when it is winning
    beat_hi: np.ndarray
    group_of: np.ndarray  # per card: its group (0-3 the suits, 4 the trumps; -1 the Matto)
    group_mask: np.ndarray  # per group: its mask within its word
    points: np.ndarray
    capture: np.ndarray  # per card: the counting points its capture scores at once
    duck: np.ndarray
    load: np.ndarray
    kings: int  # low word
    trumps: int  # high word
    cheap: int  # high word: the trumps of the lowest value
    matto: int  # the Matto's bit in the high word


def tables(pack: Pack, beat: tuple[int, ...], capture: tuple[int, ...], policy: Policy) -> Tables:
    """Return the compiled players' tables of the Minchiate pack."""
    if pack.size != SPLIT + 41 or pack.trump_mask & LOW or pack.matto != SPLIT + 40:
        raise ValueError("the two-word masks expect 56 suit cards, then 40 trumps and the Matto")
    groups = list(policy.groups)
    group_of = [
        -1 if c == pack.matto else next(i for i, g in enumerate(groups) if g >> c & 1)
        for c in range(pack.size)
    ]

    def arr(values: list[int] | tuple[int, ...]) -> np.ndarray:
        return np.array(values, dtype=np.int64)

    return Tables(
        arr([b & LOW for b in beat]), arr([b >> SPLIT for b in beat]), arr(group_of),
        arr([g & LOW or g >> SPLIT for g in groups]), arr(list(pack.points)), arr(capture),
        arr(policy.duck), arr(policy.load), pack.king_mask, pack.trump_mask >> SPLIT,
        policy.cheap_trumps >> SPLIT, 1 << (pack.matto - SPLIT),
    )  # fmt: skip


@njit(cache=True)
def _card(word: int, bit: int) -> int:
    """The card id of a bit of a word."""
    return bit if word == 0 else SPLIT + bit


@njit(cache=True)
def _lowest(lo: int, hi: int) -> int:
    """The lowest card of a non-empty two-word mask."""
    return _low(lo) if lo else SPLIT + _low(hi)


@njit(cache=True)
def _beats(t: Tables, lo: int, hi: int, c: int) -> bool:
    """Whether the mask holds a card that beats c."""
    return bool(lo & t.beat_lo[c] or hi & t.beat_hi[c])


@njit(cache=True)
def _tops(t: Tables, top: int, c: int) -> bool:
    """Whether card c beats the card top."""
    if c >= SPLIT:
        return bool(t.beat_hi[top] >> (c - SPLIT) & 1)
    return bool(t.beat_lo[top] >> c & 1)


@njit(cache=True)
def _min_duck(t: Tables, lo: int, hi: int) -> int:
    """The card cheapest to give to a lost trick (Policy.min_duck)."""
    if hi & t.matto:
        return SPLIT + 40
    best, cost = -1, 1 << 30
    for g in range(5):
        x = (hi if g == 4 else lo) & t.group_mask[g]
        if x:
            c = _card(1 if g == 4 else 0, _low(x))
            if t.duck[c] < cost:
                best, cost = c, t.duck[c]
            if g == 4:
                x &= t.cheap
                if x:
                    c = SPLIT + _low(x)
                    if t.duck[c] < cost:
                        best, cost = c, t.duck[c]
    return best


@njit(cache=True)
def _max_load(t: Tables, lo: int, hi: int) -> int:
    """The card best given to a trick the partner surely wins (Policy.max_load)."""
    best, value = SPLIT + 40, -(1 << 30)
    for g in range(5):
        x = (hi if g == 4 else lo) & t.group_mask[g]
        if x:
            c = _card(1 if g == 4 else 0, _high(x))
            if t.load[c] > value:
                best, value = c, t.load[c]
            c = _card(1 if g == 4 else 0, _low(x))
            if t.load[c] > value:
                best, value = c, t.load[c]
    return best


@njit(cache=True)
def _legal(t: Tables, lo: int, hi: int, led: int, trumped: bool, led_lo: int) -> tuple[int, int]:
    """The cards of a hand (lo, hi words) that may be played to a trick of the group led (-1:
    the lead): follow, else trump, else any card; the Matto always, except under the King
    rule (rules §4: the first trick of a suit after a trump fell, led_lo marking the suit
    groups already led, forces the King)."""
    if led < 0:
        return lo, hi
    w = 1 if led == 4 else 0
    gm = t.group_mask[led]
    m = (hi if w else lo) & gm
    if m:
        king = m & t.kings if w == 0 else 0
        if king and trumped and not led_lo & gm:
            return king, 0
        if w == 0:
            return m, hi & t.matto
        return 0, m | (hi & t.matto)
    m = hi & t.trumps
    if m:
        return 0, m | (hi & t.matto)
    return lo, hi


@njit(cache=True)
def _lead(t: Tables, seeing: bool, hands: np.ndarray, p: int, lo: int, hi: int) -> int:
    """The card to lead (Policy.lead, or its counting variant when not seeing)."""
    o1, o2 = (p + 1) & 3, (p + 3) & 3
    out_lo = (hands[0, 0] | hands[1, 0] | hands[2, 0] | hands[3, 0]) & ~hands[p, 0]
    out_hi = (hands[0, 1] | hands[1, 1] | hands[2, 1] | hands[3, 1]) & ~hands[p, 1]
    best, best_pts = -1, -1
    short, short_n = 0, 99
    for g in range(5):
        w = 1 if g == 4 else 0
        gm = t.group_mask[g]
        mask = (hi if w else lo) & gm
        if not mask:
            continue
        c = _card(w, _high(mask))
        if seeing:
            sure = True
            for o in (o1, o2):
                if hands[o, w] & gm:  # it can follow: only its cards of the suit threaten
                    t_lo = hands[o, 0] & gm if w == 0 else 0
                    t_hi = hands[o, 1] & gm if w == 1 else 0
                else:
                    t_lo, t_hi = 0, hands[o, 1] & t.trumps
                if _beats(t, t_lo, t_hi, c):
                    sure = False
        else:
            sure = not _beats(t, out_lo & gm if w == 0 else 0, out_hi & gm if w == 1 else 0, c)
        if t.points[c] > best_pts and sure:
            best, best_pts = c, t.points[c]
        if g != 4:
            k = _count(mask)
            if k < short_n:
                short, short_n = mask, k
    if best >= 0:
        return best
    if short:
        return _low(short)  # a plain suit: the low word
    x = hi & t.trumps
    if x:
        return SPLIT + _low(x)
    return _lowest(lo, hi)


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
    lo: int,
    hi: int,
) -> int:
    """The card to play to a trick already led, `led` its group (Policy.follow, or its
    counting variant): load the partner's sure trick, else win as cheaply as is safe,
    else duck."""
    w = 1 if led == 4 else 0
    gm = t.group_mask[led]
    if seeing:
        q = (p + 1) & 3
        if hands[q, w] & gm:
            p_lo, p_hi = (hands[q, 0] & gm, 0) if w == 0 else (0, hands[q, 1] & gm)
        else:
            p_lo, p_hi = 0, hands[q, 1] & t.trumps
        tr_lo, tr_hi = p_lo, p_hi  # the next player's threats, whatever the card
    else:
        out_lo = (hands[0, 0] | hands[1, 0] | hands[2, 0] | hands[3, 0]) & ~hands[p, 0]
        out_hi = (hands[0, 1] | hands[1, 1] | hands[2, 1] | hands[3, 1]) & ~hands[p, 1]
        # the cards out of the led suit (trumps apart), and the trumps out
        p_lo, p_hi = (out_lo & gm, 0) if w == 0 else (0, 0)
        tr_lo, tr_hi = 0, out_hi & t.trumps
    top_trump = top >= SPLIT
    m_lo, m_hi = lo & t.beat_lo[top], hi & t.beat_hi[top]
    if (top_seat ^ p) & 1 == 0:
        threat = _beats(t, tr_lo, tr_hi, top) if top_trump else _beats(t, p_lo, p_hi, top)
        if n == 3 or not threat:
            return _max_load(t, lo, hi)
        while m_lo or m_hi:
            c = _lowest(m_lo, m_hi)
            safe = not (_beats(t, tr_lo, tr_hi, c) if c >= SPLIT else _beats(t, p_lo, p_hi, c))
            if safe:
                return c  # cover the partner with a card the opponents cannot beat
            if m_lo:
                m_lo &= m_lo - 1
            else:
                m_hi &= m_hi - 1
        return _min_duck(t, lo, hi)
    while m_lo or m_hi:
        c = _lowest(m_lo, m_hi)
        safe = not (_beats(t, tr_lo, tr_hi, c) if c >= SPLIT else _beats(t, p_lo, p_hi, c))
        if n == 3 or safe:
            return c  # the cheapest card that surely wins
        if m_lo:
            m_lo &= m_lo - 1
        else:
            m_hi &= m_hi - 1
    return _min_duck(t, lo, hi)


@njit(cache=True)
def _lay(
    t: Tables,
    card: int,
    seat: int,
    piles: np.ndarray,
    down: np.ndarray,
    played: np.ndarray,
    led: int,
    trumped: bool,
    top: int,
    top_seat: int,
) -> tuple[int, bool, int, int]:
    """Lay seat's card on the trick: the Matto straight to its team's pile (rules §4),
    another card down with its counting points; return the trick's led group, whether a
    trump fell, and its winning card and seat."""
    team = seat & 1
    if t.group_of[card] < 0:
        piles[2 * team + 1] |= t.matto
        return led, trumped, top, top_seat
    if card < SPLIT:
        down[2 * team] |= 1 << card
    else:
        down[2 * team + 1] |= 1 << (card - SPLIT)
    played[team] += t.capture[card]
    if led < 0:
        led = t.group_of[card]
    if top < 0 or _tops(t, top, card):
        top, top_seat = card, seat
    return led, trumped or card >= SPLIT, top, top_seat


@njit(cache=True)
def _take(
    t: Tables, state: np.ndarray, top_seat: int, led: int, down: np.ndarray, played: np.ndarray
) -> None:
    """End a trick: its winner's team takes the cards down (the Matto is already with its
    team) and scores at once the counting cards its opponents played (rules §5), through
    the resti ledger; state (as `_playout`'s) counts the trick, its led suit, its winner."""
    team = top_seat & 1
    state[2 * team] |= down[0] | down[2]
    state[2 * team + 1] |= down[1] | down[3]
    gained = played[1 - team]
    if gained:
        diff = state[8] + (gained if team == 0 else -gained)
        if diff >= RESTO:
            state[9] += diff // RESTO
            diff %= RESTO
        elif diff <= -RESTO:
            state[10] += (-diff) // RESTO
            diff = -((-diff) % RESTO)
        state[8] = diff
    state[4 + team] += 1
    if led == 4:
        state[7] |= t.group_mask[4]
    else:
        state[6] |= t.group_mask[led]
    state[11] = top_seat


@njit(cache=True)
def _playout(
    t: Tables,
    seeing: bool,
    hands: np.ndarray,
    p: int,
    trick: np.ndarray,
    state: np.ndarray,
    eps: float,
    seed: int,
    moves: np.ndarray,
) -> None:
    """Play the deal to its end from p's turn, the cards of trick down. state holds, and
    is left holding: the piles (NS low, NS high, EW low, EW high), the tricks won (NS,
    EW), the suits led in finished tricks (low, high), the ledger (difference, NS resti,
    EW resti) and the last trick's winner. The cards played go to moves, then -1."""
    rng = np.uint64(seed)
    piles = state[0:4]  # a view: _lay and _take keep the piles in state
    # per trick: the winning card and its seat, the led group, whether a trump fell, the
    # cards down by team (the Matto apart) and the counting points each team played
    top, top_seat, led, trumped, n = -1, -1, -1, False, 0
    down = np.zeros(4, dtype=np.int64)
    played = np.zeros(2, dtype=np.int64)
    for i in range(trick.shape[0]):
        c = trick[i]
        seat = (p - trick.shape[0] + n) & 3
        n += 1
        led, trumped, top, top_seat = _lay(
            t, c, seat, piles, down, played, led, trumped, top, top_seat
        )
    left = 0
    for s in range(4):
        left += _count(hands[s, 0]) + _count(hands[s, 1])
    k = 0
    while left:
        lo, hi = hands[p, 0], hands[p, 1]
        l_lo, l_hi = _legal(t, lo, hi, led, trumped, state[6])
        count = _count(l_lo) + _count(l_hi)
        if count == 1:
            card = _lowest(l_lo, l_hi)
        else:
            r = 1.0
            if eps:
                rng, r = _next(rng)
            if r < eps:
                rng, r = _next(rng)
                x_lo, x_hi = l_lo, l_hi
                for _ in range(int(r * count)):
                    if x_lo:
                        x_lo &= x_lo - 1
                    else:
                        x_hi &= x_hi - 1
                card = _lowest(x_lo, x_hi)
            elif top < 0:
                card = _lead(t, seeing, hands, p, l_lo, l_hi)
            else:
                card = _follow(t, seeing, hands, p, n, led, top, top_seat, l_lo, l_hi)
        if card < SPLIT:
            hands[p, 0] = lo ^ (1 << card)
        else:
            hands[p, 1] = hi ^ (1 << (card - SPLIT))
        left -= 1
        moves[k] = card
        k += 1
        led, trumped, top, top_seat = _lay(
            t, card, p, piles, down, played, led, trumped, top, top_seat
        )
        if n < 3:
            n += 1
            p = (p + 1) & 3
            continue
        _take(t, state, top_seat, led, down, played)
        p = top_seat
        top, top_seat, led, trumped, n = -1, -1, -1, False, 0
        down[:] = 0
        played[:] = 0
    moves[k] = -1


_MOVES = np.empty(128, dtype=np.int64)  # the cards of the latest playout (one per process)


class Outcome(NamedTuple):
    """What a compiled playout leaves to score."""

    piles: tuple[int, int]  # the cards each team holds at the end (97-bit masks)
    ledger: tuple[int, int, int]  # the difference, NS resti, EW resti
    last: int  # the last trick's winner
    moves: tuple[int, ...]  # the cards played (when recorded)


def playout(
    t: Tables,
    seeing: bool,
    hands: tuple[int, int, int, int],
    to_move: int,
    trick: tuple[int, ...],
    piles: tuple[int, int],
    won: tuple[int, int],
    led: int,
    ledger: tuple[int, int, int],
    last: int,
    eps: float,
    seed: int,
    record: bool = False,
) -> Outcome:
    """Play a trick-phase position to the end with the compiled players; the seed fixes
    the random moves (chance eps)."""
    h = np.array([[x & LOW, x >> SPLIT] for x in hands], dtype=np.int64)
    state = np.array(
        [piles[0] & LOW, piles[0] >> SPLIT, piles[1] & LOW, piles[1] >> SPLIT, won[0], won[1],
         led & LOW, led >> SPLIT, ledger[0], ledger[1], ledger[2], last],
        dtype=np.int64,
    )  # fmt: skip
    _playout(
        t, seeing, h, to_move, np.array(trick, dtype=np.int64), state, eps, seed & SEED_MASK,
        _MOVES,
    )  # fmt: skip
    moves: list[int] = []
    if record:
        for c in _MOVES:
            if c < 0:
                break
            moves.append(int(c))
    s = [int(x) for x in state]
    return Outcome(
        (s[0] | s[1] << SPLIT, s[2] | s[3] << SPLIT), (s[8], s[9], s[10]), s[11], tuple(moves)
    )


@njit(cache=True)
def _replay(
    t: Tables, seeing: bool, hands: np.ndarray, seats: np.ndarray, cards: np.ndarray, skip: int
) -> tuple[int, int]:
    """Replay the plays so far (seats[i] played cards[i], tricks of four from the first) from
    the hands before the first of them (as `tarocchi.bots.compiled._replay` does); return
    how many of the plays by seats other than skip, with a choice, the players would have
    made differently: (another card of the same group and points, any other card)."""
    hands = hands.copy()
    near, miss = 0, 0
    piles = np.zeros(4, dtype=np.int64)  # _lay's bookkeeping, unused here
    down = np.zeros(4, dtype=np.int64)
    played = np.zeros(2, dtype=np.int64)
    led_lo = 0
    top, top_seat, led, trumped, n = -1, -1, -1, False, 0
    for i in range(len(cards)):
        p = seats[i]
        card = cards[i]
        lo, hi = hands[p, 0], hands[p, 1]
        if p != skip:
            l_lo, l_hi = _legal(t, lo, hi, led, trumped, led_lo)
            if _count(l_lo) + _count(l_hi) > 1:
                if top < 0:
                    want = _lead(t, seeing, hands, p, l_lo, l_hi)
                else:
                    want = _follow(t, seeing, hands, p, n, led, top, top_seat, l_lo, l_hi)
                if want != card:
                    if t.points[want] == t.points[card] and t.group_of[want] == t.group_of[card]:
                        near += 1
                    else:
                        miss += 1
        if card < SPLIT:
            hands[p, 0] = lo & ~(1 << card)
        else:
            hands[p, 1] = hi & ~(1 << (card - SPLIT))
        led, trumped, top, top_seat = _lay(
            t, card, p, piles, down, played, led, trumped, top, top_seat
        )
        n += 1
        if n == 4:
            if 0 <= led < 4:
                led_lo |= t.group_mask[led]
            top, top_seat, led, trumped, n = -1, -1, -1, False, 0
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
    players would have made differently from the hands before them (see `_replay`)."""
    h = np.array([[x & LOW, x >> SPLIT] for x in hands], dtype=np.int64)
    near, miss = _replay(t, seeing, h, seats, cards, skip)
    return int(near), int(miss)
