"""Minchiate's belief: the deals one seat's view of a Minchiate deal allows.

The constraints (rules §2-§5): face-up (robbed, exposed, taken) and declared cards
stay with their holder, each declaration is a canonical versicola of the
declarer's hand with its Matto bonus (which places the Matto), a player asked
to declare holds an undeclared versicola, and a player who kept a King back in
the first trick of its suit after a trump fell does not hold it (the King rule
would have forced it). Before the first lead the Fola and the discards are
hidden: the cutter's and the dealer's discards so far are zero-point cards other
than T29, as is what stayed in the Fola (the dealer took every special card);
from the first lead on they are public. The pre-play facts are rebuilt from the
public events, with a deck that deals the sampled hands (`deal_from` replays it
exactly). The sampler itself is `tarocchi.bots.belief`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from tarocchi.bots.belief import Belief
from tarocchi.cards import BIT, bits, iter_bits, popcount
from tarocchi.views import View

if TYPE_CHECKING:  # the rules compile at import: they are loaded lazily
    from tarocchi.games import minchiate


class MinchiateBelief(Belief):
    """Minchiate: the hands, with the face-up and declared cards fixed (rules §2-§3), the
    King rule's revelations (rules §4), each declaration as the canonical versicola of the
    declarer's hand, Matto bonus included (rules §3); before the first lead also the
    hidden discards and the Fola's hidden cards (rules §2.4-§2.5)."""

    def __init__(self, view: View) -> None:
        from tarocchi.games import minchiate as mc
        from tarocchi.games.minchiate_combos import MATTO_SET, combo_base, combos

        super().__init__(view)
        self.mc = mc
        self.combos = combos
        seat = view.seat
        matto_bit = self.pack.matto_bit
        # rules §4, the King rule: after a trump, in the first trick of a plain suit, a
        # player who still follows with another card (or the Matto) does not hold its King
        led_before = 0
        for trick in (*view.tricks, view.trick):
            suit = mc.CORE.suit(trick)
            if suit and suit != mc.TRUMP_MASK and not led_before & suit:
                king = suit & mc.KING_MASK
                trumped = False
                for s, card in trick:
                    if trumped and card != king.bit_length() - 1 and BIT[card] & (suit | matto_bit):
                        self.voids[s] |= king
                    if mc.TRUMP_MASK >> card & 1:
                        trumped = True
            if len(trick) == 4:
                led_before |= suit
        self.led = led_before
        # rules §3: each declaration, with its value from the score that follows it
        self.declared: list[tuple[int, int, int]] = []
        events = view.events
        for i, e in enumerate(events):
            if e.kind != "declare" or e.seat is None:
                continue
            value = next(
                x.value
                for x in events[i + 1 :]
                if x.kind == "score" and x.seat == e.seat and x.cards == e.cards
            )
            self.declared.append((e.seat, e.cards, value))
            if e.seat == seat:
                continue
            kind_matto = any(c.kind == MATTO_SET and c.cards == e.cards for c in combos(e.cards))
            with_matto = e.cards | matto_bit
            if not kind_matto:
                bonus = value - combo_base(e.cards)
                if self.unseen & matto_bit:
                    if bonus:
                        # the declarer held the Matto: it has not been played, so holds it
                        self.fixed[e.seat] |= matto_bit
                        self.unseen &= ~matto_bit
                    else:
                        self.voids[e.seat] |= matto_bit
            # a card that would have changed the declared versicola was not in the hand
            for c in iter_bits(self.unseen & ~self.voids[e.seat]):
                found = combos(with_matto | BIT[c]) + combos(e.cards | BIT[c])
                if not any(x.cards == e.cards for x in found):
                    self.voids[e.seat] |= BIT[c]
        self.hidden = _HiddenPreplay(view, mc) if view.phase in ("discard", "declare") else None
        h = self.hidden
        if h is None:
            self.attempts.append(self.hand_places())
        else:
            # a discarder's zero-point face-up cards are in its hand or its discards
            loose = h.loose[h.cutter] | h.loose[h.dealer]
            self.unseen |= loose
            for t in range(4):
                self.voids[t] |= loose & ~h.loose[t]
            hands = self.hand_places()
            self.attempts.append([*hands, *h.places()])
            # rules §6.2: a hand left without zero-point cards discards T29 or its cheapest
            self.attempts.append([*hands, *h.places(self.pack.full_mask)])

    def accept(self, dealt: list[int]) -> bool:
        """Each declaration is a canonical versicola of the declarer's hand, with its value;
        a player now asked to declare holds a versicola it has not declared (rules §3)."""
        if not all(self._kind(dealt, s, cards, value) >= 0 for s, cards, value in self.declared):
            return False
        v = self.view
        p = v.to_move
        if v.phase == "declare" and p is not None and p != self.seat:
            return bool(self._asked(self.hands(dealt), p) & ~(1 << self.mc.DONE))
        return True

    def _asked(self, hands: tuple[int, int, int, int], p: int) -> int:
        """Return the declaration actions open to p: its hand's, less the kinds declared."""
        done = 0
        for s, cards, value in self.declared:
            if s == p:
                done |= 1 << (self.mc.N_CARDS + self._kind_in(hands[p], s, cards, value))
        return self.mc.declarable(hands[p]) & ~done

    def _kind_in(self, hand: int, s: int, cards: int, value: int) -> int:
        """Return the kind of a declaration in a hand holding it now, or -1 if the hand would
        not have declared it: the rules declare a kind's first versicola in the hand."""
        found = self.combos(hand | self.played[s] | cards)
        for c in found:
            if c.cards == cards and c.value == value:
                first = next(x for x in found if x.kind == c.kind)
                return c.kind if first is c else -1
        return -1

    def _kind(self, dealt: list[int], s: int, cards: int, value: int) -> int:
        """Return the kind of a declaration in the declarer's sampled hand, or -1."""
        hand = self.fixed[s] | (self.view.hand if s == self.seat else dealt[self.others.index(s)])
        return self._kind_in(hand, s, cards, value)

    def build(self, dealt: list[int]) -> minchiate.State:
        """Return the Minchiate State of a deal, with the pre-play facts rebuilt from the
        public events (a deck that deals exactly these hands)."""
        from tarocchi.games import minchiate as mc

        v = self.view
        hands = self.hands(dealt)
        p = v.to_move
        phase = mc.PHASE_NAMES.index(v.phase)
        if p is None:
            fallback = 0
        elif phase == mc.DISCARD:
            fallback = mc.discard_mask(hands[p])
        elif phase == mc.DECLARE:
            fallback = self._asked(hands, p)
        else:
            fallback = mc.play_mask(hands[p], v.trick, self.led)
        declared = tuple(
            (s, self._kind(dealt, s, cards, value), cards, value)
            for s, cards, value in self.declared
        )
        hidden = None if self.hidden is None else self.hidden.split(dealt[3:])
        info, discards = _minchiate_info(v, hands, self.played, hidden)
        return mc.State(
            hands,
            *self.public(phase, p),
            self.legal(hands, fallback),
            self.led,
            discards,
            declared,
            info,
        )


