"""Helpers to build fixed Minchiate deals from card codes, through the real pre-play sequence."""

from __future__ import annotations

from collections.abc import Iterable

from tarocchi.cards import bits
from tarocchi.games.minchiate import (
    DISCARDABLE,
    DONE,
    PACK,
    PLAY,
    ROBBABLE,
    RULES,
    State,
)

HAND, FIRST, FOLA = 21, 10, 13


def cid(code: str) -> int:
    """Return the id of a card code."""
    return PACK.card_id(code)


def m(*codes: str) -> int:
    """Return the mask of card codes."""
    return PACK.mask(codes)


def codes(mask: int) -> set[str]:
    """Return the set of codes of a mask."""
    return set(PACK.codes_of(mask))


def deck_from_rest(rest: list[int], cut: int) -> list[int]:
    """Return the deck that deals from `rest` once cut at `cut` with nothing robbed (rules §2.2:
    the deal runs from deck[cut:] + deck[:cut])."""
    k = len(rest) - cut
    return rest[k:] + rest[:k]


def quiet_fola(taken: int, count: int = FOLA) -> list[int]:
    """Return `count` free cards the dealer can neither rob nor must take (zero-point, not T29,
    not a trump above 20), highest ids first."""
    quiet = DISCARDABLE & ~ROBBABLE & ~taken
    return sorted(bits(quiet), reverse=True)[:count]


def arrange(
    dealer: int,
    hands: dict[int, Iterable[str]],
    void: dict[int, Iterable[str]] | None = None,
    exposed: dict[int, str] | None = None,
) -> list[int]:
    """Return the order dealt from (`rest`, rules §2.3) so that each seat receives the listed
    cards, no further card of the suits in void[seat] ("SW", "BA", "CU", "CO", "T"), and its
    exposed card last; the Fola gets 13 quiet cards, the rest is spread over the hands."""
    given = {s: [cid(c) for c in hands.get(s, ())] for s in range(4)}
    used = 0
    for cs in given.values():
        used |= sum(1 << c for c in cs)
    fola = quiet_fola(used)
    free = [c for c in range(PACK.size) if not (used >> c & 1) and c not in fola]
    barred = {s: {x.upper() for x in (void or {}).get(s, ())} for s in range(4)}

    def allowed(seat: int, card: int) -> bool:
        code = PACK.codes[card]
        suit = "T" if code.startswith("T") else code[:2]
        return suit not in barred[seat]

    # the most constrained cards first, each to the allowed seat with the most room left
    free.sort(key=lambda c: sum(allowed(s, c) for s in range(4)))
    for card in free:
        seats = [s for s in range(4) if len(given[s]) < HAND and allowed(s, card)]
        if not seats:
            raise ValueError(f"no seat can take {PACK.codes[card]}")
        given[max(seats, key=lambda s: HAND - len(given[s]))].append(card)
    rest: list[int] = []
    second: list[list[int]] = []
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        cards = given[seat]
        assert len(cards) == HAND, (seat, len(cards))
        show = cid(exposed[seat]) if exposed and seat in exposed else _dull(cards)
        order = [c for c in cards if c != show] + [show]
        rest += order[:FIRST]
        second.append(order[FIRST:])
    for packet in second:
        rest += packet
    return rest + fola


def _dull(cards: list[int]) -> int:
    """Return a card worth nothing to expose (so the deal scores nothing), if there is one."""
    zero = [c for c in cards if not PACK.points[c]]
    return zero[0] if zero else cards[0]


def table(
    dealer: int,
    hands: dict[int, Iterable[str]],
    void: dict[int, Iterable[str]] | None = None,
    exposed: dict[int, str] | None = None,
    cut: int = 40,
) -> State:
    """Deal the arranged cards (nothing robbed, nothing taken) and return the first decision."""
    rest = arrange(dealer, hands, void, exposed)
    return RULES.deal_from(deck_from_rest(rest, cut), dealer, cut)


def to_play(state: State) -> State:
    """Pass every declaration (DECL-DONE) until the first lead."""
    while state.phase != PLAY:
        state = RULES.apply(state, DONE)
    return state


def play(state: State, *actions: str) -> State:
    """Apply actions given as codes."""
    for a in actions:
        state = RULES.apply(state, RULES.parse_action(a))
    return state


def legal(state: State) -> set[str]:
    """Return the legal actions as codes."""
    return {RULES.action_code(a) for a in RULES.legal_actions(state)}
