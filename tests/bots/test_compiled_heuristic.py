"""The compiled Piedicavallo heuristic players are the heuristic bot, card for card.

`choose_in` must pick what `HeuristicBot.choose` picks at every trick-play
decision of seeded deals; a playout with the compiled players must be, move for
move, the heuristic bots playing through the rules, and score what the rules
score; replaying a deal the heuristic bots played finds no deviation, and finds
a play they would not have made.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from tarocchi.bots import make_bot
from tarocchi.bots.heuristic import compiled_piedicavallo as cp
from tarocchi.bots.search import kernel
from tarocchi.games import game
from tarocchi.views import view

RULES = game("piedicavallo")
K = kernel("piedicavallo")


def heuristic_deal(seed: int) -> list[Any]:
    """Return every state of a seeded deal the heuristic bots play, from the deal on."""
    bot = make_bot("heuristic", RULES, seed)
    state = RULES.deal(seed)
    states = [state]
    while state.to_move is not None:
        state = RULES.apply(state, bot.choose(view(state, state.to_move)))
        states.append(state)
    return states


def test_choose_is_the_heuristic_bots_choice() -> None:
    bot = make_bot("heuristic", RULES, 0)
    decisions = 0
    for seed in range(120):
        for state in heuristic_deal(seed):
            if state.to_move is None or RULES.phase_name(state) != "play":
                continue
            v = view(state, state.to_move)
            if len(v.legal) > 1:
                assert cp.choose_in(state) == bot.choose(v), (seed, v.trick)
                decisions += 1
    assert decisions > 4000


def test_playout_is_the_heuristic_bots_through_the_rules() -> None:
    assert K is not None
    rng = random.Random(1)
    checked = 0
    for seed in range(80):
        states = [s for s in heuristic_deal(seed) if RULES.phase_name(s) == "play"]
        for state in rng.sample(states, 3):
            rest = heuristic_deal_from(state)
            moves: list[int] = []
            players = cp.Players(view(state, state.to_move))
            totals = K.seeded_playout(K.from_state(state), 0, 0.0, players, moves)
            assert moves == [a for a, _ in rest]
            result = RULES.result(rest[-1][1])
            assert totals == (result.ns, result.ew)
            checked += 1
    assert checked == 240


def heuristic_deal_from(state: Any) -> list[tuple[int, Any]]:
    """Return (action, state after it) for the rest of a deal played by heuristic bots."""
    bot = make_bot("heuristic", RULES, 0)
    out = []
    while state.to_move is not None:
        a = bot.choose(view(state, state.to_move))
        state = RULES.apply(state, a)
        out.append((a, state))
    return out


def test_players_after_a_card_know_what_it_showed() -> None:
    """After the seat's own play the players know its void and, once the trick ends, the
    suit its leader led: the search's playout after an action is the bots' own deal."""
    assert K is not None
    checked = 0
    for seed in range(60):
        for state in heuristic_deal(seed):
            if state.to_move is None or RULES.phase_name(state) != "play":
                continue
            v = view(state, state.to_move)
            if len(v.trick) != 3 or len(v.legal) < 2:
                continue
            for a in v.legal:
                after = RULES.apply(state, a)
                if after.to_move is None:
                    continue
                players = cp.Players(v).after(a)
                direct = cp.Players(view(after, after.to_move))
                assert (players.voids == direct.voids).all()
                assert (players.ledby == direct.ledby).all()
                moves: list[int] = []
                K.seeded_playout(K.play(K.from_state(state), a), 0, 0.0, players, moves)
                assert moves == [b for b, _ in heuristic_deal_from(after)]
                checked += 1
    assert checked > 100


def test_replay_counts_the_plays_the_bots_would_not_make() -> None:
    swapped = 0
    for seed in range(30):
        states = heuristic_deal(seed)
        mid = next(s for s in states if len(s.tricks) == 8 and not s.trick)
        v = view(mid, mid.to_move)
        players = cp.Players(v)
        assert players.replay(mid.hands, mid.discard) == (0, 0)
        # a seat's play swapped with a later one of its own that was legal then: the hands
        # before are the same, and the bots would have played otherwise
        plays = players.plays
        play_states = [s for s in states if RULES.phase_name(s) == "play"][: len(plays)]
        for i, (seat, _) in enumerate(plays):
            if seat == v.seat:
                continue
            legal = play_states[i].legal
            j = next(
                (j for j in range(i + 1, len(plays)) if plays[j][0] == seat
                 and legal >> plays[j][1] & 1),
                None,
            )  # fmt: skip
            if j is None:
                continue
            moved = list(plays)
            moved[i], moved[j] = plays[j], plays[i]
            players.plays = moved
            near, miss = players.replay(mid.hands, mid.discard)
            players.plays = plays
            assert near + miss >= 1
            swapped += 1
            break
    assert swapped >= 20


def test_scratch_shapes_fit_every_trick() -> None:
    fl, fb, fc, w, rows = cp.scratch()
    assert fl.shape == (4, 32) and fb.shape == (2, 32) and fc.shape == (2, 32)
    assert w.shape[0] >= RULES.pack.size and rows.shape == (5, 4)
    assert np.all(cp.params() == cp.PARAMS)
