"""Ottocento: the rules of the Bolognese partnership game on the Tarocchino Bolognese pack.

Card ids (see tarocchi.packs.bolognese):

    0-9   SW-A SW-6..SW-10 SW-J SW-N SW-Q SW-K     10-19 BA-A..BA-K (as Swords)
    20-29 CU-10 CU-9..CU-6 CU-A CU-J..CU-K         30-39 CO-10..CO-K (as Cups)
    40 BEGATO   41-44 MOOR1-MOOR4 (equal)   45-56 T5..T16
    57 MOON  58 SUN  59 WORLD  60 ANGEL     61 MATTO
    62 DECLARE  63 PASS                     (the two actions that are not cards)

Actions: the dealer's two discards, one card at a time; then, at each player's
first turn in trick 1, DECLARE (all combinations in hand, rules §3) or PASS; then
the 60 card plays of 15 tricks. A player whose hand scores nothing passes
without being asked (the public "pass" event is the same either way, so it
reveals nothing). Combinations are scored in tarocchi.games.ottocento_combos.
Section numbers (§) refer to docs/rules.md (Ottocento).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from tarocchi.cards import BIT, iter_bits, mask_of, popcount
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
    exact,
    follow_reason,
    led_suit,
    winner_of,
)
from tarocchi.games.ottocento_combos import (
    ACES_MASK,
    CONTATORI,
    HEAD,
    JACKS_MASK,
    KINGS_MASK,
    KNIGHTS_MASK,
    QUEENS_MASK,
    TAROCCHI_MASK,
    analyse,
    combination_value,
)
from tarocchi.games.ottocento_notes import (
    captured_lines,
    card_points_line,
    codes,
    declaration_event,
    declaration_extra,
    declaration_line,
    discard_line,
    last_trick_lines,
    matto_line,
    split_value,
)
from tarocchi.i18n import Msg, nmsg
from tarocchi.packs.bolognese import (
    ANGEL,
    BEGATO,
    CANONICAL,
    MATTO,
    MOOR1,
    MOORS_MASK,
    NUMBERED_MASK,
    PACK,
    WORLD,
)

DISCARD, DECLARE, PLAY, OVER = range(4)
PHASE_NAMES = ("discard", "declare", "play", "over")
TRICKS = 15
HAND_SIZE = 15
DISCARD_SIZE = 2
LAST_TRICK_BONUS = 6

DECLARE_ACTION = PACK.size  # 62
PASS_ACTION = PACK.size + 1  # 63
DECIDE_LEGAL = BIT[DECLARE_ACTION] | BIT[PASS_ACTION]
PASS_LABEL = Msg("Pass: declare nothing, keep your hand hidden and score no declaration")

MATTO_BIT = BIT[MATTO]
TRUMP_MASK = PACK.trump_mask
MOOR_LAST = MOOR1 + 3
# rules §2: Kings, ANGEL, WORLD, BEGATO and the Matto (the 5-point cards) stay in hand
PROTECTED = PACK.king_mask | BIT[ANGEL] | BIT[WORLD] | BIT[BEGATO] | MATTO_BIT
# cards that belong to no combination family: moving them never changes a combination
FAMILIES = CONTATORI | HEAD | BIT[ANGEL] | NUMBERED_MASK | MOORS_MASK | ACES_MASK
FAMILIES |= TAROCCHI_MASK | KINGS_MASK | QUEENS_MASK | KNIGHTS_MASK | JACKS_MASK
NEUTRAL = PACK.full_mask & ~FAMILIES
ONE_POINT = mask_of(c for c in range(PACK.size) if PACK.points[c] == 1)


def _chunk(shift: int, width: int) -> tuple[tuple[int, ...], ...]:
    """Return, for every pattern of `width` bits, the ids of its set bits plus shift."""
    table: list[tuple[int, ...]] = [()]
    for b in range(1, 1 << width):
        rest = b & (b - 1)  # b without its lowest bit: built already
        table.append((shift + (b ^ rest).bit_length() - 1, *table[rest]))
    return tuple(table)


# action ids of each pattern of a chunk of the legal mask: legal_actions is six lookups
_A0, _A1, _A2, _A3 = (_chunk(10 * k, 10) for k in range(4))
_A4, _A5 = _chunk(40, 11), _chunk(51, 13)


# rules §4: the trick play; the four Moors are equal, and the last one played wins
CORE = TrickCore(PACK, equal=MOORS_MASK)
play_mask = CORE.follow


def discard_reason(card: int) -> str:
    """Explain why a card may not be discarded (rules §2), '' if it may."""
    if card == MATTO:
        return Msg("the Matto cannot be discarded")
    if card == BEGATO:
        return Msg("the Bégato cannot be discarded")
    if card == ANGEL:
        return Msg("the Angel cannot be discarded")
    if card == WORLD:
        return Msg("the World cannot be discarded")
    if BIT[card] & PACK.king_mask:
        return Msg("Kings cannot be discarded")
    return ""


class Fields(NamedTuple):
    """The fields of an Ottocento position: ints, masks and tuples of them."""

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
    # (seat, cards shown, value) of each declaration in order; a pass shows nothing, scores 0
    declarations: tuple[tuple[int, int, int], ...]


class State(Fields):
    """An Ottocento position (immutable)."""

    __slots__ = ()
    GAME: ClassVar[str] = "ottocento"


def settle(
    piles: Sequence[int], dealer: int, discard: int, won_ew: int, owner: int, taker: int
) -> tuple[int, int, int, int]:
    """Return the teams' piles (NS, EW) at the end of a deal, the dealer's discard and the
    Matto settled (rules §5: owner played the Matto, taker won its trick; EW won won_ew
    tricks), the team that won no trick (-1: none) and the card given for the Matto (-1)."""
    pl = [piles[0], piles[1]]
    dealer_team = dealer & 1
    pl[dealer_team] |= discard
    swept = -1
    if won_ew == 0 or won_ew == TRICKS:
        swept = 1 if won_ew == 0 else 0
        # rules §5: a team with no trick loses its Matto (no debt) and, as the dealer's
        # team, the discard
        if pl[swept] & MATTO_BIT:
            pl[swept] ^= MATTO_BIT
            pl[1 - swept] |= MATTO_BIT
        if swept == dealer_team:
            pl[swept] &= ~discard
            pl[1 - swept] |= discard
    settled = -1
    owner_team = owner & 1
    if owner_team != taker & 1 and swept != owner_team:
        # rules §5: the Matto stays with its team, which owes the takers one card
        settled = settle_matto(pl[owner_team], pl[1 - owner_team])
        pl[owner_team] ^= BIT[settled]
        pl[1 - owner_team] |= BIT[settled]
    return pl[0], pl[1], swept, settled


def card_points(pile: int) -> int:
    """Return a pile's card points (rules §1: counted in pairs, each pair its two values
    minus 1; every pile is even at the end, rules §5)."""
    return (2 * PACK.points_of(pile) - pile.bit_count()) // 2


def final(ns_pile: int, ew_pile: int, declared: Sequence[int], last: int) -> tuple[int, int]:
    """Return the final (NS, EW) totals from the settled piles (rules §5): the card points,
    the combinations each pile holds, the declarations and 6 for the last trick's winner."""
    ns_last, ew_last = split_value(last & 1, LAST_TRICK_BONUS)
    return (
        card_points(ns_pile) + combination_value(ns_pile) + declared[0] + ns_last,
        card_points(ew_pile) + combination_value(ew_pile) + declared[1] + ew_last,
    )


