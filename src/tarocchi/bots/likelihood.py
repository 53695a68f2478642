"""Policy-based inference: sampled deals weighed by how well they explain the plays so far.

`tarocchi.bots.belief` samples every deal the view allows with the same chance.
But the other players chose their cards from their hands: a deal in which the
plays made so far are what a sensible player would have made is likelier than
one in which they look like blunders. This module replays the history on each
sampled deal (each seat's hand then: its sampled hand now plus the cards it has
played since) with the search's playout players, the compiled heuristic bots (or
the kernel's greedy players that count cards, its compiled `replay`), and counts
the plays they would have made differently. Each such play multiplies the deal's
weight by a factor (the heuristic players' `compiled_common.FACTORS`, the greedy
players' NEAR and MISS below), never 0, so no deal the view allows becomes
impossible (the model is crude: real players are not the playout players).

`Chains` turns the uniform sampler into one from the weighted distribution by
Metropolis-Hastings: chains of deals, each step a swap of two hidden cards kept by
the ratio of the weights.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from tarocchi.bots.belief import Belief
from tarocchi.bots.heuristic.compiled_common import FACTORS
from tarocchi.views import View

# The factor a deal's weight takes for each past play the playout players would have made
# differently: with another card of the same suit and points (a near-equivalent), or with
# any other card. Fitted on 90 Piedicavallo positions of deals the search bot played (300
# samples each, scoring the mean log-chance a sample puts an unseen card where it truly
# is: -1.0901 unweighted; 0.8/0.5 -1.0717, 0.5/0.5 -1.0562, 0.3/0.5 -1.0466, 0.2/0.5
# -1.0444, 0.1/0.5 -1.0515, 0.2/0.4 -1.0466, 0.2/0.6 -1.0452). Players rarely choose a
# dearer card of a kind where a cheaper one does the same, so a deal that needs them to is
# the least likely. The players judge by counting cards, not by the sampled hands: seeing
# them fits worse (0.8/0.5: -1.0793; 0.5/0.5: -1.0622). The same factors help the other
# games (Ottocento, 55 positions: -1.0052 to -0.9853; Minchiate, 64: -0.9764 to -0.9452).
# The model is weak: on the true deals the players would have played 6.7 of the past
# plays differently and 1.2 near-equivalently, on sampled ones 7.4 and 2.2 (Piedicavallo,
# 185 positions), so a closer model of real play is where stronger inference would come
# from
NEAR = 0.2
MISS = 0.5
# Chains walked side by side, and the steps each takes before its first deal is searched
CHAINS = 16
BURN = 60


class Replay:
    """The plays of a view's history, ready to be replayed on sampled deals: by the kernel's
    counting players, or by players who know how to replay themselves (the compiled
    heuristic players, `heuristic.compiled_piedicavallo.Players`)."""

    __slots__ = ("cards", "kernel", "played", "players", "seat", "seats")

    def __init__(self, view: View, kernel: ModuleType, players: Any = None) -> None:
        plays = [(s, c) for trick in (*view.tricks, view.trick) for s, c in trick]
        self.seat = view.seat
        self.kernel = kernel  # its `replay` and `COMPILED` tables
        self.players = players if hasattr(players, "replay") else None
        self.seats = np.array([s for s, _ in plays], dtype=np.int64)
        self.cards = np.array([c for _, c in plays], dtype=np.int64)
        played = [0, 0, 0, 0]
        for s, c in plays:
            played[s] |= 1 << c
        self.played = played

    def __len__(self) -> int:
        return len(self.cards)

    def counts(self, hands: tuple[int, int, int, int], discard: int = 0) -> tuple[int, int]:
        """Return the other seats' past plays the players would have made differently on a
        deal with these hands now (and this dealer's discard): (with a near-equivalent
        card, with any other)."""
        if self.players is not None:
            counts: tuple[int, int] = self.players.replay(hands, discard)
            return counts
        p = self.played
        before = (hands[0] | p[0], hands[1] | p[1], hands[2] | p[2], hands[3] | p[3])
        k = self.kernel
        counts = k.replay(k.COMPILED, False, before, self.seats, self.cards, self.seat)
        return counts

    def weight(self, hands: tuple[int, int, int, int], discard: int = 0) -> float:
        """Return a deal's weight (1: every play as the players would have made it)."""
        return math.exp(self.log_weight(hands, discard))

    def log_weight(self, hands: tuple[int, int, int, int], discard: int = 0) -> float:
        """Return the log of a deal's weight (0: every play as the players would have made
        it); logs, because a long history of sharp factors underflows a float."""
        near, miss = self.counts(hands, discard)
        f_near, f_miss = (NEAR, MISS) if self.players is None else FACTORS
        return near * math.log(f_near) + miss * math.log(f_miss)


class Chains:
    """Draws deals from the weighted distribution by Metropolis-Hastings.

    A few chains walk over the deals the view allows, one swap of two hidden cards at
    a time (`Belief.neighbour`), each swap kept with chance min(1, weight ratio). Each
    chain starts from a uniform deal and takes `burn` steps before its first deal is
    used; the chains then take turns, `steps` steps between two deals. Unlike resampling
    a pool by its weights, which keeps a few copies of its likeliest deals when the
    weights are sharp, the chains keep finding new deals that explain the plays."""

    def __init__(
        self,
        known: Belief,
        log_weight: Callable[[list[int]], float],
        rng: random.Random,
        steps: int,
        chains: int = CHAINS,
        burn: int = BURN,
    ) -> None:
        self.known = known
        self.log_weight = log_weight
        self.rng = rng
        self.steps = steps
        self.burn = burn
        self.chains: list[tuple[list[int], float]] = []
        self.size = chains
        self.turn = 0

    def walk(self, dealt: list[int], lw: float, steps: int) -> tuple[list[int], float]:
        """Return the chain's deal and log-weight after steps proposals."""
        rng, known = self.rng, self.known
        for _ in range(steps):
            new = known.neighbour(dealt, rng)
            if new is None:
                continue
            lw_new = self.log_weight(new)
            if lw_new >= lw or rng.random() < math.exp(lw_new - lw):
                dealt, lw = new, lw_new
        return dealt, lw

    def __call__(self) -> Any:
        """Return the next deal, built into the rules' State."""
        if len(self.chains) < self.size:
            dealt = self.known.deal(self.rng)
            got = self.walk(dealt, self.log_weight(dealt), self.burn)
            self.chains.append(got)
        else:
            dealt, lw = self.chains[self.turn]
            got = self.walk(dealt, lw, self.steps)
            self.chains[self.turn] = got
            self.turn = (self.turn + 1) % self.size
        return self.known.build(got[0])
