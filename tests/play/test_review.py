"""The review: the search's own choice costs nothing, forced decisions nothing, clearly wrong
moves are marked mistakes, the JSON form round-trips, and the AI in the seat replays the deal."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from tarocchi.bots.hints import suggest
from tarocchi.games import GAMES, game
from tarocchi.i18n import translator
from tarocchi.match import play_deal
from tarocchi.record import RecordError, make_record, replay_states
from tarocchi.review import (
    MARKS,
    THRESHOLDS,
    Review,
    ai_line,
    assemble,
    decide,
    from_json,
    mark_of,
    plan,
    review,
    to_json,
    value,
)
from tarocchi.views import view
from tests.bots.test_partner_suite import load, position
from tests.conftest import one_fast

# a deal of each game where South deals (a discard, and Minchiate's declarations, to review)
SEEDS = {"piedicavallo": 1, "ottocento": 5, "minchiate": 2}
QUICK = 0.1  # a tenth of the valuation's playouts


@cache
def deal(name: str) -> dict[str, Any]:
    """Return the record of a deal the heuristic bots played."""
    return make_record(play_deal(name, SEEDS[name], ["heuristic"] * 4))


@cache
def reviewed(name: str) -> tuple[Review, tuple[tuple[int, int], ...]]:
    """Return South's review of the deal (AI: the heuristic bot) and its progress calls."""
    calls: list[tuple[int, int]] = []
    r = review(deal(name), 0, "heuristic", lambda done, total, _d: calls.append((done, total)))
    return r, tuple(calls)


@cache
def quick(name: str) -> Review:
    """Return South's review of the deal with a tenth of the valuation's playouts: for the
    tests of what a review holds and how it reads, not of how well it values."""
    p = plan(deal(name), 0, "heuristic", factor=QUICK)
    return assemble(p, [value(p, k) for k in range(p.total)], ai_line(p))


def states(name: str) -> tuple[Any, ...]:
    """Return the deal's states, before each action and at the end."""
    return replay_states(deal(name))[1]


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.slow
def test_every_decision_of_the_seat_is_reviewed_in_order(name: str) -> None:
    r, calls = reviewed(name)
    record = deal(name)
    mine = [i for i, e in enumerate(record["actions"]) if e["seat"] == 0]
    assert [d.index for d in r.decisions] == mine
    assert [d.made for d in r.decisions] == [record["actions"][i]["action"] for i in mine]
    assert calls == tuple((n, len(mine)) for n in range(1, len(mine) + 1))
    assert r.margin == record["result"]["ns"] - record["result"]["ew"]
    assert r.unit == ("resti" if name == "minchiate" else "points")
    for d in r.decisions:
        assert {c.action for c in d.choices} == {
            game(name).action_code(a) for a in view(states(name)[d.index], 0).legal
        }
        assert d.choices[0].action == d.best


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.slow
def test_best_is_the_highest_valued_and_costs_are_measured_from_it(name: str) -> None:
    r, _ = reviewed(name)
    searched = [d for d in r.decisions if d.kind == "searched"]
    assert len(searched) >= 8
    for d in searched:
        values = [c.fair for c in d.choices]
        assert None not in values  # every choice of every phase valued
        assert d.best == d.choices[0].action and values[0] == max(values)  # type: ignore[type-var]
        assert values == sorted(values, reverse=True)  # type: ignore[type-var]
        assert d.choices[0].spread == 0.0 and all(c.spread >= 0 for c in d.choices)
        for c in d.choices:
            cost = d.cost_of(c.action)
            assert cost == round(d.choices[0].fair - c.fair, 2)  # type: ignore[operator]
        assert d.cost == d.cost_of(d.made) and d.cost is not None
        assert d.mark == mark_of(name, d.cost, d.choice(d.made).spread)
        assert d.cost > 0 or d.mark == "best"  # a choice valued as the best ties it


