"""The Piedicavallo heuristic bot: a partnership-aware rule-based player.

Each card is judged by what the current trick is expected to bring the team,
less what the card would still be worth if kept. The chance of winning the trick
comes from counting cards: what is still unseen, the voids the play has revealed,
and the dealer's public count of discarded trumps (rules §2). So the bot loads
points on a partner's sure trick and never overtrumps it, ducks with its cheapest
card when the trick is lost, spends the Matto on a trick its side would lose,
wins cheaply (trumping last with T1 when it can), keeps T21 and master trumps for
rich tricks, leads Kings while nobody can trump them, and leads back the suit its
partner led. As dealer it discards to bank exposed court cards and to make a void
it can trump into. Section numbers (§) refer to docs/rules.md (Piedicavallo).
"""

from __future__ import annotations

from tarocchi.bots.heuristic import common
from tarocchi.bots.inference import partner, void_masks
from tarocchi.cards import TRUMPS, iter_bits, popcount
from tarocchi.games.base import led_suit
from tarocchi.games.piedicavallo import (
    CORE,
    DISCARDABLE_SUIT,
    DISCARDABLE_TRUMPS,
    is_discard_legal,
)
from tarocchi.packs.piemontese import MATTO, PACK, T1, T21
from tarocchi.views import View

POINTS, SUIT_OF, SUIT_MASK, TRUMP_MASK, KINGS, FULL, HIGHER = common.tables(PACK)
SUITS = (0, 1, 2, 3)


