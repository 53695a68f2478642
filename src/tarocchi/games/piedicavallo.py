"""Piedicavallo Tarocchi: the rules of the partnership game on the Tarocco Piemontese pack.

Card ids (see tarocchi.packs.piemontese):

    0-9 SW-5..SW-K   10-19 BA-5..BA-K   20-29 CU-6..CU-K   30-39 CO-6..CO-K
    40-60 T1..T21    61 MATTO

Actions are card ids only: the dealer's two discards, one card at a time, then
the 60 card plays of 15 tricks. Section numbers (§) refer to
docs/rules.md (Piedicavallo).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from tarocchi.cards import BIT, SEATS, TEAMS, iter_bits, popcount, team_of
from tarocchi.games import base
from tarocchi.games.base import (
    Event,
    IllegalAction,
    Result,
    TrickCore,
    TrickGame,
    View,
    follow_reason,
    led_suit,
    tricks_note,
    winner_of,
)
from tarocchi.i18n import Msg, joined, nmsg
from tarocchi.packs.piemontese import MATTO, PACK, T1, T21

DISCARD, PLAY, OVER = range(3)
PHASE_NAMES = ("discard", "play", "over")
TRICKS = 15
HAND_SIZE = 15
DISCARD_SIZE = 2

MATTO_BIT = 1 << MATTO
TRUMP_MASK = PACK.trump_mask
SUIT_CARDS = PACK.full_mask & ~TRUMP_MASK & ~MATTO_BIT
# rules §2.1: Kings, T1, T21 and the Matto may never be discarded.
PROTECTED = PACK.king_mask | (1 << T1) | (1 << T21) | MATTO_BIT
DISCARDABLE_SUIT = SUIT_CARDS & ~PACK.king_mask
DISCARDABLE_TRUMPS = TRUMP_MASK & ~PROTECTED
CORE = TrickCore(PACK)  # rules §3: the trick play
play_mask = CORE.follow


class Fields(NamedTuple):
    """The fields of a Piedicavallo position: ints, masks and tuples of them."""

    hands: tuple[int, int, int, int]
    dealer: int
    phase: int
    to_move: int | None
    leader: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the current trick, in play order
    tricks: tuple[tuple[tuple[int, int], ...], ...]  # the finished tricks, as `trick`
    winners: tuple[int, ...]  # the seat that won each finished trick
    piles: tuple[int, int]  # cards each team took; the Matto goes to its player's team
    discard: int  # the dealer's discard D (hidden but for the dealer)
    legal: int  # the legal actions of to_move as a mask, kept because playouts ask twice


class State(Fields):
    """A Piedicavallo position (immutable)."""

    __slots__ = ()
    GAME: ClassVar[str] = "piedicavallo"


_new_state = tuple.__new__  # builds a State without the Python-level __new__ (hot path)


def final(ns: int, ew: int, won: Sequence[int]) -> tuple[int, int]:
    """Return the final (NS, EW) totals from the points each team holds (its Matto, and the
    discard with the dealer's team) and the tricks each won (rules §4): a team that won no
    trick surrenders its Matto and discard, and the other scores all 114."""
    if not won[0]:
        return 0, ns + ew
    if not won[1]:
        return ns + ew, 0
    return ns, ew


def is_discard_legal(hand: int, discard: int) -> bool:
    """Return True if the dealer holding hand (17 cards) may discard the two cards
    (rules §2: never Kings, T1, T21, the Matto; trumps only if the rest is all
    trumps, Kings and the Matto, or has no trump at all)."""
    if popcount(discard) != DISCARD_SIZE or discard & ~hand or discard & PROTECTED:
        return False
    if not discard & TRUMP_MASK:
        return True
    rest = hand & ~discard
    return not rest & DISCARDABLE_SUIT or not rest & TRUMP_MASK


def first_discard_mask(hand: int) -> int:
    """Return the cards that begin at least one legal two-card discard from hand."""
    suit = hand & DISCARDABLE_SUIT
    trumps = hand & DISCARDABLE_TRUMPS
    all_trumps = hand & TRUMP_MASK
    n_suit = popcount(suit)
    # a suit card pairs with another suit card, or, when it is the last one, with any
    # discardable trump (clause (a) then holds).
    out = suit if n_suit >= 2 or (n_suit == 1 and trumps) else 0
    for t in iter_bits(trumps):
        bit = 1 << t
        others = trumps & ~bit
        # with a suit card: clause (a) if it is the only one, or clause (b) if t is the only trump
        with_suit = suit and (n_suit == 1 or all_trumps == bit)
        # with another trump: clause (a) if no suit card, or (b) if the two are all the trumps
        with_trump = others and (
            not suit or (popcount(all_trumps) == 2 and not all_trumps & ~DISCARDABLE_TRUMPS)
        )
        if with_suit or with_trump:
            out |= bit
    return out


def discard_reason(hand: int, discard: int) -> str:
    """Explain why a (partial) discard from hand is illegal; '' if it can be completed."""
    for c in iter_bits(discard & ~hand):
        return Msg("%(card)s is not in your hand", card=PACK.cards[c])
    for c in iter_bits(discard & PROTECTED):
        if c == MATTO:
            return Msg("the Matto cannot be discarded")
        if c in (T1, T21):
            return Msg("%(card)s cannot be discarded", card=PACK.cards[c])
        return Msg("Kings cannot be discarded")
    if popcount(discard) == 1 and discard & first_discard_mask(hand):
        return ""
    if popcount(discard) == 2 and is_discard_legal(hand, discard):
        return ""
    return Msg(
        "a trump may be discarded only if the rest of your hand is all trumps, Kings "
        "and the Matto, or holds no trump at all"
    )


def discard_note(dealer: int, discard: int) -> Msg:
    """Return what the dealer discarded, naming the cards (public once the deal is over)."""
    return Msg(
        "%(dealer)s discarded %(cards)s",
        dealer=SEATS[dealer],
        cards=joined([PACK.cards[c] for c in iter_bits(discard)]),
    )


DISCARD_LABEL = Msg("The discard")


def held_lines(
    piles: Sequence[int], tricks: Sequence[int]
) -> tuple[tuple[base.ScoreLine, ...], tuple[int, int]]:
    """Return what the cards each team has taken count (rules §4), as lines and (NS, EW)
    points: the cards won in its tricks (tricks won by each), and the Matto for its own
    player's team. The end counts the piles of the whole deal with it, the running score
    the cards taken so far."""
    taken = [PACK.points_of(p & ~MATTO_BIT) for p in piles]
    matto = [PACK.points[MATTO] * bool(p & MATTO_BIT) for p in piles]
    note = tricks_note(tricks[0], tricks[1])
    lines = (
        base.ScoreLine(Msg("Cards won in tricks"), taken[0], taken[1], note),
        base.ScoreLine(Msg("The Matto"), matto[0], matto[1]),
    )
    return lines, (taken[0] + matto[0], taken[1] + matto[1])


class Piedicavallo(TrickGame[State]):
    """The stateless rules object of Piedicavallo Tarocchi."""

    name = "piedicavallo"
    title = "Piedicavallo Tarocchi"
    pack = PACK
    max_margin = 114.0  # rules §4: a sweep takes all 114 card points
    hand_size = HAND_SIZE
    core = CORE

    # -- deal ---------------------------------------------------------------------
    # rules §2: random dealer, one card at a time from next(dealer), 15 each, and the last
    # 2 cards to the dealer (17)
    deal_slots = (*(1 + i % 4 for i in range(4 * HAND_SIZE)), *[0] * DISCARD_SIZE)

    def start(self, hands: tuple[int, int, int, int], dealer: int) -> State:
        """Return the state before the discard for explicit hands (the dealer's has 17)."""
        self.check_dealt(hands, dealer)
        legal = first_discard_mask(hands[dealer])
        leader = (dealer + 1) % 4
        return State(hands, dealer, DISCARD, dealer, leader, (), (), (), (0, 0), 0, legal)

    # -- legality ---------------------------------------------------------------------
    def legal_mask(self, state: State) -> int:
        """Return the legal actions as a mask of card ids."""
        return state.legal

    def illegal_reason(self, state: State, action: int) -> str:
        """Explain why action is illegal in state."""
        if state.to_move is None:
            return Msg("the deal is over")
        if not 0 <= action < PACK.size:
            return Msg("%(action)s is not a card", action=str(action))
        hand = state.hands[state.to_move]
        if state.phase == DISCARD:
            reason = discard_reason(hand | state.discard, state.discard | 1 << action)
            return reason or Msg("%(card)s cannot be discarded now", card=PACK.cards[action])
        return follow_reason(hand, led_suit(state.trick, PACK.suit_of), action, PACK)

    # -- transitions --------------------------------------------------------------------
    def apply(self, state: State, action: int) -> State:
        """Return the state after the player to move plays or discards card `action`."""
        hands, dealer, phase, p, leader, trick, tricks, winners, piles, discard, legal = state
        if p is None or action < 0 or not (legal >> action) & 1:
            raise IllegalAction(self.illegal_reason(state, action))
        bit = BIT[action]
        h0, h1, h2, h3 = hands
        if p < 2:
            new_hands = (h0 ^ bit, h1, h2, h3) if p == 0 else (h0, h1 ^ bit, h2, h3)
        else:
            new_hands = (h0, h1, h2 ^ bit, h3) if p == 2 else (h0, h1, h2, h3 ^ bit)
        if phase == DISCARD:
            return self._after_discard(state, new_hands, discard | bit)
        trick = (*trick, (p, action))
        if len(trick) < 4:
            p = (p + 1) & 3
            legal = play_mask(new_hands[p], trick)
            return _new_state(
                State,
                (new_hands, dealer, PLAY, p, leader, trick, tricks, winners, piles, discard, legal),
            )
        # rules §3: highest trump, else highest of the led suit; the Matto stays with its
        # player's team and no card is given back
        winner, (ns, ew) = CORE.close(piles, trick)
        winners = (*winners, winner)
        tricks = (*tricks, trick)
        if len(winners) == TRICKS:
            return _new_state(
                State,
                (
                    new_hands,
                    dealer,
                    OVER,
                    None,
                    winner,
                    (),
                    tricks,
                    winners,
                    (ns, ew),
                    discard,
                    0,
                ),
            )
        return _new_state(
            State,
            (
                new_hands,
                dealer,
                PLAY,
                winner,
                winner,
                (),
                tricks,
                winners,
                (ns, ew),
                discard,
                new_hands[winner],
            ),
        )

    def _after_discard(self, state: State, hands: tuple[int, int, int, int], discard: int) -> State:
        """Return the state after one of the dealer's two discards."""
        dealer, leader = state.dealer, state.leader
        if popcount(discard) < DISCARD_SIZE:
            legal = sum(
                1 << c
                for c in iter_bits(hands[dealer] & ~PROTECTED)
                if is_discard_legal(hands[dealer] | discard, discard | 1 << c)
            )
            return State(hands, dealer, DISCARD, dealer, leader, (), (), (), (0, 0), discard, legal)
        # rules §3: next(dealer) leads the first trick
        return State(
            hands, dealer, PLAY, leader, leader, (), (), (), (0, 0), discard, hands[leader]
        )

    # -- scoring ----------------------------------------------------------------------------
    how = Msg(
        "Each team counts the points of the cards it has taken; the Matto counts for its own "
        "player's team. At the end the discard counts for the dealer's team, and a team that "
        "won no trick gives up its Matto and discard."
    )

    def tally(self, v: View) -> base.Tally:
        """Return the running score as the end counts it (rules §4): the cards each team has
        taken and the Matto, and whose the hidden discard will be; once the deal is over, the
        result's breakdown."""
        if v.result is not None:
            return base.Tally(v.result.ns, v.result.ew, self.unit, self.how, v.result.lines)
        tricks = [0, 0]
        for w in v.winners:
            tricks[w & 1] += 1
        parts, (ns, ew) = held_lines(v.won, tricks)
        if v.phase != PHASE_NAMES[DISCARD]:
            # rules §4: the discard stays hidden until the end, for the dealer's team
            note = Msg(
                "%(dealer)s's two cards laid aside face down count at the end for %(team)s",
                dealer=SEATS[v.dealer],
                team=TEAMS[v.dealer & 1],
            )
            parts += (base.ScoreLine(DISCARD_LABEL, 0, 0, note),)
        return base.Tally(ns, ew, self.unit, self.how, parts)

    def result(self, state: State) -> Result:
        """Score a finished deal (rules §4): card points, the Matto, the discard, the sweep."""
        if state.phase != OVER:
            raise ValueError("the deal is not over")
        tricks = [0, 0]
        for w in state.winners:
            tricks[w & 1] += 1
        dealer_team = team_of(state.dealer)
        piles = list(state.piles)
        held_part, taken = held_lines(state.piles, tricks)
        lines = list(held_part)
        disc = [0, 0]
        disc[dealer_team] = PACK.points_of(state.discard)
        piles[dealer_team] |= state.discard
        note = discard_note(state.dealer, state.discard)
        lines.append(base.ScoreLine(DISCARD_LABEL, disc[0], disc[1], note))
        held = taken[0] + disc[0], taken[1] + disc[1]
        totals = final(held[0], held[1], tricks)
        for t in (0, 1):
            if tricks[t] == 0:
                sweep = (totals[0] - held[0], totals[1] - held[1])
                lines.append(base.ScoreLine(Msg("Sweep: Matto and discard surrendered"), *sweep))
                piles[1 - t] |= piles[t]
                piles[t] = 0
        extra = (
            ("tricks", (tricks[0], tricks[1])),
            ("discard", tuple(PACK.codes_of(state.discard))),
            ("announced_trumps", popcount(state.discard & TRUMP_MASK)),
        )
        return Result(
            totals[0],
            totals[1],
            winner_of(totals[0], totals[1]),
            tuple(lines),
            (piles[0], piles[1]),
            extra,
        )

    # -- what is public ---------------------------------------------------------------------------
    def public_events(self, state: State) -> tuple[Event, ...]:
        """The dealer's announcement of how many trumps are in the discard (rules §2)."""
        if state.phase == DISCARD:
            return ()
        n = popcount(state.discard & TRUMP_MASK)
        text = nmsg(
            "%(seat)s discarded %(n)d trump.",
            "%(seat)s discarded %(n)d trumps.",
            n,
            seat=SEATS[state.dealer],
        )
        return (Event("announce", state.dealer, 0, n, text),)

    def discards(self, state: State, seat: int) -> int:
        """Return the dealer's discard (rules §2), hidden from the others."""
        return state.discard if seat == state.dealer else 0

    def phase_name(self, state: State) -> str:
        """Return "discard", "play" or "over"."""
        return PHASE_NAMES[state.phase]


RULES = Piedicavallo()
