"""The review of a deal: each decision of one seat valued, marked and explained.

`review(record, seat)` re-plays a deal record (refusing a tampered one, as `tarocchi
replay` does) and values every decision of the seat twice, never mixing the two:

- fair: the valuation the Hint shows (`tarocchi.bots.valuation.valuate`), one function of
  the seat's view at that moment (so it never reads a card the seat could not see and it
  gives the values, order and best choice the Hint gave there): every legal choice of
  every phase valued on the same sampled deals, each with the standard error of its
  difference from the best (its spread);
- hindsight: the oracle, which sees every card (trick play only).

The best choice is the highest valued, listed first; a choice's cost is the best's fair
value minus its own, in the game's unit (card points; Ottocento's points; Minchiate's
resti, smoothed by the point lead as the search counts them). A cost is marked by per-game
thresholds (`THRESHOLDS`) only where the search is sure (`mark_of`): a cost past the first
threshold is marked by it only if its lower bound (the cost less twice its spread, `SURE`)
passes that threshold too, else "close"; a cost whose lower bound is under half the first
threshold is a tie ("best"). A single legal choice is "forced".
Beside the decisions: the graph of the seat's estimated final margin at each of its
turns, its large swings split into what caused them, what each costly choice lost
(`review_explain`), the key moments (the costliest decisions), the accuracy, the position
of each decision, and the AI of a level in the seat on the same cards (`ai_line`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any, TypedDict

from tarocchi.bots import LEVELS, make_bot
from tarocchi.bots.base import Bot
from tarocchi.bots.hints import reason
from tarocchi.bots.oracle import OracleBot
from tarocchi.bots.parts import PARTS, Thresholds
from tarocchi.bots.search import SearchBot, warm_up
from tarocchi.bots.valuation import LEVEL, fair_search, valuate, view_seed
from tarocchi.cards import Card, team_of
from tarocchi.games.base import GameState, Rules, mover
from tarocchi.i18n import N_, Msg, Translator, translator
from tarocchi.match import advance, table_bots, turn_seed
from tarocchi.record import ActionJson, RecordError, replay_states
from tarocchi.review_explain import (
    Lesson,
    Position,
    Swing,
    lesson,
    parts_from_json,
    parts_to_json,
    position_value,
    positions,
    swings,
)
from tarocchi.views import view

SEARCH = LEVEL  # the level whose search gives the fair values (and replays the seat)
MARKS = (N_("best"), N_("good"), N_("inaccuracy"), N_("mistake"), N_("blunder"))
FORCED = N_("forced")
CLOSE = N_("close")  # past a threshold, but not surely: within the search's noise
SURE = 2.0  # a cost is sure to pass a threshold when it passes it by this many spreads
KEY_MOMENTS = 3  # how many of the costliest decisions the review points out


# each game's marks' thresholds, kept with its other parts (`bots.parts.Search.thresholds`)
THRESHOLDS: dict[str, Thresholds] = {
    name: p.search.thresholds for name, p in PARTS.items() if p.search
}


def mark_of(game_name: str, cost: float, spread: float = 0.0) -> str:
    """Return the mark of a cost in a game, its spread the standard error of the paired
    difference it measures, its lower bound the cost less SURE spreads: under the
    inaccuracy threshold, best when the lower bound is under half of it (a tie: the best
    choice itself, or one the search cannot tell from it), else good; past it, close
    unless the lower bound passes it too, and then inaccuracy, mistake or blunder by the
    cost."""
    t = THRESHOLDS[game_name]
    sure = cost - SURE * spread
    if cost <= 0 or (cost < t.inaccuracy and sure < t.inaccuracy / 2):
        return "best"
    if cost < t.inaccuracy:
        return "good"
    if sure < t.inaccuracy:
        return CLOSE
    if cost < t.mistake:
        return "inaccuracy"
    return "mistake" if cost < t.blunder else "blunder"


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal choice of a decision: its fair and hindsight values (the seat's team's
    estimated final margin; None where not valued), what it does, and the spread of its
    fair value against the best's (the standard error of their paired difference)."""

    action: str
    fair: float | None
    hindsight: float | None
    reason: str  # a Msg from the review; its English text read back from JSON
    spread: float = 0.0


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision of the reviewed seat: its choices (best first), the one made and its cost.

    kind: "searched" (every choice valued) or "forced" (one legal choice, cost 0)."""

    index: int  # the action's place in the record (0-based): the deal as it stood before it
    trick: int  # the trick being played (1-based; 0 before the first trick)
    phase: str
    kind: str
    made: str
    best: str
    choices: tuple[Choice, ...]
    cost: float | None
    mark: str | None  # one of MARKS, "close" or "forced"

    def choice(self, action: str) -> Choice:
        """Return the choice of an action code (KeyError if it was not legal)."""
        for c in self.choices:
            if c.action == action:
                return c
        raise KeyError(action)

    def cost_of(self, action: str) -> float | None:
        """Return what a legal choice would have cost against the best (None: not valued)."""
        if self.kind == "forced":
            return 0.0
        best, mine = self.choice(self.best).fair, self.choice(action).fair
        if best is None or mine is None:
            return None
        return round(max(0.0, best - mine), 2)


@dataclass(frozen=True, slots=True)
class Point:
    """A point of the deal's graph: the seat's team's estimated final margin after `index`
    actions. kind: "turn" (the seat to act: its best choice's value), "choice" (after its
    choice: that choice's value) or "end" (the final margin)."""

    index: int
    trick: int
    kind: str
    value: float


@dataclass(frozen=True, slots=True)
class KeyMoment:
    """One of the costliest decisions, with a line on what was played and what was better."""

    decision: int  # its place in Review.decisions
    index: int  # the action's place in the record
    cost: float
    mark: str
    reason: str


@dataclass(frozen=True, slots=True)
class AiLine:
    """The same deal with an AI in the reviewed seat: its team's final margin, where its play
    first left the record's (None: it played the same), and every action of its deal."""

    level: str
    margin: float
    diverged: int | None
    actions: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class Review:
    """A deal's review for one seat."""

    game: str
    seed: int
    seat: int
    unit: str  # "points" or "resti"
    margin: float  # the seat's team's final margin
    decisions: tuple[Decision, ...]
    graph: tuple[Point, ...]
    key_moments: tuple[KeyMoment, ...]
    ai: AiLine | None
    swings: tuple[Swing, ...] = ()  # the graph's moves of a mistake or more, explained
    lessons: tuple[Lesson, ...] = ()  # what each costly choice lost, and the best would do
    positions: tuple[Position, ...] = ()  # each decision as the seat saw it

    @property
    def valued(self) -> tuple[Decision, ...]:
        """Return the decisions that were a real choice and got a cost."""
        return tuple(d for d in self.decisions if d.kind == "searched" and d.cost is not None)

    @property
    def total_cost(self) -> float:
        """Return the sum of the costs of the seat's choices."""
        return round(sum(d.cost or 0.0 for d in self.valued), 2)

    @property
    def accuracy(self) -> float | None:
        """Return the share of valued decisions marked best or good (None if none)."""
        valued = self.valued
        if not valued:
            return None
        return round(sum(d.mark in ("best", "good") for d in valued) / len(valued), 3)

    @property
    def average_cost(self) -> float | None:
        """Return the average cost per valued decision (None if none)."""
        valued = self.valued
        return round(self.total_cost / len(valued), 2) if valued else None


Progress = Callable[[int, int, Decision], None]


@dataclass(frozen=True, slots=True)
class Plan:
    """A deal record replayed for a review: its states and the seat's decisions to value.
    The review can then be made one decision at a time (the web server stores each one)."""

    rules: Rules
    seed: int
    seat: int
    level: str
    names: tuple[str, ...]  # the bot of each seat (a human's: the level's)
    actions: tuple[int, ...]
    states: tuple[GameState, ...]  # before each action, then the end
    mine: tuple[int, ...]  # the places in the record of the seat's decisions
    salt: int = 0  # 0: the Hint's seeds; another: independent ones (`valuate`)
    factor: float = 1.0  # times the valuation's playouts (1: the Hint's)

    @property
    def total(self) -> int:
        """Return how many decisions the review values."""
        return len(self.mine)

    @property
    def margin(self) -> float:
        """Return the seat's team's final margin."""
        return self.rules.result(self.states[-1]).margin(team_of(self.seat))


def plan(
    record: Mapping[str, object],
    seat: int = 0,
    level: str = SEARCH,
    salt: int = 0,
    factor: float = 1.0,
) -> Plan:
    """Replay a record for a review of a seat, the AI of `level` to replay the seat (salt and
    factor: the valuation's, 0 and 1 for the Hint's own seeds and playouts).

    Raises RecordError (naming the first bad action) for a record that does not replay,
    ValueError for a bad seat or level."""
    if seat not in range(4):
        raise ValueError(f"seat must be 0 to 3, not {seat!r}")
    rules, states, actions = replay_states(record)
    if make_bot(level, rules).sees_all:  # an unknown level is refused before any search too
        raise ValueError(f"the {level} bot sees every card: it cannot take a seat")
    names = players(record, rules, level)
    warm_up(rules)
    seed = record["seed"]
    assert isinstance(seed, int)  # replay_states refuses a record without one
    mine = tuple(i for i, s in enumerate(states[:-1]) if s.to_move == seat)
    return Plan(rules, seed, seat, level, tuple(names), actions, states, mine, salt, factor)


def value(p: Plan, k: int) -> Decision:
    """Value the seat's k-th decision (0-based) of a planned review."""
    i = p.mine[k]
    made = p.rules.action_code(p.actions[i])
    return replace(decide(p.rules, p.states[i], made, p.salt, p.factor), index=i)


def assemble(
    p: Plan, decisions: Sequence[Decision], ai: AiLine | None, known: Sequence[Swing] = ()
) -> Review:
    """Return the review of the decisions valued so far (the first ones of the plan), with
    the AI's line if known: the whole review once every decision is valued and ai is given
    (the swings already split in known are not searched again)."""
    done = tuple(decisions)
    rules = p.rules
    end = None
    if len(done) == p.total:  # the end, as the search counts a finished deal's margin
        end = position_value(rules, p.states[-1], p.seat, search_at(p, len(p.actions)))
    points = graph(done, len(p.actions), len(p.states[-1].winners), p.margin if end is None
                   else end)  # fmt: skip
    return Review(
        game=rules.name,
        seed=p.seed,
        seat=p.seat,
        unit=rules.unit,
        margin=p.margin,
        decisions=done,
        graph=points,
        key_moments=key_moments(rules, done, p.states, p.actions),
        ai=ai,
        swings=swings(
            rules,
            p.states,
            p.actions,
            p.seat,
            gaps(points if end is not None else points[:-1]),
            THRESHOLDS[rules.name].mistake,
            lambda i: search_at(p, i),
            known,
        ),
        lessons=tuple(
            Lesson(
                k,
                lesson(rules, p.states, p.actions, d.index, rules.parse_action(d.made)),
                lesson(rules, p.states, p.actions, d.index, rules.parse_action(d.best)),
            )
            for k, d in enumerate(done)
            if d.mark in ("inaccuracy", "mistake", "blunder")
        ),
        positions=positions(rules, p.states, p.seat, p.mine[: len(done)]),
    )


def search_at(p: Plan, i: int) -> SearchBot:
    """Return the fair search of the seat's view before the record's i-th action (or at the
    end), seeded as the valuation seeds it."""
    v = view(p.states[i], p.seat)
    return fair_search(v, view_seed(v, p.salt), p.factor)


def gaps(points: Sequence[Point]) -> list[tuple[int, float, int, float]]:
    """Return the graph's stretches between the seat's choice and its next turn (or the
    end): (start, its value, end, its value)."""
    return [
        (a.index, a.value, b.index, b.value)
        for a, b in pairwise(points)
        if a.kind == "choice" and b.kind != "choice"
    ]


def review(
    record: Mapping[str, object],
    seat: int = 0,
    level: str = SEARCH,
    progress: Progress | None = None,
    ai: AiLine | None = None,
) -> Review:
    """Review a deal record for a seat; the AI of `level` replays the seat on the same cards
    (unless its line is given: the one `ai_line` played for this record and level).

    Raises RecordError (naming the first bad action) for a record that does not replay,
    ValueError for a bad seat or level. progress(done, total, decision) follows each
    decision valued."""
    p = plan(record, seat, level)
    decisions: list[Decision] = []
    for k in range(p.total):
        decisions.append(value(p, k))
        if progress is not None:
            progress(len(decisions), p.total, decisions[-1])
    return assemble(p, decisions, ai or ai_line(p))


def decide(
    rules: Rules, state: GameState, made: str, salt: int = 0, factor: float = 1.0
) -> Decision:
    """Value the decision pending in state for the seat to move, the made choice among its
    legal ones (index 0: the caller places it in the deal), as the Hint values it
    (`valuate`; another salt: an independent seed, factor: times the playouts)."""
    seat = mover(state)
    v = view(state, seat)
    found = valuate(v, salt, factor)
    trick = len(v.tricks) + 1 if v.phase == "play" else 0
    oracle = make_bot("oracle", rules, view_seed(v, salt))
    assert isinstance(oracle, OracleBot)
    hindsight = oracle.evaluate_state(state, v) or {}

    def seen(a: int) -> float | None:
        st = hindsight.get(a)
        return round(st.mean, 2) if st is not None and st.count else None

    choices = tuple(
        Choice(rules.action_code(c.action), round(c.value, 2), seen(c.action),
               reason(v, c.action), round(c.spread, 2))
        for c in found.choices
    )  # fmt: skip
    out = Decision(0, trick, v.phase, "searched", made, choices[0].action, choices, None, None)
    if len(v.legal) == 1:
        return replace(out, kind="forced", cost=0.0, mark=FORCED)
    cost = out.cost_of(made)
    assert cost is not None  # every choice is valued
    return replace(out, cost=cost, mark=mark_of(rules.name, cost, out.choice(made).spread))


def graph(
    decisions: Sequence[Decision], actions: int, tricks: int, margin: float
) -> tuple[Point, ...]:
    """Return the graph: at each valued turn of the seat its best choice's value, then its
    choice's, and the final margin."""
    points = []
    for d in decisions:
        best, made = d.choice(d.best).fair, d.choice(d.made).fair
        if best is not None and made is not None:
            points.append(Point(d.index, d.trick, "turn", best))
            points.append(Point(d.index + 1, d.trick, "choice", made))
    points.append(Point(actions, tricks, "end", margin))
    return tuple(points)


def key_moments(
    rules: Rules,
    decisions: Sequence[Decision],
    states: Sequence[GameState],
    actions: Sequence[int],
) -> tuple[KeyMoment, ...]:
    """Return the costliest decisions marked inaccuracy or worse, costliest first, each with
    what the choice made lost and what the best would have done (`review_explain.lesson`)."""
    bad = [
        (i, d)
        for i, d in enumerate(decisions)
        if d.cost is not None and d.mark in ("inaccuracy", "mistake", "blunder")
    ]
    bad.sort(key=lambda x: (-(x[1].cost or 0.0), x[0]))
    out = []
    for i, d in bad[:KEY_MOMENTS]:
        made, best = rules.parse_action(d.made), rules.parse_action(d.best)
        line = Msg(
            "%(made)s: %(why)s; better %(best)s: %(better)s",
            made=action_name(rules, made),
            why=lesson(rules, states, actions, d.index, made),
            best=action_name(rules, best),
            better=lesson(rules, states, actions, d.index, best),
        )
        out.append(KeyMoment(i, d.index, d.cost or 0.0, d.mark or "", line))
    return tuple(out)


def action_name(rules: Rules, action: int) -> Card | str:
    """Return what names an action to a reader: its card, or its code for other actions."""
    pack = rules.pack
    return pack.cards[action] if action < pack.size else rules.action_code(action)


def unhurried(bot: Bot) -> Bot:
    """Return bot with its clock lifted (a search then stops at its playout cap, so the
    same seed plays the same way on a busy machine)."""
    if isinstance(bot, SearchBot):
        bot.cfg = replace(bot.cfg, seconds=math.inf)
    return bot


def table_level(record: Mapping[str, object], seat: int = 0) -> str:
    """Return the level the AI replaying a seat plays at by default: the level of the
    record's other players when they all play one level (a web deal's table), else SEARCH's."""
    entries = record.get("players")
    names = {str(e.get("name")) for e in entries if isinstance(e, dict)
             and e.get("seat") != seat} if isinstance(entries, list) else set()  # fmt: skip
    if len(names) == 1 and (name := names.pop()) in LEVELS:
        return name
    return SEARCH


def players(record: Mapping[str, object], rules: Rules, level: str) -> list[str]:
    """Return the bot of each seat in a record (a human's seat: the level's), each known
    (RecordError for a malformed or unknown one)."""
    entries = record.get("players")
    if entries is None:
        return [level] * 4
    if not isinstance(entries, list):
        raise RecordError("the record's 'players' are malformed: not a list")
    try:
        names = {e["seat"]: e["name"] for e in entries}
        out = [level if names[s] == "human" else str(names[s]) for s in range(4)]
        for name in out:
            make_bot(name, rules)
    except (TypeError, KeyError, ValueError) as e:
        raise RecordError(f"the record's 'players' are malformed: {e}") from None
    return out


def ai_line(p: Plan) -> AiLine:
    """Play the deal again with the AI of the plan's level in its seat: the others' actions
    are the record's until the AI chooses differently, then their bots' (p.names), every
    bot made and seeded as the web server makes its own (`match.table_bots`)."""
    rules, seat, actions = p.rules, p.seat, p.actions
    played: list[tuple[int, int]] = []
    state, diverged = p.states[0], None
    while state.to_move is not None:
        i = len(played)
        if state.to_move == seat:
            ai = unhurried(make_bot(p.level, rules, turn_seed(p.seed, seat, i)))
            a = ai.choose(view(state, seat))
            diverged = i if diverged is None and a != actions[i] else diverged
        elif diverged is None:
            a = actions[i]
        else:
            others = [s for s in range(4) if s != seat]
            bots = table_bots(rules, p.names, p.seed, others, i)
            for step in advance(rules, state, {s: unhurried(b) for s, b in bots.items()}):
                played.append((step.seat, step.action))
                state = step.state
            continue
        played.append((mover(state), a))
        state = rules.apply(state, a)
    margin = rules.result(state).margin(team_of(seat))
    codes = tuple((s, rules.action_code(a)) for s, a in played)
    return AiLine(p.level, margin, diverged, codes)


# -- the JSON form ----------------------------------------------------------------------------


def to_json(r: Review, tr: Translator | None = None) -> dict[str, Any]:
    """Return the review in a JSON-ready form, its texts in tr's language (English)."""
    tr = tr or translator("en")
    return {
        "game": r.game,
        "seed": r.seed,
        "seat": r.seat,
        "unit": r.unit,
        "margin": r.margin,
        "total_cost": r.total_cost,
        "accuracy": r.accuracy,
        "average_cost": r.average_cost,
        "thresholds": _thresholds(r.game),
        "decisions": [
            {
                "index": d.index,
                "trick": d.trick,
                "phase": d.phase,
                "kind": d.kind,
                "made": d.made,
                "best": d.best,
                "cost": d.cost,
                "mark": d.mark,
                "choices": [
                    {
                        "action": c.action,
                        "fair": c.fair,
                        "hindsight": c.hindsight,
                        "spread": c.spread,
                        "cost": d.cost_of(c.action),
                        "reason": tr.text(c.reason),
                    }
                    for c in d.choices
                ],
            }
            for d in r.decisions
        ],
        "graph": [
            {"index": p.index, "trick": p.trick, "kind": p.kind, "value": p.value} for p in r.graph
        ],
        "key_moments": [
            {
                "decision": k.decision,
                "index": k.index,
                "cost": k.cost,
                "mark": k.mark,
                "reason": tr.text(k.reason),
            }
            for k in r.key_moments
        ],
        "ai": None if r.ai is None else ai_to_json(r.ai),
        **parts_to_json(r.swings, r.lessons, r.positions, tr),
    }


class AiJson(TypedDict):
    """The AI's line, JSON-ready (`ai_to_json`)."""

    level: str
    margin: float
    diverged: int | None
    actions: list[ActionJson]


def ai_to_json(ai: AiLine) -> AiJson:
    """Return the AI's line in a JSON-ready form."""
    return {
        "level": ai.level,
        "margin": ai.margin,
        "diverged": ai.diverged,
        "actions": [{"seat": s, "action": a} for s, a in ai.actions],
    }


def ai_from_json(data: AiJson) -> AiLine:
    """Return the AI's line a JSON form holds."""
    return AiLine(
        data["level"],
        data["margin"],
        data["diverged"],
        tuple((a["seat"], a["action"]) for a in data["actions"]),
    )


def _thresholds(game_name: str) -> dict[str, float]:
    t = THRESHOLDS[game_name]
    return {"inaccuracy": t.inaccuracy, "mistake": t.mistake, "blunder": t.blunder}


def from_json(data: dict[str, Any]) -> Review:
    """Return the review a JSON form holds (its texts as they were written)."""
    ai = data["ai"]
    moves, taught, seen = parts_from_json(data)
    return Review(
        game=data["game"],
        seed=data["seed"],
        seat=data["seat"],
        unit=data["unit"],
        margin=data["margin"],
        decisions=tuple(
            Decision(
                d["index"],
                d["trick"],
                d["phase"],
                d["kind"],
                d["made"],
                d["best"],
                tuple(
                    Choice(
                        c["action"], c["fair"], c["hindsight"], c["reason"], c.get("spread", 0.0)
                    )
                    for c in d["choices"]
                ),
                d["cost"],
                d["mark"],
            )
            for d in data["decisions"]
        ),
        graph=tuple(Point(p["index"], p["trick"], p["kind"], p["value"]) for p in data["graph"]),
        key_moments=tuple(
            KeyMoment(k["decision"], k["index"], k["cost"], k["mark"], k["reason"])
            for k in data["key_moments"]
        ),
        ai=None if ai is None else ai_from_json(ai),
        swings=moves,
        lessons=taught,
        positions=seen,
    )
