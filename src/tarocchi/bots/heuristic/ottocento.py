"""The heuristic Ottocento player: discards, declares and plays by card counting and value.

It reads only its view. Every card is priced by what it would change in the
final margin if it crossed from one team to the other: twice its card points
(counted in pairs: value minus 1/2) plus what it adds to the combinations each
team can hope to score (rules §3: captured combinations are worth far more than
card points, so Kings, honours, aces, Moors and the run of trumps count heavily).
A play is scored by the chance that the team takes the trick, from the cards
still unseen and the voids revealed, times what the trick holds, minus what is
lost when it does not; a strong card spent where a weaker one would do pays a
small price, and so does the Matto, kept for a trick that is lost anyway.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarocchi.bots.heuristic.common import JudgingBot
from tarocchi.bots.inference import partner, unseen, void_masks
from tarocchi.cards import BIT, TRUMPS
from tarocchi.games.base import led_suit
from tarocchi.games.ottocento import DECLARE_ACTION, LAST_TRICK_BONUS, PASS_ACTION, RULES
from tarocchi.games.ottocento_combos import Analysis, analyse, combination_value
from tarocchi.packs.bolognese import MATTO, MOOR1, PACK
from tarocchi.views import View

MATTO_BIT = BIT[MATTO]
TRUMP_MASK = PACK.trump_mask
SUIT_OF = PACK.suit_of
POINTS = PACK.points
MOOR_LAST = MOOR1 + 3
# the Matto's worth as a card kept for a trick that is lost anyway, per trick still to play
MATTO_RESERVE = 0.35
# what a card still to come is expected to add to a trick (players dump low cards)
FUTURE_CARD = 1.2
# the price of spending strength: per card of the suit (or trumps) the card outranks
POWER_PRICE = 0.08
# the chance that a partner still to play takes a trick he can beat
PARTNER_TAKES = 0.7
# a small preference for leading back the suit the partner led
RETURN_BONUS = 0.6
# the chance of losing a kept card: n cards above it give n / (n + RISK_K); each card of
# its suit gone adds RISK_GONE, each opponent known void RISK_VOID
RISK_K = 2.0
RISK_GONE = 0.05
RISK_VOID = 0.3
# what showing a card in a declaration costs: the opponents learn where it lies
REVEAL_SUIT_CARD = 1.5
REVEAL_TRUMP = 0.5
# discard: the weight of the combinations kept for the declaration, of a void made
DISCARD_COMBOS = 0.8
DISCARD_VOID = 2.5


def card_margin(card: int) -> float:
    """Return twice the card points of a card (rules §1: value minus 1/2 each)."""
    return 2 * POINTS[card] - 1


def beaten_by(card: int, led: int) -> tuple[int, int]:
    """Return (cards of the led suit that beat card, trumps that beat card) for a card
    winning a trick of suit `led` (rules §4: a later Moor beats an earlier one)."""
    if SUIT_OF[card] == TRUMPS:
        if MOOR1 <= card <= MOOR_LAST:
            above = TRUMP_MASK & ~((1 << MOOR1) - 1)  # every Moor and every higher trump
        else:
            above = TRUMP_MASK & ~((2 << card) - 1)
        return (above, 0) if led == TRUMPS else (0, above)
    return PACK.suit_mask[led] & ~((2 << card) - 1), TRUMP_MASK


def p_holds_any(mask: int, pool: int, slots: int) -> float:
    """Return the chance that `slots` cards drawn from `pool` unseen cards include one of
    `mask` (a hypergeometric draw)."""
    k = mask.bit_count()
    if not k or slots <= 0:
        return 0.0
    if k > pool - slots:
        return 1.0
    none = 1.0
    for i in range(slots):
        none *= (pool - k - i) / (pool - i)
    return 1.0 - none


def worth_declaring(found: Analysis) -> bool:
    """Return whether a hand's combinations are worth more than what showing them reveals."""
    # each revealed suit card helps the opponents aim at it or avoid it
    shown_suit_cards = found.cards & ~TRUMP_MASK & ~MATTO_BIT
    shown_trumps = found.cards & TRUMP_MASK
    cost = REVEAL_SUIT_CARD * shown_suit_cards.bit_count()
    cost += REVEAL_TRUMP * shown_trumps.bit_count()
    return found.value > cost


