"""Minchiate's trick play on raw ints, for the search: its positions, playouts and scores.

Its playouts are played by the heuristic bot compiled
(`tarocchi.bots.heuristic.compiled_minchiate`, on the two-word masks of
`tarocchi.bots.compiled_minchiate`). `play` (the searched first move: the King rule,
the winners scoring their opponents' counting cards at once through the resti ledger)
and `outcome` (the Matto's payback, the card points, captured versicole, cards over 42,
the last trick and the ledger's rounding) must agree with `tarocchi.games.minchiate`
(rules §4-§5): tests/bots/test_search.py proves it on many seeded deals.

The search maximises net resti with the points as the tie-break: a playout's
margin is the net resti plus the raw point lead (every point scored in the
deal) over 60, which also smooths the resti's steps of 60 points.
"""

from __future__ import annotations

from typing import NamedTuple

from tarocchi.bots.heuristic.compiled_minchiate import Players
from tarocchi.cards import BIT, popcount
from tarocchi.games.base import Result, beat_table, top_index
from tarocchi.games.minchiate import (
    CAPTURE_POINTS,
    CARDS_PAR,
    KING_MASK,
    LAST_TRICK_BONUS,
    LED_MASK,
    PLAY,
    RULES,
    TRICKS,
    State,
    payback_card,
)
from tarocchi.games.minchiate_combos import versicole_value
from tarocchi.games.minchiate_ledger import Ledger, convert
from tarocchi.packs.minchiate import MATTO, PACK, trump
from tarocchi.views import View

POINTS = PACK.points
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

BEAT = beat_table(PACK)


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


def play(pos: Pos, card: int) -> Pos:
    """Return the position after the player to move plays card (assumed legal)."""
    hands, p, trick, piles, won, led, ledger, last = pos
    h = list(hands)
    h[p] ^= BIT[card]
    new_hands = (h[0], h[1], h[2], h[3])
    trick = (*trick, card)
    if len(trick) < 4:
        return Pos(new_hands, (p + 1) & 3, trick, piles, won, led, ledger, last)
    first = (p + 1) & 3
    winner = (first + top_index(trick, BEAT, MATTO)) & 3
    team = winner & 1
    pl = [piles[0], piles[1]]
    gained = 0
    for i, c in enumerate(trick):
        if c == MATTO:
            pl[(first + i) & 1] |= MATTO_BIT
        else:
            pl[team] |= BIT[c]
            if (first + i) & 1 != team:
                gained += CAPTURE_POINTS[c]
    if gained:
        ledger = convert(*ledger, team, gained)
    w = [won[0], won[1]]
    w[team] += 1
    suit = LED_MASK[trick[0]] or LED_MASK[trick[1]]
    done = w[0] + w[1] == TRICKS
    return Pos(
        new_hands,
        -1 if done else winner,
        (),
        (pl[0], pl[1]),
        (w[0], w[1]),
        led | suit,
        ledger,
        winner,
    )


def outcome(
    piles: tuple[int, int] | list[int], ledger: tuple[int, int, int], last: int
) -> tuple[int, int, int, int, int]:
    """Return (NS resti, EW resti, NS points, EW points, raw difference) at the end (rules
    §5); the raw difference is every point scored in the deal, NS minus EW (60 a resto)."""
    diff, rns, rew = ledger
    pl = [piles[0], piles[1]]
    team = 0 if pl[0] & MATTO_BIT else 1
    pile = pl[team]
    if pile & MATTO_BIT and popcount(pile) & 3 == 1:
        # rules §5: the Matto lost its trick, so its team gives one card for it
        card = payback_card(pile)
        pl[team] ^= BIT[card]
        pl[1 - team] |= BIT[card]
        if card != MATTO and POINTS[card]:
            diff, rns, rew = convert(diff, rns, rew, 1 - team, POINTS[card])
    end = [0, 0]
    for t in (0, 1):
        p = pl[t]
        end[t] = PACK.points_of(p) + versicole_value(p) + max(0, popcount(p) - CARDS_PAR)
    end[last & 1] += LAST_TRICK_BONUS
    diff += end[0] - end[1]
    raw = 60 * (rns - rew) + diff
    if diff > 0:
        rns += -(-diff // 60)
    elif diff < 0:
        rew += -(diff // 60)
    return rns, rew, end[0], end[1], raw


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


def playout(pos: Pos, players: Players, moves: list[int] | None = None) -> tuple[float, float]:
    """Play the deal to its end with the compiled heuristic players; return each team's
    value. The cards played are appended to moves if given."""
    if pos.to_move < 0:
        return value(pos)
    out = players.playout(pos, moves is not None)
    if moves is not None:
        moves.extend(out.moves)
    rns, rew, _, _, raw = outcome(out.piles, out.ledger, out.last)
    return objective(rns, rew, raw)


def heuristic_players(view: View) -> Players:
    """Return the compiled heuristic players who know what the view's record shows."""
    return Players(view)
