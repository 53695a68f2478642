"""The Ottocento heuristic bot's trick play compiled with numba: playouts and replays.

`HeuristicBot.play_value` prices each legal card by what it would change in the
final margin, combinations included (`Table.swing`). This module makes the same
judgement on raw ints, with the combinations valued from the rules' own tables
(the rules' own compiled function, `ottocento_combos.combination_value`), so that the search can
play a sampled deal to its end with four heuristic players, each judging from its
own view of that deal, and replay the plays so far on a sampled deal (the hard
level's inference). Each player declares at its first turn as the heuristic bot
does (`worth_declaring`, decided before the playout from its hand), and from then
on the others see the cards it showed. tests/bots/test_compiled_heuristic.py
proves that `choose` is the heuristic bot's choice on every decision of many
seeded deals and that a playout is, move for move, the heuristic bots playing
through the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from tarocchi.bots.compiled_tricks import best, close, lay_down, legal, play
from tarocchi.bots.heuristic.compiled_common import cards_of, recorded, tally
from tarocchi.bots.heuristic.ottocento import (
    FUTURE_CARD,
    MATTO_RESERVE,
    MOOR_LAST,
    PARTNER_TAKES,
    POWER_PRICE,
    RETURN_BONUS,
    RISK_GONE,
    RISK_K,
    RISK_VOID,
    worth_declaring,
)
from tarocchi.bots.inference import void_masks
from tarocchi.cards import FOOL, TRUMPS
from tarocchi.compiled import low_card, n_cards
from tarocchi.games import ottocento_combos as oc
from tarocchi.games.base import mover
from tarocchi.games.ottocento import DECLARE_ACTION, LAST_TRICK_BONUS, PASS_ACTION, State
from tarocchi.games.ottocento_combos import combination_value
from tarocchi.packs.bolognese import MATTO, MOOR1, MOORS_MASK, PACK
from tarocchi.views import View, view

_CARDS = cards_of(PACK, equal=MOORS_MASK)  # rules §4: the last of equal Moors wins
_POINTS, _SUIT_OF = _CARDS.points, _CARDS.suit_of
_SUIT_MASK = np.array(PACK.suit_mask, dtype=np.int64)
_TRUMPS_M, _FULL, _MATTO_BIT = PACK.trump_mask, PACK.full_mask, 1 << MATTO
_ABOVE_MOORS = PACK.trump_mask & ~((1 << MOOR1) - 1)  # every Moor and every higher trump


@njit(cache=True)
def _delta(pile: int, value: int, bit: int) -> int:
    """How much the combinations of pile (worth value) change when card bit leaves it or,
    if not in it, joins it."""
    if pile & bit:
        return value - combination_value(pile & ~bit)
    return combination_value(pile | bit) - value


@njit(cache=True)
def _swing(card: int, mine: int, mine_v: int, theirs: int, theirs_v: int) -> int:
    """How much the margin moves when card goes to the other team's pile (Table.swing)."""
    bit = 1 << card
    ours, their = _delta(mine, mine_v, bit), _delta(theirs, theirs_v, bit)
    return 2 * _POINTS[card] - 1 + ours + their  # type: ignore[no-any-return]


@njit(cache=True)
def _beaten_by(card: int, led: int) -> tuple[int, int]:
    """(Cards of the led suit that beat card, trumps that beat card): heuristic.beaten_by."""
    if _SUIT_OF[card] == TRUMPS:
        above = _ABOVE_MOORS if MOOR1 <= card <= MOOR_LAST else _TRUMPS_M & ~((2 << card) - 1)
        if led == TRUMPS:
            return above, 0
        return 0, above
    return _SUIT_MASK[led] & ~((2 << card) - 1), _TRUMPS_M


@njit(cache=True)
def _p_holds_any(mask: int, pool: int, slots: int) -> float:
    """The chance that slots cards drawn from pool unseen ones hold one of mask."""
    k = n_cards(mask)
    if not k or slots <= 0:
        return 0.0
    if k > pool - slots:
        return 1.0
    none = 1.0
    for i in range(slots):
        none *= (pool - k - i) / (pool - i)
    return 1.0 - none


