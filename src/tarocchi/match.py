"""The one game loop: bots take their turns through views; every face drives deals with it.

`advance` steps a deal while the player to move is a bot, so the terminal and
the web server call it between human decisions; `play_deal` plays a whole deal
with four bots, as the arena does; `replayed` is the log of a deal played elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from tarocchi.bots import make_bot
from tarocchi.bots.base import Bot
from tarocchi.games import game
from tarocchi.games.base import GameState, Result, Rules, S, TrickGame
from tarocchi.games.replay import iter_replay


@dataclass(frozen=True, slots=True)
class Step:
    """One action taken in a deal and the state it led to."""

    seat: int
    action: int
    state: GameState


@dataclass(slots=True)
class DealLog:
    """A deal as it was played: the initial state, every action in order, who played."""

    rules: Rules
    seed: int
    initial: GameState
    players: tuple[str, str, str, str]  # "human" or a bot name (with its level) per seat
    actions: list[tuple[int, int]] = field(default_factory=list)
    final: GameState | None = None  # the state after the last action (None before any)

    @property
    def result(self) -> Result:
        """Return the result of the finished deal (ValueError before any action)."""
        if self.final is None:
            raise ValueError("no action has been played: the deal is not over")
        return self.rules.result(self.final)


def bot_seed(deal_seed: int, seat: int) -> int:
    """Return the seed of the bot at seat in a deal (fixed, so duplicate deals replay alike)."""
    return deal_seed * 8 + seat


def turn_seed(deal_seed: int, seat: int, index: int) -> int:
    """Return the seed of a bot made for the seat when the deal's log has `index` actions:
    the web server makes its bots afresh at each request (they keep nothing between two),
    and the review and its AI on your cards make theirs as the web does."""
    return bot_seed(deal_seed, seat) * 4099 + index


def table_bots(
    rules: Rules, names: Sequence[str], deal_seed: int, seats: Iterable[int], index: int
) -> dict[int, Bot]:
    """Return the bots (names, by seat) of some seats, made when the log has `index` actions
    to play on until another seat must act (seeded by `turn_seed`)."""
    return {s: make_bot(names[s], rules, turn_seed(deal_seed, s, index)) for s in seats}


def advance(rules: TrickGame[S], state: S, bots: Mapping[int, Bot]) -> Iterator[Step]:
    """Let the bots act while one of them is to move; yield each step."""
    while state.to_move is not None and state.to_move in bots:
        seat = state.to_move
        bot = bots[seat]
        # the analysis-only oracle is given every card; every other bot sees a view
        action = bot.choose_state(state) if bot.sees_all else bot.choose(rules.view(state, seat))
        state = rules.apply(state, action)
        yield Step(seat, action, state)


def play_deal(
    game_name: str,
    seed: int,
    bot_names: Sequence[str],
    on_step: Callable[[Step], None] | None = None,
) -> DealLog:
    """Play one deal with a bot in every seat (bot_names indexed by seat)."""
    rules = game(game_name)
    bots = {s: make_bot(bot_names[s], rules, bot_seed(seed, s)) for s in range(4)}
    state = rules.deal(seed)
    names = (bot_names[0], bot_names[1], bot_names[2], bot_names[3])
    log = DealLog(rules, seed, state, names)
    for step in advance(rules, state, bots):
        log.actions.append((step.seat, step.action))
        if on_step is not None:
            on_step(step)
        state = step.state
    log.final = state
    return log


def replayed(
    rules: Rules,
    seed: int,
    players: tuple[str, str, str, str],
    log: Iterable[tuple[int, str]],
) -> DealLog:
    """Return the DealLog of a deal played elsewhere (a stored game, the AI's line on a
    seat's cards), its action log (seat, code) replayed and checked (ReplayError)."""
    deal = DealLog(rules, seed, rules.deal(seed), players)
    deal.final = deal.initial
    for seat, action, after in iter_replay(rules, deal.initial, log):
        deal.actions.append((seat, action))
        deal.final = after
    return deal
