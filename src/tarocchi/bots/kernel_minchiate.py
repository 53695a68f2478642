"""A lean Minchiate trick-play kernel on raw ints: the search's positions and playouts.

It plays the 21 tricks as `tarocchi.games.minchiate` does (rules §4-§5): follow
suit, else trump, else any card, the Matto anywhere but under the King rule,
which forces a King in the first trick of its suit once a trump has fallen; the
winners score at once the counting cards their opponents played, through the
resti ledger; at the end come the Matto's payback, the card points, captured
versicole, cards over 42 and the last trick, and the ledger's rounding.
tests/bots/test_search.py proves it on many seeded deals.

The search maximises net resti with the points as the tie-break: a playout's
margin is the net resti plus the raw point lead (every point scored in the
deal) over 60, which also smooths the resti's steps of 60 points.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from tarocchi.bots import compiled_minchiate
from tarocchi.bots.heuristic.compiled_minchiate import Outcome as HeuristicOutcome
from tarocchi.bots.heuristic.compiled_minchiate import Players
from tarocchi.bots.kernel_common import Policy, beat_table, random_card
from tarocchi.cards import BIT, popcount
from tarocchi.games.base import Result
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
NOT_MATTO = PACK.full_mask & ~MATTO_BIT
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
POLICY = Policy(PACK, BEAT, POINTS)
# the playout players who see only which cards are out (an experiment: see search.py)
COUNTING = Policy(PACK, BEAT, POINTS, clairvoyant=False)
COMPILED = compiled_minchiate.tables(PACK, BEAT, CAPTURE_POINTS, POLICY)


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


def after_line(state: State, line: tuple[int, ...]) -> Pos:
    """Return the kernel position after line (unused: there are no setup lines)."""
    for action in line:
        state = RULES.apply(state, action)
    return from_state(state)


def _legal(hand: int, trick: tuple[int, ...], led_before: int) -> int:
    """Return the legal cards of hand in a trick (rules §4, the King rule included)."""
    if not trick:
        return hand
    suit = LED_MASK[trick[0]] or (len(trick) > 1 and LED_MASK[trick[1]])
    if not suit:
        return hand
    m = hand & suit
    if m:
        king = m & KING_MASK
        if king and not led_before & suit:
            for c in trick:
                if TRUMP_MASK >> c & 1:
                    return king
        return m | hand & MATTO_BIT
    m = hand & TRUMP_MASK
    return m | hand & MATTO_BIT if m else hand


def legal(pos: Pos) -> int:
    """Return the legal cards of the player to move, as a mask."""
    return _legal(pos.hands[pos.to_move], pos.trick, pos.led)


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
    top, top_i = -1, -1
    for i, c in enumerate(trick):
        if c != MATTO and (top < 0 or BEAT[top] >> c & 1):
            top, top_i = c, i
    winner = (first + top_i) & 3
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


def playout(
    pos: Pos,
    rng: random.Random,
    eps: float = 0.0,
    moves: list[int] | None = None,
    policy: Policy = POLICY,
) -> tuple[float, float]:
    """Play the deal to its end with the greedy policy (a random legal card with chance eps);
    return each team's value. The cards played are appended to moves if given."""
    h0, h1, h2, h3 = pos.hands
    hands = [h0, h1, h2, h3]
    p = pos.to_move
    if p < 0:
        return value(pos)
    piles = [pos.piles[0], pos.piles[1]]
    won = [pos.won[0], pos.won[1]]
    diff, rns, rew = pos.ledger
    led_before = pos.led
    last = pos.last
    rnd = rng.random
    beat, led_of, capture = BEAT, LED_MASK, CAPTURE_POINTS
    lead, follow = policy.lead, policy.follow
    trump_mask, matto_bit, king_mask = TRUMP_MASK, MATTO_BIT, KING_MASK
    # per trick: the card winning it and its seat, the led suit, whether a trump fell, the
    # cards down by team (the Matto apart) and the counting points each team played
    top, top_seat, led, trumped, n = -1, -1, 0, False, 0
    down = [0, 0]
    played_pts = [0, 0]
    for c in pos.trick:
        seat = (p - len(pos.trick) + n) & 3
        n += 1
        if c == MATTO:
            piles[seat & 1] |= matto_bit
            continue
        down[seat & 1] |= BIT[c]
        played_pts[seat & 1] += capture[c]
        if not led:
            led = led_of[c]
        if trump_mask >> c & 1:
            trumped = True
        if top < 0 or beat[top] >> c & 1:
            top, top_seat = c, seat
    left = popcount(h0 | h1 | h2 | h3)
    while left:
        hand = hands[p]
        if led:
            m = hand & led
            if m:
                king = m & king_mask
                if king and trumped and not led_before & led:
                    legal_m = king  # rules §4: the King rule
                else:
                    legal_m = m | hand & matto_bit
            else:
                m = hand & trump_mask
                legal_m = m | hand & matto_bit if m else hand
        else:
            legal_m = hand
        if legal_m & (legal_m - 1) == 0:
            card = legal_m.bit_length() - 1
        elif eps and rnd() < eps:
            card = random_card(legal_m, rnd())
        elif top < 0:
            card = lead(hands, p, legal_m)
        else:
            card = follow(hands, p, n, led, top, top_seat, legal_m)
        hands[p] = hand ^ (1 << card)
        left -= 1
        if moves is not None:
            moves.append(card)
        if card == MATTO:
            piles[p & 1] |= matto_bit  # rules §4: the Matto goes to its owner's team
        else:
            down[p & 1] |= 1 << card
            played_pts[p & 1] += capture[card]
            if not led:
                led = led_of[card]
            if trump_mask >> card & 1:
                trumped = True
            if top < 0 or beat[top] >> card & 1:
                top, top_seat = card, p
        if n < 3:
            n += 1
            p = (p + 1) & 3
            continue
        team = top_seat & 1
        piles[team] |= down[0] | down[1]
        gained = played_pts[1 - team]
        if gained:
            # rules §5: the winners score at once the counting cards of their opponents
            diff, rns, rew = convert(diff, rns, rew, team, gained)
        won[team] += 1
        led_before |= led
        last = p = top_seat
        top, top_seat, led, trumped, n = -1, -1, 0, False, 0
        down = [0, 0]
        played_pts = [0, 0]
    rns, rew, _, _, raw = outcome(piles, (diff, rns, rew), last)
    return objective(rns, rew, raw)