@njit(cache=True)
def _p_beat(
    hands: np.ndarray, shown: np.ndarray, unseen: int, voids: np.ndarray, seat: int, best: int,
    led: int,
) -> float:  # fmt: skip
    """The chance that seat can beat card best in a trick of suit led (Table.p_beat)."""
    known = shown[seat]
    pool_mask = unseen & ~voids[seat]
    slots = n_cards(hands[seat]) - n_cards(known)
    pool = n_cards(pool_mask)
    follow, ruff = _beaten_by(best, led)
    led_cards = _SUIT_MASK[led]
    if known & follow:
        return 1.0
    p_follow = _p_holds_any(follow & pool_mask, pool, slots)
    if not ruff:
        return p_follow
    holds_led = 1.0 if known & led_cards else _p_holds_any(led_cards & pool_mask, pool, slots)
    p_void = 1.0 - holds_led
    p_ruff = 1.0 if known & ruff else _p_holds_any(ruff & pool_mask, pool, slots)
    return min(1.0, p_follow + p_void * p_ruff)


@njit(cache=True)
def _risk(card: int, me: int, hand: int, unseen: int, voids: np.ndarray) -> float:
    """The chance that card, kept, ends in an opponents' trick (Table.risk)."""
    suit = _SUIT_OF[card]
    follow, ruff = _beaten_by(card, suit)
    higher = ((follow | ruff) if suit == TRUMPS else follow) & unseen
    n = n_cards(higher)
    risk = n / (n + RISK_K)
    if suit != TRUMPS:
        gone = _SUIT_MASK[suit] & ~unseen & ~hand
        add = RISK_GONE * n_cards(gone)
        for s in ((me + 1) & 3, (me + 3) & 3):
            if voids[s] >> card & 1:
                add += RISK_VOID
        risk = min(0.95, risk + add)
    return risk


@njit(cache=True)
def _stakes(
    ts: np.ndarray,
    tc: np.ndarray,
    n: int,
    me: int,
    mine: int,
    mine_v: int,
    theirs: int,
    theirs_v: int,
    bonus: int,
) -> tuple[float, float]:
    """Return what me's team gains if it wins the trick and loses if not, before me's card:
    the first n cards' swings, a future card from each player still to play, the bonus."""
    gain, loss = 0.0, 0.0
    for i in range(n):
        c = tc[i]
        if c == MATTO:
            if (ts[i] ^ me) & 1:
                gain += 1.0
            else:
                loss += 1.0
        elif (ts[i] ^ me) & 1:
            gain += _swing(c, mine, mine_v, theirs, theirs_v)
        else:
            loss += _swing(c, mine, mine_v, theirs, theirs_v)
    n_opp, n_mate = 0, 0
    for k in range(1, 4 - n):
        if k & 1:
            n_opp += 1
        else:
            n_mate += 1
    return gain + FUTURE_CARD * n_opp + bonus, loss + FUTURE_CARD * n_mate + bonus


@njit(cache=True)
def _p_team(
    hands: np.ndarray,
    shown: np.ndarray,
    unseen: int,
    voids: np.ndarray,
    ts: np.ndarray,
    tc: np.ndarray,
    n: int,
    me: int,
    led: int,
) -> float:
    """Return the odds that me's team wins the trick once me's card (tc[n]) is down
    (HeuristicBot.p_team_wins); 0.4 when only the Matto is in it."""
    p = 0.4
    if led >= 0:
        ws, wc = best(_CARDS, ts, tc, n + 1, led)
        if ws >= 0:
            ours = not (ws ^ me) & 1
            p = 1.0 if ours else 0.0
            for k in range(1, 4 - n):
                s = (me + k) & 3
                if k & 1:
                    if p:
                        p *= 1.0 - _p_beat(hands, shown, unseen, voids, s, wc, led)
                elif not ours:
                    p = max(p, PARTNER_TAKES * _p_beat(hands, shown, unseen, voids, s, wc, led))
    return p