class Table:
    """What the seat knows and prices, built once per decision."""

    def __init__(self, view: View) -> None:
        self.view = view
        me = view.seat
        self.me = me
        self.team = me & 1
        self.unseen = unseen(view)
        self.voids = void_masks(view)
        shown = view.shown
        mine = view.won[self.team] | view.hand | shown[partner(me)]
        if view.dealer == me:
            mine |= view.private  # rules §2: the discard counts for the dealer's team
        theirs = view.won[1 - self.team] | shown[(me + 1) & 3] | shown[(me + 3) & 3]
        self.mine, self.theirs = mine, theirs
        self.mine_value = combination_value(mine)
        self.theirs_value = combination_value(theirs)
        self._swing: dict[int, float] = {}
        # the suit the partner led most recently (rules §4: he leads after winning a trick)
        self.partner_suit = -1
        mate = partner(me)
        for t in view.tricks:
            if t[0][0] == mate and SUIT_OF[t[0][1]] < TRUMPS:
                self.partner_suit = SUIT_OF[t[0][1]]

    def swing(self, card: int) -> float:
        """Return how much the margin moves when card goes to the other team's pile."""
        if card in self._swing:
            return self._swing[card]
        bit = BIT[card]
        if self.mine & bit:
            ours = self.mine_value - combination_value(self.mine & ~bit)
        else:
            ours = combination_value(self.mine | bit) - self.mine_value
        if self.theirs & bit:
            theirs = self.theirs_value - combination_value(self.theirs & ~bit)
        else:
            theirs = combination_value(self.theirs | bit) - self.theirs_value
        value = card_margin(card) + ours + theirs
        self._swing[card] = value
        return value

    def p_beat(self, seat: int, best: int, led: int) -> float:
        """Return the chance that seat can beat card best in a trick of suit led."""
        view = self.view
        known = view.shown[seat]
        pool_mask = self.unseen & ~self.voids[seat]
        slots = view.hand_sizes[seat] - known.bit_count()
        pool = pool_mask.bit_count()
        follow, ruff = beaten_by(best, led)
        led_cards = PACK.suit_mask[led]
        if known & follow:
            return 1.0
        p_follow = p_holds_any(follow & pool_mask, pool, slots)
        if not ruff:
            return p_follow
        # a player who holds a led card must follow; otherwise he may trump
        holds_led = 1.0 if known & led_cards else p_holds_any(led_cards & pool_mask, pool, slots)
        p_void = 1.0 - holds_led
        p_ruff = 1.0 if known & ruff else p_holds_any(ruff & pool_mask, pool, slots)
        return min(1.0, p_follow + p_void * p_ruff)

    def risk(self, card: int) -> float:
        """Return the chance that card, kept in hand, ends in an opponents' trick: it can be
        beaten by the unseen cards above it, or trumped once the suit runs out."""
        above = beaten_by(card, TRUMPS if SUIT_OF[card] == TRUMPS else SUIT_OF[card])
        higher = ((above[0] | above[1]) if SUIT_OF[card] == TRUMPS else above[0]) & self.unseen
        n = higher.bit_count()
        risk = n / (n + RISK_K)
        if SUIT_OF[card] != TRUMPS:
            # the more of its suit is gone, the likelier an opponent trumps it
            me = self.me
            gone = PACK.suit_mask[SUIT_OF[card]] & ~self.unseen & ~self.view.hand
            ruff = RISK_GONE * gone.bit_count()
            for s in ((me + 1) & 3, (me + 3) & 3):
                if self.voids[s] & BIT[card]:
                    ruff += RISK_VOID
            risk = min(0.95, risk + ruff)
        return risk

    def power(self, card: int) -> int:
        """Return how many cards still out of this seat's sight the card outranks in its
        suit: the strength given up by playing it."""
        if card == MATTO:
            return 0
        below = PACK.suit_mask[SUIT_OF[card]] & ((1 << card) - 1)
        return (below & (self.unseen | self.view.hand)).bit_count()


