"""Inference from play: the replay of past plays and the chains that sample by it."""

from __future__ import annotations

import math
import random

import pytest

from tarocchi.bots import make_bot
from tarocchi.bots.belief import Belief
from tarocchi.bots.inference import unseen
from tarocchi.bots.likelihood import Chains, Replay
from tarocchi.bots.parts import belief
from tarocchi.bots.search import kernel
from tarocchi.cards import bits
from tarocchi.games import game
from tarocchi.views import View, view
from tests.bots.test_search import to_play_phase

REPLAY_GAMES = ["piedicavallo", "ottocento", "minchiate"]


@pytest.mark.parametrize("name", REPLAY_GAMES)
def test_weights_never_rule_out_a_deal_the_view_allows(name: str) -> None:
    rules = game(name)
    k = kernel(name)
    for seed in range(6):
        state = rules.deal(seed)
        bots = [make_bot("heuristic", rules, seed * 4 + s) for s in range(4)]
        rng = random.Random(seed)
        step = 0
        while state.to_move is not None:
            v = view(state, state.to_move)
            if v.phase == "play" and step % 9 == 0:
                replay = Replay(v, k.heuristic_players(v))
                assert len(replay) == len(v.played.bit_count() * [0])
                assert replay.weight(state.hands) > 0  # the true deal
                known = belief(v)
                for _ in range(20):
                    sampled = known.sample(rng)
                    assert 0 < replay.weight(sampled.hands) <= 1
            state = rules.apply(state, bots[state.to_move].choose(v))
            step += 1


def chain_position() -> tuple[View, Belief]:
    """A Piedicavallo position after two tricks (South to move) and its belief."""
    rules = game("piedicavallo")
    state = to_play_phase("piedicavallo", 4)
    bots = [make_bot("heuristic", rules, s) for s in range(4)]
    while len(state.tricks) < 2 or state.to_move != 0:
        state = rules.apply(state, bots[state.to_move].choose(view(state, state.to_move)))
    v = view(state, 0)
    return v, belief(v)


def test_chains_follow_the_weights() -> None:
    """Deals where one hidden card lies in West's hand weigh 8 times the others: the chains
    put it there as often as the weighted distribution does (from the uniform chance p,
    8p / (8p + 1 - p)), far more often than the uniform sampler."""
    v, known = chain_position()
    rng = random.Random(3)
    card = max(bits(unseen(v)))
    draws = 4000
    p = sum(known.deal(rng)[0] >> card & 1 for _ in range(draws)) / draws
    weighted = 8 * p / (8 * p + 1 - p)
    chains = Chains(known, lambda d: math.log(8) if d[0] >> card & 1 else 0.0, rng, steps=4)
    got = sum(chains().hands[1] >> card & 1 for _ in range(draws)) / draws
    assert abs(got - weighted) < 0.06
    assert got > p + 0.25


def test_chains_are_deterministic_given_their_seed() -> None:
    v, known = chain_position()
    k = kernel("piedicavallo")
    replay = Replay(v, k.heuristic_players(v))

    def run() -> list[tuple[int, ...]]:
        rng = random.Random(5)
        chains = Chains(known, lambda d: replay.log_weight(known.hands(d)), rng, steps=3)
        return [chains().hands for _ in range(40)]

    assert run() == run()


def test_hard_level_decides_mid_deal_deterministically() -> None:
    from tarocchi.bots.search import HardSearchBot

    rules = game("piedicavallo")
    state = to_play_phase("piedicavallo", 11)
    bots = [make_bot("heuristic", rules, s) for s in range(4)]
    for _ in range(9):  # two tricks and a card: a history to replay, a trick to follow
        state = rules.apply(state, bots[state.to_move].choose(view(state, state.to_move)))
    v = view(state, state.to_move)
    picks = {HardSearchBot(rules, 3).choose(v) for _ in range(2)}
    assert len(picks) == 1
    assert picks <= set(v.legal)
