"""The random bot: a uniformly random legal action (the arena's baseline)."""

from __future__ import annotations

from tarocchi.bots.base import Bot
from tarocchi.views import View


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, view: View) -> int:
        """Return a uniformly random legal action."""
        return self.rng.choice(view.legal)
