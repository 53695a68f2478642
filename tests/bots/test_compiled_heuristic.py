"""The compiled heuristic players are the heuristic bots, card for card.

For every game, `choose_in` must pick what `HeuristicBot.choose`
picks at every trick-play decision of seeded deals; a playout with the compiled
players must be, move for move, the heuristic bots playing through the rules,
and score what the rules score; the players told of the seat's own play know
what it showed; replaying a deal the heuristic bots played finds no deviation,
and finds a play they would not have made.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from tarocchi.bots import make_bot
from tarocchi.bots.heuristic import compiled_minchiate, compiled_ottocento, compiled_piedicavallo
from tarocchi.bots.search import kernel
from tarocchi.games import game
from tarocchi.games.ottocento import DECLARE_ACTION, PASS_ACTION
from tarocchi.views import view

GAMES = ["piedicavallo", "ottocento", "minchiate"]
MODULES = {"piedicavallo": compiled_piedicavallo, "minchiate": compiled_minchiate}


def heuristic_deal(name: str, seed: int) -> list[Any]:
    """Return every state of a seeded deal the heuristic bots play, from the deal on."""
    rules = game(name)
    bot = make_bot("heuristic", rules, seed)
    state = rules.deal(seed)
    states = [state]
    while state.to_move is not None:
        state = rules.apply(state, bot.choose(view(state, state.to_move)))
        states.append(state)
    return states


def rest_of_deal(name: str, state: Any) -> list[tuple[int, Any]]:
    """Return (action, state after it) for the rest of a deal played by heuristic bots."""
    rules = game(name)
    bot = make_bot("heuristic", rules, 0)
    out = []
    while state.to_move is not None:
        a = bot.choose(view(state, state.to_move))
        state = rules.apply(state, a)
        out.append((a, state))
    return out


def choose_in(name: str, state: Any) -> int:
    """Return the compiled heuristic's card in a rules state."""
    if name == "minchiate":
        return compiled_minchiate.choose_in(state)
    if name == "ottocento":
        return compiled_ottocento.choose_in(state)
    return compiled_piedicavallo.choose_in(state)


def in_play(name: str, states: list[Any]) -> list[Any]:
    """Return the states of a deal in its trick phase, to move."""
    rules = game(name)
    return [s for s in states if s.to_move is not None and rules.phase_name(s) == "play"]


@pytest.mark.parametrize(
    ("name", "deals", "least"),
    [("piedicavallo", 120, 4000), ("ottocento", 100, 4500), ("minchiate", 40, 2500)],
)
def test_choose_is_the_heuristic_bots_choice(name: str, deals: int, least: int) -> None:
    rules = game(name)
    bot = make_bot("heuristic", rules, 0)
    decisions = 0
    for seed in range(deals):
        for state in in_play(name, heuristic_deal(name, seed)):
            v = view(state, state.to_move)
            if len(v.legal) > 1:
                assert choose_in(name, state) == bot.choose(v), (seed, v.trick)
                decisions += 1
    assert decisions > least