class HeuristicBot(JudgingBot):
    """Plays Ottocento by card counting: captures combinations, helps its partner."""

    name = "heuristic"

    def card_values(self, view: View) -> dict[int, float]:
        """Return the value of each legal card (play_value)."""
        table = Table(view)
        return {c: self.play_value(table, c) for c in view.legal}

    # -- discard ------------------------------------------------------------------------------
    def discard(self, view: View) -> int:
        """Return one card of the best two-card discard (rules §2): keep the combinations to
        declare and the trumps, bank points that might be lost, make a void to trump."""
        hand = view.hand
        first = view.private  # the card already discarded, if any
        legal = view.legal
        pairs: list[tuple[int, int]]
        if first:
            pairs = [(c, first.bit_length() - 1) for c in legal]
        else:
            pairs = [(a, b) for i, a in enumerate(legal) for b in legal[i + 1 :]]
        full = hand | first
        best = max(pairs, key=lambda pair: (self.discard_value(full, pair), pair))
        return best[0] if best[0] in legal else best[1]

    def discard_value(self, full: int, pair: tuple[int, int]) -> float:
        """Score a discard of two cards from the dealer's 17."""
        kept = full & ~(BIT[pair[0]] | BIT[pair[1]])
        score = DISCARD_COMBOS * combination_value(kept)
        for c in pair:
            suit = SUIT_OF[c]
            if suit == TRUMPS:
                # trumps win tricks; the high ones win the honours
                score -= 3.0 + 0.25 * (c - MOOR1)
                continue
            rest = kept & PACK.suit_mask[suit]
            score += POINTS[c] * 0.9  # the discard's points are banked
            if not rest:
                score += DISCARD_VOID  # a void: the suit's tricks can be trumped
            elif rest.bit_count() == 1:
                score += 0.8
            # a lone court card is likely to be lost in a trick anyway
            if not rest & ~BIT[c]:
                score += 0.5 * POINTS[c]
        return score

    # -- declaration -------------------------------------------------------------------------
    def declare(self, view: View) -> int:
        """Declare unless the points are worth less than what they reveal (rules §3: all or
        nothing; the shown cards tell the opponents where the honours lie)."""
        return DECLARE_ACTION if worth_declaring(analyse(view.hand)) else PASS_ACTION

    # -- card play -----------------------------------------------------------------------------
    def play_value(self, table: Table, card: int) -> float:
        """Return the expected margin of playing card now."""
        view = table.view
        me = table.me
        trick = (*view.trick, (me, card))
        to_come = [(me + k) & 3 for k in range(1, 5 - len(trick))]
        led = led_suit(trick, SUIT_OF)
        bonus = LAST_TRICK_BONUS if view.hand.bit_count() == 1 else 0
        # what the trick holds: the opponents' cards are won, the team's lost
        gain = loss = 0.0
        for s, c in view.trick:
            if c == MATTO:
                # rules §5: the Matto stays with its team, which gives a low card for it
                if (s ^ me) & 1:
                    gain += 1.0
                else:
                    loss += 1.0
            elif (s ^ me) & 1:
                gain += table.swing(c)
            else:
                loss += table.swing(c)
        gain += FUTURE_CARD * sum(1 for s in to_come if (s ^ me) & 1) + bonus
        loss += FUTURE_CARD * sum(1 for s in to_come if not (s ^ me) & 1) + bonus
        p = self.p_team_wins(table, trick, led, to_come)
        if card == MATTO:
            loss += 1.0
            value = p * gain - (1.0 - p) * loss
            return value - MATTO_RESERVE * (view.hand.bit_count() - 1)
        # the card itself: kept, it would be lost with chance `risk`; played, it is banked
        # if the team takes the trick and lost if not
        worth = table.swing(card)
        risk = table.risk(card)
        value = p * (gain + risk * worth) - (1.0 - p) * (loss + (1.0 - risk) * worth)
        value -= POWER_PRICE * table.power(card)
        if not view.trick and SUIT_OF[card] == table.partner_suit:
            value += RETURN_BONUS  # lead back the suit the partner led
        return value

    def p_team_wins(
        self,
        table: Table,
        trick: Sequence[tuple[int, int]],
        led: int | None,
        to_come: list[int],
    ) -> float:
        """Return the chance that the seat's team takes the trick."""
        me = table.me
        if led is None:
            # only the Matto so far: the next card sets the suit; call it even
            return 0.4
        best = RULES.winning_play(trick)
        if best is None:
            return 0.4
        seat, card = best
        ours = not (seat ^ me) & 1
        p_ours = 1.0 if ours else 0.0
        for s in to_come:
            if (s ^ me) & 1:
                # an opponent takes it over if he can (he has no duty to, but would)
                if p_ours:
                    p_ours *= 1.0 - table.p_beat(s, card, led)
            elif not ours:
                # the partner may still take it
                p_ours = max(p_ours, PARTNER_TAKES * table.p_beat(s, card, led))
        return p_ours