@pytest.mark.parametrize("name", one_fast(sorted(GAMES)))
def test_the_hint_is_the_review_s_decision(name: str) -> None:
    """At a setup decision and at the first and a late card: the hint shows the values,
    order and best choice the review shows, and the hint's first choice is marked best."""
    p = plan(deal(name), 0, "heuristic")
    rules = p.rules
    choices = [k for k, i in enumerate(p.mine) if len(rules.legal_actions(p.states[i])) > 1]
    first_card = next(k for k in choices if rules.phase_name(p.states[p.mine[k]]) == "play")
    for k in sorted({choices[0], first_card, choices[-1]}):
        d = value(p, k)
        assert d.kind == "searched"
        hints = suggest(view(p.states[d.index], 0))
        assert [(h.code, h.value) for h in hints] == [(c.action, c.fair) for c in d.choices]
        assert d.cost_of(hints[0].code) == 0.0
        assert mark_of(name, 0.0) == "best"
        assert rules.action_code(hints[0].action) == d.best
        # Ottocento's declaration, Minchiate's discard: set up before the first card
        assert d.phase == "play" if k != choices[0] else name == "piedicavallo" or d.phase != "play"


@pytest.mark.parametrize("name", one_fast(sorted(GAMES)))
def test_forced_decisions_have_no_cost(name: str) -> None:
    r = quick(name)
    forced = [d for d in r.decisions if d.kind == "forced"]
    assert forced, "every deal ends with a forced card"
    for d in forced:
        assert len(d.choices) == 1 and d.cost == 0.0 and d.mark == "forced"
    assert {d.kind for d in r.decisions} == {"searched", "forced"}
    share = sum(d.mark in ("best", "good") for d in r.valued) / len(r.valued)
    assert r.accuracy == round(share, 3)
    assert r.total_cost == round(sum(d.cost or 0 for d in r.valued), 2)


@pytest.mark.parametrize(
    ("cost", "spread", "mark"),
    [
        (0.0, 0.0, "best"),
        (0.3, 0.2, "best"),  # not surely 0.25 (half of 0.5): a tie within the noise
        (0.2, 0.0, "best"),
        (0.3, 0.0, "good"),
        (0.6, 0.0, "inaccuracy"),
        (0.6, 0.1, "close"),  # 0.6 - 2 x 0.1 = 0.4: not surely past 0.5
        (2.0, 0.2, "mistake"),
        (2.0, 0.7, "mistake"),  # surely past 0.5: marked by its cost
        (2.0, 0.8, "close"),  # 2.0 - 2 x 0.8 = 0.4: not surely past 0.5
        (0.8, 0.1, "inaccuracy"),
        (9.0, 4.0, "blunder"),
        (9.0, 4.5, "close"),
    ],
)
def test_marks_only_where_the_search_is_sure(cost: float, spread: float, mark: str) -> None:
    assert mark_of("piedicavallo", cost, spread) == mark


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.slow
def test_the_graph_and_key_moments(name: str) -> None:
    r, _ = reviewed(name)
    # the end as the search counts it: the result itself but for Minchiate's smoothed resti
    assert r.graph[-1].kind == "end" and (name == "minchiate" or r.graph[-1].value == r.margin)
    assert r.graph[-1].index == len(deal(name)["actions"])
    turns = [p for p in r.graph if p.kind == "turn"]
    for p in turns:
        d = next(d for d in r.decisions if d.index == p.index)
        assert p.value == d.choice(d.best).fair
    costs = [k.cost for k in r.key_moments]
    assert costs == sorted(costs, reverse=True)
    for k in r.key_moments:
        d = r.decisions[k.decision]
        assert k.index == d.index and k.cost == d.cost and k.mark in MARKS[2:]
        assert k.reason.strip()


@pytest.mark.parametrize("name", one_fast(sorted(GAMES)))
def test_the_json_form_round_trips(name: str) -> None:
    r = quick(name)
    data = json.loads(json.dumps(to_json(r)))
    assert from_json(data) == r
    assert to_json(from_json(data)) == data
    assert data["accuracy"] == r.accuracy and data["total_cost"] == r.total_cost


