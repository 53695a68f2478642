"""Minchiate: the rules of the four-player partnership game on the 97-card Florentine pack.

Card ids (see tarocchi.packs.minchiate):

    0-13 SW-A..SW-K   14-27 BA-A..BA-K   28-41 CU-10..CU-K   42-55 CO-10..CO-K
    56-95 T1..T40     96 MATTO

Actions are card ids (0-96) for the discards and the card plays, and the
declaration choices from 97 on (`extra_actions`): DECL-SEQ-LOW, DECL-SEQ-HIGH-1..3
(the runs within 28-40, lowest first), DECL-MATTO, DECL-THIRTEEN, DECL-TENS,
DECL-KINGS, and DECL-DONE to stop declaring.

A deal runs: the system's pre-play sequence (dealer, cut, the cutter's robbing,
the deal with each last card face up, the Fola, the dealer's robbing and
compulsory taking), all done inside `deal`; the cutter's and then the dealer's
discards, one card at a time; the declarations, counter-clockwise from the
dealer's right; the Fola turned face up; 21 tricks. Immediate scores and the
resti ledger are derived from the state when asked (`public_events`, `result`),
so playing a card does no scoring work. Section numbers (§) refer to
docs/rules.md (Minchiate).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from tarocchi.cards import SEATS, SUIT_NAMES_EN, bits, mask_of
from tarocchi.games import minchiate_notes as notes
from tarocchi.games.base import (
    ActionDetail,
    Event,
    IllegalAction,
    Result,
    ScoreLine,
    Tally,
    TrickCore,
    TrickGame,
    View,
    follow_reason,
    led_suit,
    shuffled_deal,
)
from tarocchi.games.minchiate_combos import (
    KIND_NAMES,
    combo_name,
    combos,
    describe,
    versicole_value,
)

# the position and the facts the rules share with their words, named here too (re-exported)
from tarocchi.games.minchiate_deal import CAPTURE_POINTS as CAPTURE_POINTS
from tarocchi.games.minchiate_deal import CARDS_PAR as CARDS_PAR
from tarocchi.games.minchiate_deal import COUNTING as COUNTING
from tarocchi.games.minchiate_deal import CUT as CUT
from tarocchi.games.minchiate_deal import DEAL as DEAL
from tarocchi.games.minchiate_deal import DECLARATIONS as DECLARATIONS
from tarocchi.games.minchiate_deal import DECLARE as DECLARE
from tarocchi.games.minchiate_deal import DECLARE_ACTIONS as DECLARE_ACTIONS
from tarocchi.games.minchiate_deal import DISCARD as DISCARD
from tarocchi.games.minchiate_deal import DISCARDABLE as DISCARDABLE
from tarocchi.games.minchiate_deal import DISCARDS as DISCARDS
from tarocchi.games.minchiate_deal import DONE as DONE
from tarocchi.games.minchiate_deal import END as END
from tarocchi.games.minchiate_deal import FIRST_PACKET as FIRST_PACKET
from tarocchi.games.minchiate_deal import FIVE_POINTS as FIVE_POINTS
from tarocchi.games.minchiate_deal import FOLA as FOLA
from tarocchi.games.minchiate_deal import HAND_SIZE as HAND_SIZE
from tarocchi.games.minchiate_deal import KING_MASK as KING_MASK
from tarocchi.games.minchiate_deal import LAST_TRICK_BONUS as LAST_TRICK_BONUS
from tarocchi.games.minchiate_deal import LED_MASK as LED_MASK
from tarocchi.games.minchiate_deal import MATTO_BIT as MATTO_BIT
from tarocchi.games.minchiate_deal import N_CARDS as N_CARDS
from tarocchi.games.minchiate_deal import OVER as OVER
from tarocchi.games.minchiate_deal import PHASE_NAMES as PHASE_NAMES
from tarocchi.games.minchiate_deal import PLAY as PLAY
from tarocchi.games.minchiate_deal import POINTS as POINTS
from tarocchi.games.minchiate_deal import REVEAL as REVEAL
from tarocchi.games.minchiate_deal import ROB_LIMIT as ROB_LIMIT
from tarocchi.games.minchiate_deal import ROBBABLE as ROBBABLE
from tarocchi.games.minchiate_deal import SECOND_PACKET as SECOND_PACKET
from tarocchi.games.minchiate_deal import SPECIAL as SPECIAL
from tarocchi.games.minchiate_deal import T29 as T29
from tarocchi.games.minchiate_deal import T29_BIT as T29_BIT
from tarocchi.games.minchiate_deal import TEAM_NAMES as TEAM_NAMES
from tarocchi.games.minchiate_deal import TEN_POINTS as TEN_POINTS
from tarocchi.games.minchiate_deal import THREE_POINTS as THREE_POINTS
from tarocchi.games.minchiate_deal import TRICK as TRICK
from tarocchi.games.minchiate_deal import TRICKS as TRICKS
from tarocchi.games.minchiate_deal import TRUMP_MASK as TRUMP_MASK
from tarocchi.games.minchiate_deal import DealInfo as DealInfo
from tarocchi.games.minchiate_deal import Fields as Fields
from tarocchi.games.minchiate_deal import Score as Score
from tarocchi.games.minchiate_deal import State as State
from tarocchi.games.minchiate_deal import card_points as card_points
from tarocchi.games.minchiate_deal import lost_matto
from tarocchi.games.minchiate_deal import payback_card as payback_card
from tarocchi.games.minchiate_ledger import Ledger, describe_diff
from tarocchi.games.minchiate_preplay import after_declaration, after_discard, deal
from tarocchi.games.minchiate_preplay import cut_of as cut_of
from tarocchi.games.minchiate_preplay import declarable as declarable
from tarocchi.games.minchiate_preplay import discard_mask as discard_mask
from tarocchi.games.minchiate_preplay import is_robbable as is_robbable
from tarocchi.i18n import N_, Msg, nmsg
from tarocchi.packs.minchiate import MATTO, PACK

# rules §4: the trick play, with the King rule
CORE = TrickCore(PACK, kings=KING_MASK)
play_mask = CORE.follow
king_rule_king = CORE.forced_king


# legal_actions: the action ids of each byte value at each byte position of a mask
_BYTE_IDS = tuple(
    tuple(tuple(8 * i + j for j in range(8) if b >> j & 1) for b in range(256)) for i in range(14)
)

# words of the running score and the declarations (the rest: tarocchi.games.minchiate_notes)
RUNNING_DIFFERENCE_LABEL = Msg("Running difference")
# where the points scored at once came from (rules §2.2-§2.4, §3, §5), in a deal's order
ROBBED, FACE_UP, FROM_FOLA, DECLARED, CAPTURED = range(5)
SOURCE_LABELS = (
    Msg("Robbed by the cutter"),
    Msg("Dealt face up"),
    Msg("Taken from the Fola by the dealer"),
    Msg("Declared versicole"),
    Msg("Opponents' cards taken in tricks"),
)


def scored_at_once(events: Sequence[Event], dealer: int) -> Iterator[tuple[int, Event]]:
    """Yield each score event of a deal's public events with where it came from: each
    follows the note of its own stage (`minchiate_notes.public_events` puts a stage's notes
    before its scores), the robbing, a card dealt face up, the dealer's Fola, a declaration;
    after the Fola is shown, the tricks."""
    source = CAPTURED
    for e in events:
        if e.kind == "score":
            yield source, e
        elif e.kind in ("rob", "fola", "take") and e.seat == dealer:
            source = FROM_FOLA
        elif e.kind == "rob":
            source = ROBBED
        elif e.kind == "expose":
            source = FACE_UP
        elif e.kind == "declare":
            source = DECLARED
        else:
            source = CAPTURED


DONE_LABEL = Msg("Stop declaring: keep the rest of your hand hidden")


_new_state = tuple.__new__  # builds a State without the Python-level __new__ (hot path)
_new_score = tuple.__new__  # builds a Score without the Python-level __new__


class Minchiate(TrickGame[State]):
    """The stateless rules object of Minchiate."""

    name = "minchiate"
    title = "Minchiate"
    pack = PACK
    max_margin = 200.0  # resti: far more than a deal's points allow (200 resti = 12,000)
    hand_size = HAND_SIZE
    extra_actions = (*DECLARE_ACTIONS, "DECL-DONE")
    pass_action = DONE
    core = CORE

    # -- deal -------------------------------------------------------------------------
    cut_range = range(1, N_CARDS)  # rules §2.1: the cutter lifts 1 to 96 cards

    def chance_outcomes(self, seed: int) -> tuple[int, ...]:
        """Return a seeded deal's chance outcomes (rules §2): random dealer and deck order,
        and the cut from a hash of the seed."""
        dealer, deck = shuffled_deal(seed, N_CARDS)
        return (dealer, cut_of(seed), *deck)

    def deal_outcomes(self, outcomes: Sequence[int]) -> State:
        """Run the pre-play sequence from chance outcomes: dealer, cut, deck."""
        return self.deal_from(outcomes[2:], outcomes[0], outcomes[1])

    def outcomes_of(self, state: State) -> tuple[int, ...]:
        """Return the chance outcomes of the state's deal (a sampled state's rebuilt deck)."""
        return (state.dealer, state.info.cut, *state.info.deck)

    def discards(self, state: State, seat: int) -> int:
        """Return the cutter's or the dealer's discard (rules §2.5)."""
        if seat == state.info.cutter:
            return state.discards[0]
        return state.discards[1] if seat == state.dealer else 0

    def deal_from(self, deck: Sequence[int], dealer: int, cut: int) -> State:
        """Run the pre-play sequence from an explicit deck (top first), dealer and cut (the
        number of cards the cutter lifts, 1-96); return the first decision."""
        if sorted(deck) != list(range(N_CARDS)):
            raise ValueError("the deck must hold each of the 97 cards once")
        if not 1 <= cut < N_CARDS or not 0 <= dealer < 4:
            raise ValueError("the cut must lift 1 to 96 cards; the dealer is a seat 0-3")
        return deal(list(deck), dealer, cut)

    @staticmethod
    def declared_kinds(state: State, seat: int) -> int:
        """Return the mask of the versicola kinds seat has declared."""
        done = 0
        for s, kind, _, _ in state.declared:
            if s == seat:
                done |= 1 << kind
        return done

    # -- legality -------------------------------------------------------------------------
    def legal_mask(self, state: State) -> int:
        """Return the legal actions as a mask (bit a = action a)."""
        return state.legal

    def legal_actions(self, state: State) -> list[int]:
        """Return the legal action ids, ascending."""
        m = state.legal
        out: list[int] = []
        if m.bit_count() <= 3:
            while m:
                low = m & -m
                out.append(low.bit_length() - 1)
                m ^= low
            return out
        # skip the empty low bytes: a follow-suit mask spans two or three bytes
        base = ((m & -m).bit_length() - 1) >> 3
        m >>= base << 3
        table = _BYTE_IDS
        for i, b in enumerate(m.to_bytes((m.bit_length() + 7) >> 3, "little"), base):
            if b:
                out += table[i][b]
        return out

    def king_rule(self, state: State) -> int:
        """Return the King the King rule forces the player to move to play, or 0 (rules §4)."""
        if state.phase != PLAY or state.to_move is None:
            return 0
        return king_rule_king(state.hands[state.to_move], state.trick, state.led)

    def illegal_reason(self, state: State, action: int) -> str:
        """Explain why action is illegal in state."""
        p = state.to_move
        if p is None:
            return Msg("the deal is over")
        if not 0 <= action <= DONE:
            return Msg("%(action)d is not an action in Minchiate", action=action)
        hand = state.hands[p]
        is_card = action < N_CARDS
        card = PACK.cards[action] if is_card else None
        if state.phase == DISCARD:
            if not is_card:
                return Msg(
                    "the declarations come after the discards: %(seat)s must discard a card",
                    seat=SEATS[p],
                )
            if not hand >> action & 1:
                return Msg("%(card)s is not in your hand", card=card)
            if action == T29:
                return Msg("trump 29 may never be discarded (rules §2.5)")
            if POINTS[action]:
                return nmsg(
                    "only zero-point cards may be discarded: %(card)s is worth %(n)d point "
                    "(rules §2.5)",
                    "only zero-point cards may be discarded: %(card)s is worth %(n)d points "
                    "(rules §2.5)",
                    POINTS[action],
                    card=card,
                )
            # rules §6.2: T29 goes before it
            return Msg("%(card)s cannot be discarded now", card=card)
        if state.phase == DECLARE:
            if is_card:
                return Msg(
                    "it is time to declare versicole (or to stop declaring), not to play a card"
                )
            kind = action - N_CARDS
            if self.declared_kinds(state, p) >> kind & 1:
                return Msg("you have already declared %(versicola)s", versicola=KIND_NAMES[kind])
            return Msg("you do not hold %(versicola)s", versicola=KIND_NAMES[kind])
        if not is_card:
            return Msg("the declarations are over: play a card")
        if not hand >> action & 1:
            return Msg("%(card)s is not in your hand", card=card)
        king = king_rule_king(hand, state.trick, state.led)
        if king:
            return Msg(
                "the King rule forces the King of %(suit)s: it is the first %(suit)s trick "
                "and a trump has been played",
                suit=SUIT_NAMES_EN[PACK.suit_of[king.bit_length() - 1]],
            )
        return follow_reason(hand, led_suit(state.trick, PACK.suit_of), action, PACK)

    # -- transitions ------------------------------------------------------------------------
    def apply(self, state: State, action: int) -> State:
        """Return the state after the player to move takes action (IllegalAction if not)."""
        (hands, dealer, phase, p, leader, trick, tricks, winners, piles, legal, led, discards,
         declared, info) = state  # fmt: skip
        if p is None or action < 0 or not legal >> action & 1:
            raise IllegalAction(self.illegal_reason(state, action))
        if phase != PLAY:
            if phase == DISCARD:
                return after_discard(state, action)
            return after_declaration(state, action)
        bit = 1 << action
        if p == 0:
            hands = (hands[0] ^ bit, hands[1], hands[2], hands[3])
        elif p == 1:
            hands = (hands[0], hands[1] ^ bit, hands[2], hands[3])
        elif p == 2:
            hands = (hands[0], hands[1], hands[2] ^ bit, hands[3])
        else:
            hands = (hands[0], hands[1], hands[2], hands[3] ^ bit)
        if len(trick) == 3:
            # rules §4: the Matto goes to its owner's team pile
            trick += ((p, action),)
            winner, piles = CORE.close(piles, trick)
            winners += (winner,)
            tricks += (trick,)
            over = len(winners) == TRICKS
            return _new_state(
                State,
                (hands, dealer, OVER if over else PLAY, None if over else winner, winner, (),
                 tricks, winners, piles, 0 if over else hands[winner], led | CORE.suit(trick),
                 discards, declared, info),
            )  # fmt: skip
        trick += ((p, action),)
        p = (p + 1) & 3
        legal = play_mask(hands[p], trick, led)
        return _new_state(
            State,
            (hands, dealer, PLAY, p, leader, trick, tricks, winners, piles, legal, led, discards,
             declared, info),
        )  # fmt: skip

    # -- scoring ---------------------------------------------------------------------------
    def scores(self, state: State) -> list[Score]:
        """Return the immediate scores so far, in order (rules §5): the cutter's robbing, the
        exposed cards, the dealer's Fola cards, the declarations, then each trick's counting
        cards played by the winners' opponents. The Matto payback is added by `result`."""
        info, dealer = state.info, state.dealer
        out: list[Score] = []
        cutter = info.cutter
        # rules §2.2-§2.4: counting cards robbed, dealt face up or taken score at once
        robbed = tuple([c for c in info.robbed if POINTS[c]])
        if robbed:
            pts = sum([POINTS[c] for c in robbed])
            out.append(
                _new_score(Score, ((CUT, 0), cutter & 1, cutter, pts, mask_of(robbed), robbed))
            )
        for k in range(4):
            seat = (dealer + 1 + k) & 3
            card = info.exposed[seat]
            if POINTS[card]:
                out.append(
                    _new_score(Score, ((DEAL, k), seat & 1, seat, POINTS[card], 1 << card, (card,)))
                )
        for key, gained in (
            ((FOLA, 0), tuple([c for c in info.fola_robbed if POINTS[c]])),
            ((FOLA, 1), tuple([c for c in bits(info.fola_taken) if POINTS[c]])),
        ):
            if gained:
                pts = sum([POINTS[c] for c in gained])
                out.append(
                    _new_score(Score, (key, dealer & 1, dealer, pts, mask_of(gained), gained))
                )
        for i, (seat, kind, cards, value) in enumerate(state.declared):
            out.append(Score((DECLARATIONS, i), seat & 1, seat, value, cards, (kind,)))
        winners = state.winners
        for i, trick in enumerate(state.tricks):
            w = winners[i]
            # rules §5: the winners score the counting cards their opponents played, the two
            # plays beside the winning one (the Matto, never taken, counts nothing here)
            o = (w - trick[0][0] + 1) & 1  # the opponents played at positions o and o + 2
            a, b = trick[o][1], trick[o + 2][1]
            pa, pb = CAPTURE_POINTS[a], CAPTURE_POINTS[b]
            if pa or pb:
                ids: tuple[int, ...]
                if pa and pb:
                    won, ids = 1 << a | 1 << b, (a, b)
                else:
                    c = a if pa else b
                    won, ids = 1 << c, (c,)
                out.append(_new_score(Score, ((TRICK, i), w & 1, w, pa + pb, won, ids)))
        return out

    def matto_payback(self, state: State) -> tuple[int, int, int] | None:
        """Return (owing team, trick index, card given) if the Matto lost its trick to the
        opponents (rules §4-§5: its team gives them one pile card at the end), else None."""
        owed = lost_matto(state.piles)
        if owed is None:
            return None
        for i, trick in enumerate(state.tricks):
            for _, card in trick:
                if card == MATTO:
                    return owed[0], i, owed[1]
        return None

    def result(self, state: State) -> Result:
        """Score a finished deal (rules §5): the resti of each side, the ledger and the end
        breakdown (told in tarocchi.games.minchiate_notes); net resti decide, 0 is a draw."""
        return notes.result(self, state)

    @staticmethod
    def payback_score(team: int, card: int) -> Score:
        """Return the score of a counting card given for the Matto (rules §5)."""
        return Score((END, 0), 1 - team, None, POINTS[card], 1 << card, (card,))

    # -- the running score --------------------------------------------------------------------
    unit = N_("resti")
    discard_counts = False  # rules §2.5: the discards go into the Fola, which never scores
    how = Msg(
        "Minchiate is won in resti: whenever a side leads by 60 points in the running "
        "difference it makes a resto. Points score at once for robbed and face-up counting "
        "cards, declarations, and in each trick the counting cards the winners take from their "
        "opponents (their own team's cards score nothing then). At the end every card in the "
        "piles counts again, with captured versicole, cards over 42 and 10 for the last trick, "
        "and the remaining difference is rounded up to resti."
    )

    def trick_points(self, trick: Sequence[tuple[int, int]], winner: int) -> tuple[float, float]:
        """Return what a finished trick scores at once (rules §5): the winners' team scores
        the counting cards their opponents played."""
        o = (winner - trick[0][0] + 1) & 1  # the opponents played at positions o and o + 2
        points = CAPTURE_POINTS[trick[o][1]] + CAPTURE_POINTS[trick[o + 2][1]]
        return (points, 0) if winner & 1 == 0 else (0, points)

    def tally(self, v: View) -> Tally:
        """Return the resti so far (rules §5), with the points scored at once by where they
        came from, the running difference, and the end-of-deal count of the cards taken so
        far; once the deal is over, the result's breakdown."""
        if v.result is not None:
            return Tally(v.result.ns, v.result.ew, self.unit, self.how, v.result.lines)
        ledger = Ledger()
        sources = [[0, 0] for _ in SOURCE_LABELS]
        for source, e in scored_at_once(v.events, v.dealer):
            assert e.seat is not None  # every score during play is a seat's
            sources[source][e.seat & 1] += e.value
            ledger = ledger.score(e.seat & 1, e.value)
        parts = [
            ScoreLine(label, ns, ew)
            for label, (ns, ew) in zip(SOURCE_LABELS, sources, strict=True)
            if ns or ew
        ]
        diff = ledger.diff
        note = describe_diff(diff)
        parts.append(ScoreLine(RUNNING_DIFFERENCE_LABEL, max(diff, 0), max(-diff, 0), note))
        tricks = [0, 0]
        for w in v.winners:
            tricks[w & 1] += 1
        parts += notes.ending(v.won, (tricks[0], tricks[1]), None)
        return Tally(ledger.ns, ledger.ew, self.unit, self.how, tuple(parts))

    def action_detail(self, hand: int, action: int) -> ActionDetail:
        """Describe a declaration choice: the versicola, its cards and worth (rules §3)."""
        if action == DONE:
            return ActionDetail(DONE_LABEL, 0, None)
        kind = action - N_CARDS
        for combo in combos(hand):
            if combo.kind == kind:
                label = Msg("Declare %(versicola)s", versicola=describe(combo))
                what = combo_name(combo.kind, combo.cards)
                return ActionDetail(label, combo.cards, combo.value, what)
        return super().action_detail(hand, action)

    def fola_mask(self, state: State) -> int:
        """Return the Fola's cards (13 once the discards are made, rules §2.5)."""
        return state.info.fola_rest | state.discards[0] | state.discards[1]

    # -- what is public ------------------------------------------------------------------------
    def public_events(self, state: State) -> tuple[Event, ...]:
        """Return the pre-play sequence, the discards, declarations, the Fola once shown and
        every immediate score with the running resti ledger (rules §2, §3, §5), in order (told
        in tarocchi.games.minchiate_notes)."""
        return notes.public_events(self, state)

    def shown_cards(self, state: State) -> tuple[int, int, int, int]:
        """Return, per seat, the cards everyone knows it holds: the cards it received face up
        and its declared versicole, while still in its hand. Until the Fola is shown the
        cutter's and dealer's zero-point face-up cards are left out: they may be discarded."""
        info = state.info
        known = list(info.faceup)
        for seat, _, cards, _ in state.declared:
            known[seat] |= cards
        if state.phase < PLAY:
            known[info.cutter] &= SPECIAL
            known[state.dealer] &= SPECIAL
        h = state.hands
        return (known[0] & h[0], known[1] & h[1], known[2] & h[2], known[3] & h[3])

    def private_cards(self, state: State, seat: int) -> int:
        """Until the Fola is shown, each discarder alone knows its discards, and the dealer
        also the Fola cards it looked through (rules §2.4-§2.6)."""
        if state.phase >= PLAY:
            return 0
        if seat == state.info.cutter:
            return state.discards[0]
        if seat == state.dealer:
            return state.discards[1] | state.info.fola_rest
        return 0

    def dealt_hands(self, state: State) -> tuple[int, ...]:
        """Return the 21 cards dealt to each seat, before any robbing or taking."""
        return state.info.dealt

    def deal_fields(self, state: State) -> dict[str, Any]:
        """Return the pre-play facts for records: deck, cut, robbing, exposed cards, Fola."""
        info = state.info
        c = PACK.codes
        return {
            "deck": [c[x] for x in info.deck],
            "cut": info.cut,
            "cutter": info.cutter,
            "robbed": [c[x] for x in info.robbed],
            "exposed": [c[x] for x in info.exposed],
            "fola": [c[x] for x in info.fola],
            "fola_robbed": [c[x] for x in info.fola_robbed],
            "fola_stop": c[info.fola_stop] if info.fola_stop >= 0 else None,
            "fola_taken": PACK.codes_of(info.fola_taken),
        }

    def phase_name(self, state: State) -> str:
        """Return "discard", "declare", "play" or "over"."""
        return PHASE_NAMES[state.phase]

    def combination_score(self, codes: Sequence[str]) -> int:
        """Return the value of the versicole in a set of cards, Matto bonus included (§3)."""
        return versicole_value(PACK.mask(codes))


RULES = Minchiate()
