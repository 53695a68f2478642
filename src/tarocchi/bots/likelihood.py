"""Inference from play: sampled deals weighed by how well they explain the plays so far.

`tarocchi.bots.belief` samples every deal the view allows with the same chance.
But the other players chose their cards from their hands: a deal in which the
plays made so far are what a sensible player would have made is likelier than
one in which they look like blunders. `Replay` replays the history on a sampled
deal (each seat's hand then: its sampled hand now plus the cards it has played
since) with the compiled heuristic players and counts the plays they would have
made differently; each multiplies the deal's weight by a factor
(`compiled_common.FACTORS`), never 0, so no deal the view allows becomes impossible
(the model is crude: real players are not the heuristic bot).

`Chains` turns the uniform sampler into one from the weighted distribution by
Metropolis-Hastings: chains of deals, each step a swap of two hidden cards kept by
the ratio of the weights.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Protocol

from tarocchi.bots.belief import Belief
from tarocchi.bots.heuristic.compiled_common import FACTORS
from tarocchi.games.base import GameState
from tarocchi.views import View


class Players(Protocol):
    """Playout players who replay a history (`heuristic.compiled_<game>.Players`)."""

    def replay(self, hands: tuple[int, int, int, int], discard: int) -> tuple[int, int]:
        """Return the past plays they would have made otherwise: (near, other)."""


# Chains walked side by side, and the steps each takes before its first deal is searched
CHAINS = 16
BURN = 60


class Replay:
    """The plays of a view's history, ready to be replayed on sampled deals by the compiled
    heuristic players of that view (`kernel_<game>.heuristic_players`)."""

    __slots__ = ("players", "plays")

    def __init__(self, view: View, players: Players) -> None:
        self.players = players
        self.plays = sum(len(trick) for trick in (*view.tricks, view.trick))

    def __len__(self) -> int:
        return self.plays

    def weight(self, hands: tuple[int, int, int, int], discard: int = 0) -> float:
        """Return a deal's weight (1: every play as the players would have made it)."""
        return math.exp(self.log_weight(hands, discard))

    def log_weight(self, hands: tuple[int, int, int, int], discard: int = 0) -> float:
        """Return the log of a deal's weight with these hands now (and this dealer's discard)
        (0: every play as the players would have made it); logs, because a long history of
        sharp factors underflows a float."""
        near, miss = self.players.replay(hands, discard)
        f_near, f_miss = FACTORS
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

    def __call__(self) -> GameState:
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