def _in_text_order(cards: int, text: str) -> tuple[int, ...]:
    """Return the cards of a mask in the order an event's message names them (its `cards`
    parameter: the robbed cards, in the order they were robbed)."""
    named = getattr(text, "params", {}).get("cards", ())
    place = {card.id: i for i, card in enumerate(named)}
    return tuple(sorted(iter_bits(cards), key=lambda c: place.get(c, 0)))


class _HiddenPreplay:
    """What a Minchiate view hides before the first lead besides the hands: the cutter's and
    the dealer's discards so far and the Fola cards the dealer left in it, each a place
    of the sample unless the seat knows it (rules §2.4-§2.5)."""

    def __init__(self, view: View, mc: ModuleType) -> None:
        seat, dealer = view.seat, view.dealer
        cutter = next(e.seat for e in view.events if e.kind == "cut" and e.seat is not None)
        assert cutter is not None
        faceup = [0, 0, 0, 0]
        for e in view.events:
            if e.kind in ("expose", "rob", "take") and e.seat is not None:
                faceup[e.seat] |= e.cards
        # rules §2.5: the cutter's and the dealer's face-up zero-point cards may have been
        # discarded; the seat knows where its own are
        self.loose = [0, 0, 0, 0]
        for t in (cutter, dealer):
            if t != seat:
                self.loose[t] = faceup[t] & mc.DISCARDABLE
        robbed = sum(popcount(e.cards) for e in view.events if e.kind == "rob" and e.seat == cutter)
        # what the dealer robbed from the Fola and then had to take (the cutter never deals)
        got = sum(
            popcount(e.cards) for e in view.events if e.seat == dealer and e.kind in ("rob", "take")
        )
        stop = next((e.cards for e in view.events if e.kind == "fola" and e.seat == dealer), 0)
        fola = next(e.value for e in view.events if e.kind == "fola" and e.seat is None)
        self.seat, self.cutter, self.dealer, self.stop = seat, cutter, dealer, stop
        sizes = view.hand_sizes
        self.n_cut = mc.HAND_SIZE + robbed - sizes[cutter]  # the cutter's discards so far
        self.n_deal = mc.HAND_SIZE + got - sizes[dealer]  # the dealer's
        self.n_rest = fola - got - popcount(stop)  # the Fola's unseen cards
        self.private = view.private
        self.own_faceup = faceup[seat]
        self.discardable = mc.DISCARDABLE

    def places(self, discards: int = 0) -> list[tuple[int, int]]:
        """Return the places the seat does not know: (cards allowed, how many); discards:
        the cards a discard may hold (default: the zero-point cards other than T29)."""
        out = []
        zero = self.discardable
        discards = discards or zero
        cut, deal = self.loose[self.cutter], self.loose[self.dealer]
        if self.seat != self.cutter:
            out.append((discards & ~deal, self.n_cut))
        if self.seat != self.dealer:
            out.append((discards & ~cut, self.n_deal))
            # the dealer took every special card
            out.append((zero & ~cut & ~deal, self.n_rest))
        return out

    def split(self, dealt: Sequence[int]) -> tuple[int, int, int]:
        """Return (cutter's discards, dealer's discards, Fola rest) of a sample: the places
        drawn, the seat's own knowledge where it has it. The dealer's own private cards are
        its discards and the Fola rest together; which were which cannot change the play
        (both lie in the Fola, which never scores): the cards it received face up were
        discarded (they never lay in the Fola rest), then its lowest others but the card
        that stopped its robbing (which stayed in the Fola)."""
        drawn = list(dealt)
        cut = self.private if self.seat == self.cutter else drawn.pop(0)
        if self.seat == self.dealer:
            deal = self.private & self.own_faceup
            others = bits(self.private & self.discardable & ~deal & ~self.stop)
            deal |= sum(BIT[c] for c in others[: self.n_deal - popcount(deal)])
            rest = self.private & ~deal
        else:
            deal = drawn.pop(0)
            rest = drawn.pop(0) | self.stop
        return cut, deal, rest


