"""The search bot: Monte Carlo search over deals sampled from what the seat knows.

Each decision samples full deals consistent with the bot's view
(`tarocchi.bots.belief`), so the bot never reads a hidden card, and plays them
out with the game's raw-int kernel (`tarocchi.bots.kernel_<game>`), whose players
make every playout a plausible deal rather than a random one. The levels'
playouts are played by the game's heuristic bot itself, compiled
(`tarocchi.bots.heuristic.compiled_<game>`): each of the four players judges from
what its own seat may know of the sampled deal, as real players do, rather than
from every hand; those playouts made the search about twice as strong against the
heuristic bot in Piedicavallo and Ottocento, three times in Minchiate.
It maximises its team's expected final margin in the game's own unit
(Minchiate: net resti, with the raw points as the tie-break).

Two searches are implemented; PIMC is the one the levels use, chosen by
measurement (Piedicavallo, duplicate arena against the heuristic bot, seeds
200-259, 60 pairs, the same 0.25 s per decision on this machine): PIMC +1.7
points per deal (95% CI -0.9..+4.3), ISMCTS -2.7 (-5.2..-0.1); at an equal
1200 iterations (30 pairs) PIMC +2.5, ISMCTS +0.9, ISMCTS taking twice the time
(it samples a deal per iteration where PIMC shares one deal among all actions).

- PIMC (perfect-information Monte Carlo): each sampled deal is played out once
  after each legal action, with common random numbers (the same playout noise
  for every action of a deal); the best average margin wins, and among actions
  within the kernel's TIE of it, the heuristic bot's choice (its prior).
- ISMCTS (single-observer information-set MCTS): one tree over the seat's
  information set, a fresh deal per iteration, UCB over the actions legal in
  that deal, one playout from each new node.

The hard level weighs the sampled deals (`tarocchi.bots.likelihood`): it replays
the plays so far on each deal with the playout players (the heuristic players)
and samples deals by how many of those plays the players would have made
differently (chains of card swaps, Metropolis-Hastings), so its deals look like
the hands the other players have shown by their play.

Setup decisions a kernel can play out (the dealer's two-card discard in
Piedicavallo and Ottocento) are searched as whole lines, the heuristic bot's
judgement keeping the most promising ones; the others (declarations, Minchiate's
discards) are left to the heuristic bot. Decisions are deterministic given the
bot's seed while the playout cap binds; the clock is only a safety bound.
"""

from __future__ import annotations

import importlib
import math
import random
import time
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any, ClassVar

from tarocchi.bots.base import Bot
from tarocchi.bots.belief import belief
from tarocchi.bots.likelihood import Chains, Replay
from tarocchi.cards import bits
from tarocchi.games.base import TrickGame
from tarocchi.views import View

KERNELS = {
    "piedicavallo": "tarocchi.bots.kernel_piedicavallo",
    "ottocento": "tarocchi.bots.kernel_ottocento",
    "minchiate": "tarocchi.bots.kernel_minchiate",
}


def kernel(game_name: str) -> ModuleType | None:
    """Return the playout kernel module of a game, or None if it has none."""
    name = KERNELS.get(game_name)
    return importlib.import_module(name) if name else None


