"""Hints: every legal action, ranked by the search, with a value and a short reason."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tarocchi.bots import make_bot
from tarocchi.bots.hints import reason, suggest, to_json
from tarocchi.games import game
from tarocchi.games.ottocento_combos import analyse
from tarocchi.views import view
from tests.games.piedicavallo_helpers import play, table

SMALL = 0.02  # a fiftieth of the valuation's playouts: quick, and as reproducible


def midgame(name: str, seed: int, plays: int) -> Any:
    """Return a state a few heuristic plays into the trick phase of a seeded deal."""
    rules = game(name)
    state = rules.deal(seed)
    bots = [make_bot("heuristic", rules, s) for s in range(4)]
    n = 0
    while state.to_move is not None:
        v = view(state, state.to_move)
        if v.phase == "play" and n >= plays and len(v.legal) > 1:
            return state
        if v.phase == "play":
            n += 1
        state = rules.apply(state, bots[state.to_move].choose(v))
    raise AssertionError("no decision left")


@pytest.mark.parametrize("name", ["piedicavallo", "ottocento", "minchiate"])
def test_hints_rank_every_legal_action(name: str) -> None:
    rules = game(name)
    for seed, plays in ((1, 0), (2, 9), (3, 21)):
        state = midgame(name, seed, plays)
        v = view(state, state.to_move)
        hints = suggest(v, SMALL)
        assert sorted(h.action for h in hints) == sorted(v.legal)
        values = [h.value for h in hints]
        assert values == sorted(values, reverse=True)
        for h in hints:
            assert h.code == rules.action_code(h.action)
            assert h.reason and h.reason[0].islower() and len(h.reason) < 90


def test_hints_in_json() -> None:
    state = midgame("ottocento", 6, 4)
    v = view(state, state.to_move)
    out = to_json(suggest(v, SMALL))
    assert [h["action"] for h in out] and all(isinstance(h["reason"], str) for h in out)


def test_hints_are_reproducible() -> None:
    state = midgame("piedicavallo", 4, 5)
    v = view(state, state.to_move)
    assert suggest(v, SMALL) == suggest(view(state, state.to_move), SMALL)


def test_no_hint_when_it_is_not_your_turn() -> None:
    state = midgame("piedicavallo", 5, 3)
    assert suggest(view(state, (state.to_move + 1) % 4)) == []


@pytest.mark.parametrize("name", ["piedicavallo", "ottocento", "minchiate"])
def test_every_setup_choice_is_valued(name: str) -> None:
    """The discards (every card that may be laid aside) and the declarations get values,
    best first, as the trick play does."""
    rules = game(name)
    phases = set()
    for seed in range(12):
        state = rules.deal(seed)
        rng = random.Random(seed)
        while state.to_move is not None and rules.phase_name(state) != "play":
            v = view(state, state.to_move)
            if len(v.legal) > 1 and v.phase not in phases:
                phases.add(v.phase)
                hints = suggest(v, SMALL)
                assert sorted(h.action for h in hints) == sorted(v.legal)
                values = [h.value for h in hints]
                assert values == sorted(values, reverse=True)
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    assert phases == ({"discard"} if name == "piedicavallo" else {"discard", "declare"})


def test_the_declaration_is_valued_and_explained() -> None:
    # Ottocento's declaration: DECLARE and PASS each valued, with what each would do
    rules = game("ottocento")
    for seed in range(40):
        state = rules.deal(seed)
        rng = random.Random(seed)
        while state.to_move is not None and rules.phase_name(state) != "declare":
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
        if state.to_move is None:
            continue
        v = view(state, state.to_move)
        hints = suggest(v, SMALL)
        assert {h.code for h in hints} == {"DECLARE", "PASS"}
        assert hints[0].value >= hints[1].value
        # a sentence saying what would be declared and what it scores
        declare = reason(v, rules.parse_action("DECLARE"))
        found = analyse(v.hand)
        assert declare.startswith(f"score {found.value} point") and found.describe() in declare
        assert reason(v, rules.parse_action("PASS")).startswith("keep your hand hidden")
        return
    raise AssertionError("no declaration found")


def discard_around(state: Any, keep: set[str]) -> Any:
    """Return state after the dealer discards its first two legal cards not in keep."""
    rules = game("piedicavallo")
    for _ in range(2):
        legal = [a for a in rules.legal_actions(state) if rules.card_code(a) not in keep]
        state = rules.apply(state, legal[0])
    return state


def test_reasons_describe_partnership_play() -> None:
    rules = game("piedicavallo")
    west = ["SW-Q", "SW-7", "MATTO"]
    # dealer West: South leads SW-5, East SW-6, North (an opponent of West) takes with SW-K
    state = table(3, {0: ["SW-5"], 1: ["SW-6"], 2: ["SW-K"], 3: [*west, "CU-6", "CU-5"]})
    state = play(discard_around(state, set(west)), "SW-5", "SW-6", "SW-K")
    v = view(state, 3)
    assert {rules.card_id(c) for c in west} <= set(v.legal)
    assert reason(v, rules.card_id("SW-Q")) == "gives 4 points to the opponents' trick"
    assert reason(v, rules.card_id("MATTO")).startswith("play the Matto")
    # now East, West's partner, takes with SW-K
    state = table(3, {0: ["SW-5"], 1: ["SW-K"], 2: ["SW-6"], 3: [*west, "CU-6", "CU-5"]})
    state = play(discard_around(state, set(west)), "SW-5", "SW-K", "SW-6")
    v = view(state, 3)
    assert reason(v, rules.card_id("SW-Q")) == (
        "gives 4 points to the trick your partner is winning"
    )
    assert reason(v, rules.card_id("SW-7")) == "plays low under your partner's winning card"