_new_state = tuple.__new__  # builds a State without the Python-level __new__ (hot path)


def settle_matto(owner: int, other: int) -> int:
    """Return the card the Matto's team gives across when its Matto fell in an opponents'
    trick (rules §5): a one-point card of its pile, else one of its lowest-value cards
    other than the Matto, the one that leaves the owner's team the best margin; ties go
    to the first card in canonical order.

    All candidates have the same value, so only combinations tell them apart. A
    combination value never drops when a card is added (a tested property), so no
    card can do better than one that changes neither team's combinations."""
    pile = owner & ~MATTO_BIT
    cands = pile & ONE_POINT
    if not cands:
        low = min(PACK.points[c] for c in iter_bits(pile))
        cands = mask_of(c for c in iter_bits(pile) if PACK.points[c] == low)
    base_owner = base_other = -1
    best, best_delta = -1, 0
    for card in CANONICAL:
        if not cands >> card & 1:
            continue
        bit = BIT[card]
        if bit & NEUTRAL:
            delta = 0
        else:
            if base_owner < 0:
                base_owner, base_other = combination_value(owner), combination_value(other)
            lost = base_owner - combination_value(owner ^ bit)
            delta = base_other - combination_value(other | bit) - lost
        if best < 0 or delta > best_delta:
            best, best_delta = card, delta
        if delta == 0:
            break
    return best


