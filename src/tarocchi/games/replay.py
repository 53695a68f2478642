"""The one replay of an action log through the rules, with its checks and its error.

A stored game, a deal record, a seat's history and a review all rebuild a deal the same way:
from its seed, each action of the log by its seat and text code, checked (the seat is the
one to move, the code names an action, the rules allow it). The first action that fails
is named by a ReplayError, so an altered log is refused and never half replayed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from tarocchi.cards import Card
from tarocchi.games.base import IllegalAction, S, TrickGame
from tarocchi.i18n import Msg


class ReplayError(ValueError):
    """An action log the rules refuse: its message (a Msg) names the first bad action."""


def iter_replay(
    rules: TrickGame[S], state: S, log: Iterable[tuple[int, str]], first: int = 1
) -> Iterator[tuple[int, int, S]]:
    """Apply each (seat, code) of log from state, checked; yield (seat, action, the state
    after it). The actions are numbered from first in a ReplayError."""
    for n, (seat, code) in enumerate(log, start=first):
        try:
            if state.to_move is None:
                raise IllegalAction(Msg("the deal is over"))
            if state.to_move != seat:
                raise IllegalAction(Msg("it is not that seat's turn"))
            action = rules.parse_action(code)
            state = rules.apply(state, action)
        except ValueError as e:  # IllegalAction, or a code of no action
            why = e.args[0] if e.args else str(e)
            raise ReplayError(Msg("the stored game does not replay: action %(n)d (%(action)s by "
                                  "seat %(seat)d): %(why)s", n=n, action=_named(rules, code),
                                  seat=seat, why=why)) from None  # fmt: skip
        yield seat, action, state


def replay(rules: TrickGame[S], seed: int, log: Iterable[tuple[int, str]]) -> S:
    """Return the state of the deal of seed after its action log, each action checked."""
    state = rules.deal(seed)
    for _, _, after in iter_replay(rules, state, log):
        state = after
    return state


def _named(rules: TrickGame[S], code: str) -> Card | str:
    """Return a stored action as a player reads it: a card by its name (a message part),
    anything else as it was stored."""
    try:
        return rules.pack.cards[rules.card_id(code)]
    except ValueError:
        return code
