"""Helpers to build fixed Piedicavallo positions from card codes."""

from __future__ import annotations

from tarocchi.cards import bits
from tarocchi.games.piedicavallo import PACK, RULES, State


def m(*codes: str) -> int:
    """Return the mask of card codes."""
    return PACK.mask(codes)


def codes(mask: int) -> set[str]:
    """Return the set of codes of a mask."""
    return set(PACK.codes_of(mask))


def table(dealer: int, hands: dict[int, list[str]]) -> State:
    """Deal the given cards to the given seats and fill every hand with the remaining cards
    (in id order) up to 15, or 17 for the dealer; return the state before the discard."""
    given = [m(*hands.get(s, [])) for s in range(4)]
    free = bits(PACK.full_mask & ~(given[0] | given[1] | given[2] | given[3]))
    out = []
    for s in range(4):
        need = 15 + 2 * (s == dealer) - bin(given[s]).count("1")
        assert need >= 0, f"seat {s} was given too many cards"
        take, free = free[:need], free[need:]
        out.append(given[s] | sum(1 << c for c in take))
    return RULES.start((out[0], out[1], out[2], out[3]), dealer)


def play(state: State, *actions: str) -> State:
    """Apply actions given as codes."""
    for a in actions:
        state = RULES.apply(state, RULES.parse_action(a))
    return state


def legal(state: State) -> set[str]:
    """Return the legal actions as codes."""
    return {RULES.action_code(a) for a in RULES.legal_actions(state)}
