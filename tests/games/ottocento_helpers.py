"""Helpers to build fixed Ottocento positions from card codes."""

from __future__ import annotations

import random
from collections.abc import Iterable

from tarocchi.cards import bits
from tarocchi.games.ottocento import PACK, RULES, State

S, E, N, W = 0, 1, 2, 3

# A deal in which nobody holds a combination: each seat gets one King, Queen, Knight and
# Jack of different suits, one ace, one Moor, one of ANGEL/WORLD/SUN/MOON (the contatori go
# to the seats without the Angel), and pips or plain trumps. Tests give cards on top of it.
_HONOURS = (
    "SW-K BA-Q CU-N CO-J SW-A ANGEL MOOR1",
    "BA-K CU-Q CO-N SW-J BA-A WORLD MOOR2",
    "CU-K CO-Q SW-N BA-J CU-A SUN MOOR3 BEGATO",
    "CO-K SW-Q BA-N CU-J CO-A MOON MOOR4 MATTO",
)
_PIPS = (
    "SW-10 BA-9 CU-8 CO-7 T5 T9 T13 SW-6",
    "BA-10 CU-9 CO-8 SW-7 T6 T10 T14 BA-6",
    "CU-10 CO-9 SW-8 BA-7 T7 T11 T15",
    "CO-10 SW-9 BA-8 CU-7 T8 T12 T16",
)
NO_COMBOS = tuple((_HONOURS[s] + " " + _PIPS[s]).split() for s in range(4))
SPARE = ["CU-6", "CO-6"]  # the dealer's two extra cards in the plain deal


def m(*codes: str) -> int:
    """Return the mask of card codes."""
    return PACK.mask(codes)


def codes(mask: int) -> set[str]:
    """Return the set of codes of a mask."""
    return set(PACK.codes_of(mask))


def cid(code: str) -> int:
    """Return the id of a code."""
    return PACK.card_id(code)


def deal_hands(dealer: int, hands: dict[int, Iterable[str]]) -> tuple[int, int, int, int]:
    """Give the given cards to the given seats and complete every hand, first from its share
    of the plain deal NO_COMBOS (the dealer also from SPARE), then from the cards left in id
    order, up to 15 (17 for the dealer)."""
    given = [m(*hands.get(s, [])) for s in range(4)]
    taken = given[0] | given[1] | given[2] | given[3]
    assert sum(bin(g).count("1") for g in given) == bin(taken).count("1"), "a card given twice"
    out = list(given)
    for s in range(4):
        need = 15 + 2 * (s == dealer) - bin(out[s]).count("1")
        assert need >= 0, f"seat {s} was given too many cards"
        share = NO_COMBOS[s] + (SPARE if s == dealer else [])
        for code in share:
            if need and not taken >> cid(code) & 1:
                out[s] |= 1 << cid(code)
                taken |= 1 << cid(code)
                need -= 1
    for s in range(4):
        need = 15 + 2 * (s == dealer) - bin(out[s]).count("1")
        for c in bits(PACK.full_mask & ~taken)[:need]:
            out[s] |= 1 << c
            taken |= 1 << c
    return out[0], out[1], out[2], out[3]


def table(dealer: int, hands: dict[int, Iterable[str]]) -> State:
    """Return the state before the discard for hands built by `deal_hands`."""
    return RULES.start(deal_hands(dealer, hands), dealer)


def play(state: State, *actions: str) -> State:
    """Apply actions given as codes (cards, DECLARE, PASS)."""
    for a in actions:
        state = RULES.apply(state, RULES.parse_action(a))
    return state


def legal(state: State) -> set[str]:
    """Return the legal actions as codes."""
    return {RULES.action_code(a) for a in RULES.legal_actions(state)}


def run_random(state: State, seed: int) -> State:
    """Play random legal actions to the end of the deal."""
    rng = random.Random(seed)
    while state.to_move is not None:
        state = RULES.apply(state, rng.choice(RULES.legal_actions(state)))
    return state


def cards(state: State, *played: str) -> State:
    """Play the given cards, passing first whenever a player is asked to declare."""
    for code in played:
        if RULES.phase_name(state) == "declare":
            state = play(state, "PASS")
        state = play(state, code)
    return state


def discarded(state: State, keep: Iterable[str] = ()) -> State:
    """Let the dealer discard the two lowest discardable cards, those not in `keep` first."""
    spare = m(*keep)
    for _ in range(2):
        actions = RULES.legal_actions(state)
        state = RULES.apply(state, min(actions, key=lambda a: (spare >> a & 1, a)))
    return state


def ready(state: State) -> State:
    """Pass if the player to move is asked to declare."""
    return play(state, "PASS") if RULES.phase_name(state) == "declare" else state


def seq(text: str) -> list[str]:
    """Return the codes of a space-separated string."""
    return text.split()
