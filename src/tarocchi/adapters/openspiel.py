"""OpenSpiel adapter: the three games as pyspiel Python games, and OpenSpiel's ISMCTS bot
as an arena opponent (`tarocchi arena GAME --b openspiel-ismcts`).

Importing this module registers `python_tarocchi_piedicavallo`, `..._ottocento`
and `..._minchiate` with pyspiel: sequential, imperfect-information, zero-sum
4-player games with explicit chance for the deal. The deal is drawn one uniform
chance outcome at a time, exactly the outcomes our engine draws from a seed
(`TrickGame.chance_outcomes`: the dealer, Minchiate's cut, the deck top first),
so applying `rules.chance_outcomes(seed)` replays our seeded deal. Players are our seats (0 South,
1 East, 2 North, 3 West); actions are our action ids. Each player's return is its
team's final margin in the game's unit (Minchiate: net resti).

Information-state strings and observations come from the seat's view
(`tarocchi.adapters.observe`). `resample_from_infostate` draws a deal from our
belief sampler (`tarocchi.bots.belief`) and replays the history on it: the discards
are the sampled deal's, each declaration the one that shows the same cards, and a
declaration the rules ask of one hand and not of the other is passed or skipped.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from tarocchi.adapters.observe import (
    action_count,
    dealing_observation,
    dealing_text,
    infostate_text,
    observation,
    observation_size,
    observation_text,
)
from tarocchi.bots.base import Bot
from tarocchi.bots.parts import belief
from tarocchi.bots.search import NORMAL, kernel
from tarocchi.games import GAMES, game
from tarocchi.games.base import Event, GameState, IllegalAction, Rules, mover
from tarocchi.views import View

# deals the belief sampler may draw for one resampling before giving up: it keeps a deal
# that breaks a declaration's constraints when 200 draws in a row do (rare)
RESAMPLE_TRIES = 20


def short_name(name: str) -> str:
    """Return the pyspiel name of one of our games."""
    return f"python_tarocchi_{name}"


def load(name: str) -> pyspiel.Game:
    """Return the pyspiel game of one of our games ("piedicavallo", ...)."""
    return pyspiel.load_game(short_name(game(name).name))


class _Deal:
    """A state's immutable contents: the chance outcomes drawn, the engine state once
    dealt, and every player action so far as (seat, action) (None in a state made from an
    engine state alone, see `from_state`). Clones share it."""

    __slots__ = ("drawn", "moves", "state")

    def __init__(
        self,
        drawn: tuple[int, ...],
        state: GameState | None,
        moves: tuple[tuple[int, int], ...] | None,
    ) -> None:
        self.drawn = drawn
        self.state = state
        self.moves = moves

    def dealt(self) -> GameState:
        """Return the engine state (ValueError while the chance events are still dealing)."""
        if self.state is None:
            raise ValueError("the deal is still being dealt")
        return self.state

    def __deepcopy__(self, memo: dict[int, object]) -> _Deal:
        return self  # immutable: a clone may share it

    def __reduce__(self) -> tuple[type[_Deal], tuple[object, ...]]:
        return (_Deal, (self.drawn, self.state, self.moves))


class TarocchiGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games as a pyspiel game."""

    def __init__(self, rules: Rules, params: dict[str, object] | None = None) -> None:
        super().__init__(_game_type(rules), _game_info(rules), params or {})
        self.rules = rules

    def new_initial_state(self) -> TarocchiState:
        """Return the state before the deal's first chance event."""
        return TarocchiState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: object = None
    ) -> Observer:
        """Return an observer (perfect recall: the information state)."""
        return Observer(self.rules, iig_obs_type, params)


