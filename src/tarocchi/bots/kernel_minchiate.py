"""Minchiate's trick play on raw ints, for the search: its positions, playouts and scores.

Its playouts (the searched first card included) are played by the heuristic bot
compiled (`tarocchi.bots.heuristic.compiled_minchiate`, on the two-word masks of
`tarocchi.bots.compiled_minchiate`) and scored by the rules' own end of the deal
(`minchiate_deal.settle`: the Matto's payback, the end totals, the ledger's rounding).
tests/bots/test_search.py proves them equal to `tarocchi.games.minchiate` on many
seeded deals.

The search maximises net resti with the points as the tie-break: a playout's
margin is the net resti plus the raw point lead (every point scored in the
deal) over 60, which also smooths the resti's steps of 60 points.
"""

from __future__ import annotations

from typing import NamedTuple

from tarocchi.bots.heuristic.compiled_minchiate import Players
from tarocchi.cards import BIT
from tarocchi.games.base import Result
from tarocchi.games.minchiate import KING_MASK, PLAY, RULES, State
from tarocchi.games.minchiate_deal import settle
from tarocchi.games.minchiate_ledger import RESTO, Ledger
from tarocchi.packs.minchiate import MATTO, PACK, trump
from tarocchi.views import View

MATTO_BIT = BIT[MATTO]
TRUMP_MASK = PACK.trump_mask
# the points' weight: a raw lead of 120 points adds one to the margin of resti
POINT_WEIGHT = 1 / 120
SCALE = 6  # margins of a few resti are the usual range
TIE = 0.05  # margins this close are a tie, which the heuristic bot's choice breaks
# cards that may play alike: equal ones in sequence need one search (search.equivalent)
INTERCHANGEABLE = (PACK.full_mask & ~TRUMP_MASK & ~KING_MASK & ~MATTO_BIT) | sum(
    # rules §3: the zero-point trumps outside the versicole (sequences 1-5 and 28-40, the
    # Tens, the Thirteen)
    BIT[trump(n)]
    for n in (6, 7, 8, 9, 11, 12, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27)
)


class Pos(NamedTuple):
    """A trick-play position, with the resti ledger so far."""

    hands: tuple[int, int, int, int]
    to_move: int  # -1 once the deal is over
    trick: tuple[int, ...]  # the cards of the current trick, in play order
    piles: tuple[int, int]  # cards each team took; the Matto always with its owner's team
    won: tuple[int, int]  # tricks each team has won
    led: int  # the suits led in finished tricks (the King rule)
    ledger: tuple[int, int, int]  # the running difference and each team's resti
    last: int  # the winner of the latest trick (-1 before the first)


def from_state(state: State) -> Pos:
    """Return the kernel position of a rules state in the trick phase."""
    if state.to_move is not None and state.phase != PLAY:
        raise ValueError("the kernel plays the trick phase only")
    ledger = Ledger()
    for sc in RULES.scores(state):
        ledger = ledger.score(sc.team, sc.points)
    won = [0, 0]
    for w in state.winners:
        won[w & 1] += 1
    return Pos(
        state.hands,
        -1 if state.to_move is None else state.to_move,
        tuple(c for _, c in state.trick),
        state.piles,
        (won[0], won[1]),
        state.led,
        (ledger.diff, ledger.ns, ledger.ew),
        state.winners[-1] if state.winners else -1,
    )


def setup_lines(view: View) -> list[tuple[int, ...]]:
    """Return no lines: the discards and declarations are left to the heuristic bot."""
    return []


def rank_lines(lines: list[tuple[int, ...]], state: State) -> list[tuple[int, ...]]:
    """Return the lines as they are (there are none to rank)."""
    return lines


def outcome(
    piles: tuple[int, int], ledger: tuple[int, int, int], last: int
) -> tuple[int, int, int, int, int]:
    """Return (NS resti, EW resti, NS points, EW points, raw difference) at the end, through
    the rules' own `settle`; the raw difference is every point scored in the deal, NS minus
    EW (60 a resto)."""
    end = settle(piles, Ledger(*ledger), last)
    before = end.ledger
    (ns, ew), final = end.points, end.final
    return final.ns, final.ew, ns, ew, RESTO * (before.ns - before.ew) + before.diff + ns - ew


def objective(rns: int, rew: int, raw: int) -> tuple[float, float]:
    """Return each team's value: its resti, plus half the raw point lead over 60 (the
    points break ties and smooth the resti's steps)."""
    return rns + raw * POINT_WEIGHT, rew - raw * POINT_WEIGHT


def totals(pos: Pos) -> tuple[int, int, int, int]:
    """Return (NS resti, EW resti, NS points, EW points) of a finished position."""
    return outcome(pos.piles, pos.ledger, pos.last)[:4]


def result_totals(result: Result) -> tuple[int, int, int, int]:
    """Return the same figures from the rules' result (for the differential test)."""
    extra = dict(result.extra)
    return int(result.ns), int(result.ew), extra["ns_points"], extra["ew_points"]


def value(pos: Pos) -> tuple[float, float]:
    """Return each team's value at the end of a finished position."""
    rns, rew, _, _, raw = outcome(pos.piles, pos.ledger, pos.last)
    return objective(rns, rew, raw)


def playout(
    pos: Pos, players: Players, first: int = -1, moves: list[int] | None = None
) -> tuple[float, float]:
    """Play the deal to its end with the compiled heuristic players, the player to move
    playing card first (-1: its heuristic choice); return each team's value. The cards
    played are appended to moves if given."""
    if pos.to_move < 0:
        return value(pos)
    out = players.playout(pos, first, moves is not None)
    if moves is not None:
        moves.extend(out.moves)
    rns, rew, _, _, raw = outcome(out.piles, out.ledger, out.last)
    return objective(rns, rew, raw)


def heuristic_players(view: View) -> Players:
    """Return the compiled heuristic players who know what the view's record shows."""
    return Players(view)