_LAST_TRICK_LINES = last_trick_lines(LAST_TRICK_BONUS)


def standing(
    piles: tuple[int, int],
    declarations: Sequence[tuple[int, int, int]],
    scored: tuple[float, float],
) -> list[ScoreLine]:
    """Return the lines of what the declarations (seat, cards shown, value) and the piles
    count (rules §3, §5): each declaration, the piles' card points (scored, counted in pairs)
    and the combinations each pile makes. The end counts the settled piles with it, the
    running score the cards taken so far, so the two count alike."""
    lines = [declaration_line(s, v, shown) for s, shown, v in declarations if shown]
    lines.append(card_points_line(piles, scored))
    lines += captured_lines(piles)
    return lines


class Ottocento(TrickGame[State]):
    """The stateless rules object of Ottocento."""

    name = "ottocento"
    title = "Ottocento"
    pack = PACK
    # the 118 card points, the last trick's 10 and three times the whole pack's combinations
    # (846: captured, and declared by each partner)
    max_margin = 2666.0
    hand_size = HAND_SIZE
    extra_actions = ("DECLARE", "PASS")
    pass_action = PASS_ACTION
    core = CORE

    # -- deal ---------------------------------------------------------------------
    # rules §2: random dealer; three rounds of 5 cards from next(dealer), then 2 more to
    # the dealer: 15 each and 17 to the dealer
    deal_slots = (*(1 + i % 20 // 5 for i in range(4 * HAND_SIZE)), *[0] * DISCARD_SIZE)

    def start(self, hands: tuple[int, int, int, int], dealer: int) -> State:
        """Return the state before the discard for explicit hands (the dealer's has 17)."""
        self.check_dealt(hands, dealer)
        return self._start(hands, dealer)

    def _start(self, hands: tuple[int, int, int, int], dealer: int) -> State:
        """Return the state before the discard (the dealer discards first, rules §2)."""
        legal = hands[dealer] & ~PROTECTED
        leader = (dealer + 1) & 3
        return _new_state(
            State, (hands, dealer, DISCARD, dealer, leader, (), (), (), (0, 0), 0, legal, ())
        )

    # -- legality ---------------------------------------------------------------------
    def legal_mask(self, state: State) -> int:
        """Return the legal actions as a mask of action ids (cards, DECLARE = 62, PASS = 63)."""
        return state.legal

    def legal_actions(self, state: State) -> list[int]:
        """Return the legal action ids, ascending."""
        m = state.legal
        return [
            *_A0[m & 1023],
            *_A1[m >> 10 & 1023],
            *_A2[m >> 20 & 1023],
            *_A3[m >> 30 & 1023],
            *_A4[m >> 40 & 2047],
            *_A5[m >> 51],
        ]

    def illegal_reason(self, state: State, action: int) -> str:
        """Explain why action is illegal in state."""
        p = state.to_move
        if p is None:
            return Msg("the deal is over")
        if not 0 <= action <= PASS_ACTION:
            return Msg(
                "%(action)s is not an action of %(game)s", action=str(action), game=self.title
            )
        hand = state.hands[p]
        if state.phase == DISCARD:
            if action >= PACK.size:
                return Msg("the dealer must first discard two cards")
            if not hand >> action & 1:
                return Msg("%(card)s is not in your hand", card=PACK.cards[action])
            return discard_reason(action) or Msg(
                "%(card)s cannot be discarded now", card=PACK.cards[action]
            )
        if state.phase == DECLARE:
            return Msg("before your first card you must declare all your combinations or pass")
        if action >= PACK.size:
            return Msg("declarations are made only at your first turn in the first trick")
        return follow_reason(hand, led_suit(state.trick, PACK.suit_of), action, PACK)

    # -- transitions --------------------------------------------------------------------
    def apply(self, state: State, action: int) -> State:
        """Return the state after the player to move takes action (a card, DECLARE or PASS)."""
        hands, dealer, phase, p, leader, trick, tricks, winners, piles, discard, legal, decls = (
            state
        )
        if action < 0 or not legal >> action & 1:
            raise IllegalAction(self.illegal_reason(state, action))
        assert p is not None  # a finished deal has no legal action
        if phase != PLAY:
            return self._apply_setup(state, action)
        bit = BIT[action]
        h0, h1, h2, h3 = hands
        if p < 2:
            hands = (h0 ^ bit, h1, h2, h3) if p == 0 else (h0, h1 ^ bit, h2, h3)
        else:
            hands = (h0, h1, h2 ^ bit, h3) if p == 2 else (h0, h1, h2, h3 ^ bit)
        trick = (*trick, (p, action))
        if len(trick) < 4:
            p = (p + 1) & 3
            if not winners:
                # rules §3: in trick 1 every new player is at his first turn
                return _first_turn(hands, dealer, p, leader, trick, discard, decls)
            legal = play_mask(hands[p], trick)
            return _new_state(
                State,
                (hands, dealer, PLAY, p, leader, trick, tricks, winners, piles, discard, legal,
                 decls),
            )  # fmt: skip
        # rules §4: the Matto goes to its player's team, not to the trick's winner
        winner, (ns, ew) = CORE.close(piles, trick)
        tricks = (*tricks, trick)
        winners = (*winners, winner)
        if len(winners) == TRICKS:
            return _new_state(
                State,
                (hands, dealer, OVER, None, winner, (), tricks, winners, (ns, ew), discard, 0,
                 decls),
            )  # fmt: skip
        return _new_state(
            State,
            (
                hands, dealer, PLAY, winner, winner, (), tricks, winners, (ns, ew), discard,
                hands[winner], decls,
            ),
        )  # fmt: skip

    def _apply_setup(self, state: State, action: int) -> State:
        """Apply a discard, DECLARE or PASS (the caller checked that it is legal)."""
        hands, dealer, phase, p, leader, trick, tricks, winners, piles, discard, _, decls = state
        assert p is not None
        if phase == DISCARD:
            h = list(hands)
            h[p] ^= BIT[action]
            hands = (h[0], h[1], h[2], h[3])
            discard |= BIT[action]
            if popcount(discard) < DISCARD_SIZE:
                legal = hands[p] & ~PROTECTED
                return _new_state(
                    State,
                    (hands, dealer, DISCARD, p, leader, (), (), (), (0, 0), discard, legal, ()),
                )
            # rules §4: next(dealer) leads the first trick
            return _first_turn(hands, dealer, leader, leader, (), discard, ())
        hand = hands[p]
        if action == PASS_ACTION:
            entry = (p, 0, 0)
        else:
            # rules §3: all or nothing; every card of a scored combination is shown
            found = analyse(hand)
            entry = (p, found.cards, found.value)
        legal = play_mask(hand, trick)
        return _new_state(
            State,
            (
                hands, dealer, PLAY, p, leader, trick, tricks, winners, piles, discard, legal,
                (*decls, entry),
            ),
        )  # fmt: skip

    # -- scoring ----------------------------------------------------------------------------
    def combination_score(self, codes: Sequence[str]) -> int:
        """Return the value of the combinations in a set of cards (rules §3)."""
        mask = 0
        for code in codes:
            mask |= BIT[PACK.card_id(code)]
        return combination_value(mask)

    def result(self, state: State) -> Result:
        """Score a finished deal (rules §5): card points in pairs, captured combinations,
        declarations, the last trick, with the discard and the Matto settled."""
        if state.phase != OVER:
            raise ValueError("the deal is not over")
        winners = state.winners
        won_ew = sum(map(BIT[0].__and__, winners))
        dealer, discard = state.dealer, state.discard
        dealer_team = dealer & 1
        # rules §5: who played the Matto, and who took that trick
        owner = taker = 0
        for trick, w in zip(state.tricks, winners, strict=True):
            if MATTO in (trick[0][1], trick[1][1], trick[2][1], trick[3][1]):
                owner = next(seat for seat, card in trick if card == MATTO)
                taker = w
                break
        ns_pile, ew_pile, swept, settled = settle(
            state.piles, dealer, discard, won_ew, owner, taker
        )
        declared = [0, 0]
        for s, _, value in state.declarations:
            declared[s & 1] += value
        cp = card_points(ns_pile), card_points(ew_pile)
        lines = standing((ns_pile, ew_pile), state.declarations, cp)
        captured = lines[-2].ns, lines[-1].ew
        last = winners[-1]
        lines.append(_LAST_TRICK_LINES[last])
        lines.append(matto_line(owner, taker, settled, swept))
        lines.append(discard_line(dealer, discard, swept == dealer_team))
        ns, ew = final(ns_pile, ew_pile, declared, last)
        extra = (
            ("tricks", (TRICKS - won_ew, won_ew)),
            ("discard", codes(discard)),
            ("declarations", tuple(declaration_extra(*d) for d in state.declarations if d[1])),
            ("matto_settlement", PACK.codes[settled] if settled >= 0 else None),
            ("card_points", cp),
            ("captured", captured),
            ("declared", (declared[0], declared[1])),
        )
        return Result(ns, ew, winner_of(ns, ew), tuple(lines), (ns_pile, ew_pile), extra)

    # -- the running score ------------------------------------------------------------------
    how = Msg(
        "Cards count in pairs: each pair scores its two values minus 1, so each card counts "
        "its value minus a half and a trick of four cards its values minus 2 (a half shows "
        "while the Matto's team holds an odd number of cards). Declarations score at once, and "
        "the combinations each team's taken cards make count as they stand. At the end come 6 "
        "for the last trick, the discard for the dealer's team and the Matto settlement."
    )

    def pile_points(self, mask: int) -> float:
        """Return a pile's card points counted in pairs (rules §1: each card its value minus
        a half; a half is left only while a pile is odd)."""
        return exact((2 * PACK.points_of(mask) - mask.bit_count()) / 2)

    def tally(self, v: View) -> Tally:
        """Return the running score as the end counts it (rules §3, §5): the declarations, and
        the card points and combinations of the cards each team has taken so far; once the
        deal is over, the result's breakdown."""
        if v.result is not None:
            return Tally(v.result.ns, v.result.ew, self.unit, self.how, v.result.lines)
        won = v.won
        declarations = [
            (e.seat, e.cards, e.value)
            for e in v.events
            if e.kind == "declare" and e.seat is not None
        ]
        parts = standing(won, declarations, (self.pile_points(won[0]), self.pile_points(won[1])))
        ns = exact(sum(x.ns for x in parts))
        return Tally(ns, exact(sum(x.ew for x in parts)), self.unit, self.how, tuple(parts))

    def action_detail(self, hand: int, action: int) -> ActionDetail:
        """Describe DECLARE (every combination of the hand, rules §3) or PASS."""
        if action == DECLARE_ACTION:
            found = analyse(hand)
            label = nmsg(
                "Declare %(combos)s: %(n)d point in all, showing those cards",
                "Declare %(combos)s: %(n)d points in all, showing those cards",
                found.value,
                combos=found.describe(),
            )
            return ActionDetail(label, found.cards, found.value, found.describe())
        if action == PASS_ACTION:
            return ActionDetail(PASS_LABEL, 0, None)
        return super().action_detail(hand, action)

    # -- what is public ---------------------------------------------------------------------------
    def public_events(self, state: State) -> tuple[Event, ...]:
        """The declarations and passes, in the order they were made (rules §3)."""
        return tuple(declaration_event(*d) for d in state.declarations)

    def shown_cards(self, state: State) -> tuple[int, int, int, int]:
        """Declared cards still in each hand."""
        shown = [0, 0, 0, 0]
        for s, cards, _ in state.declarations:
            shown[s] = cards & state.hands[s]
        return shown[0], shown[1], shown[2], shown[3]

    def discards(self, state: State, seat: int) -> int:
        """Return the dealer's discard (rules §2), hidden from the others."""
        return state.discard if seat == state.dealer else 0

    def phase_name(self, state: State) -> str:
        """Return "discard", "declare", "play" or "over"."""
        return PHASE_NAMES[state.phase]


def _first_turn(
    hands: tuple[int, int, int, int],
    dealer: int,
    p: int,
    leader: int,
    trick: tuple[tuple[int, int], ...],
    discard: int,
    decls: tuple[tuple[int, int, int], ...],
) -> State:
    """Return the state with p at its first turn of trick 1 (rules §3: declare or pass just
    before the first card; a hand that scores nothing passes at once)."""
    hand = hands[p]
    if combination_value(hand):
        return _new_state(
            State,
            (hands, dealer, DECLARE, p, leader, trick, (), (), (0, 0), discard, DECIDE_LEGAL,
             decls),
        )  # fmt: skip
    legal = play_mask(hand, trick)
    return _new_state(
        State,
        (
            hands, dealer, PLAY, p, leader, trick, (), (), (0, 0), discard, legal,
            (*decls, (p, 0, 0)),
        ),
    )  # fmt: skip


RULES = Ottocento()
