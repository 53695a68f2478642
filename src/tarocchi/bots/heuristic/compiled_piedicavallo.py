"""The Piedicavallo heuristic bot's trick play compiled with numba: playouts and replays.

`HeuristicBot.card_values` judges each legal card from what its seat may know
(card counting, voids, the dealer's trump announcement). This module makes the
same judgement on raw ints, so that the search can play a sampled deal to its
end with four heuristic players, each judging from its own view of that deal
(`playout`), and replay the plays so far on a sampled deal, counting those the
heuristic players would have made otherwise (`replay`, the inference of the hard
level). tests/bots/test_compiled_heuristic.py proves that `choose` is the
heuristic bot's choice on every decision of many seeded deals and that a
playout is, move for move, the heuristic bots playing through the rules.

Scratch arrays are made once per playout and handed down, because an allocation
per judged card would cost more than the judgement.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from tarocchi.bots.compiled_tricks import best, close, lay_down, legal, play
from tarocchi.bots.heuristic.compiled_common import (
    cards_of,
    outlook,
    recorded,
    scratch,
    tally,
    trick_so_far,
)
from tarocchi.bots.heuristic.piedicavallo import HeuristicBot
from tarocchi.bots.inference import void_masks
from tarocchi.cards import TRUMPS, popcount
from tarocchi.compiled import low_card, n_cards
from tarocchi.games.base import mover
from tarocchi.games.piedicavallo import DISCARDABLE_SUIT, DISCARDABLE_TRUMPS, State
from tarocchi.packs.piemontese import MATTO, PACK, T1, T21
from tarocchi.views import View, view

_CARDS = cards_of(PACK)
_POINTS, _SUIT_OF, _HIGHER = _CARDS.points, _CARDS.suit_of, _CARDS.higher
_SUIT_MASK = np.array(PACK.suit_mask, dtype=np.int64)
_TRUMPS_M, _KINGS, _FULL, _MATTO_BIT = PACK.trump_mask, PACK.king_mask, PACK.full_mask, 1 << MATTO


def params(bot: type[HeuristicBot] = HeuristicBot) -> np.ndarray:
    """Return the heuristic bot's tuning constants in the order the compiled code reads."""
    return np.array(
        [
            bot.load_pts, bot.duck_pts, bot.trump_master, bot.trump_base, bot.trump_slope,
            bot.king_power, bot.court_master, bot.matto_power, bot.q_king, bot.q_court,
            bot.q_t1, bot.partner_suit_bonus, bot.matto_lead_penalty, bot.sweep_stake,
        ],
        dtype=np.float64,
    )  # fmt: skip


# the indices of params()
LOAD, DUCK, TRUMP_MASTER, TRUMP_BASE, TRUMP_SLOPE, KING_POWER, COURT_MASTER = range(7)
MATTO_POWER, Q_KING, Q_COURT, Q_T1, PARTNER_SUIT, MATTO_LEAD, SWEEP = range(7, 14)
PARAMS = params()


@njit(cache=True)
def _keep(pr: np.ndarray, card: int, unseen: int) -> float:
    """What keeping card is worth (HeuristicBot.keep_value)."""
    if card == MATTO:
        return pr[MATTO_POWER]  # type: ignore[no-any-return]
    pts = _POINTS[card]
    if _SUIT_OF[card] == TRUMPS:
        above = _HIGHER[card] & unseen
        if card == T21 or not above:
            power = pr[TRUMP_MASTER]
            q = 1.0 if card == T21 else 0.95
        else:
            out = n_cards(unseen & _TRUMPS_M)
            below = out - n_cards(above)
            power = pr[TRUMP_BASE] + pr[TRUMP_SLOPE] * below / out
            q = pr[Q_T1] if card == T1 else 0.5
        return power + pts * (2 * q - 1)  # type: ignore[no-any-return]
    if (_KINGS >> card) & 1:
        return pr[KING_POWER] + pts * (2 * pr[Q_KING] - 1)  # type: ignore[no-any-return]
    if pts == 1:
        return 0.0
    power = 0.0 if _HIGHER[card] & unseen else pr[COURT_MASTER]
    return power + pts * (2 * pr[Q_COURT] - 1)  # type: ignore[no-any-return]


