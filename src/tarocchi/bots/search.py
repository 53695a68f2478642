"""The search bot: perfect-information Monte Carlo over deals sampled from what the seat knows.

Each decision samples full deals consistent with the bot's view
(`tarocchi.bots.belief`), so the bot never reads a hidden card, and plays each out
once after each legal action (PIMC) with the game's raw-int kernel
(`tarocchi.bots.kernel_<game>`), whose players are the game's heuristic bot compiled:
each of the four judges from what its own seat may know of the sampled deal. It
maximises its team's expected final margin in the game's own unit (Minchiate: net
resti, with the raw points as the tie-break); among actions within the kernel's TIE of
the best, the heuristic bot's choice (its prior) wins.

The hard level weighs the sampled deals (`tarocchi.bots.likelihood`): it replays the
plays so far on each deal with the heuristic players and samples deals by how many of
those plays they would have made differently (chains of card swaps,
Metropolis-Hastings), so its deals look like the hands the others have shown by play.

Setup decisions a kernel can play out (the dealer's two-card discard in Piedicavallo
and Ottocento) are searched as whole lines, the heuristic bot's judgement keeping the
most promising ones; the others (declarations, Minchiate's discards) are left to the
heuristic bot. Decisions are deterministic given the bot's seed while the playout cap
binds; the clock is only a safety bound. docs/experiments.md tells how the levels'
settings were chosen.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, TypeVar

from tarocchi.bots import make_bot
from tarocchi.bots.base import Bot
from tarocchi.bots.likelihood import Chains, Replay
from tarocchi.bots.parts import PARTS, Kernel, Players, Settings, belief, search_parts
from tarocchi.games.base import GameState, Rules, S, TrickGame, mover
from tarocchi.views import View, view


def kernel(game_name: str) -> Kernel[Any, Any, Any]:
    """Return the compiled path of a game (its `parts.Search.kernel`); ValueError for a game
    without a search."""
    return search_parts(game_name).kernel


def warm_up(rules: Rules) -> None:
    """Compile a game's deal sampler, playouts and replays now (or load them from numba's
    cache), on its deal of seed 0, so that no player waits seconds for the compiler at its
    first move."""
    k = kernel(rules.name)
    bot = make_bot("heuristic", rules)
    state = rules.deal(0)
    while rules.phase_name(state) != "play":
        state = rules.apply(state, bot.choose(view(state, mover(state))))
    belief(view(state, mover(state))).sample(random.Random(0))
    players = k.heuristic_players(view(state, mover(state)))
    k.playout(k.from_state(state), players)
    players.replay(state.hands, 0)


K = TypeVar("K")  # what the search compares: an action, or a whole setup line
D = TypeVar("D")  # a drawn deal as the playouts start from it (a kernel position, a state)
Draw = Callable[[], GameState]  # draws a deal the view allows


# The levels' budgets per game, about 200 ms (normal) and 1 s (hard) of one core at the
# 95th percentile of decisions; the clock is a safety bound above that.
NORMAL: dict[str, Settings] = {n: p.search.normal for n, p in PARTS.items() if p.search}
# hard differs in kind, not in playouts: deals weighed by the plays so far, 8 steps of the
# chains between two deals searched
HARD = {name: replace(cfg, seconds=1.4, infer=8) for name, cfg in NORMAL.items()}


@dataclass(slots=True)
class Stat:
    """What the search learned about one action: its summed margin and its count, and
    (PIMC) each playout's margin in sample order, to compare actions deal by deal."""

    total: float = 0.0
    count: int = 0
    margins: list[float] = field(default_factory=list)

    def add(self, margin: float) -> None:
        """Record one playout's margin."""
        self.total += margin
        self.count += 1
        self.margins.append(margin)

    @property
    def mean(self) -> float:
        """Return the average margin (0 before any playout)."""
        return self.total / self.count if self.count else 0.0

    def lead_over(self, other: Stat) -> tuple[float, float]:
        """Return the mean and the standard error of this action's margin minus other's,
        deal by deal (both must come from the same samples)."""
        diffs = [a - b for a, b in zip(self.margins, other.margins, strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        return mean, math.sqrt(var / n)


class SearchBot(Bot):
    """Chooses by Monte Carlo search over deals sampled from its view."""

    name = "search"
    sees_all: ClassVar[bool] = False
    # one Settings for every game, or one per game
    settings: ClassVar[Settings | dict[str, Settings]] = NORMAL

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        super().__init__(rules, seed)
        self.kernel = kernel(rules.name)
        cfg = self.settings
        self.cfg: Settings = cfg if isinstance(cfg, Settings) else cfg[rules.name]
        self._fallback: Bot | None = None
        self.last_playouts = 0  # playouts of the latest decision (for benchmarks)

    @property
    def fallback(self) -> Bot:
        """Return the heuristic bot that takes the decisions the kernel does not play."""
        if self._fallback is None:
            self._fallback = make_bot("heuristic", self.rules, self.rng.randrange(1 << 30))
        return self._fallback

    def choose(self, view: View) -> int:
        """Return the action with the best estimated margin for the bot's team."""
        if len(view.legal) == 1:
            self.last_playouts = 0
            return view.legal[0]
        stats = self.evaluate(view)
        if stats is None:
            self.last_playouts = 0
            return self.fallback.choose(view)
        return self.pick(view, stats)

    def pick(self, view: View, stats: dict[int, Stat]) -> int:
        """Return the best action; among actions within the kernel's TIE of the best (a
        difference the playouts cannot tell from noise) the heuristic bot's choice wins.
        With a confidence set, the heuristic's choice stands unless the best action leads
        it by the TIE and by that many standard errors, deal by deal."""
        best = best_action(stats)
        z = self.cfg.confidence
        if z and stats[best].margins:
            prior = self.fallback.choose(view)
            if prior == best or prior not in stats or not stats[prior].margins:
                return best
            mean, se = stats[best].lead_over(stats[prior])
            return best if mean > self.kernel.TIE and mean > z * se else prior
        floor = stats[best].mean - self.kernel.TIE
        close = [a for a, st in stats.items() if st.count and st.mean >= floor]
        if len(close) > 1:
            prior = self.fallback.choose(view)
            if prior in close:
                return prior
        return best

    def playout(self, pos: object, players: Players, first: int = -1) -> tuple[float, ...]:
        """Play a kernel position to its end with the compiled heuristic players, the player
        to move taking action first (-1: their choice); return each team's value."""
        totals: tuple[float, ...] = self.kernel.playout(pos, players, first)
        return totals

    def evaluate(self, view: View) -> dict[int, Stat] | None:
        """Return the search's statistics per legal action, or None in a phase it leaves to
        the heuristic bot."""
        k = self.kernel
        lines = [] if view.phase == "play" else k.setup_lines(view)
        if view.phase != "play" and not lines:
            return None
        known = belief(view)

        def draw() -> GameState:
            return known.sample(self.rng)

        if lines:
            return self.search_lines(draw, view, lines)
        if self.cfg.infer and (view.tricks or view.trick):
            replay = Replay(view, k.heuristic_players(view))
            chains = Chains(
                known,
                lambda dealt: replay.log_weight(known.hands(dealt), known.discard(dealt)),
                self.rng,
                self.cfg.infer,
            )
            return self.search_classes(chains, view)
        return self.search_classes(draw, view)

    def search_classes(self, draw: Draw, view: View) -> dict[int, Stat]:
        """Search one card of each set of interchangeable legal cards (see `equivalent`);
        every card of a set shares its statistics."""
        classes = equivalent(view, self.kernel.INTERCHANGEABLE)
        cap = self.cfg.max_actions
        values = getattr(self.fallback, "card_values", None)
        if cap and len(classes) > cap and values is not None:
            # the heuristic bot's judgement (its prior) keeps the likeliest candidates
            prior = values(view)
            classes = sorted(classes, key=lambda c: -max(prior[a] for a in c))[:cap]
        stats = self.search(draw, view, tuple(c[0] for c in classes))
        return {a: stats[c[0]] for c in classes for a in c}

    def search_lines(self, draw: Draw, view: View, lines: list[tuple[int, ...]]) -> dict[int, Stat]:
        """Evaluate whole setup decisions (e.g. both cards of a discard) by PIMC; return, per
        action, the stats of the best line that holds it."""
        k = self.kernel
        cfg = self.cfg
        players = k.heuristic_players(view)
        if len(lines) > cfg.max_lines:
            # the game's prior (its heuristic judgement) keeps the most promising lines
            lines = k.rank_lines(lines, draw())[: cfg.max_lines]
        stats = self.pimc(
            draw, view, lines, lambda state: state,
            lambda state, line: (k.from_state(after(self.rules, state, line)), players, -1),
        )  # fmt: skip
        out: dict[int, Stat] = {}
        for line, st in stats.items():
            for a in line:
                if a not in out or st.mean > out[a].mean:
                    out[a] = st
        return out

    def search(self, draw: Draw, view: View, actions: tuple[int, ...]) -> dict[int, Stat]:
        """Play each deal given by draw() out once after each action; return the stats per
        action."""
        k = self.kernel
        players = k.heuristic_players(view)
        return self.pimc(draw, view, actions, k.from_state, lambda pos, a: (pos, players, a))

    def pimc(
        self,
        draw: Draw,
        view: View,
        keys: Sequence[K],
        prepare: Callable[[GameState], D],
        start: Callable[[D, K], tuple[object, Players, int]],
    ) -> dict[K, Stat]:
        """Play each deal drawn out once after each key (an action, a setup line): prepare
        turns a deal into what start needs to give the key's position, its players and the
        first action (-1: none given)."""
        cfg = self.cfg
        team = view.seat & 1
        stats = {key: Stat() for key in keys}
        deadline = time.perf_counter() + cfg.seconds
        rounds = max(cfg.min_samples, min(cfg.max_samples, cfg.playouts // len(keys)))
        done = 0
        for r in range(rounds):
            if r >= cfg.min_samples and time.perf_counter() > deadline:
                break
            deal = prepare(draw())
            self.rng.getrandbits(64)  # once the playouts' noise: kept, so seeds decide alike
            for key in keys:
                totals = self.playout(*start(deal, key))
                stats[key].add(totals[team] - totals[1 - team])
            done += len(keys)
        self.last_playouts = done
        return stats


def after(rules: TrickGame[S], state: S, line: tuple[int, ...]) -> S:
    """Return the state after a line of actions (a sampled deal's discard, say)."""
    for action in line:
        state = rules.apply(state, action)
    return state


def equivalent(view: View, interchangeable: int) -> list[list[int]]:
    """Return the legal actions in sets that play alike: cards of one suit with the same
    points, in no combination (interchangeable), with no card between them still out of
    the seat's hand and unplayed. Any such card wins and loses exactly the tricks the
    others would, and scores the same, so the search needs to try one of each set."""
    pack = view.rules.pack
    out = pack.full_mask & ~view.hand & ~view.played
    classes: list[list[int]] = []
    for a in view.legal:
        if classes and a < pack.size and interchangeable >> a & 1:
            prev = classes[-1][-1]
            between = ((1 << a) - 1) & ~((2 << prev) - 1)
            if (
                interchangeable >> prev & 1
                and pack.suit_of[prev] == pack.suit_of[a]
                and pack.points[prev] == pack.points[a]
                and not out & between
            ):
                classes[-1].append(a)
                continue
        classes.append([a])
    return classes


def best_action(stats: dict[int, Stat]) -> int:
    """Return the action with the best mean margin (the most visited among ties)."""
    return max(sorted(stats), key=lambda a: (stats[a].mean, stats[a].count))


class HardSearchBot(SearchBot):
    """The search bot of the `hard` level: deals sampled by how well they explain the plays
    so far."""

    name = "hard"
    settings = HARD


# The search levels' stand-in when the web server's AI workers are all busy (issue 22): the
# normal search at a fifth of its playouts and clock, so load shortens the AI's thinking
# rather than queueing it (strength measured in the README's Reliability section)
SHORT = {
    name: replace(cfg, playouts=cfg.playouts // 5, seconds=cfg.seconds / 5)
    for name, cfg in NORMAL.items()
}


class ShortSearchBot(SearchBot):
    """The normal search at a fifth of its budget."""

    name = "short"
    settings = SHORT


if __name__ == "__main__":
    # `python -m tarocchi.bots.search` (make serve): compile every game's search into numba's
    # cache now, so that a server's first start loads it in seconds instead of compiling
    from tarocchi.games import GAMES, game

    for game_name in GAMES:
        warm_up(game(game_name))
