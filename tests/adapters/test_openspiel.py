"""The OpenSpiel adapter: pyspiel's own checks, hidden cards, resampling, ISMCTS in play."""

from __future__ import annotations

import random
import re

import pytest

pyspiel = pytest.importorskip("pyspiel")

from tarocchi.adapters import openspiel as A  # noqa: E402
from tarocchi.adapters.observe import CARD_PLANES, PHASES, SEAT_PLANES  # noqa: E402
from tarocchi.games import GAMES, game  # noqa: E402
from tarocchi.games.base import IllegalAction  # noqa: E402
from tarocchi.match import advance  # noqa: E402
from tests.conftest import one_fast  # noqa: E402

NAMES = list(GAMES)


def dealt(name: str, seed: int) -> A.TarocchiState:
    """Return the pyspiel state of our seeded deal, after its chance events."""
    state = A.load(name).new_initial_state()
    for o in game(name).chance_outcomes(seed):
        state.apply_action(o)
    return state


def random_positions(name: str, seeds: range, rng: random.Random) -> list[A.TarocchiState]:
    """Return every position of random play of these deals."""
    out = []
    for seed in seeds:
        state = dealt(name, seed)
        while not state.is_terminal():
            out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(state)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_pyspiel_random_sim_test(name: str) -> None:
    pyspiel.random_sim_test(A.load(name), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_game_type(name: str) -> None:
    g = A.load(name)
    t = g.get_type()
    assert t.short_name == f"python_tarocchi_{name}"
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert g.num_players() == 4
    rules = game(name)
    assert g.num_distinct_actions() == rules.pack.size + len(rules.extra_actions)


@pytest.mark.parametrize("name", NAMES)
def test_chance_outcomes_are_our_seeded_deal(name: str) -> None:
    """The chance events, drawn one at a time, give exactly our engine's deal of a seed."""
    rules = game(name)
    for seed in (0, 1, 99):
        state = A.load(name).new_initial_state()
        for o in rules.chance_outcomes(seed):
            assert state.is_chance_node()
            options = dict(state.chance_outcomes())
            assert o in options and sum(options.values()) == pytest.approx(1.0)
            assert len(set(options.values())) == 1  # every outcome as likely
            state.apply_action(o)
        assert not state.is_chance_node()
        assert state.deal.state == rules.deal(seed)


@pytest.mark.parametrize("name", NAMES)
def test_bad_actions_change_nothing(name: str) -> None:
    state = A.load(name).new_initial_state()
    with pytest.raises(ValueError, match="chance outcome"):
        state.apply_action(4)  # the dealer is a seat 0-3
    assert state.history() == []
    state = dealt(name, 3)
    before = (state.history(), state.deal)
    illegal = next(
        a for a in range(state.get_game().num_distinct_actions()) if a not in state.legal_actions()
    )
    with pytest.raises(IllegalAction):
        state.apply_action(illegal)
    assert (state.history(), state.deal) == before


@pytest.mark.parametrize("name", NAMES)
def test_returns_are_the_team_margins(name: str) -> None:
    rules = game(name)
    for state in random_positions(name, range(2), random.Random(1)):
        if state.is_terminal():
            m = rules.result(state.deal.state).margin(0)
            assert state.returns() == [m, -m, m, -m]
            assert abs(m) <= state.get_game().max_utility()
        else:
            assert state.returns() == [0.0] * 4


def hidden_codes(state: A.TarocchiState, player: int) -> set[str]:
    """Return the codes of the cards the player does not know the place of."""
    view = state.view(player)
    assert view is not None
    rules = state.rules
    return set(rules.pack.codes_of(rules.pack.full_mask & ~view.known))


@pytest.mark.parametrize("name", NAMES)
def test_strings_and_tensors_show_only_what_the_seat_knows(name: str) -> None:
    g = A.load(name)
    size = game(name).pack.size
    assert g.observation_tensor_shape() == [4 + len(PHASES) + 4 * SEAT_PLANES + CARD_PLANES * size]
    for state in random_positions(name, range(2), random.Random(2))[::3]:
        for p in range(4):
            hidden = hidden_codes(state, p)
            for text in (state.information_state_string(p), state.observation_string(p)):
                tokens = set(re.split(r"[ ,:|/\[\]]+", text))
                assert not tokens & hidden, (text, tokens & hidden)
            tensor = state.observation_tensor(p)
            planes = tensor[len(tensor) - CARD_PLANES * size :]
            seen = {c for c in range(size) if any(planes[k * size + c] for k in range(CARD_PLANES))}
            view = state.view(p)
            assert all(view.known >> c & 1 for c in seen)


@pytest.mark.parametrize("name", NAMES)
def test_information_state_is_the_view(name: str) -> None:
    """Two states share a seat's information-state string exactly when its views agree."""
    states = random_positions(name, range(2), random.Random(3))
    by_key: dict[str, object] = {}
    for state in states:
        for p in range(4):
            view = state.view(p)
            key = state.information_state_string(p)
            if key in by_key:
                assert by_key[key] == view
            by_key[key] = view


@pytest.mark.parametrize("name", one_fast(NAMES))
def test_resample_keeps_the_information_state_and_varies_the_rest(name: str) -> None:
    """Every resampled state looks the same to the player, replays from its own history, and
    the hidden cards do vary."""
    rng = random.Random(4)
    positions = random_positions(name, range(2), random.Random(4))
    # every position before the first lead (hidden discards, the Fola), then every fifth
    states = [s for s in positions if s.view(0).phase in ("discard", "declare")] + positions[::5]
    varied = 0
    for state in states:
        if state.is_terminal():
            continue
        p = state.current_player()
        q = (p + 1) & 3
        for player in (p, q):
            key = state.information_state_string(player)
            hands = set()
            for _ in range(3):
                r = state.resample(player, rng)
                assert r.information_state_string(player) == key
                hands.add(r.deal.state.hands)
                again = state.get_game().new_initial_state()
                for a in r.history():
                    again.apply_action(a)
                assert again.deal.state == r.deal.state
            varied += len(hands) > 1
    assert varied > 5


def test_resample_from_infostate_is_the_openspiel_entry_point() -> None:
    state = dealt("piedicavallo", 5)
    for a in state.legal_actions()[:1]:
        state.apply_action(a)
    r = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert r.information_state_string(1) == state.information_state_string(1)


class QuickISMCTS(A.ISMCTSBot):
    """OpenSpiel's ISMCTS on a tiny budget, to test it plays by the rules."""

    def __init__(self, rules, seed=0):  # type: ignore[no-untyped-def]
        super().__init__(rules, seed)
        self.search.seconds = 0.01


@pytest.mark.parametrize("name", NAMES)
def test_ismcts_plays_whole_deals_by_the_rules(name: str) -> None:
    rules = game(name)
    from tarocchi.bots import make_bot

    bots = {
        s: QuickISMCTS(rules, s) if s % 2 == 0 else make_bot("heuristic", rules, s)
        for s in range(4)
    }
    state = rules.deal(11)
    for step in advance(rules, state, bots):  # every action goes through rules.apply
        state = step.state
    assert rules.is_over(state)
    assert bots[0].search.simulations >= 1


def test_ismcts_is_an_arena_bot() -> None:
    from tarocchi.bots import make_bot

    bot = make_bot("openspiel-ismcts", game("piedicavallo"), 1)
    assert isinstance(bot, A.ISMCTSBot)


def test_a_state_still_dealing_has_no_engine_state() -> None:
    state = A.load("piedicavallo").new_initial_state()
    state.apply_action(0)  # the dealer: the deck is still to come
    with pytest.raises(ValueError, match="still being dealt"):
        state.deal.dealt()
    assert state.view(0) is None and state.returns() == [0.0, 0.0, 0.0, 0.0]