@njit(cache=True)
def choose(
    hands: np.ndarray,
    me: int,
    legal_m: int,
    ts: np.ndarray,
    tc: np.ndarray,
    n: int,
    played: int,
    private: int,
    voids: np.ndarray,
    piles: np.ndarray,
    decl: np.ndarray,
    lastled: np.ndarray,
    shown: np.ndarray,
) -> int:
    """Return the card the heuristic bot plays (HeuristicBot.play_value, then the first best
    in id order): me holds hands[me], the trick's first n plays lie in ts/tc (with room for
    me's), played holds every card played so far, private the dealer's own discard (0 for
    the others), voids each seat's revealed voids, piles what each team has taken, decl the
    cards each seat has shown by declaring, lastled the plain suit each seat led last (-1:
    none); shown is scratch for the declared cards still in hand."""
    team = me & 1
    shown_all = 0
    for s in range(4):
        shown[s] = decl[s] & hands[s]
        shown_all |= decl[s]
    hand = hands[me]
    unseen = _FULL & ~(hand | played | private | shown_all)
    mate = (me + 2) & 3
    mine = piles[team] | hand | shown[mate] | private
    theirs = piles[1 - team] | shown[(me + 1) & 3] | shown[(me + 3) & 3]
    mine_v, theirs_v = combination_value(mine), combination_value(theirs)
    left = n_cards(hand)
    bonus = LAST_TRICK_BONUS if left == 1 else 0
    gain0, loss0 = _stakes(ts, tc, n, me, mine, mine_v, theirs, theirs_v, bonus)
    led0 = -1
    for i in range(n):
        if _SUIT_OF[tc[i]] != FOOL:
            led0 = _SUIT_OF[tc[i]]
            break
    best_c, best_v = -1, -1e300
    m = legal_m
    while m:
        card = low_card(m)
        m &= m - 1
        ts[n], tc[n] = me, card
        led = led0
        if led < 0 and card != MATTO:
            led = _SUIT_OF[card]
        p = _p_team(hands, shown, unseen, voids, ts, tc, n, me, led)
        if card == MATTO:
            loss = loss0 + 1.0
            value = p * gain0 - (1.0 - p) * loss
            value -= MATTO_RESERVE * (left - 1)
        else:
            worth = _swing(card, mine, mine_v, theirs, theirs_v)
            risk = _risk(card, me, hand, unseen, voids)
            value = p * (gain0 + risk * worth) - (1.0 - p) * (loss0 + (1.0 - risk) * worth)
            below = _SUIT_MASK[_SUIT_OF[card]] & ((1 << card) - 1)
            value -= POWER_PRICE * n_cards(below & (unseen | hand))
            if not n and _SUIT_OF[card] == lastled[mate]:
                value += RETURN_BONUS  # lead back the suit the partner led
        if value > best_v:
            best_c, best_v = card, value
    return best_c


@njit(cache=True)
def _note_lead(ts: np.ndarray, tc: np.ndarray, lastled: np.ndarray) -> None:
    """Note the plain suit a whole trick was led in, by whom (a led Matto notes nothing)."""
    if _SUIT_OF[tc[0]] < TRUMPS:
        lastled[ts[0]] = _SUIT_OF[tc[0]]


@njit(cache=True)
def _declare(p: int, ask: np.ndarray, pend: np.ndarray, decl: np.ndarray) -> int:
    """At p's first turn of trick 1: show what it declares (rules §3); return the action it
    took (DECLARE_ACTION or PASS_ACTION), 0 if it was not asked."""
    a = ask[p]
    if a:
        decl[p] |= pend[p]
        ask[p] = 0
    return a  # type: ignore[no-any-return]


