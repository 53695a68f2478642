"""The bot interface: a bot sees only a view and returns a legal action id."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from tarocchi.games.base import GameState, Rules
from tarocchi.views import View


class Bot(ABC):
    """A player that chooses an action from what its seat may know.

    Bots are deterministic given their seed: all chance comes from `self.rng`."""

    name: ClassVar[str]
    sees_all: ClassVar[bool] = False  # only the analysis oracle is handed the full state

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: View) -> int:
        """Return one of view.legal."""

    def choose_state(self, state: GameState) -> int:
        """Return the action of a bot that sees every card (only when sees_all is set)."""
        raise TypeError(f"the {self.name} bot sees only views")