def warm_up(rules: TrickGame) -> None:
    """Compile a game's deal sampler, playouts and replays now (or load them from numba's
    cache), on its deal of seed 0, so that no player waits seconds for the compiler at its
    first move."""
    k = kernel(rules.name)
    if k is None:
        return
    from tarocchi.bots import make_bot
    from tarocchi.views import view

    bot = make_bot("heuristic", rules)
    state = rules.deal(0)
    while rules.phase_name(state) != "play":
        state = rules.apply(state, bot.choose(view(state, state.to_move)))
    belief(view(state, state.to_move)).sample(random.Random(0))
    # the levels' players only: the greedy ones serve ISMCTS and experiments
    players = k.heuristic_players(view(state, state.to_move))
    k.seeded_playout(k.from_state(state), 0, 0.0, players)
    players.replay(state.hands, 0)


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard a search bot thinks."""

    playouts: int  # the cap on playouts per decision (the reproducible bound)
    seconds: float  # the time budget per decision (a safety bound)
    algorithm: str = "pimc"  # "pimc" or "ismcts"
    eps: float = 0.0  # the chance that a playout player plays a random legal card
    exploration: float = 0.6  # ISMCTS: the UCB constant, on margins scaled to [-1, 1]
    min_samples: int = 4  # PIMC: sample at least this many deals, whatever the cap
    max_samples: int = 200  # PIMC: sample at most this many deals (few actions need few)
    max_lines: int = 12  # setup decisions: how many whole lines (e.g. discards) to compare
    # who plays the playouts: "seeing" (the kernel's greedy players, seeing every hand of
    # the sampled deal), "counting" (the same, knowing only which cards are out, not where)
    # or "heuristic" (the game's heuristic bot compiled, judging from its own seat's view)
    players: str = "seeing"
    # sample deals by how well they explain the plays so far, by Metropolis-Hastings with
    # this many steps between two deals searched (`tarocchi.bots.likelihood.Chains`; 0:
    # every allowed deal alike)
    infer: int = 0
    max_actions: int = 0  # search only this many actions, the heuristic's best (0: all)
    # leave the heuristic bot's choice only for an action whose paired lead over it (the
    # same sampled deals and noise) is this many standard errors above 0 (0: any lead
    # beyond the kernel's TIE)
    confidence: float = 0.0


# The levels' budgets per game, about 200 ms (normal) and 1 s (hard) of one core at the
# 95th percentile of decisions; the clock is a safety bound above that.
NORMAL = {
    # Piedicavallo's playouts are played by the heuristic bot compiled, each player judging
    # from its own seat (against the heuristic, seeds 0-99: +5.14 points per deal, 95% CI
    # +3.51..+6.77, where the greedy players seeing every hand made +2.43, +0.55..+4.31)
    "piedicavallo": Settings(playouts=1500, seconds=0.28, players="heuristic"),
    # Ottocento's playouts are played by the heuristic bot compiled too (against the
    # heuristic, 500 pairs: +156 points per deal, 95% CI +147..+165, where the greedy
    # players counting cards made +109). It keeps the heuristic's choice unless it leads by
    # 1.5 standard errors: the partner suite's hard cases are leads of a few points that
    # flip with the playouts' noise (44 of 48 with, 43 without)
    "ottocento": Settings(playouts=1200, seconds=0.28, players="heuristic", confidence=1.5),
    # Minchiate's playouts are long (21 tricks) and the hands wide: the search tries only the
    # heuristic bot's 8 best moves, with more deals each (80 pairs against the heuristic:
    # +0.11 resti, 95% CI -0.10..+0.31, where searching every move gave -0.04 over 120)
    # Leads over the heuristic's choice were mostly noise at 700 playouts (of 39 sampled
    # decisions the search differed in 18, most by under one standard error), so it keeps
    # the heuristic's choice unless it leads by 1.5 standard errors, deal by deal. Its
    # playouts are played by the heuristic bot compiled, as in Piedicavallo (against the
    # heuristic, seeds 0-63: +1.22 resti per deal, 95% CI +1.01..+1.43, where the greedy
    # players' 2,000 playouts made +0.36 over 500 pairs); 800 of them fit the clock
    "minchiate": Settings(
        playouts=800, seconds=0.28, players="heuristic", max_actions=8, confidence=1.5
    ),
}
# The hard level differs in kind, not in playouts (five times normal's bought nothing:
# +0.16 points per deal over 500 Piedicavallo pairs, 95% CI -0.54..+0.86, greedy players).
# It samples its deals by how well they explain the plays so far (`tarocchi.bots.likelihood`),
# replayed by the heuristic players, the model its playouts use: chains of swaps, 8 steps
# between two deals searched. Against the heuristic, 500 Piedicavallo pairs: +8.04 points
# per deal (95% CI +7.28..+8.79) where resampling three times the draws by the same model
# made +6.84 (paired, +1.19, +0.42..+1.97); 300 steps of burn-in, twice the steps between
# deals, or twice the playouts on top screened no better (27 to 80 pairs each). Nor did a
# closer posterior (1000 steps of burn-in, the opponents' factors 1e-4: the mean log-chance
# of the true places -0.862 against -0.902 on 60 positions; 24 pairs, -1.5, -4.3..+1.3), or
# keeping the heuristic's choice unless led by 1.5 standard errors (90 pairs, +0.3,
# -1.1..+1.7). What it lacks is the hidden cards themselves: shown its partner's hand it
# makes +16.4 against the heuristic (51 pairs, where it made +9.4), shown the opponents'
# +22.5 (60 pairs), the oracle's margin
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

    def __init__(self, rules: TrickGame, seed: int = 0) -> None:
        super().__init__(rules, seed)
        cfg = self.settings
        self.cfg: Settings = cfg if isinstance(cfg, Settings) else cfg[rules.name]
        self.kernel = kernel(rules.name)
        self._fallback: Bot | None = None
        self.last_playouts = 0  # playouts of the latest decision (for benchmarks)

    @property
    def fallback(self) -> Bot:
        """Return the heuristic bot that takes the decisions the kernel does not play."""
        if self._fallback is None:
            from tarocchi.bots import make_bot

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
        assert self.kernel is not None
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

    def playout(self, pos: Any, seed: int, policy: Any) -> tuple[float, ...]:
        """Play a kernel position to its end with the playout players (compiled where the
        pack allows); return each team's value. The seed fixes the random moves."""
        assert self.kernel is not None
        totals: tuple[float, ...] = self.kernel.seeded_playout(pos, seed, self.cfg.eps, policy)
        return totals

    def evaluate(self, view: View) -> dict[int, Stat] | None:
        """Return the search's statistics per legal action, or None in a phase it leaves to
        the heuristic bot."""
        k = self.kernel
        if k is None:
            return None
        lines = [] if view.phase == "play" else k.setup_lines(view)
        if view.phase != "play" and not lines:
            return None
        known = belief(view)

        def draw() -> Any:
            return known.sample(self.rng)

        if lines:
            return self.search_lines(draw, view, lines)
        if self.cfg.infer and (view.tricks or view.trick):
            replay = Replay(view, k, self.policy(view))
            chains = Chains(
                known,
                lambda dealt: replay.log_weight(known.hands(dealt), known.discard(dealt)),
                self.rng,
                self.cfg.infer,
            )
            return self.search_classes(chains, view)
        return self.search_classes(draw, view)

    def search_classes(self, draw: Any, view: View) -> dict[int, Stat]:
        """Search one card of each set of interchangeable legal cards (see `equivalent`);
        every card of a set shares its statistics."""
        assert self.kernel is not None
        classes = equivalent(view, self.kernel.INTERCHANGEABLE)
        cap = self.cfg.max_actions
        values = getattr(self.fallback, "card_values", None)
        if cap and len(classes) > cap and values is not None:
            # the heuristic bot's judgement (its prior) keeps the likeliest candidates
            prior = values(view)
            classes = sorted(classes, key=lambda c: -max(prior[a] for a in c))[:cap]
        stats = self.search(draw, view, tuple(c[0] for c in classes))
        return {a: stats[c[0]] for c in classes for a in c}

    def policy(self, view: View) -> Any:
        """Return the playout players of the configured kind for a decision of view."""
        k = self.kernel
        assert k is not None
        kind = self.cfg.players
        if kind == "heuristic":
            return k.heuristic_players(view)
        return k.COUNTING if kind == "counting" else k.POLICY

    def search_lines(self, draw: Any, view: View, lines: list[tuple[int, ...]]) -> dict[int, Stat]:
        """Evaluate whole setup decisions (e.g. both cards of a discard) by PIMC; return, per
        action, the stats of the best line that holds it."""
        k = self.kernel
        assert k is not None
        cfg = self.cfg
        policy = self.policy(view)
        team = view.seat & 1
        if len(lines) > cfg.max_lines:
            # the game's prior (its heuristic judgement) keeps the most promising lines
            lines = k.rank_lines(lines, draw())[: cfg.max_lines]
        stats = {line: Stat() for line in lines}
        deadline = time.perf_counter() + cfg.seconds
        rounds = max(cfg.min_samples, min(cfg.max_samples, cfg.playouts // len(lines)))
        done = 0
        for r in range(rounds):
            if r >= cfg.min_samples and time.perf_counter() > deadline:
                break
            state = draw()
            noise = self.rng.getrandbits(64)
            for line in lines:
                totals = self.playout(k.after_line(state, line), noise, policy)
                stats[line].add(totals[team] - totals[1 - team])
            done += len(lines)
        self.last_playouts = done
        out: dict[int, Stat] = {}
        for line, st in stats.items():
            for a in line:
                if a not in out or st.mean > out[a].mean:
                    out[a] = st
        return out

    def search(self, draw: Any, view: View, actions: tuple[int, ...]) -> dict[int, Stat]:
        """Run the configured search from deals given by draw(); return stats per action."""
        assert self.kernel is not None
        if self.cfg.algorithm == "ismcts":
            if self.cfg.players == "heuristic":
                raise ValueError("ISMCTS plays its playouts with the kernel's greedy players")
            return self._ismcts(draw, view.seat, actions)
        return self._pimc(draw, view, actions)

    # -- PIMC ----------------------------------------------------------------------------
    def _pimc(self, draw: Any, view: View, actions: tuple[int, ...]) -> dict[int, Stat]:
        """Play each sampled deal out once after each action; average the margins."""
        k = self.kernel
        assert k is not None
        cfg = self.cfg
        policy = self.policy(view)
        team = view.seat & 1
        stats = {a: Stat() for a in actions}
        # players who know what the view shows see the action played too
        after = getattr(policy, "after", None)
        policies = {a: after(a) if after else policy for a in actions}
        deadline = time.perf_counter() + cfg.seconds
        rounds = max(cfg.min_samples, min(cfg.max_samples, cfg.playouts // len(actions)))
        done = 0
        for r in range(rounds):
            if r >= cfg.min_samples and time.perf_counter() > deadline:
                break
            pos = k.from_state(draw())
            # common random numbers: every action's playout of a deal draws the same noise
            noise = self.rng.getrandbits(64)
            for a in actions:
                totals = self.playout(k.play(pos, a), noise, policies[a])
                stats[a].add(totals[team] - totals[1 - team])
            done += len(actions)
        self.last_playouts = done
        return stats

    # -- ISMCTS --------------------------------------------------------------------------
    def _ismcts(self, draw: Any, seat: int, actions: tuple[int, ...]) -> dict[int, Stat]:
        """Single-observer ISMCTS with one fresh sampled deal per iteration."""
        k = self.kernel
        assert k is not None
        cfg = self.cfg
        policy = k.COUNTING if cfg.players == "counting" else k.POLICY
        scale = float(k.SCALE)
        c = cfg.exploration
        rng = self.rng
        root = _Node()
        deadline = time.perf_counter() + cfg.seconds
        log = math.log
        sqrt = math.sqrt
        done = 0
        for i in range(cfg.playouts):
            if i >= cfg.min_samples and not i & 15 and time.perf_counter() > deadline:
                break
            pos = k.from_state(draw())
            node = root
            path = [root]
            movers = [seat]
            while pos.to_move >= 0:
                legal = bits(k.legal(pos)) if node is not root else list(actions)
                children = node.children
                untried = [a for a in legal if a not in children]
                mover = pos.to_move
                if untried:
                    a = untried[int(rng.random() * len(untried))]
                    child = _Node()
                    children[a] = child
                    child.avail = 1
                    pos = k.play(pos, a)
                    path.append(child)
                    movers.append(mover)
                    break
                best, best_u = None, -1e18
                for a in legal:
                    ch = children[a]
                    ch.avail += 1
                    u = ch.total / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if u > best_u:
                        best, best_u = a, u
                assert best is not None
                node = children[best]
                pos = k.play(pos, best)
                path.append(node)
                movers.append(mover)
            totals = k.playout(pos, rng, cfg.eps, policy=policy)
            margin = (totals[0] - totals[1]) / scale
            for node, mover in zip(path, movers, strict=True):
                node.visits += 1
                node.total += margin if not mover & 1 else -margin
            done += 1
        self.last_playouts = done
        out = {}
        for a in actions:
            got = root.children.get(a)
            out[a] = Stat(got.total * scale, got.visits) if got else Stat()
        return out


class _Node:
    """An ISMCTS node: the value of the move into it, for the player who made it."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict[int, _Node] = {}


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
