"""Piedicavallo's trick play on raw ints, for the search: its positions and playouts.

The search plays thousands of deals to the end per move, so a position here is a
small tuple of ints, not the rules' State, and its playouts (the searched first card
included) are played by the heuristic bot compiled
(`tarocchi.bots.heuristic.compiled_piedicavallo`), each player judging from what its
seat may know of the sampled deal; the rules' own `final` scores them. tests/bots/
test_search.py proves them equal to `tarocchi.games.piedicavallo` on many seeded deals.
"""

from __future__ import annotations

from typing import NamedTuple

from tarocchi.bots.heuristic.compiled_piedicavallo import Players
from tarocchi.cards import iter_bits
from tarocchi.games import game
from tarocchi.games.base import Result
from tarocchi.games.piedicavallo import PLAY, PROTECTED, State, final, is_discard_legal
from tarocchi.packs.piemontese import MATTO, PACK
from tarocchi.views import View

POINTS = PACK.points
SCALE = PACK.total_points  # the largest possible margin, to put margins on [-1, 1]
TIE = 1.0  # margins this close are a tie, which the heuristic bot's choice breaks
# cards that may play alike: equal ones in sequence need one search (search.equivalent)
INTERCHANGEABLE = PACK.full_mask & ~(1 << MATTO)  # no combinations: rank and points alone


class Pos(NamedTuple):
    """A trick-play position: hands, who moves, the current trick, what each team has."""

    hands: tuple[int, int, int, int]
    to_move: int  # -1 once the deal is over
    trick: tuple[int, ...]  # the cards of the current trick, in play order
    points: tuple[int, int]  # card points each team holds (the discard with the dealer's)
    won: tuple[int, int]  # tricks each team has won
    discard: int = 0  # the dealer's discard (the heuristic players' dealer knows it)


def from_state(state: State) -> Pos:
    """Return the kernel position of a rules state in the trick phase."""
    if state.phase != PLAY and state.to_move is not None:
        raise ValueError("the kernel plays the trick phase only")
    pts = [PACK.points_of(state.piles[0]), PACK.points_of(state.piles[1])]
    pts[state.dealer & 1] += PACK.points_of(state.discard)
    won = [0, 0]
    for w in state.winners:
        won[w & 1] += 1
    p = -1 if state.to_move is None else state.to_move
    trick = tuple(c for _, c in state.trick)
    return Pos(state.hands, p, trick, (pts[0], pts[1]), (won[0], won[1]), state.discard)


def setup_lines(view: View) -> list[tuple[int, ...]]:
    """Return the dealer's legal two-card discards (rules §2) that keep the cards already
    down, each as the cards still to discard, in id order; [] outside the discard."""
    if view.phase != "discard":
        return []
    full = view.hand | view.private
    done = view.private
    cards = [c for c in iter_bits(full & ~PROTECTED)]
    out = []
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            pair = 1 << a | 1 << b
            if pair & done == done and is_discard_legal(full, pair):
                out.append(tuple(iter_bits(pair & ~done)))
    return out


def rank_lines(lines: list[tuple[int, ...]], state: State) -> list[tuple[int, ...]]:
    """Return discards best first by the heuristic bot's judgement of a discard."""
    from tarocchi.bots.heuristic.piedicavallo import HeuristicBot

    dealer = state.dealer
    full = state.hands[dealer] | state.discard
    unseen = PACK.full_mask & ~full
    judge = HeuristicBot(game("piedicavallo"))

    def score(line: tuple[int, ...]) -> float:
        pair = state.discard | sum(1 << c for c in line)
        return judge.discard_score(full, pair, unseen)

    return sorted(lines, key=score, reverse=True)


def totals(pos: Pos) -> tuple[int, int]:
    """Return the final (NS, EW) totals of a finished position."""
    return final(pos.points[0], pos.points[1], pos.won)


def result_totals(result: Result) -> tuple[float, float]:
    """Return each team's value from the rules' result (for the differential test)."""
    return result.ns, result.ew


def playout(
    pos: Pos, players: Players, first: int = -1, moves: list[int] | None = None
) -> tuple[int, int]:
    """Play the deal to its end with the compiled heuristic players, the player to move
    playing card first (-1: its heuristic choice); return the final (NS, EW) totals. The
    cards played are appended to moves if given."""
    if pos.to_move < 0:
        return totals(pos)
    out = players.playout(pos, first, moves is not None)
    if moves is not None:
        moves.extend(out.moves)
    pts = [pos.points[t] + PACK.points_of(out.piles[t]) for t in (0, 1)]
    if out.owner >= 0:
        pts[out.owner & 1] += POINTS[MATTO]  # rules §3: the Matto stays with its team
    return final(pts[0], pts[1], out.won)


def heuristic_players(view: View) -> Players:
    """Return the compiled heuristic players who know what the view's history shows."""
    return Players(view)


value = totals  # a team's value at the end is its total
