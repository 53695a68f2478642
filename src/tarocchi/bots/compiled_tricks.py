"""The trick rules of the one-word packs (Piedicavallo's and Ottocento's 62 cards) compiled
with numba: the cards that may follow, laying a card on the trick, the card winning it and
taking it. These are the compiled twins of `tarocchi.games.base.TrickCore` that the
compiled heuristic players (`tarocchi.bots.heuristic.compiled_<game>`) play by; Minchiate's
two-word twin is `tarocchi.bots.compiled_minchiate` (its players judge a partial trick with
`best`, which reads card ids, not masks). A pack's tables are
`compiled_common.Cards`. tests/bots/test_compiled_heuristic.py proves the players'
playouts equal to the rules, move for move and in their scores.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarocchi.bots.heuristic.compiled_common import Cards
from tarocchi.cards import TRUMPS


@njit(cache=True)
def legal(cards: Cards, hand: int, led: int) -> int:
    """The cards of a one-word pack's hand that may be played to a trick of suit led (-1:
    none yet): follow suit, else trump, else any card; the Matto always (Piedicavallo §3,
    Ottocento §4)."""
    if led < 0:
        return hand
    m = hand & cards.group[led]
    if not m:
        m = hand & cards.trumps
    return m | (hand & (1 << cards.matto)) if m else hand


@njit(cache=True)
def play(
    cards: Cards,
    hands: np.ndarray,
    p: int,
    card: int,
    ts: np.ndarray,
    tc: np.ndarray,
    n: int,
    led: int,
    voids: np.ndarray,
) -> int:
    """Take card from p's hand (a one-word pack's) into the trick's place n, marking the
    void it reveals (a player who does not follow lacks the suit; one who neither follows
    nor trumps lacks trumps too; the Matto reveals nothing); return the trick's led suit
    after it."""
    hands[p] ^= 1 << card
    ts[n], tc[n] = p, card
    if card == cards.matto:
        return led
    s = cards.suit_of[card]
    if led < 0:
        return s  # type: ignore[no-any-return]
    if s != led:
        voids[p] |= cards.group[led]
        if s != TRUMPS:
            voids[p] |= cards.trumps
    return led


@njit(cache=True)
def best(cards: Cards, tseats: np.ndarray, tcards: np.ndarray, n: int, led: int) -> tuple[int, int]:
    """(Seat, card) winning the first n plays of a trick of suit led: the highest trump, else
    the highest card of the led suit; of equal trumps the last played (TrickCore.winning_play);
    (-1, -1) while only the Matto lies there."""
    bs, bc, bt = -1, -1, False
    for i in range(n):
        c = tcards[i]
        s = cards.suit_of[c]
        if s == TRUMPS:
            if not bt or c > bc or (cards.equal and cards.equal >> c & cards.equal >> bc & 1):
                bs, bc, bt = tseats[i], c, True
        elif s == led and not bt and (bs < 0 or c > bc):
            bs, bc = tseats[i], c
    return bs, bc


@njit(cache=True)
def take(cards: Cards, ts: np.ndarray, tc: np.ndarray, led: int, piles: np.ndarray) -> int:
    """End a whole trick of suit led: its winner's team takes the cards, the Matto goes to
    its player's team (TrickCore.take); return the winner."""
    winner, _ = best(cards, ts, tc, 4, led)
    won = 0
    for i in range(4):
        c = tc[i]
        if c == cards.matto:
            piles[ts[i] & 1] |= 1 << c
        else:
            won |= 1 << c
    piles[winner & 1] |= won
    return winner


@njit(cache=True)
def lay_down(
    cards: Cards,
    hands: np.ndarray,
    p: int,
    trick: np.ndarray,
    n: int,
    ts: np.ndarray,
    tc: np.ndarray,
    voids: np.ndarray,
    owner: int,
) -> tuple[int, int]:
    """Lay the first n cards of trick, played in turn by the seats before p (out of hands
    already), in ts/tc, marking the voids they show; return the trick's led suit and the
    Matto's player (owner while the Matto is not among them)."""
    led = -1
    for i in range(n):
        seat = (p - n + i) & 3
        hands[seat] |= 1 << trick[i]  # play takes it out again
        led = play(cards, hands, seat, trick[i], ts, tc, i, led, voids)
        if trick[i] == cards.matto:
            owner = seat
    return led, owner


@njit(cache=True)
def close(
    cards: Cards,
    ts: np.ndarray,
    tc: np.ndarray,
    led: int,
    piles: np.ndarray,
    won: np.ndarray,
    taker: int,
) -> tuple[int, int]:
    """End a whole trick of suit led: take it (`take`) and count it to its winner's team in
    won; return the winner and the winner of the Matto's trick (taker while the Matto is
    not in this one)."""
    winner = take(cards, ts, tc, led, piles)
    won[winner & 1] += 1
    for i in range(4):
        if tc[i] == cards.matto:
            taker = winner
    return winner, taker
