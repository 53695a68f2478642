"""The oracle bot: the search bot given every card, for analysis only.

It measures how good the fair bots are (the gap between `heuristic` and
`oracle` that `search` closes) and never plays against or beside a person. The
match runner hands it the full state (`sees_all`); every other bot gets a view.
It runs the same search as `search` on the one true deal instead of sampled
ones. Its playout players, the heuristic bots compiled, play a deal the same way
every time, so it plays one playout per action.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from tarocchi.bots.parts import Settings
from tarocchi.bots.search import NORMAL, SearchBot, Stat
from tarocchi.games.base import GameState, mover
from tarocchi.views import View, view


class OracleBot(SearchBot):
    """Searches the true deal: an upper bound for the fair search bots."""

    name = "oracle"
    sees_all: ClassVar[bool] = True
    # the heuristic players play the true deal the same way every time: one playout for
    # each legal action, all of them searched
    settings: ClassVar[Settings | dict[str, Settings]] = {
        name: replace(cfg, playouts=1, min_samples=1, seconds=2.0, max_actions=0, confidence=0.0)
        for name, cfg in NORMAL.items()
    }

    def choose_state(self, state: GameState) -> int:
        """Return the action with the best margin on the true deal."""
        v = view(state, mover(state))
        if len(v.legal) == 1:
            return v.legal[0]
        stats = self.evaluate_state(state, v)
        if stats is None:
            return self.fallback.choose(v)
        return self.pick(v, stats)

    def evaluate_state(self, state: GameState, v: View) -> dict[int, Stat] | None:
        """Return the search's statistics per legal action on the true deal, or None in a
        phase the kernel does not play."""
        if v.phase != "play":
            return None
        return self.search(lambda: state, v, v.legal)

    def choose(self, view: View) -> int:
        """Refuse: the oracle must be given the full state (see choose_state)."""
        raise TypeError("the oracle sees every card: call choose_state(state)")
