"""The Minchiate heuristic bot: a partnership-aware rule-based player.

It plays each card for the best expected score of the current trick, less the
value the card would still have if kept (rules §5): a counting card the
opponents capture scores for them at once and again at the end, so a trick is
worth twice the opponents' points plus our own to the side that takes it. The
chance of winning comes from counting cards: what is unseen, the voids the play
has revealed, and every card shown face up or declared (its holder is known). So
it loads points on a partner's sure trick, ducks cheaply or slips the Matto into
a trick it would lose, wins with the lowest card that does it, keeps master
trumps for the tricks that carry points, and trumps a suit's first lead when an
opponent still to play must then give up his King (the King rule, §4).

As cutter or dealer it discards zero-point suit cards from its shortest suits,
to trump them later; it declares every versicola it holds. Section numbers (§)
refer to docs/rules.md (Minchiate).
"""

from __future__ import annotations

from tarocchi.bots.heuristic import common
from tarocchi.bots.inference import void_masks
from tarocchi.cards import TRUMPS, popcount
from tarocchi.games.base import led_suit
from tarocchi.games.minchiate import CORE, DONE, N_CARDS
from tarocchi.packs.minchiate import MATTO, PACK, trump
from tarocchi.views import View

POINTS, SUIT_OF, SUIT_MASK, TRUMP_MASK, KINGS, FULL, HIGHER = common.tables(PACK)
KING_OF = tuple(KINGS & SUIT_MASK[s] for s in range(4))
T40 = trump(40)
SUITS = (0, 1, 2, 3)


def fola_cards(view: View) -> int:
    """Return the Fola's cards once it has been shown to all (rules §2.6), else 0."""
    for e in view.events:
        if e.kind == "fola" and e.seat is None and e.cards:
            return e.cards
    return 0


def led_before(view: View) -> int:
    """Return the union of the suits led in the finished tricks (the King rule, §4)."""
    out = 0
    for t in view.tricks:
        led = led_suit(t, SUIT_OF)
        if led is not None:
            out |= SUIT_MASK[led]
    return out