def _minchiate_info(
    v: View,
    hands: tuple[int, int, int, int],
    played: tuple[int, int, int, int],
    hidden: tuple[int, int, int] | None = None,
) -> tuple[minchiate.DealInfo, tuple[int, int]]:
    """Return (DealInfo, discards) for a sampled Minchiate deal: the public pre-play facts
    from the view's events (before the first lead, hidden gives the sampled discards and
    Fola rest), and a deck order that deals the sampled hands."""
    from tarocchi.games import minchiate as mc

    dealer = v.dealer
    cut = cutter = 0
    robbed: tuple[int, ...] = ()
    fola_robbed: tuple[int, ...] = ()
    exposed = [0, 0, 0, 0]
    fola_stop, fola_taken, fola_all = -1, 0, 0
    discards = [0, 0]
    for e in v.events:
        if e.kind == "cut" and e.seat is not None:
            cut, cutter = e.value, e.seat
        elif e.kind == "rob" and e.seat == cutter and e.cards and not fola_robbed:
            robbed = _in_text_order(e.cards, e.text)
        elif e.kind == "rob" and e.seat == dealer and e.cards:
            fola_robbed = _in_text_order(e.cards, e.text)
        elif e.kind == "expose" and e.seat is not None:
            exposed[e.seat] = e.cards.bit_length() - 1
        elif e.kind == "fola" and e.seat == dealer and e.cards:
            fola_stop = e.cards.bit_length() - 1
        elif e.kind == "take" and e.seat == dealer and e.cards:
            fola_taken = e.cards
        elif e.kind == "fola" and e.seat is None and e.cards:
            fola_all = e.cards
        elif e.kind == "discard" and e.seat is not None:
            discards[0 if e.seat == cutter else 1] = e.cards  # the reveal comes last
    if cutter == dealer:  # the dealer and cutter event kinds share names: tell them apart
        raise ValueError("the cutter is never the dealer")
    if hidden is not None:  # before the first lead: the sampled discards and Fola rest
        discards = [hidden[0], hidden[1]]
        fola_all = hidden[0] | hidden[1] | hidden[2]
    robbed_mask = sum(BIT[c] for c in robbed)
    got = sum(BIT[c] for c in fola_robbed) | fola_taken
    dealt = [hands[s] | played[s] for s in range(4)]
    # rules §2.5: robbed and taken cards were not dealt; discards were
    dealt[cutter] = (dealt[cutter] | discards[0]) & ~robbed_mask
    dealt[dealer] = (dealt[dealer] | discards[1]) & ~got
    fola_rest = fola_all & ~(discards[0] | discards[1])
    # rules §2.4: the Fola, top first: the dealer's robbed cards, the card that stopped him,
    # then the others; the last one is left unrobbable if it can be, as the card above
    # the cutter's robbed run was (it stopped the robbing)
    tail = list(iter_bits((fola_rest | fola_taken) & ~(BIT[fola_stop] if fola_stop >= 0 else 0)))
    tail.sort(key=lambda c: not mc.ROBBABLE >> c & 1)
    stop = (fola_stop,) if fola_stop >= 0 else ()
    fola = (*fola_robbed, *stop, *tail)
    deck = _deck(dealer, dealt, exposed, fola, cut, robbed)
    faceup = [BIT[exposed[s]] for s in range(4)]
    faceup[cutter] |= robbed_mask
    faceup[dealer] |= got
    info = mc.DealInfo(
        deck,
        cut,
        cutter,
        robbed,
        (exposed[0], exposed[1], exposed[2], exposed[3]),
        (dealt[0], dealt[1], dealt[2], dealt[3]),
        fola,
        fola_robbed,
        fola_stop,
        fola_taken,
        fola_rest,
        (faceup[0], faceup[1], faceup[2], faceup[3]),
    )
    return info, (discards[0], discards[1])


def _deck(
    dealer: int,
    dealt: list[int],
    exposed: list[int],
    fola: tuple[int, ...],
    cut: int,
    robbed: tuple[int, ...],
) -> tuple[int, ...]:
    """Return a deck order that deals these hands (`deal_from` replays it)."""
    # rules §2.3: each seat's first packet of 10, then 11 with the exposed card last
    rest: list[int] = []
    packets = []
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        cards = [c for c in iter_bits(dealt[seat]) if c != exposed[seat]]
        packets.append((cards[:10], [*cards[10:], exposed[seat]]))
    for first, _ in packets:
        rest += first
    for _, second in packets:
        rest += second
    rest += fola
    # rules §2.2: rest = deck[cut:] + deck[:low], and deck[low:cut] are the robbed, bottom up
    low = cut - len(robbed)
    return (*rest[len(rest) - low :], *reversed(robbed), *rest[: len(rest) - low])