@njit(cache=True)
def _playout(
    start: np.ndarray,
    p: int,
    trick: np.ndarray,
    n: int,
    piles_now: np.ndarray,
    won_now: np.ndarray,
    voids_now: np.ndarray,
    lastled_now: np.ndarray,
    decl_now: np.ndarray,
    ask_now: np.ndarray,
    pend: np.ndarray,
    owner: int,
    taker: int,
    last: int,
    dealer: int,
    discard: int,
    given: int,
    moves: np.ndarray,
) -> tuple[int, int, int, int, int, int, int]:
    """Play the deal to its end from p's turn, the first n cards of trick down, p playing
    card given first (-1: its heuristic choice), with four heuristic players; ask[s] is the
    action s takes at its first turn (0: none), pend[s] the cards it shows if it declares.
    Return (each team's pile, the tricks each team has
    won, the Matto's player and the winner of its trick, the last trick's winner) and write
    the actions taken to moves, then -1."""
    hands = start.copy()
    voids = voids_now.copy()
    lastled = lastled_now.copy()
    decl = decl_now.copy()
    ask = ask_now.copy()
    piles = piles_now.copy()
    won = won_now.copy()
    ts = np.empty(4, dtype=np.int64)
    tc = np.empty(4, dtype=np.int64)
    shown = np.empty(4, dtype=np.int64)
    led, owner = lay_down(_CARDS, hands, p, trick, n, ts, tc, voids, owner)
    left = n_cards(hands[0] | hands[1] | hands[2] | hands[3])
    played = _FULL & ~(hands[0] | hands[1] | hands[2] | hands[3] | discard)
    k = 0
    while left:
        a = _declare(p, ask, pend, decl)
        if a:
            moves[k] = a
            k += 1
        legal_m = legal(_CARDS, hands[p], led)
        if given >= 0:
            card, given = given, -1
        elif legal_m & (legal_m - 1) == 0:
            card = low_card(legal_m)
        else:
            private = discard if p == dealer else 0
            card = choose(
                hands, p, legal_m, ts, tc, n, played, private, voids, piles, decl, lastled, shown
            )
        moves[k] = card
        k += 1
        left -= 1
        played |= 1 << card
        led = play(_CARDS, hands, p, card, ts, tc, n, led, voids)
        if card == MATTO:
            owner = p
        if n < 3:
            n += 1
            p = (p + 1) & 3
            continue
        _note_lead(ts, tc, lastled)
        p, taker = close(_CARDS, ts, tc, led, piles, won, taker)
        last = p
        n, led = 0, -1
    moves[k] = -1
    return piles[0], piles[1], won[0], won[1], owner, taker, last


@njit(cache=True)
def _replay(
    before: np.ndarray,
    dealer: int,
    discard: int,
    seats: np.ndarray,
    cards: np.ndarray,
    pend: np.ndarray,
    skip: int,
) -> tuple[int, int]:
    """Replay the trick play so far (seats[i] played cards[i]) from the hands before it,
    each seat showing pend[s] at its first turn; return how many plays by seats other
    than skip, with a choice, the heuristic players would have made otherwise: (with a
    card of the same suit and points, with any other)."""
    hands = before.copy()
    voids = np.zeros(4, dtype=np.int64)
    lastled = np.full(4, -1, dtype=np.int64)
    decl = np.zeros(4, dtype=np.int64)
    ask = np.full(4, 1, dtype=np.int64)
    piles = np.zeros(2, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)  # close's bookkeeping, unused here
    ts = np.empty(4, dtype=np.int64)
    tc = np.empty(4, dtype=np.int64)
    shown = np.empty(4, dtype=np.int64)
    played = 0
    near, miss = 0, 0
    n, led = 0, -1
    for i in range(len(cards)):
        p = seats[i]
        card = cards[i]
        _declare(p, ask, pend, decl)
        legal_m = legal(_CARDS, hands[p], led)
        if p != skip and legal_m & (legal_m - 1):
            private = discard if p == dealer else 0
            want = choose(
                hands, p, legal_m, ts, tc, n, played, private, voids, piles, decl, lastled, shown
            )
            near, miss = tally(_CARDS, near, miss, want, card)
        played |= 1 << card
        led = play(_CARDS, hands, p, card, ts, tc, n, led, voids)
        n += 1
        if n == 4:
            _note_lead(ts, tc, lastled)
            close(_CARDS, ts, tc, led, piles, won, -1)
            n, led = 0, -1
    return near, miss


class Outcome(NamedTuple):
    """What a heuristic playout leaves to score (kernel_ottocento.score)."""

    piles: tuple[int, int]  # the cards each team has taken, the Matto with its team
    won: tuple[int, int]  # the tricks each team won in the whole deal
    matto: tuple[int, int]  # the Matto's player and the winner of its trick, or -1s
    last: int  # the last trick's winner
    declared: tuple[int, int]  # the declaration points of each team
    moves: tuple[int, ...]  # the actions taken (DECLARE_ACTION or PASS_ACTION, cards)


_MOVES = np.empty(80, dtype=np.int64)  # the actions of the latest playout (one per process)


def _arr(values: Sequence[int]) -> np.ndarray:
    return np.array(values, dtype=np.int64)


