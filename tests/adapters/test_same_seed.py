"""The same seed gives the same deal and the same result in our engine and both adapters."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from tarocchi.adapters import openspiel as A
from tarocchi.adapters import pettingzoo as P
from tarocchi.games import GAMES, game
from tarocchi.match import play_deal


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("seed", [0, 17])
def test_same_seed_same_deal_same_result(name: str, seed: int) -> None:
    rules = game(name)
    log = play_deal(name, seed, ["heuristic"] * 4)  # our engine, a whole deal
    ours = rules.result(log.final)

    spiel = A.load(name).new_initial_state()
    for o in rules.chance_outcomes(seed):
        spiel.apply_action(o)
    assert spiel.deal.state == rules.deal(seed)
    zoo = P.raw_env(name)
    zoo.reset(seed=seed)
    assert zoo.state == rules.deal(seed)

    for seat, action in log.actions:
        assert spiel.current_player() == seat
        assert zoo.agent_selection == P.AGENTS[seat]
        spiel.apply_action(action)
        zoo.step(action)
    assert spiel.is_terminal()
    m = ours.margin(0)
    assert spiel.returns() == [m, -m, m, -m]
    assert zoo._cumulative_rewards == {"south": m, "east": -m, "north": m, "west": -m}
    assert rules.result(zoo.state) == ours