@njit(cache=True)
def _weights(
    w: np.ndarray,
    unseen: int,
    possible: np.ndarray,
    sizes: np.ndarray,
    discard_hidden: bool,
    announced: int,
) -> None:
    """Fill w with the weight of each unseen card: 1 / the number of hidden places it may lie
    in (Odds), the dealer's discard among them when it is hidden from me."""
    m = unseen
    while m:
        c = low_card(m)
        m &= m - 1
        b = 1 << c
        slots = 0
        for s in range(4):
            if possible[s] & b:
                slots += sizes[s]
        if discard_hidden:  # rules §2: the discard holds `announced` trumps, no protected card
            if DISCARDABLE_TRUMPS & b:
                slots += announced
            if DISCARDABLE_SUIT & b:
                slots += 2 - announced
        w[c] = 1.0 / slots if slots else 0.0


@njit(cache=True)
def choose(
    pr: np.ndarray,
    hands: np.ndarray,
    me: int,
    legal_m: int,
    tseats: np.ndarray,
    tcards: np.ndarray,
    n: int,
    played: int,
    private: int,
    voids: np.ndarray,
    dealer: int,
    announced: int,
    ledby: np.ndarray,
    won: np.ndarray,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> int:
    """Return the card the heuristic bot plays (HeuristicBot.card_values, then the first
    best in id order): me holds hands[me], the trick's first n plays lie in tseats/tcards,
    played holds every card played so far, private me's own discard, voids each seat's
    revealed voids, ledby the plain suits each seat has led, won the tricks of each team,
    announced the dealer's count of discarded trumps."""
    w, rows = work[3], work[4]
    sizes, possible, rest, ts, tc = rows[0], rows[1], rows[2], rows[3], rows[4]
    team = me & 1
    unseen = _FULL & ~(hands[me] | played | private)
    for s in range(4):
        sizes[s] = n_cards(hands[s])
        possible[s] = 0 if s == me else unseen & ~voids[s]
    _weights(w, unseen, possible, sizes, me != dealer, announced)
    led, own, opp, _, nrest = trick_so_far(_CARDS, tseats, tcards, n, me, ts, tc, rest)
    base = own + opp
    # rules §4: late in the deal a team without a trick plays for the sweep stake
    stake = pr[SWEEP] if not won[team] and won[0] + won[1] >= 9 else 0.0
    partner_suits = ledby[(me + 2) & 3] if led < 0 else 0
    best_c, best_v = -1, -1e300
    m = legal_m
    while m:
        c = low_card(m)
        m &= m - 1
        keep = _keep(pr, c, unseen)
        if c == MATTO:
            if led < 0:
                ev = -keep - pr[MATTO_LEAD]
            else:
                ws, wc = best(_CARDS, ts, tc, n, led)
                p, added = outlook(
                    _CARDS, possible, possible, sizes, w, team, ws, wc, led, rest, nrest,
                    pr[LOAD], pr[DUCK], work,
                )  # fmt: skip
                ev = (2 * p - 1) * base + added - keep + p * stake
        else:
            suit = _SUIT_OF[c] if led < 0 else led
            ts[n], tc[n] = me, c
            ws, wc = best(_CARDS, ts, tc, n + 1, suit)
            p, added = outlook(
                _CARDS, possible, possible, sizes, w, team, ws, wc, suit, rest, nrest,
                pr[LOAD], pr[DUCK], work,
            )  # fmt: skip
            ev = (2 * p - 1) * (base + _POINTS[c]) + added - keep + p * stake
            if led < 0 and _SUIT_MASK[_SUIT_OF[c]] & partner_suits:
                ev += pr[PARTNER_SUIT]
        if ev > best_v:
            best_c, best_v = c, ev
    return best_c


@njit(cache=True)
def _note_lead(ledby: np.ndarray, tseats: np.ndarray, tcards: np.ndarray, led: int) -> None:
    """Note the plain suit a whole trick was led in, by whom (a led Matto lets the next card
    set it)."""
    if led != TRUMPS:
        ledby[tseats[0] if tcards[0] != MATTO else tseats[1]] |= _SUIT_MASK[led]


@njit(cache=True)
def _playout(
    pr: np.ndarray,
    start: np.ndarray,
    p: int,
    trick: np.ndarray,
    n: int,
    dealer: int,
    discard: int,
    voids_now: np.ndarray,
    ledby_now: np.ndarray,
    won_now: np.ndarray,
    given: int,
    moves: np.ndarray,
) -> tuple[int, int, int, int, int, int]:
    """Play the deal to its end from p's turn, the first n cards of trick down (played in
    turn by the seats before p), p playing card given first (-1: its heuristic choice), with four
    heuristic players; return (the cards each team takes from here, the Matto excluded; the
    tricks each team has won in all; the seat that plays the Matto from here, the winner of
    its trick, or -1s) and write the cards played to moves, then -1."""
    work = scratch()
    hands = start.copy()
    voids = voids_now.copy()
    ledby = ledby_now.copy()
    won = won_now.copy()
    tseats = np.empty(4, dtype=np.int64)
    tcards = np.empty(4, dtype=np.int64)
    piles = np.zeros(2, dtype=np.int64)
    announced = n_cards(discard & _TRUMPS_M)
    taker = -1
    led, owner = lay_down(_CARDS, hands, p, trick, n, tseats, tcards, voids, -1)
    left = n_cards(hands[0] | hands[1] | hands[2] | hands[3])
    played = _FULL & ~(hands[0] | hands[1] | hands[2] | hands[3] | discard)
    k = 0
    while left:
        legal_m = legal(_CARDS, hands[p], led)
        if given >= 0:
            card, given = given, -1
        elif legal_m & (legal_m - 1) == 0:
            card = low_card(legal_m)
        else:
            private = discard if p == dealer else 0
            card = choose(
                pr, hands, p, legal_m, tseats, tcards, n, played, private, voids, dealer,
                announced, ledby, won, work,
            )  # fmt: skip
        moves[k] = card
        k += 1
        left -= 1
        played |= 1 << card
        led = play(_CARDS, hands, p, card, tseats, tcards, n, led, voids)
        if card == MATTO:
            owner = p
        if n < 3:
            n += 1
            p = (p + 1) & 3
            continue
        p, taker = close(_CARDS, tseats, tcards, led, piles, won, taker)
        _note_lead(ledby, tseats, tcards, led)
        n, led = 0, -1
    moves[k] = -1
    # the Matto counts apart (owner and taker): the piles leave it out
    return piles[0] & ~_MATTO_BIT, piles[1] & ~_MATTO_BIT, won[0], won[1], owner, taker


@njit(cache=True)
def _replay(
    pr: np.ndarray,
    before: np.ndarray,
    dealer: int,
    discard: int,
    seats: np.ndarray,
    cards: np.ndarray,
    skip: int,
) -> tuple[int, int]:
    """Replay the trick play so far (seats[i] played cards[i]) from the hands before it;
    return how many plays by seats other than skip, with a choice, the heuristic players
    would have made otherwise: (with a card of the same suit and points, with any other)."""
    work = scratch()
    hands = before.copy()
    voids = np.zeros(4, dtype=np.int64)
    ledby = np.zeros(4, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    tseats = np.empty(4, dtype=np.int64)
    tcards = np.empty(4, dtype=np.int64)
    announced = n_cards(discard & _TRUMPS_M)
    played = 0
    near, miss = 0, 0
    n, led = 0, -1
    for i in range(len(cards)):
        p = seats[i]
        card = cards[i]
        legal_m = legal(_CARDS, hands[p], led)
        if p != skip and legal_m & (legal_m - 1):
            private = discard if p == dealer else 0
            want = choose(
                pr, hands, p, legal_m, tseats, tcards, n, played, private, voids, dealer,
                announced, ledby, won, work,
            )  # fmt: skip
            near, miss = tally(_CARDS, near, miss, want, card)
        played |= 1 << card
        led = play(_CARDS, hands, p, card, tseats, tcards, n, led, voids)
        n += 1
        if n == 4:
            winner, _ = best(_CARDS, tseats, tcards, 4, led)  # no piles: quicker than close
            won[winner & 1] += 1
            _note_lead(ledby, tseats, tcards, led)
            n, led = 0, -1
    return near, miss


class Outcome(NamedTuple):
    """What a heuristic playout leaves to score (as compiled.Outcome)."""

    piles: tuple[int, int]  # the cards each team took in the playout, the Matto excluded
    won: tuple[int, int]  # the tricks each team won in the whole deal
    owner: int  # the seat that played the Matto in the playout (-1: none)
    taker: int  # the winner of the Matto's trick, if it ended in the playout (else -1)
    moves: tuple[int, ...]  # the cards played


_MOVES = np.empty(64, dtype=np.int64)  # the cards of the latest playout (one per process)


class Players:
    """Four heuristic players, each knowing what the public history of one view shows
    (the voids it revealed, the suits each seat led) and its own cards in the deal."""

    __slots__ = ("dealer", "ledby", "plays", "seat", "voids")

    def __init__(self, view: View) -> None:
        self.seat = view.seat
        self.dealer = view.dealer
        self.voids = np.array(void_masks(view), dtype=np.int64)
        self.ledby = np.zeros(4, dtype=np.int64)
        for t in view.tricks:
            self._led(t)
        self.plays = [(s, c) for t in (*view.tricks, view.trick) for s, c in t]

    def _led(self, trick: tuple[tuple[int, int], ...]) -> None:
        """Note the plain suit a finished trick was led in, by whom (a led Matto lets the
        next card set it)."""
        first = next(((s, c) for s, c in trick if c != MATTO), None)
        if first is not None and PACK.suit_of[first[1]] != TRUMPS:
            self.ledby[first[0]] |= PACK.suit_mask[PACK.suit_of[first[1]]]

    def playout(self, pos: Any, first: int = -1, record: bool = False) -> Outcome:
        """Play a kernel position (`kernel_piedicavallo.Pos`: its current trick may hold
        plays after the view's) of the deal to its end, the player to move playing card
        first (-1: its heuristic choice)."""
        t = np.zeros(4, dtype=np.int64)
        t[: len(pos.trick)] = pos.trick
        ns, ew, won_ns, won_ew, owner, taker = _playout(
            PARAMS, np.array(pos.hands, dtype=np.int64), pos.to_move, t, len(pos.trick),
            self.dealer, pos.discard, self.voids, self.ledby, np.array(pos.won, dtype=np.int64),
            first, _MOVES,
        )  # fmt: skip
        moves = recorded(_MOVES) if record else ()
        return Outcome((int(ns), int(ew)), (int(won_ns), int(won_ew)), owner, taker, moves)

    def replay(self, hands: tuple[int, int, int, int], discard: int) -> tuple[int, int]:
        """Return how many of the other seats' past plays (with a choice) the heuristic
        players would have made otherwise on a deal with these hands now: (with a card of
        the same suit and points, with any other)."""
        before = [hands[0], hands[1], hands[2], hands[3]]
        for s, c in self.plays:
            before[s] |= 1 << c
        seats = np.array([s for s, _ in self.plays], dtype=np.int64)
        cards = np.array([c for _, c in self.plays], dtype=np.int64)
        near, miss = _replay(
            PARAMS, np.array(before, dtype=np.int64), self.dealer, discard, seats, cards,
            self.seat,
        )  # fmt: skip
        return int(near), int(miss)


def choose_in(state: State) -> int:
    """Return the heuristic bot's card for the player to move in a trick-phase rules state,
    judged by the compiled code (for the differential test)."""
    p = mover(state)
    v = Players(view(state, p))
    hands = np.array(state.hands, dtype=np.int64)
    n = len(state.trick)
    tseats = np.zeros(4, dtype=np.int64)
    tcards = np.zeros(4, dtype=np.int64)
    played = 0
    for i, (s, c) in enumerate(state.trick):
        tseats[i], tcards[i] = s, c
    for _, c in v.plays:
        played |= 1 << c
    won = np.zeros(2, dtype=np.int64)
    for w in state.winners:
        won[w & 1] += 1
    private = state.discard if p == state.dealer else 0
    announced = popcount(state.discard & _TRUMPS_M)
    card: int = choose(
        PARAMS, hands, p, state.legal, tseats, tcards, n, played, private, v.voids,
        state.dealer, announced, v.ledby, won, scratch(),
    )  # fmt: skip
    return card
