"""The compiled playouts play exactly like the Python kernels and score like the rules.

For Piedicavallo and Ottocento (packs that fit 64-bit masks): without random moves a
compiled playout must choose, action for action, what the Python kernel's greedy
players choose (seeing every hand, or counting cards only) and reach the same
totals; with random moves every playout must be a legal sequence of actions that the
rules score exactly as the compiled playout does.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tarocchi.bots import compiled
from tarocchi.bots.search import kernel
from tarocchi.games import game
from tests.bots.test_search import to_play_phase

GAMES = ["piedicavallo", "ottocento"]


def positions(name: str, seeds: range, every: int) -> list[tuple[Any, Any]]:
    """Return (rules state, kernel position) pairs met along random seeded deals, from the
    first declaration or card on, finished deals included."""
    rules = game(name)
    k = kernel(name)
    assert k is not None
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = to_play_phase(name, seed)
        step = 0
        while state.to_move is not None:
            if step % every == 0:
                out.append((state, k.from_state(state)))
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
            step += 1
        out.append((state, k.from_state(state)))
    return out


def start_of_declarations(name: str, seed: int) -> Any:
    """Return a deal stopped at its first decision after the discard (Ottocento: the
    first declaration, when a player holds a combination)."""
    rules = game(name)
    state = rules.deal(seed)
    while rules.phase_name(state) == "discard":
        state = rules.apply(state, rules.legal_actions(state)[0])
    return state


@pytest.mark.parametrize("name", GAMES)
def test_compiled_greedy_playouts_are_the_python_playouts(name: str) -> None:
    k = kernel(name)
    assert k is not None
    checked = 0
    starts = [(s, k.from_state(s)) for s in (start_of_declarations(name, i) for i in range(40))]
    for _, pos in positions(name, range(120), every=5) + starts:
        for policy in (k.POLICY, k.COUNTING):
            py_moves: list[int] = []
            fast_moves: list[int] = []
            expected = k.playout(pos, random.Random(0), 0.0, py_moves, policy)
            assert k.seeded_playout(pos, 99, 0.0, policy, fast_moves) == expected
            assert fast_moves == py_moves
            checked += 1
    assert checked > 2000


@pytest.mark.parametrize("eps", [0.3, 1.0])
@pytest.mark.parametrize("name", GAMES)
def test_compiled_random_playouts_are_legal_and_scored_like_the_rules(
    name: str, eps: float
) -> None:
    rules = game(name)
    k = kernel(name)
    assert k is not None
    different = set()
    starts = [(s, k.from_state(s)) for s in (start_of_declarations(name, i) for i in range(20))]
    for i, (state, pos) in enumerate(positions(name, range(120, 200), every=9) + starts):
        moves: list[int] = []
        seed = (i * 0x9E3779B97F4A7C15) % (1 << 64)  # full 64-bit seeds, as the search's
        totals = k.seeded_playout(pos, seed, eps, k.POLICY if i % 2 else k.COUNTING, moves)
        end = state
        for action in moves:
            assert action in rules.legal_actions(end)
            end = rules.apply(end, action)
        assert end.to_move is None
        assert totals == k.result_totals(rules.result(end))
        different.add(tuple(moves))
    assert len(different) > 80  # the random moves differ from playout to playout


@pytest.mark.parametrize("name", GAMES)
def test_the_seed_fixes_the_random_moves(name: str) -> None:
    k = kernel(name)
    assert k is not None
    _, pos = positions(name, range(1), every=100)[0]
    runs = {}
    for seed in (1, 2):
        a: list[int] = []
        b: list[int] = []
        k.seeded_playout(pos, seed, 0.5, k.POLICY, a)
        k.seeded_playout(pos, seed, 0.5, k.POLICY, b)
        assert a == b
        runs[seed] = a
    assert runs[1] != runs[2]


def test_a_pack_too_large_for_the_masks_is_refused() -> None:
    from tarocchi.bots import kernel_minchiate as km

    with pytest.raises(ValueError, match="does not fit"):
        compiled.tables(km.PACK, km.BEAT, km.LED_MASK, km.POLICY)