def seeded_playout(
    pos: Pos,
    seed: int,
    eps: float = 0.0,
    policy: Policy | Players = POLICY,
    moves: list[int] | None = None,
) -> tuple[float, float]:
    """Play the deal to its end as `playout` does, compiled (`compiled_minchiate`): the same
    players, with random moves (chance eps) fixed by the seed; or, given heuristic
    `Players`, with the compiled heuristic players (who make no random moves). Return each
    team's value; the cards played are appended to moves if given."""
    if pos.to_move < 0:
        return value(pos)
    out: compiled_minchiate.Outcome | HeuristicOutcome
    if isinstance(policy, Players):
        if eps:
            raise ValueError("the heuristic players make no random moves (eps must be 0)")
        out = policy.playout(pos, moves is not None)
    else:
        out = compiled_minchiate.playout(
            COMPILED, policy is POLICY, pos.hands, pos.to_move, pos.trick, pos.piles, pos.won,
            pos.led, pos.ledger, pos.last, eps, seed, moves is not None,
        )  # fmt: skip
    if moves is not None:
        moves.extend(out.moves)
    rns, rew, _, _, raw = outcome(out.piles, out.ledger, out.last)
    return objective(rns, rew, raw)


def heuristic_players(view: View) -> Players:
    """Return the compiled heuristic players who know what the view's record shows."""
    return Players(view, COMPILED)


__all__ = ["Pos", "from_state", "legal", "play", "playout", "seeded_playout", "totals"]


# the past plays replayed on a sampled deal (`tarocchi.bots.likelihood`)
replay = compiled_minchiate.replay
