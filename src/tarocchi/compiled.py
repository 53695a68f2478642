"""What every compiled module shares: bit operations on machine words and a random stream.

The compiled players (`tarocchi.bots.heuristic.compiled_<game>`) and the compiled deal
sampler (`tarocchi.bots.belief`) run under numba on masks of 64-bit words; these are
their primitives. The random stream is SplitMix64, so a seed fixes every draw on every
machine.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def low_card(x: int) -> int:
    """The lowest card of a non-empty mask."""
    return trailing_zeros(x)  # type: ignore[call-arg]


@njit(cache=True)
def high_card(x: int) -> int:
    """The highest card of a non-empty mask."""
    return 63 - leading_zeros(x)  # type: ignore[call-arg]


@njit(cache=True)
def n_cards(x: int) -> int:
    """The number of cards in a mask."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def next_random(state: np.uint64) -> tuple[np.uint64, float]:
    """Advance a SplitMix64 stream; return the new state and a number in [0, 1)."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return state, float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)
