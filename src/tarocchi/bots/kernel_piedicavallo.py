"""Piedicavallo's trick play on raw ints, for the search: its positions and playouts.

The search plays thousands of deals to the end per move, so a position here is a
small tuple of ints, not the rules' State, and its playouts are played by the heuristic
bot compiled (`tarocchi.bots.heuristic.compiled_piedicavallo`), each player judging from
what its seat may know of the sampled deal. `play` (the searched first move) and the
scoring must agree with `tarocchi.games.piedicavallo` (rules §3-§4): tests/bots/
test_search.py proves it on many seeded deals (the same legal cards at every step, the
same position, the same result).
"""

from __future__ import annotations

from typing import NamedTuple

from tarocchi.bots.heuristic.compiled_piedicavallo import Players
from tarocchi.cards import iter_bits
from tarocchi.games.base import Result
from tarocchi.games.piedicavallo import (
    LED_MASK,
    PLAY,
    PROTECTED,
    RULES,
    TRICKS,
    State,
    is_discard_legal,
)
from tarocchi.packs.piemontese import MATTO, PACK
from tarocchi.views import View

POINTS = PACK.points
TOTAL = PACK.total_points
SCALE = TOTAL  # the largest possible margin, to put margins on [-1, 1]
TIE = 1.0  # margins this close are a tie, which the heuristic bot's choice breaks
# cards that may play alike: equal ones in sequence need one search (search.equivalent)
INTERCHANGEABLE = PACK.full_mask & ~(1 << MATTO)  # no combinations: rank and points alone
MATTO_BIT = 1 << MATTO
TRUMP_MASK = PACK.trump_mask
NOT_MATTO = PACK.full_mask & ~MATTO_BIT


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
    judge = HeuristicBot(RULES)

    def score(line: tuple[int, ...]) -> float:
        pair = state.discard | sum(1 << c for c in line)
        return judge.discard_score(full, pair, unseen)

    return sorted(lines, key=score, reverse=True)


def play(pos: Pos, card: int) -> Pos:
    """Return the position after the player to move plays card (assumed legal)."""
    hands, p, trick, points, won, discard = pos
    bit = 1 << card
    h = list(hands)
    h[p] ^= bit
    new_hands = (h[0], h[1], h[2], h[3])
    trick = (*trick, card)
    if len(trick) < 4:
        return Pos(new_hands, (p + 1) & 3, trick, points, won, discard)
    first = (p + 1) & 3  # the leader: p played fourth
    winner, gained, matto_team = _resolve(trick, first)
    pts = [points[0], points[1]]
    pts[winner & 1] += gained
    if matto_team >= 0:
        pts[matto_team] += POINTS[MATTO]
    w = [won[0], won[1]]
    w[winner & 1] += 1
    done = w[0] + w[1] == TRICKS
    return Pos(new_hands, -1 if done else winner, (), (pts[0], pts[1]), (w[0], w[1]), discard)


def _resolve(trick: tuple[int, ...], first: int) -> tuple[int, int, int]:
    """Return (winner seat, card points the winner takes, the Matto's team or -1)."""
    c0, c1, c2, c3 = trick
    cards = (1 << c0) | (1 << c1) | (1 << c2) | (1 << c3)
    real = cards & NOT_MATTO
    best = real & TRUMP_MASK or real & (LED_MASK[c0] or LED_MASK[c1])
    top = best.bit_length() - 1
    winner = (first + trick.index(top)) & 3
    gained = sum(POINTS[c] for c in trick if c != MATTO)
    matto_team = (first + trick.index(MATTO)) & 1 if real != cards else -1
    return winner, gained, matto_team


def totals(pos: Pos) -> tuple[int, int]:
    """Return the final (NS, EW) totals of a finished position."""
    return final(pos.points[0], pos.points[1], pos.won)


def final(ns: int, ew: int, won: tuple[int, int]) -> tuple[int, int]:
    """Return the final (NS, EW) totals from the points each team holds and the tricks each
    won; rules §4: a team that won no trick gives everything up."""
    if won[0] == 0:
        return 0, TOTAL
    if won[1] == 0:
        return TOTAL, 0
    return ns, ew


def result_totals(result: Result) -> tuple[float, float]:
    """Return each team's value from the rules' result (for the differential test)."""
    return result.ns, result.ew


def playout(pos: Pos, players: Players, moves: list[int] | None = None) -> tuple[int, int]:
    """Play the deal to its end with the compiled heuristic players; return the final (NS,
    EW) totals. The cards played are appended to moves if given."""
    if pos.to_move < 0:
        return totals(pos)
    out = players.playout(pos, moves is not None)
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
