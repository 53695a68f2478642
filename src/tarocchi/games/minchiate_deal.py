"""Minchiate's position and the facts its rules and their words share: the phases and sizes,
the card classes, the State with the facts of its pre-play sequence, and the immediate scores
with the stages that order them (rules §1-§5 of docs/rules.md, Minchiate).

The rules (tarocchi.games.minchiate) move a State; their words
(tarocchi.games.minchiate_notes) tell it; both read these definitions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from tarocchi.cards import bits, mask_of
from tarocchi.games.base import led_masks
from tarocchi.games.minchiate_combos import KIND_CODES, versicole_value
from tarocchi.games.minchiate_ledger import Ledger
from tarocchi.i18n import N_
from tarocchi.packs.minchiate import MATTO, PACK, trump

DISCARD, DECLARE, PLAY, OVER = range(4)
PHASE_NAMES = ("discard", "declare", "play", "over")
TRICKS = 21
HAND_SIZE = 21
ROB_LIMIT = 13  # rules §2.2 [I1]: the cutter robs at most 13 cards
FIRST_PACKET, SECOND_PACKET = 10, 11
LAST_TRICK_BONUS = 10
CARDS_PAR = 42  # rules §5: each card taken beyond 42 is worth 1
TEAM_NAMES = (N_("North-South"), N_("East-West"))

N_CARDS = PACK.size
DECLARE_ACTIONS = tuple(f"DECL-{code}" for code in KIND_CODES)
DONE = N_CARDS + len(DECLARE_ACTIONS)  # the action id of DECL-DONE

MATTO_BIT = 1 << MATTO
TRUMP_MASK = PACK.trump_mask
KING_MASK = PACK.king_mask
T29 = trump(29)
T29_BIT = 1 << T29
COUNTING = mask_of(c for c in range(N_CARDS) if PACK.points[c])
# rules §1: a *special* card is a counting card or T29: never discarded, never left in the Fola
SPECIAL = COUNTING | T29_BIT
# rules §2.2: the robbing takes counting cards and trumps above 20
ROBBABLE = COUNTING | mask_of(trump(n) for n in range(21, 41))
# rules §2.5: only zero-point cards other than T29 may be discarded
DISCARDABLE = PACK.full_mask & ~SPECIAL
# the mask of the suit a card sets when it is the first non-Matto card of a trick
LED_MASK = led_masks(PACK)
POINTS = PACK.points
TEN_POINTS = mask_of(c for c in range(N_CARDS) if POINTS[c] == 10)
FIVE_POINTS = mask_of(c for c in range(N_CARDS) if POINTS[c] == 5)
THREE_POINTS = mask_of(c for c in range(N_CARDS) if POINTS[c] == 3)


def card_points(mask: int) -> int:
    """Return the card points of a mask (rules §1: every counting card is worth 10, 5 or 3)."""
    return (
        10 * (mask & TEN_POINTS).bit_count()
        + 5 * (mask & FIVE_POINTS).bit_count()
        + 3 * (mask & THREE_POINTS).bit_count()
    )


# rules §4-§5: what a card scores when the opponents capture it (the Matto is never captured)
CAPTURE_POINTS = tuple(0 if c == MATTO else POINTS[c] for c in range(N_CARDS))


class DealInfo(NamedTuple):
    """The facts of the pre-play sequence, fixed by the deck, the dealer and the cut."""

    deck: tuple[int, ...]  # the shuffled pack, top card first
    cut: int  # cards lifted off the top by the cutter (1-96)
    cutter: int
    robbed: tuple[int, ...]  # the cutter's robbed cards, from the bottom of the lifted packet up
    exposed: tuple[int, int, int, int]  # each seat's last dealt card, dealt face up
    dealt: tuple[int, int, int, int]  # the 21 cards dealt to each seat
    fola: tuple[int, ...]  # the undealt cards, top first, before the dealer takes any
    fola_robbed: tuple[int, ...]  # the dealer's robbed Fola cards, in order
    fola_stop: int  # the Fola card turned up that stopped the dealer's robbing, or -1
    fola_taken: int  # mask of the counting cards and T29 the dealer then had to take
    fola_rest: int  # mask of what stayed in the Fola (seen by the dealer alone)
    faceup: tuple[int, int, int, int]  # per seat, every card it received face up


class Fields(NamedTuple):
    """The fields of a Minchiate position: ints, masks and tuples of them."""

    hands: tuple[int, int, int, int]
    dealer: int
    phase: int
    to_move: int | None
    leader: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the current trick, in play order
    tricks: tuple[tuple[tuple[int, int], ...], ...]  # the finished tricks, as `trick`
    winners: tuple[int, ...]  # the seat that won each finished trick
    piles: tuple[int, int]  # cards each team took; the Matto always goes to its owner's team
    legal: int  # the legal actions of to_move as a mask (bit a = action a)
    led: int  # union of the suits led in finished tricks (for the King rule)
    discards: tuple[int, int]  # the cutter's and the dealer's discards (face down until §2.6)
    declared: tuple[tuple[int, int, int, int], ...]  # (seat, kind, cards, value), in order
    info: DealInfo


class State(Fields):
    """A Minchiate position (immutable)."""

    __slots__ = ()
    GAME: ClassVar[str] = "minchiate"


# the stages of a deal, ordering its public events and immediate scores (rules §2-§5)
CUT, DEAL, FOLA, DISCARDS, DECLARATIONS, REVEAL, TRICK, END = range(8)


class Score(NamedTuple):
    """One immediate score (rules §5): when, for whom, how much, for which cards."""

    key: tuple[int, int]  # (stage, index within the stage)
    team: int
    seat: int | None
    points: int
    cards: int
    ids: tuple[int, ...]  # the cards in the order `what` names them; a declaration: its kind


def payback_card(pile: int) -> int:
    """Return the card a team gives for its lost Matto (rules §5): its lowest zero-point card
    but T29, else T29, else its lowest counting card; the Matto itself if it won no trick."""
    rest = pile & ~MATTO_BIT
    if not rest:
        return MATTO
    zero = rest & DISCARDABLE
    if zero:
        return (zero & -zero).bit_length() - 1
    if rest & T29_BIT:
        return T29
    return min(bits(rest), key=lambda c: (POINTS[c], c))


def lost_matto(piles: Sequence[int]) -> tuple[int, int] | None:
    """Return (the Matto's team, the card it gives) if the Matto lost its trick to the
    opponents (rules §4-§5: its team gives them one pile card at the end), else None."""
    team = 0 if piles[0] & MATTO_BIT else 1
    pile = piles[team]
    # a lost Matto came back alone to its team's pile of whole tricks: 4t + 1 cards
    if not pile & MATTO_BIT or pile.bit_count() & 3 != 1:
        return None
    return team, payback_card(pile)


def end_points(ns_pile: int, ew_pile: int, last: int | None) -> tuple[int, int]:
    """Return the end-of-deal totals (NS, EW) of the final piles (rules §5): card points,
    captured versicole, one a card over 42, and 10 for the last trick's winner (None: the
    last trick is still to play)."""
    ns = card_points(ns_pile) + versicole_value(ns_pile) + max(0, ns_pile.bit_count() - CARDS_PAR)
    ew = card_points(ew_pile) + versicole_value(ew_pile) + max(0, ew_pile.bit_count() - CARDS_PAR)
    if last is None:
        return ns, ew
    return (ns, ew + LAST_TRICK_BONUS) if last & 1 else (ns + LAST_TRICK_BONUS, ew)


class Settled(NamedTuple):
    """The end of a deal (rules §5), as `settle` finds it."""

    piles: tuple[int, int]  # the final piles, the card given for a lost Matto moved
    payback: tuple[int, int] | None  # (the Matto's team, the card it gave), as `lost_matto`
    points: tuple[int, int]  # the end-of-deal totals
    ledger: Ledger  # the running ledger after the payback, before the end totals
    final: Ledger  # the resti: the end totals joined to it in one step and rounded up


def settle(piles: Sequence[int], ledger: Ledger, last: int) -> Settled:
    """Return the end of a deal from the piles of its tricks, the ledger of its immediate
    scores and the last trick's winner (rules §5): the card given for a lost Matto (scoring
    at once if it counts), then the end-of-deal totals, the remaining lead rounded up."""
    pl = [piles[0], piles[1]]
    owed = lost_matto(pl)
    if owed is not None:
        team, card = owed
        pl[team] ^= 1 << card
        pl[1 - team] |= 1 << card
        ledger = ledger.score(1 - team, CAPTURE_POINTS[card])
    end = end_points(pl[0], pl[1], last)
    return Settled((pl[0], pl[1]), owed, end, ledger, ledger.finish(*end))