def test_the_json_form_speaks_the_reader_s_language() -> None:
    r = quick("piedicavallo")
    english, italian = to_json(r), to_json(r, translator("it"))
    reasons = [c["reason"] for d in italian["decisions"] for c in d["choices"]]
    assert reasons != [c["reason"] for d in english["decisions"] for c in d["choices"]]
    assert [d["mark"] for d in italian["decisions"]] == [d["mark"] for d in english["decisions"]]


@pytest.mark.slow
def test_the_same_record_gives_the_same_review() -> None:
    r, _ = reviewed("piedicavallo")
    assert review(deal("piedicavallo"), 0, "heuristic") == r


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.slow
def test_the_ai_in_the_seat_replays_the_same_deal(name: str) -> None:
    """The heuristic bot played the deal: in South's seat again it plays it the same way;
    another AI plays its own line from the same cards, to a result the rules confirm."""
    r, _ = reviewed(name)
    record = deal(name)
    assert r.ai is not None and r.ai.level == "heuristic"
    assert r.ai.diverged is None and r.ai.margin == r.margin
    assert list(r.ai.actions) == [(e["seat"], e["action"]) for e in record["actions"]]
    if name != "piedicavallo":
        return
    other = review(record, 0, "easy")
    assert other.ai is not None and other.ai.diverged is not None
    rules = game(name)
    state = rules.deal(record["seed"])
    for i, (seat, code) in enumerate(other.ai.actions):
        if i < other.ai.diverged:
            assert code == record["actions"][i]["action"]
        assert state.to_move == seat
        state = rules.apply(state, rules.parse_action(code))
    assert rules.result(state).margin(0) == other.ai.margin
    assert other.decisions == r.decisions  # the AI's level changes only its line


def test_a_tampered_record_is_refused_with_its_first_bad_action() -> None:
    record = json.loads(json.dumps(deal("piedicavallo")))
    record["actions"][10]["action"] = (
        "MATTO" if record["actions"][10]["action"] != "MATTO" else "T1"
    )
    with pytest.raises(RecordError, match="action 11"):
        review(record)
    with pytest.raises(ValueError, match="seat"):
        review(deal("piedicavallo"), seat=4)
    with pytest.raises(ValueError, match="unknown bot"):
        review(deal("piedicavallo"), level="grandmaster")
    with pytest.raises(ValueError, match="sees every card"):
        review(deal("piedicavallo"), level="oracle")
    record = {**deal("piedicavallo"), "players": [{"seat": 0, "name": "human"}]}
    with pytest.raises(RecordError, match="'players' are malformed"):
        review(record)
    record = {**deal("piedicavallo"), "players": "heuristic"}
    with pytest.raises(RecordError, match="'players' are malformed: not a list"):
        review(record)


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.slow
def test_clearly_wrong_moves_are_marked_mistakes(name: str) -> None:
    """On the partner suite's positions, a move is clearly wrong when a long fair search (10
    times the review's playouts, its costs stored in the suite by
    tools/confirm_partner_suite.py) puts it below its best by more than the mistake
    threshold: the review marks at least 90% of those mistake or blunder."""
    rules = game(name)
    mistake = THRESHOLDS[name].mistake
    marks = []
    for pos in load(name):
        clear = [c for c, cost in pos.get("long_costs", {}).items() if cost > mistake]
        if not clear:
            continue
        d = decide(rules, position(name, pos), clear[0])
        for code in clear:
            marks.append((mark_of(name, d.cost_of(code) or 0.0, d.choice(code).spread), code))
    bad = [m for m in marks if m[0] in ("mistake", "blunder")]
    assert len(marks) >= 20, "the long search confirms enough of the suite's wrong moves"
    assert len(bad) >= 0.9 * len(marks), (f"{len(bad)}/{len(marks)}", marks)
