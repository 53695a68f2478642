"""Each game's parts in the bots' layer, in one typed table built by importing them.

`PARTS` maps a game's name (`tarocchi.games.GameName`) to what the bots and the review need
of it: the heuristic player and its `Search`: the compiled path (`Kernel`,
`bots/kernel_<game>.py`), the belief that samples the deals a view allows, the normal
level's `Settings`, the review's playouts and its marks' `Thresholds`. Adding a game is one
entry here, beside its `GameInfo` in the registry (a game without a compiled path has no
`Search` and plays at the random, heuristic and easy levels); `tests/test_game_facts.py`
checks that every layer's table has exactly the registry's games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from tarocchi.bots import kernel_minchiate, kernel_ottocento, kernel_piedicavallo
from tarocchi.bots.base import Bot
from tarocchi.bots.belief import Belief, OttocentoBelief, PiedicavalloBelief
from tarocchi.bots.belief_minchiate import MinchiateBelief
from tarocchi.bots.heuristic import minchiate, ottocento, piedicavallo
from tarocchi.games import GameName, entry
from tarocchi.games.base import GameState
from tarocchi.views import View

P = TypeVar("P")  # a kernel's position
S = TypeVar("S", bound=GameState, contravariant=True)  # its game's State


class Players(Protocol):
    """The compiled heuristic players of one view (`heuristic.compiled_<game>.Players`)."""

    def replay(self, hands: tuple[int, int, int, int], discard: int) -> tuple[int, int]:
        """Return the past plays they would have made otherwise: (near, other)."""
        ...


H = TypeVar("H", bound=Players)  # its playout players


class Kernel(Protocol[P, S, H]):
    """What the search needs of a game's compiled path (`bots/kernel_<game>.py`)."""

    @property
    def TIE(self) -> float:
        """Margins this close are a tie, which the heuristic bot's choice breaks."""
        ...

    @property
    def SCALE(self) -> float:
        """The usual range of a deal's margin, in the game's unit."""
        ...

    @property
    def INTERCHANGEABLE(self) -> int:
        """The cards that may play alike (see `search.equivalent`)."""
        ...

    def from_state(self, state: S) -> P:
        """Return the position of a rules state."""
        ...

    def playout(
        self, pos: P, players: H, first: int = -1, moves: list[int] | None = None
    ) -> tuple[float, float]:
        """Play the deal to its end, the player to move taking action first (-1: the
        heuristic players' choice); return each team's value."""
        ...

    def heuristic_players(self, view: View) -> H:
        """Return the compiled heuristic players of a view."""
        ...

    def setup_lines(self, view: View) -> list[tuple[int, ...]]:
        """Return the setup decisions searched as whole lines ([] for none)."""
        ...

    def rank_lines(self, lines: list[tuple[int, ...]], state: S) -> list[tuple[int, ...]]:
        """Return lines best first by the heuristic bot's judgement."""
        ...


if TYPE_CHECKING:  # each game's compiled path is checked against the interface here
    from tarocchi.bots.heuristic import compiled_minchiate as cm
    from tarocchi.bots.heuristic import compiled_ottocento as co
    from tarocchi.bots.heuristic import compiled_piedicavallo as cp
    from tarocchi.games import minchiate as mr
    from tarocchi.games import ottocento as orules
    from tarocchi.games import piedicavallo as pr

    _PIEDICAVALLO: Kernel[kernel_piedicavallo.Pos, pr.State, cp.Players]
    _PIEDICAVALLO = kernel_piedicavallo
    _OTTOCENTO: Kernel[kernel_ottocento.Pos, orules.State, co.Players] = kernel_ottocento
    _MINCHIATE: Kernel[kernel_minchiate.Pos, mr.State, cm.Players] = kernel_minchiate


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard a search bot thinks."""

    playouts: int  # the cap on playouts per decision (the reproducible bound)
    seconds: float  # the time budget per decision (a safety bound)
    min_samples: int = 4  # sample at least this many deals, whatever the cap
    max_samples: int = 200  # sample at most this many deals (few actions need few)
    max_lines: int = 12  # setup decisions: how many whole lines (e.g. discards) to compare
    # sample deals by how well they explain the plays so far, by Metropolis-Hastings with
    # this many steps between two deals searched (`tarocchi.bots.likelihood.Chains`; 0:
    # every allowed deal alike)
    infer: int = 0
    max_actions: int = 0  # search only this many actions, the heuristic's best (0: all)
    # leave the heuristic bot's choice only for an action whose paired lead over it (the
    # same sampled deals and noise) is this many standard errors above 0 (0: any lead
    # beyond the kernel's TIE)
    confidence: float = 0.0


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The least cost of each mark worse than good, in the game's unit (0 < cost < the
    first is good)."""

    inaccuracy: float
    mistake: float
    blunder: float