class TarocchiState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state over our engine's immutable state."""

    def __init__(self, game_: TarocchiGame) -> None:
        super().__init__(game_)
        self.game_name = game_.rules.name
        self.deal = _Deal((), None, ())

    @property
    def rules(self) -> Rules:
        """Return our rules object."""
        return game(self.game_name)

    def current_player(self) -> int:
        """Return the seat to act, CHANCE while dealing, TERMINAL at the end."""
        state = self.deal.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(pyspiel.PlayerId.TERMINAL) if state.to_move is None else int(state.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        """Return our legal action ids, ascending."""
        state = self.deal.state
        if state is None or state.to_move != player:
            return []
        return self.rules.legal_actions(state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return the next chance event's outcomes, each as likely."""
        options = self.rules.chance_options(self.deal.drawn)
        p = 1.0 / len(options)
        return [(o, p) for o in options]

    def _apply_action(self, action: int) -> None:
        """Draw a chance outcome (dealing once the deck is complete) or play an action."""
        d = self.deal
        rules = self.rules
        if d.state is None:
            if action not in rules.chance_options(d.drawn):
                raise ValueError(f"chance outcome {action} is not possible here")
            drawn = (*d.drawn, action)
            done = not rules.chance_options(drawn)
            self.deal = _Deal(drawn, rules.deal_outcomes(drawn) if done else None, ())
        else:
            after = rules.apply(d.state, action)
            moves = None if d.moves is None else (*d.moves, (mover(d.state), action))
            self.deal = _Deal(d.drawn, after, moves)

    def _action_to_string(self, player: int, action: int) -> str:
        """Return an action's text code (chance: the dealer, the cut or a card)."""
        if player == pyspiel.PlayerId.CHANCE:
            n = len(self.deal.drawn)
            if n == 0:
                return f"dealer {action}"
            if n == 1 and self.rules.cut_range is not None:
                return f"cut {action}"
            return f"deck {self.rules.card_code(action)}"
        return self.rules.action_code(action)

    def is_terminal(self) -> bool:
        """Return True when the deal is over."""
        state = self.deal.state
        return state is not None and state.to_move is None

    def returns(self) -> list[float]:
        """Return each seat's team margin at the end (0 before)."""
        if not self.is_terminal():
            return [0.0, 0.0, 0.0, 0.0]
        m = self.rules.result(self.deal.dealt()).margin(0)
        return [m, -m, m, -m]

    def view(self, seat: int) -> View | None:
        """Return our view of the deal for a seat (None while dealing)."""
        state = self.deal.state
        return None if state is None else self.rules.view(state, seat)

    def resample_from_infostate(self, player: int, sampler: object = None) -> TarocchiState:
        """Return a state the player cannot tell from this one, its hidden cards drawn by
        our belief sampler (seeded from numpy's global generator; OpenSpiel's sampler
        argument is not used: ours draws the deals)."""
        return self.resample(player, random.Random(int(np.random.randint(1 << 31))))

    def resample(self, player: int, rng: random.Random) -> TarocchiState:
        """Return a state with the deal resampled from the player's view by rng: the history
        replayed on a sampled deal, the discards the sampled ones."""
        d = self.deal
        view = self.view(player)
        if view is None:  # nothing dealt: the chance outcomes so far are all there is
            out: TarocchiState = self.get_game().new_initial_state()
            for o in d.drawn:
                out.apply_action(o)
            return out
        known = belief(view)
        if d.moves is None:
            return from_state(self.get_game(), known.sample(rng))
        key = infostate_text(view)
        for _ in range(RESAMPLE_TRIES):
            try:
                out = self._replayed(known.sample(rng))
            except IllegalAction:  # a deal that breaks the view's constraints (see above)
                continue
            got = out.view(player)
            if got is not None and infostate_text(got) == key:
                return out
        raise pyspiel.SpielError(f"no deal the sampler drew explains seat {player}'s view")

    def _replayed(self, sampled: GameState) -> TarocchiState:
        """Return the state of this history replayed on a sampled deal, its discards the
        sampled deal's."""
        rules = self.rules
        out: TarocchiState = self.get_game().new_initial_state()
        for o in rules.outcomes_of(sampled):
            out.apply_action(o)
        real = self.deal.dealt()
        shown = rules.public_events(real)
        moves = list(self.deal.moves or ())
        moves.reverse()
        while moves:
            seat, action = moves.pop()
            state = out.deal.dealt()
            legal = rules.legal_mask(state)
            if state.to_move == seat and rules.phase_name(state) == "discard":
                # the sampled deal's discards: the others' are hidden, and the Minchiate
                # dealer's view does not tell its discards from the Fola cards it saw (both
                # lie in the Fola), so its sampled ones may be another split of them
                mask = rules.discards(sampled, seat) & legal
                action = (mask & -mask).bit_length() - 1
            elif (
                state.to_move == seat and action >= rules.pack.size and action != rules.pass_action
            ):
                # a declaration: the one that shows what the real one showed (Minchiate
                # names a versicola by its rank among the hand's, which the sampled hand
                # may rank otherwise)
                action = _showing(rules, state, shown)
            elif state.to_move != seat or not legal >> action & 1:
                # the rules ask for a declaration only from a hand that has something to
                # declare, so a sampled hand may be asked where the real one was not
                if action == rules.pass_action:
                    continue
                moves.append((seat, action))
                action = _pass(rules)
            out.apply_action(action)
        while rules.phase_name(out.deal.dealt()) != rules.phase_name(real) or (
            out.deal.dealt().to_move != real.to_move
        ):  # a declaration the real hand was not asked for, after the last move
            out.apply_action(_pass(rules))
        return out

    def __str__(self) -> str:
        """Return the deal as the hands and the plays so far (every card: for debugging)."""
        state = self.deal.state
        if state is None:
            return f"dealing {len(self.deal.drawn)}"
        pack = self.rules.pack
        hands = " | ".join(" ".join(pack.codes_of(h)) for h in state.hands)
        moves = " ".join(self.rules.action_code(a) for _, a in self.deal.moves or ())
        return f"{hands} || {moves}"


def from_state(game_: pyspiel.Game, state: GameState) -> TarocchiState:
    """Return a pyspiel state at one of our engine states (e.g. a deal sampled from a
    view) without its history: OpenSpiel's history of it is empty, so it cannot be
    serialized, and it resamples from its views alone (`TarocchiState.resample`)."""
    out: TarocchiState = game_.new_initial_state()
    out.deal = _Deal(game_.rules.outcomes_of(state), state, None)
    return out


def _showing(rules: Rules, state: GameState, shown: Sequence[Event]) -> int:
    """Return the declaration open in state after which the public events still agree
    with shown (IllegalAction if none: the sampled hand cannot make it)."""
    for a in rules.legal_actions(state):
        if a >= rules.pack.size and a != rules.pass_action:
            events = rules.public_events(rules.apply(state, a))
            if tuple(shown[: len(events)]) == tuple(events):
                return a
    raise IllegalAction("no declaration of this hand shows the declared cards")


def _pass(rules: Rules) -> int:
    """Return the game's action that declares nothing (only games with declarations get
    here: elsewhere every replayed action is legal)."""
    if rules.pass_action is None:
        raise ValueError(f"{rules.name} has no declarations to pass")
    return rules.pass_action


class Observer:
    """OpenSpiel's observer protocol over our views: `tensor`/`dict` and a string."""

    def __init__(
        self, rules: Rules, iig_obs_type: pyspiel.IIGObservationType | None, params: object
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        # the information state is a string only (no tensor); observations have both
        size = 0 if self.recall else observation_size(rules)
        self.rules = rules
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TarocchiState, player: int) -> None:
        """Fill the tensor with the player's observation of the state."""
        if self.recall:
            return
        v = state.view(player)
        self.tensor[:] = dealing_observation(self.rules, player) if v is None else observation(v)

    def string_from(self, state: TarocchiState, player: int) -> str:
        """Return the player's information-state (or observation) string."""
        v = state.view(player)
        if v is None:
            return dealing_text(player, len(state.deal.drawn))
        return infostate_text(v) if self.recall else observation_text(v)


def _game_type(rules: Rules) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(rules.name),
        long_name=f"tarocchi {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )


def _game_info(rules: Rules) -> pyspiel.GameInfo:
    size = rules.pack.size
    chance = 1 + (rules.cut_range is not None) + size
    # every card is played or discarded once; each seat declares at most once per extra
    # action kind, and passes
    moves = size + 4 * (len(rules.extra_actions) + 1)
    bound = rules.max_margin
    return pyspiel.GameInfo(
        num_distinct_actions=action_count(rules),
        max_chance_outcomes=size,
        num_players=4,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=0.0,
        max_game_length=chance + moves,
    )


def _register(rules: Rules) -> type[TarocchiGame]:
    """Register one game with pyspiel; return its game class (pyspiel keeps the class:
    registering a function instead crashes the interpreter at exit)."""

    def init(self: TarocchiGame, params: dict[str, object] | None = None) -> None:
        TarocchiGame.__init__(self, rules, params)

    cls = type(f"{rules.name.title()}Game", (TarocchiGame,), {"__init__": init})
    pyspiel.register_game(_game_type(rules), cls)
    return cls


for _name in GAMES:
    _register(game(_name))


# -- OpenSpiel's ISMCTS as an arena opponent --------------------------------------------
class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS bot, searching until a time budget per move is spent."""

    def __init__(self, game_: pyspiel.Game, seconds: float, seed: int, uct_c: float) -> None:
        rs = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
        super().__init__(game_, evaluator, uct_c, max_simulations=1, random_state=rs)
        self.seconds = seconds
        self.simulations = 0  # of the latest decision

    def run_search(self, state: TarocchiState) -> list[tuple[int, float]]:
        """Run simulations from resampled roots until the budget is spent (at least two:
        the first only expands the root), as ISMCTSBot.run_search does for a count."""
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        n = 0
        while n < 2 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            n += 1
        self.simulations = n
        policy: list[tuple[int, float]] = self.get_final_policy(state, self._root_node)
        return policy


class ISMCTSBot(Bot):
    """OpenSpiel's Python ISMCTS bot (random rollouts, our belief sampler for the roots),
    at the normal level's time budget per move: an independent opponent for the arena."""

    name = "openspiel-ismcts"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        super().__init__(rules, seed)
        self.game = load(rules.name)
        # returns come in the game's unit: UCT's constant is half the margin that our own
        # kernels take as the usual range (114 points, 400 points, 6 resti)
        k = kernel(rules.name)
        uct_c = 0.5 * k.SCALE
        self.search = TimedISMCTS(
            self.game, NORMAL[rules.name].seconds, self.rng.randrange(1 << 31), uct_c
        )
        self.search.set_resampler(self._resample)

    def _resample(self, state: TarocchiState, player: int) -> TarocchiState:
        return state.resample(player, self.rng)

    def choose(self, view: View) -> int:
        """Return ISMCTS's move from a deal drawn from the view (the search draws the hidden
        cards afresh at every simulation, so which one does not matter)."""
        if len(view.legal) == 1:
            return view.legal[0]
        root = from_state(self.game, belief(view).sample(self.rng))
        return int(self.search.step(root))