class Players:
    """Four heuristic players, each knowing what the public history of one view shows (the
    voids it revealed, the plain suit each seat led last, the declared cards) and its own
    cards in the deal."""

    __slots__ = ("dealer", "decl", "lastled", "plays", "seat", "voids")

    def __init__(self, view: View) -> None:
        self.seat = view.seat
        self.dealer = view.dealer
        self.voids = _arr(void_masks(view))
        self.lastled = np.full(4, -1, dtype=np.int64)
        for t in view.tricks:
            self._led(t)
        self.decl = _arr([0, 0, 0, 0])
        for e in view.events:
            if e.kind == "declare" and e.seat is not None:
                self.decl[e.seat] |= e.cards
        self.plays = [(s, c) for t in (*view.tricks, view.trick) for s, c in t]

    def _led(self, trick: tuple[tuple[int, int], ...]) -> None:
        """Note the plain suit a finished trick was led in (a led Matto notes nothing)."""
        seat, card = trick[0]
        if PACK.suit_of[card] < TRUMPS:
            self.lastled[seat] = PACK.suit_of[card]

    def playout(self, pos: Any, first: int = -1, record: bool = False) -> Outcome:
        """Play a kernel position (`kernel_ottocento.Pos`) of the deal to its end, the player
        to move taking action first (-1: the heuristic bot's choice); the players yet to
        declare decide as the heuristic bot does (rules §3)."""
        ask, pend = [0, 0, 0, 0], [0, 0, 0, 0]
        declared = [pos.declared[0], pos.declared[1]]
        if not pos.won[0] + pos.won[1]:
            for s in range(4):
                if pos.decided >> s & 1 or not combination_value(pos.hands[s]):
                    continue  # decided, or passes without being asked
                found = oc.analyse(pos.hands[s])
                if pos.deciding and s == pos.to_move and first >= DECLARE_ACTION:
                    declare, first = first == DECLARE_ACTION, -1  # the action given
                else:
                    declare = worth_declaring(found)
                if declare:
                    ask[s], pend[s] = DECLARE_ACTION, found.cards
                    declared[s & 1] += found.value
                else:
                    ask[s] = PASS_ACTION
        t = np.zeros(4, dtype=np.int64)
        t[: len(pos.trick)] = pos.trick
        ns, ew, won_ns, won_ew, owner, taker, last = _playout(
            _arr(pos.hands), pos.to_move, t, len(pos.trick), _arr(pos.piles), _arr(pos.won),
            self.voids, self.lastled, self.decl, _arr(ask), _arr(pend), pos.matto[0],
            pos.matto[1], pos.last, self.dealer, pos.discard, first, _MOVES,
        )  # fmt: skip
        moves = recorded(_MOVES) if record else ()
        return Outcome(
            (int(ns), int(ew)), (int(won_ns), int(won_ew)), (int(owner), int(taker)), int(last),
            (declared[0], declared[1]), moves,
        )  # fmt: skip

    def replay(self, hands: tuple[int, int, int, int], discard: int) -> tuple[int, int]:
        """Return how many of the other seats' past plays (with a choice) the heuristic
        players would have made otherwise on a deal with these hands now and this discard:
        (with a card of the same suit and points, with any other)."""
        before = [hands[0], hands[1], hands[2], hands[3]]
        for s, c in self.plays:
            before[s] |= 1 << c
        near, miss = _replay(
            _arr(before), self.dealer, discard, _arr([s for s, _ in self.plays]),
            _arr([c for _, c in self.plays]), self.decl, self.seat,
        )  # fmt: skip
        return int(near), int(miss)


def choose_in(state: State) -> int:
    """Return the heuristic bot's card for the player to move in a trick-phase rules state,
    judged by the compiled code (for the differential test)."""
    p = mover(state)
    players = Players(view(state, p))
    ts = np.zeros(4, dtype=np.int64)
    tc = np.zeros(4, dtype=np.int64)
    for i, (s, c) in enumerate(state.trick):
        ts[i], tc[i] = s, c
    played = 0
    for _, c in players.plays:
        played |= 1 << c
    private = state.discard if p == state.dealer else 0
    card: int = choose(
        _arr(state.hands), p, state.legal, ts, tc, len(state.trick), played, private,
        players.voids, _arr(state.piles), players.decl, players.lastled, np.empty(4, np.int64),
    )  # fmt: skip
    return card


__all__ = ["Outcome", "Players", "choose_in"]