class HeuristicBot(common.JudgingBot):
    """Plays Piedicavallo by card counting and a one-trick expected-value judgement."""

    name = "heuristic"

    # Tuning constants, all in card points (measured with the arena; see the tests).
    load_pts = 2.5  # points a player still to play adds to a trick his side is winning
    duck_pts = 1.2  # ... to a trick his side is losing and he cannot win
    trump_master = 8.0  # value of keeping a trump no unseen trump can beat
    trump_base = 2.0  # value of keeping the lowest trump (it can still ruff)
    trump_slope = 3.5  # extra value of a trump by its rank among the trumps still out
    king_power = 0.5  # value of keeping a King (a likely trick)
    court_master = 1.0  # value of keeping a Queen, Knight or Jack no unseen card beats
    matto_power = 2.0  # value of keeping the Matto to escape a lost trick later
    q_king = 0.75  # chance a kept King ends in our pile
    q_court = 0.5  # ... a kept Queen, Knight or Jack
    q_t1 = 0.8  # ... a kept T1 while higher trumps are out
    partner_suit_bonus = 2.0  # for leading back the suit the partner led
    matto_lead_penalty = 1.5  # leading the Matto hands the lead to the next opponent
    sweep_stake = 8.0  # value of a first trick late in the deal (rules §4: the sweep)
    void_bonus = 8.0  # dealer: value of a void, with three trumps or more to ruff with

    # -- the value of a card kept in hand ------------------------------------------------
    def keep_value(self, card: int, unseen: int) -> float:
        """Return what keeping card is worth: its future power to win tricks, plus its own
        points weighted by the chance they end up with us rather than the opponents."""
        if card == MATTO:
            # rules §3: the Matto always returns to its team, so only its escape counts
            return self.matto_power
        pts = POINTS[card]
        if SUIT_OF[card] == TRUMPS:
            above = HIGHER[card] & unseen
            if card == T21 or not above:
                power, q = self.trump_master, 1.0 if card == T21 else 0.95
            else:
                out = popcount(unseen & TRUMP_MASK)
                below = out - popcount(above)
                power = self.trump_base + self.trump_slope * below / out
                q = self.q_t1 if card == T1 else 0.5
            return power + pts * (2 * q - 1)
        if (KINGS >> card) & 1:
            return self.king_power + pts * (2 * self.q_king - 1)
        if pts == 1:
            return 0.0
        power = 0.0 if HIGHER[card] & unseen else self.court_master
        return power + pts * (2 * self.q_court - 1)

    # -- trick play --------------------------------------------------------------------------
    def card_values(self, view: View) -> dict[int, float]:
        """Return the expected value of each legal card: what this trick brings our team,
        less what the card would still be worth in hand."""
        me, hand, trick = view.seat, view.hand, view.trick
        team = me & 1
        unseen = FULL & ~(hand | common.played_mask(view) | view.private)
        hidden: tuple[common.HiddenGroup, ...] = ()
        if me != view.dealer:
            # rules §2: the discard holds the announced number of trumps, never T1, T21,
            # a King or the Matto
            k = next((e.value for e in view.events if e.kind == "announce"), 0)
            hidden = ((DISCARDABLE_TRUMPS, k), (DISCARDABLE_SUIT, 2 - k))
        odds = common.Odds(view, unseen, void_masks(view), hidden)
        rest = [(me + i) & 3 for i in range(1, 4 - len(trick))]
        led = led_suit(trick, SUIT_OF)
        base = sum(POINTS[c] for _, c in trick if c != MATTO)
        stake = 0.0
        if not any((w & 1) == team for w in view.winners) and len(view.winners) >= 9:
            stake = self.sweep_stake
        partner_suits = self._partner_suits(view) if led is None else 0
        outlook = common.outlook_memo(odds, team, rest, self.load_pts, self.duck_pts)

        values = {}
        for c in view.legal:
            keep = self.keep_value(c, unseen)
            if c == MATTO:
                if led is None:
                    ev = -keep - self.matto_lead_penalty
                else:
                    win = CORE.winning_play(trick)
                    assert win is not None
                    p, added = outlook(win, led)
                    ev = (2 * p - 1) * base + added - keep + p * stake
            else:
                suit = SUIT_OF[c] if led is None else led
                win = CORE.winning_play((*trick, (me, c)))
                assert win is not None
                p, added = outlook(win, suit)
                ev = (2 * p - 1) * (base + POINTS[c]) + added - keep + p * stake
                if led is None and SUIT_MASK[SUIT_OF[c]] & partner_suits:
                    ev += self.partner_suit_bonus
            values[c] = ev
        return values

    @staticmethod
    def _partner_suits(view: View) -> int:
        """Return the mask of the suits (not trumps) the partner has led so far."""
        mate = partner(view.seat)
        out = 0
        for t in view.tricks:
            lead = next(((s, c) for s, c in t if c != MATTO), None)
            if lead is not None and lead[0] == mate and SUIT_OF[lead[1]] != TRUMPS:
                out |= SUIT_MASK[SUIT_OF[lead[1]]]
        return out

    # -- the dealer's discard -------------------------------------------------------------------
    def discard(self, view: View) -> int:
        """Return a card of the best legal two-card discard (rules §2), the same on both calls."""
        full = view.hand | view.private
        unseen = FULL & ~full
        done = view.private
        cards = list(iter_bits(full & (DISCARDABLE_SUIT | DISCARDABLE_TRUMPS)))
        best_pair, best_score = 0, -1e9
        for i, a in enumerate(cards):
            for b in cards[i + 1 :]:
                pair = 1 << a | 1 << b
                if pair & done != done or not is_discard_legal(full, pair):
                    continue
                score = self.discard_score(full, pair, unseen)
                if score > best_score:
                    best_pair, best_score = pair, score
        choice = best_pair & ~done
        if not choice:
            return view.legal[0]
        return (choice & -choice).bit_length() - 1

    def discard_score(self, hand: int, discard: int, unseen: int) -> float:
        """Return the value of discarding two cards: their points are banked for our team
        (rules §2), they are no longer at risk, and the kept hand's shape may ruff."""
        score = 0.0
        for c in iter_bits(discard):
            score += POINTS[c] - self.keep_value(c, unseen)
        kept = hand & ~discard
        ruff = min(1.0, popcount(kept & TRUMP_MASK) / 3)
        voids = sum(1 for s in SUITS if not kept & SUIT_MASK[s])
        return score + self.void_bonus * ruff * voids