@dataclass(frozen=True, slots=True)
class Search:
    """What the search levels (normal, hard), the Hint and the review need of a game."""

    kernel: Kernel[Any, Any, Any]  # the search's compiled path
    belief: type[Belief]  # samples the deals a view allows
    # the normal level's budget, about 200 ms of one core at the 95th percentile of
    # decisions; the clock is a safety bound above that
    normal: Settings
    # the review's playout cap, in multiples of the level's: the most deals a review's 20 s
    # allow, as the noise in the differences between choices falls with the deals
    # (docs/benchmarks.md, "The review's marks")
    review_playouts: int
    # a position between two decisions is searched on this share (1 in n) of the deals a
    # decision is (`review_explain`)
    position_share: int
    # From the spreads measured (docs/benchmarks.md, "The review's marks"): a mistake costs
    # more than the review's own noise (the cost it charges the search's own choice, valued
    # again with another seed, in 1 decision of 20; at least the kernel's TIE), an
    # inaccuracy half that, a blunder as much as the heuristic bot's costliest choice in 20
    thresholds: Thresholds


@dataclass(frozen=True, slots=True)
class Parts:
    """One game's parts in the bots' layer: its heuristic player, and its search (None for
    a game without a compiled path, which plays at the random, heuristic and easy levels)."""

    heuristic: type[Bot]
    search: Search | None


PARTS: dict[GameName, Parts] = {
    "piedicavallo": Parts(
        piedicavallo.HeuristicBot,
        Search(
            kernel=kernel_piedicavallo,
            belief=PiedicavalloBelief,
            normal=Settings(playouts=1500, seconds=0.28),
            review_playouts=8,
            position_share=2,
            thresholds=Thresholds(inaccuracy=0.5, mistake=1.0, blunder=3.5),
        ),
    ),
    "ottocento": Parts(
        ottocento.HeuristicBot,
        Search(
            kernel=kernel_ottocento,
            belief=OttocentoBelief,
            # keep the heuristic's choice unless another leads it by 1.5 standard errors: the
            # partner suite's close calls are leads of a few points that flip with the noise
            normal=Settings(playouts=1200, seconds=0.28, confidence=1.5),
            review_playouts=8,
            position_share=2,
            thresholds=Thresholds(inaccuracy=3.5, mistake=7.0, blunder=55.0),
        ),
    ),
    "minchiate": Parts(
        minchiate.HeuristicBot,
        Search(
            kernel=kernel_minchiate,
            belief=MinchiateBelief,
            # long playouts (21 tricks) and wide hands: the heuristic's 8 best moves, more deals
            normal=Settings(playouts=800, seconds=0.28, max_actions=8, confidence=1.5),
            # Minchiate's long deals: half the others' review playouts, a quarter of the deals
            # for a position between decisions
            review_playouts=4,
            position_share=4,
            thresholds=Thresholds(inaccuracy=0.2, mistake=0.4, blunder=1.4),
        ),
    ),
}


def parts(game_name: str) -> Parts:
    """Return a game's parts by name; ValueError for an unknown game."""
    return entry(PARTS, game_name, "has no bots: tarocchi.bots.parts.PARTS lacks it")


def search_parts(game_name: str) -> Search:
    """Return what the search needs of a game; ValueError for a game without a search."""
    found = parts(game_name).search
    if found is None:
        raise ValueError(
            f"{game_name} has no search: play it at the random, heuristic or easy level"
        )
    return found


def belief(view: View) -> Belief:
    """Return the belief of view's seat: built once, it samples as many deals as asked."""
    return search_parts(view.game).belief(view)