class HeuristicBot(common.JudgingBot):
    """Plays Minchiate by card counting and a one-trick expected-value judgement."""

    name = "heuristic"

    # Tuning constants, in points of the end-of-deal difference (measured with the arena).
    load_pts = 1.5  # counting points a player still to play adds to his side's winning trick
    duck_pts = 0.3  # ... to a trick his side is losing and he cannot win
    trick_value = 2.0  # a trick's four cards towards the count over 42, and the lead
    trump_master = 20.0  # value of keeping a trump no unseen trump can beat
    trump_base = 1.0  # value of keeping the lowest trump (it can still ruff)
    trump_slope = 14.0  # extra value of a trump by its rank among the trumps still out
    king_power = 1.0  # value of keeping a King (a likely trick)
    suit_master = 0.8  # value of keeping another master suit card
    matto_power = 4.0  # value of keeping the Matto to escape a lost trick later
    q_master = 0.95  # chance a kept master trump's points end in our pile
    q_trump = 0.8  # ... a kept trump an unseen trump beats
    q_king = 0.55  # ... a kept King
    payback = 1.0  # rules §5: a lost Matto costs a card from our pile at the end
    king_rule_gain = 10.0  # an opponent's King forced into our trick: 5 now and 5 at the end
    matto_lead_penalty = 3.0  # a led Matto hands the lead to the next opponent
    void_bonus = 3.0  # discards: value of emptying a suit we can trump
    trump_discard = 1.0  # discards: extra cost of giving up a trump rather than a suit card
    capture_factor = 0.5  # weight of the points later players are expected to add (measured)

    def declare(self, view: View) -> int:
        """Return the next versicola to declare: the AI declares every one it holds (rules
        §3), then DECL-DONE."""
        return next((a for a in view.legal if a >= N_CARDS and a != DONE), DONE)

    # -- the value of a card kept in hand ----------------------------------------------------
    def keep_value(self, card: int, unseen: int, future: float) -> float:
        """Return what keeping card is worth: its power to win tricks later, plus its points
        weighed by where they will likely end (rules §5: +p in our pile, -2p if captured)."""
        if card == MATTO:
            # rules §4: the Matto always ends with its team, so only its escape counts
            return self.matto_power * future
        pts = POINTS[card]
        if SUIT_OF[card] == TRUMPS:
            above = HIGHER[card] & unseen
            if not above:
                power, q = self.trump_master, self.q_master
            else:
                out = popcount(unseen & TRUMP_MASK)
                below = out - popcount(above)
                power, q = self.trump_base + self.trump_slope * below / max(out, 1), self.q_trump
            return future * power + pts * (3 * q - 2)
        if (KINGS >> card) & 1:
            return future * self.king_power + pts * (3 * self.q_king - 2)
        if not HIGHER[card] & unseen:
            return future * self.suit_master
        return 0.0

    # -- trick play ------------------------------------------------------------------------------
    def card_values(self, view: View) -> dict[int, float]:
        """Return the expected value of each legal card: what this trick brings our team, less
        what the card would still be worth in hand."""
        me, hand, trick = view.seat, view.hand, view.trick
        team = me & 1
        # every card whose place is unknown, or known only to be in another hand
        unseen = FULL & ~(hand | common.played_mask(view) | view.private | fola_cards(view))
        voids = list(void_masks(view))
        for s in range(4):
            for t in range(4):
                if t != s:
                    voids[s] |= view.shown[t]  # a card shown in t's hand is not in s's
        odds = common.Odds(view, unseen, voids)
        future = min(1.0, (popcount(hand) - 1) / 4)
        rest = [(me + i) & 3 for i in range(1, 4 - len(trick))]
        led = led_suit(trick, SUIT_OF)
        own = opp = 0
        for seat, c in trick:
            if c != MATTO:
                if (seat ^ me) & 1:
                    opp += POINTS[c]
                else:
                    own += POINTS[c]
        first_lead = led is not None and led != TRUMPS and not led_before(view) & SUIT_MASK[led]
        trumped = any(SUIT_OF[c] == TRUMPS for _, c in trick)
        outlook = common.outlook_memo(odds, team, rest, self.load_pts, self.duck_pts)

        values = {}
        for c in view.legal:
            keep = self.keep_value(c, unseen, future)
            if c == MATTO:
                if led is None:
                    values[c] = -keep - self.matto_lead_penalty
                    continue
                win = CORE.winning_play(trick)
                assert win is not None
                p, added = outlook(win, led)
                mine, cost = own, (1 - p) * self.payback
            else:
                suit = SUIT_OF[c] if led is None else led
                win = CORE.winning_play((*trick, (me, c)))
                assert win is not None
                p, added = outlook(win, suit)
                mine, cost = own + POINTS[c], 0.0
            # rules §5: the winners score the losers' points at once and everything at the end
            ev = p * (2 * opp + mine) - (1 - p) * (2 * mine + opp)
            ev += self.capture_factor * added + (2 * p - 1) * self.trick_value - keep - cost
            if first_lead and not trumped and SUIT_OF[c] == TRUMPS:
                ev += p * self.king_rule_gain * self._king_after(odds, led, rest, team)
            values[c] = ev
        return values

    @staticmethod
    def _king_after(odds: common.Odds, led: int | None, rest: list[int], team: int) -> float:
        """Return the chance that an opponent still to play holds the led suit's King: after a
        trump on the suit's first lead he must play it (rules §4)."""
        assert led is not None
        king = KING_OF[led]
        return sum(
            odds.p(s, king.bit_length() - 1) for s in rest if (s & 1) != team and king & odds.unseen
        )

    # -- discards --------------------------------------------------------------------------------
    def discard(self, view: View) -> int:
        """Return the zero-point card to discard (rules §2.5): the cheapest to keep, preferring
        the short suits without a King, which can be emptied to trump them later."""
        hand = view.hand
        unseen = FULL & ~(hand | view.private)
        ruff = min(1.0, popcount(hand & TRUMP_MASK) / 4)

        def cost(card: int) -> float:
            value = self.keep_value(card, unseen, 1.0)
            suit = SUIT_OF[card]
            if suit < TRUMPS and not hand & KING_OF[suit]:
                n = popcount(hand & SUIT_MASK[suit])
                value -= self.void_bonus * ruff / n
            elif suit == TRUMPS:
                value += self.trump_discard  # a trump keeps its power to ruff
            return value

        return min(view.legal, key=lambda c: (cost(c), c))