@pytest.mark.parametrize("name", GAMES)
def test_playout_is_the_heuristic_bots_through_the_rules(name: str) -> None:
    rules = game(name)
    k = kernel(name)
    rng = random.Random(1)
    checked = 0
    for seed in range(40):
        for state in rng.sample(in_play(name, heuristic_deal(name, seed)), 3):
            rest = rest_of_deal(name, state)
            moves: list[int] = []
            players = k.heuristic_players(view(state, state.to_move))
            value = k.playout(k.from_state(state), players, moves=moves)
            assert moves == [a for a, _ in rest]
            end = rest[-1][1]
            assert value == k.value(k.from_state(end))
            assert k.totals(k.from_state(end)) == k.result_totals(rules.result(end))
            checked += 1
    assert checked == 120


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_a_playout_after_a_given_card_is_the_bots_own_deal(name: str) -> None:
    """A playout whose first card is given plays the rest as the bots do after that card
    (the players learn the void it reveals and, in Piedicavallo, once the trick ends, the
    suit its leader led): the search's playout after an action is the bots' own deal."""
    rules = game(name)
    k = kernel(name)
    checked = 0
    for seed in range(20):
        for state in in_play(name, heuristic_deal(name, seed)):
            v = view(state, state.to_move)
            if not v.trick or len(v.legal) < 2:
                continue
            for a in v.legal:
                after = rules.apply(state, a)
                if after.to_move is None:
                    continue
                moves: list[int] = []
                k.playout(k.from_state(state), k.heuristic_players(v), a, moves)
                assert moves == [a, *(b for b, _ in rest_of_deal(name, after))]
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", GAMES)
def test_replay_counts_the_plays_the_bots_would_not_make(name: str) -> None:
    k = kernel(name)
    discard = (lambda s: 0) if name == "minchiate" else (lambda s: s.discard)
    swapped = 0
    for seed in range(30):
        states = heuristic_deal(name, seed)
        play = in_play(name, states)
        mid = next(s for s in play if len(s.tricks) == 8 and not s.trick)
        v = view(mid, mid.to_move)
        players = k.heuristic_players(v)
        assert players.replay(mid.hands, discard(mid)) == (0, 0)
        # a seat's play swapped with a later one of its own that was legal then: the hands
        # before are the same, and the bots would have played otherwise
        plays = players.plays
        rules = game(name)
        for i, (seat, _) in enumerate(plays):
            if seat == v.seat:
                continue
            legal = rules.legal_mask(play[i])
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
            near, miss = players.replay(mid.hands, discard(mid))
            players.plays = plays
            assert near + miss >= 1
            swapped += 1
            break
    assert swapped >= 20


def test_minchiate_players_know_every_card_shown_before_play() -> None:
    """The cards robbed, exposed, taken from the Fola and declared are known in their hands
    until played: at the first lead they are exactly what the view shows."""
    k = kernel("minchiate")
    for seed in range(40):
        first = in_play("minchiate", heuristic_deal("minchiate", seed))[0]
        v = view(first, first.to_move)
        players = k.heuristic_players(v)
        for s in range(4):
            held = [first.hands[s] & ((1 << 56) - 1), first.hands[s] >> 56]
            assert list(players.shown_once[s] & held) == list(players.shown[s])


@pytest.mark.parametrize("name", MODULES)
def test_params_follow_the_heuristic_bot(name: str) -> None:
    module = MODULES[name]
    assert np.all(module.params() == module.PARAMS)
    weights = module.scratch()[3]
    assert weights.shape[0] >= game(name).pack.size


@pytest.mark.parametrize("passing", [False, True])
def test_ottocento_players_declare_as_the_heuristic_bot(
    passing: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A playout from the first lead has every seat declare or pass as the heuristic bot
    does, before its first card (rules §3), and scores the declarations as the rules do.
    The bot declares every hand of these deals, so a second run makes it pass them all."""
    from tarocchi.bots.heuristic import ottocento as heuristic_ottocento

    if passing:
        for module in (heuristic_ottocento, compiled_ottocento):
            monkeypatch.setattr(module, "worth_declaring", lambda found: False)
    rules = game("ottocento")
    k = kernel("ottocento")
    want = PASS_ACTION if passing else DECLARE_ACTION
    asked = 0
    for seed in range(30):
        states = heuristic_deal("ottocento", seed)
        first = next(s for s in states if rules.phase_name(s) in ("declare", "play"))
        rest = rest_of_deal("ottocento", first)
        moves: list[int] = []
        players = k.heuristic_players(view(first, first.to_move))
        value = k.playout(k.from_state(first), players, moves=moves)
        assert moves == [a for a, _ in rest]
        assert value == k.result_totals(rules.result(rest[-1][1]))
        assert {PASS_ACTION, DECLARE_ACTION} & set(moves) <= {want}
        asked += moves.count(want)
    assert asked > 40
