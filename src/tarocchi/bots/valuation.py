"""The fair valuation of a decision: one function of a seat's view, shared by the Hint and
the review, so that they never disagree.

`valuate(view)` gives every legal choice of the seat to move its fair value (its team's
estimated final margin, in the game's unit: card points; Ottocento's points; Minchiate's
resti, smoothed by the point lead as the search counts them) and that value's uncertainty
against the best choice. It runs the hard level's search from the view (so it never reads
a card the seat cannot see) with the game's `review_playouts` times its playouts and no
clock (the playout cap alone bounds it, so the same view always gets the same values),
seeded by the view itself (`view_seed`: what the seat sees at that decision of that deal).
Every choice is played out on the same sampled deals, so the difference between two choices
is measured deal by deal (paired); its standard error is each choice's `spread`, taken from
the means of its batches by chain (the hard level's deals come from `CHAINS` Markov chains taking
turns, and a chain's deals are alike: one that lingers in a corner of the deals moves its
own mean, which batches of successive deals, a deal of every chain in each, never see).

Every phase is valued: trick play and the dealer's discards by the kernel's playouts (the
discard as whole lines, each card worth the best line that lays it aside); the other setup
decisions (Ottocento's declaration, Minchiate's discards and declarations) by applying the
choice to each sampled deal, letting the heuristic bot finish the setup, and playing the
tricks out with the kernel. The best choice is the highest valued (ties broken by action
id), listed first.
"""

from __future__ import annotations

import hashlib
import math
import statistics
from dataclasses import dataclass, replace

from tarocchi.bots import make_bot
from tarocchi.bots.likelihood import CHAINS
from tarocchi.bots.parts import Players, belief, search_parts
from tarocchi.bots.search import SearchBot, Stat, equivalent
from tarocchi.games.base import GameState
from tarocchi.views import View, view

LEVEL = "hard"  # the level whose search gives the fair values
# the setup decisions finished by the heuristic bot in Python, a hundred times slower than a
# kernel's playout: at most this many sampled deals (times the factor)
SETUP_SAMPLES = 120
# the spread's batches: deal i comes from chain i % CHAINS (the chains take turns; the
# other samplers' deals are independent, so any batching by position serves them)
BATCHES = CHAINS


@dataclass(frozen=True, slots=True)
class Valued:
    """One legal choice: its fair value and, against the best choice on the same sampled
    deals, the mean difference (best minus this, 0 for the best) and its standard error."""

    action: int
    value: float
    lead: float
    spread: float


@dataclass(frozen=True, slots=True)
class Valuation:
    """Every legal choice of a decision, best first, and the playouts behind them."""

    choices: tuple[Valued, ...]
    playouts: int

    @property
    def best(self) -> int:
        """Return the best choice's action."""
        return self.choices[0].action


def view_seed(v: View, salt: int = 0) -> int:
    """Return a seed fixed by what the view shows (the same question gets the same answer);
    another salt gives an independent seed (to measure how much the answer rests on it)."""
    key = repr((v.game, v.seat, v.hand, v.tricks, v.trick, v.legal, v.phase, v.private))
    if salt:
        key += f"/{salt}"
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "little")


def fair_search(v: View, seed: int, factor: float = 1.0) -> SearchBot:
    """Return the valuation's search for a view: the hard level's, every legal choice (and
    every discard line) searched, review_playouts times its playouts times factor, no clock."""
    rules = v.rules
    bot = make_bot(LEVEL, rules, seed)
    assert isinstance(bot, SearchBot)
    cfg = bot.cfg
    more = search_parts(rules.name).review_playouts * factor
    bot.cfg = replace(
        cfg,
        seconds=math.inf,
        max_actions=0,
        max_lines=1 << 30,
        playouts=max(1, round(cfg.playouts * more)),
        max_samples=max(cfg.min_samples, round(cfg.max_samples * more)),
    )
    return bot


def valuate(v: View, salt: int = 0, factor: float = 1.0) -> Valuation:
    """Return every legal choice of the view's seat valued, best first (ValueError when the
    seat has no decision to make)."""
    if not v.legal:
        raise ValueError("the seat has no decision to make")
    bot = fair_search(v, view_seed(v, salt), factor)
    stats = bot.evaluate(v)
    if stats is None:  # a setup decision the kernel cannot start from
        stats = finish_setup(bot, v)
    best = max(sorted(stats), key=lambda a: stats[a].mean)
    choices = []
    for a in v.legal:
        lead, spread = paired(stats[best], stats[a]) if a != best else (0.0, 0.0)
        choices.append(Valued(a, stats[a].mean, max(0.0, lead), spread))
    choices.sort(key=lambda c: (c.action != best, -c.value, c.action))
    return Valuation(tuple(choices), bot.last_playouts)


def finish_setup(bot: SearchBot, v: View) -> dict[int, Stat]:
    """Value each legal choice of a setup decision on the same sampled deals: the choice
    applied, the heuristic bot (every seat's) finishing the setup, the tricks played out by
    the kernel. Choices that play alike (`equivalent`) share their statistics."""
    rules, k = v.rules, bot.kernel
    known = belief(v)
    judge = bot.fallback
    players = k.heuristic_players(v)
    bot.cfg = replace(bot.cfg, max_samples=min(bot.cfg.max_samples, SETUP_SAMPLES))

    def start(state: GameState, action: int) -> tuple[object, Players, int]:
        state = rules.apply(state, action)
        while state.to_move is not None and rules.phase_name(state) != "play":
            state = rules.apply(state, judge.choose(view(state, state.to_move)))
        return k.from_state(state), players, -1

    classes = equivalent(v, k.INTERCHANGEABLE)
    keys = tuple(c[0] for c in classes)
    stats = bot.pimc(lambda: known.sample(bot.rng), v, keys, lambda s: s, start)
    return {a: stats[c[0]] for c in classes for a in c}


def paired(a: Stat, b: Stat) -> tuple[float, float]:
    """Return the mean of a's margin minus b's, deal by deal (both from the same deals), and
    its standard error from the means of BATCHES batches by chain (every BATCHES-th deal)."""
    diffs = [x - y for x, y in zip(a.margins, b.margins, strict=True)]
    k = min(BATCHES, len(diffs))
    if k < 2:
        return statistics.fmean(diffs), 0.0
    means = [statistics.fmean(diffs[i::k]) for i in range(k)]
    return statistics.fmean(diffs), statistics.stdev(means) / math.sqrt(k)
