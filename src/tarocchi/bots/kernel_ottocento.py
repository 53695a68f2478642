"""Ottocento's trick play on raw ints, for the search: its positions, playouts and scores.

A position holds what the end of the deal needs to be scored: the piles, each
player's DECLARE or PASS at its first turn of trick 1, the Matto's fate, the last
trick. Its playouts (the searched first move included) are played by the heuristic
bot compiled (`tarocchi.bots.heuristic.compiled_ottocento`), which declares as the
bot does, and scored by the rules' own `settle` and `final`. tests/bots/
test_search.py proves them equal to `tarocchi.games.ottocento` on many seeded deals.
"""

from __future__ import annotations

from typing import NamedTuple

from tarocchi.bots.heuristic.compiled_ottocento import Players
from tarocchi.cards import BIT, iter_bits
from tarocchi.games import game
from tarocchi.games.base import Result
from tarocchi.games.ottocento import (
    DECLARE,
    NEUTRAL,
    PLAY,
    PROTECTED,
    State,
    final,
    settle,
)
from tarocchi.packs.bolognese import MATTO
from tarocchi.views import View

# the largest margin a deal can plausibly reach, to put margins on about [-1, 1]
SCALE = 400
TIE = 2.0  # margins this close are a tie, which the heuristic bot's choice breaks
# cards that may play alike: equal ones in sequence need one search (search.equivalent)
INTERCHANGEABLE = NEUTRAL  # the cards of no combination family (rules §3)


class Pos(NamedTuple):
    """A trick-play position, with what the end of the deal needs to be scored."""

    hands: tuple[int, int, int, int]
    to_move: int  # -1 once the deal is over
    deciding: bool  # to_move must DECLARE or PASS before its first card (rules §3)
    trick: tuple[int, ...]  # the cards of the current trick, in play order
    piles: tuple[int, int]  # cards each team took; the Matto with its player's team
    won: tuple[int, int]  # tricks each team has won
    decided: int  # the seats that have declared or passed (bit per seat)
    declared: tuple[int, int]  # declaration points of each team
    matto: tuple[int, int]  # (the seat that played the Matto, the trick's winner) or -1s
    last: int  # the winner of the latest trick (-1 before the first)
    dealer: int
    discard: int


def from_state(state: State) -> Pos:
    """Return the kernel position of a rules state after the discard."""
    if state.to_move is not None and state.phase not in (DECLARE, PLAY):
        raise ValueError("the kernel plays from the first declaration on")
    won = [0, 0]
    for w in state.winners:
        won[w & 1] += 1
    decided = 0
    declared = [0, 0]
    for seat, _, value in state.declarations:
        decided |= 1 << seat
        declared[seat & 1] += value
    matto = (-1, -1)
    for trick, w in zip(state.tricks, state.winners, strict=True):
        for seat, card in trick:
            if card == MATTO:
                matto = (seat, w)
    for seat, card in state.trick:
        if card == MATTO:
            matto = (seat, -1)
    p = -1 if state.to_move is None else state.to_move
    return Pos(
        state.hands,
        p,
        state.phase == DECLARE,
        tuple(c for _, c in state.trick),
        state.piles,
        (won[0], won[1]),
        decided,
        (declared[0], declared[1]),
        matto,
        state.winners[-1] if state.winners else -1,
        state.dealer,
        state.discard,
    )


def setup_lines(view: View) -> list[tuple[int, ...]]:
    """Return the dealer's two-card discards (rules §2) keeping the card already down, each
    as the cards still to discard; [] outside the discard (a declaration is left to the
    heuristic bot: a playout cannot value what hiding a hand is worth)."""
    if view.phase != "discard":
        return []
    full = view.hand | view.private
    done = view.private
    cards = list(iter_bits(full & ~PROTECTED))
    out = []
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            pair = BIT[a] | BIT[b]
            if pair & done == done:
                out.append(tuple(iter_bits(pair & ~done)))
    return out


def rank_lines(lines: list[tuple[int, ...]], state: State) -> list[tuple[int, ...]]:
    """Return discards best first by the heuristic bot's judgement of a discard."""
    from tarocchi.bots.heuristic.ottocento import HeuristicBot

    full = state.hands[state.dealer] | state.discard
    judge = HeuristicBot(game("ottocento"))

    def score(line: tuple[int, ...]) -> float:
        pair = [*iter_bits(state.discard), *line]
        return judge.discard_value(full, (pair[0], pair[1]))

    return sorted(lines, key=score, reverse=True)


def score(
    piles: tuple[int, int],
    won_ew: int,
    matto: tuple[int, int],
    last: int,
    declared: tuple[int, int],
    dealer: int,
    discard: int,
) -> tuple[int, int]:
    """Return the final (NS, EW) totals (rules §5) through the rules' own settlement."""
    ns_pile, ew_pile, _, _ = settle(piles, dealer, discard, won_ew, matto[0], matto[1])
    return final(ns_pile, ew_pile, declared, last)


def totals(pos: Pos) -> tuple[int, int]:
    """Return the final (NS, EW) totals of a finished position."""
    return score(pos.piles, pos.won[1], pos.matto, pos.last, pos.declared, pos.dealer, pos.discard)


def result_totals(result: Result) -> tuple[float, float]:
    """Return each team's value from the rules' result (for the differential test)."""
    return result.ns, result.ew


def playout(
    pos: Pos, players: Players, first: int = -1, moves: list[int] | None = None
) -> tuple[int, int]:
    """Play the deal to its end with the compiled heuristic players (who declare as the
    heuristic bot does), the player to move taking action first (-1: its heuristic
    choice); return the final (NS, EW) totals. The actions taken are appended to moves if
    given."""
    if pos.to_move < 0:
        return totals(pos)
    h = players.playout(pos, first, moves is not None)
    if moves is not None:
        moves.extend(h.moves)
    return score(h.piles, h.won[1], h.matto, h.last, h.declared, pos.dealer, pos.discard)


def heuristic_players(view: View) -> Players:
    """Return the compiled heuristic players who know what the view's history shows."""
    return Players(view)


value = totals  # a team's value at the end is its total
