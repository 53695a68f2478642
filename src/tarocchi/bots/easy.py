"""The easy level: the heuristic bot with occasional mistakes.

A beginner's partner and opponents should not play perfectly. This bot plays
the heuristic bot's choice, except that now and then (with chance `slip`) it
plays another legal action at random, as a distracted player would.
"""

from __future__ import annotations

from tarocchi.bots.base import Bot
from tarocchi.games.base import Rules
from tarocchi.views import View


class EasyBot(Bot):
    """Plays like the heuristic bot but slips a random legal card in now and then."""

    name = "easy"
    slip = 0.2  # the chance of a random legal action instead of the heuristic's choice

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        from tarocchi.bots import make_bot  # the registry imports this module

        super().__init__(rules, seed)
        self.heuristic = make_bot("heuristic", rules, seed)

    def choose(self, view: View) -> int:
        """Return the heuristic bot's action, or with chance `slip` another legal one."""
        best = self.heuristic.choose(view)
        others = [a for a in view.legal if a != best]
        if others and self.rng.random() < self.slip:
            return self.rng.choice(others)
        return best
