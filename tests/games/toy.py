"""A toy fourth game, registered by the tests only: 4 players, a 16-card pack (three courts
of each suit, three trumps and the Matto), 4 cards each; follow suit, else trump, else any
card (the Matto always); the highest trump, else the highest of the suit led, wins; a
trick won counts 1 for its team.

    0-11   SW-J SW-Q SW-K BA-J ... CO-K
    12-14  T1 T2 T3
    15     MATTO
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from tarocchi import cards
from tarocchi.bots.base import Bot
from tarocchi.cards import BATONS, COINS, CUPS, SWORDS
from tarocchi.games import base
from tarocchi.games.base import (
    IllegalAction,
    Result,
    ScoreLine,
    TrickCore,
    TrickGame,
    follow_reason,
    led_suit,
    winner_of,
)
from tarocchi.views import View

COURTS = (("J", 1, 0), ("Q", 2, 0), ("K", 3, 0))
PACK = cards.build_pack(
    "Toy",
    [
        *(
            row
            for suit in (SWORDS, BATONS, CUPS, COINS)
            for row in cards.suit_cards(suit, COURTS, (cards.RANK_NAMES_EN, cards.RANK_NAMES_IT))
        ),
        *cards.numbered_trumps((("One", "Uno"), ("Two", "Due"), ("Three", "Tre")), 1, int),
        cards.MATTO_ROW,
    ],
)
HAND_SIZE = 4
CORE = TrickCore(PACK)  # follow suit, else trump; the highest trump or card of the suit wins


class State(NamedTuple):
    """A position of the toy game (immutable)."""

    hands: tuple[int, int, int, int]
    dealer: int
    to_move: int | None
    leader: int
    trick: tuple[tuple[int, int], ...]
    tricks: tuple[tuple[tuple[int, int], ...], ...]
    winners: tuple[int, ...]
    piles: tuple[int, int]

    GAME: ClassVar[str] = "toy"


class Toy(TrickGame[State]):
    """The stateless rules object of the toy game."""

    name = "toy"
    title = "Toy"
    pack = PACK
    core = CORE
    hand_size = HAND_SIZE
    max_margin = 4.0  # every trick to one team
    deal_slots = tuple(1 + i % 4 for i in range(4 * HAND_SIZE))
    how = "Each trick won counts 1 for its team."

    def start(self, hands: tuple[int, int, int, int], dealer: int) -> State:
        """Return the first lead: next(dealer) leads."""
        self.check_dealt(hands, dealer)
        leader = (dealer + 1) % 4
        return State(hands, dealer, leader, leader, (), (), (), (0, 0))

    def legal_mask(self, state: State) -> int:
        """Return the cards the player to move may play."""
        if state.to_move is None:
            return 0
        return CORE.follow(state.hands[state.to_move], state.trick)

    def illegal_reason(self, state: State, action: int) -> str:
        """Explain why a card may not be played now."""
        if state.to_move is None:
            return "the deal is over"
        hand = state.hands[state.to_move]
        return follow_reason(hand, led_suit(state.trick, PACK.suit_of), action, PACK)

    def apply(self, state: State, action: int) -> State:
        """Return the state after the player to move plays card `action`."""
        p = state.to_move
        if p is None or not 0 <= action < PACK.size or not self.legal_mask(state) >> action & 1:
            raise IllegalAction(self.illegal_reason(state, action))
        hands = tuple(h & ~(1 << action) if s == p else h for s, h in enumerate(state.hands))
        new_hands = (hands[0], hands[1], hands[2], hands[3])
        trick = (*state.trick, (p, action))
        if len(trick) < 4:
            return state._replace(hands=new_hands, to_move=(p + 1) % 4, trick=trick)
        winner, piles = CORE.close(state.piles, trick)
        over = not any(new_hands)
        return State(
            new_hands,
            state.dealer,
            None if over else winner,
            winner,
            (),
            (*state.tricks, trick),
            (*state.winners, winner),
            piles,
        )

    def _lines(self, winners: tuple[int, ...]) -> tuple[ScoreLine, ...]:
        ns = sum(1 for w in winners if w % 2 == 0)
        return (ScoreLine("Tricks won", ns, len(winners) - ns),)

    def result(self, state: State) -> Result:
        """Score a finished deal: a point a trick."""
        if state.to_move is not None:
            raise ValueError("the deal is not over")
        lines = self._lines(state.winners)
        ns, ew = lines[0].ns, lines[0].ew
        return Result(ns, ew, winner_of(ns, ew), lines, state.piles)

    def tally(self, v: View) -> base.Tally:
        """Return the tricks each team has won so far."""
        lines = self._lines(v.winners)
        return base.Tally(lines[0].ns, lines[0].ew, self.unit, self.how, lines)

    def phase_name(self, state: State) -> str:
        """Return "play" or "over"."""
        return "play" if state.to_move is not None else "over"


class ToyBot(Bot):
    """The toy game's heuristic player: takes the trick with its highest card when that
    wins it, else plays its lowest."""

    name = "heuristic"

    def choose(self, view: View) -> int:
        """Return the highest legal card if it would win the trick so far, else the lowest."""
        top = max(view.legal)
        won = CORE.winning_play((*view.trick, (view.seat, top)))
        return top if won is not None and won[0] == view.seat else min(view.legal)


RULES = Toy()
