"""A lean Piedicavallo trick-play kernel on raw ints: the search's positions and playouts.

The search plays thousands of deals to the end per move, so this module plays
the trick phase without the rules object: a position is a small tuple of ints,
and a playout is one loop over local variables. It must play exactly as
`tarocchi.games.piedicavallo` does (rules §3-§4); tests/bots/test_search.py
proves it on many seeded deals (same legal cards at every step, same result).

The playout players are the greedy players of `tarocchi.bots.kernel_common`:
they load points on a trick their partner surely wins, win a trick as cheaply
as they safely can, else duck their least useful card, and lead a sure winner
when they hold one; or the heuristic bot's judgement compiled
(`tarocchi.bots.heuristic.compiled_piedicavallo`), each player judging from what
its seat may know of the sampled deal.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from tarocchi.bots import compiled
from tarocchi.bots.heuristic.compiled_piedicavallo import Outcome as HeuristicOutcome
from tarocchi.bots.heuristic.compiled_piedicavallo import Players
from tarocchi.bots.kernel_common import Policy, beat_table, random_card
from tarocchi.cards import iter_bits, popcount
from tarocchi.games.base import Result
from tarocchi.games.piedicavallo import (
    LED_MASK,
    PLAY,
    PROTECTED,
    RULES,
    TRICKS,
    State,
    is_discard_legal,
    play_mask,
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


BEAT = beat_table(PACK)
POLICY = Policy(PACK, BEAT, POINTS)
# the playout players who see only which cards are out (an experiment: see search.py)
COUNTING = Policy(PACK, BEAT, POINTS, clairvoyant=False)
COMPILED = compiled.tables(PACK, BEAT, LED_MASK, POLICY)


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
        return judge._discard_score(full, pair, unseen)

    return sorted(lines, key=score, reverse=True)


def after_line(state: State, line: tuple[int, ...]) -> Pos:
    """Return the kernel position after the dealer of a sampled deal discards line."""
    for card in line:
        state = RULES.apply(state, card)
    return from_state(state)


def legal(pos: Pos) -> int:
    """Return the legal cards of the player to move, as a mask."""
    trick = pos.trick
    hand = pos.hands[pos.to_move]
    if not trick:
        return hand
    led = LED_MASK[trick[0]] or (len(trick) > 1 and LED_MASK[trick[1]])
    if not led:
        return hand
    m = hand & led or hand & TRUMP_MASK
    return m | (hand & MATTO_BIT) if m else hand


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
    """Return the final (NS, EW) totals of a finished position (rules §4, with the sweep)."""
    if pos.won[0] == 0:
        return 0, TOTAL
    if pos.won[1] == 0:
        return TOTAL, 0
    return pos.points


def result_totals(result: Result) -> tuple[float, float]:
    """Return each team's value from the rules' result (for the differential test)."""
    return result.ns, result.ew


def playout(
    pos: Pos,
    rng: random.Random,
    eps: float = 0.0,
    moves: list[int] | None = None,
    policy: Policy = POLICY,
) -> tuple[int, int]:
    """Play the deal to its end with the greedy policy (a random legal card with chance eps);
    return the final (NS, EW) totals. The cards played are appended to moves if given."""
    h0, h1, h2, h3 = pos.hands
    hands = [h0, h1, h2, h3]
    p = pos.to_move
    if p < 0:
        return totals(pos)
    pts = [pos.points[0], pos.points[1]]
    won = [pos.won[0], pos.won[1]]
    rnd = rng.random
    beat, led_of, points = BEAT, LED_MASK, POINTS
    lead, follow = policy.lead, policy.follow
    trump_mask, matto_bit = TRUMP_MASK, MATTO_BIT
    # the card now winning the trick and its seat (-1: none yet, e.g. only the Matto), the
    # led suit's mask, the cards down and their points
    top, top_seat, led, n, gained = -1, -1, 0, 0, 0
    for c in pos.trick:
        seat = (p - len(pos.trick) + n) & 3
        n += 1
        if c == MATTO:
            pts[seat & 1] += points[MATTO]  # rules §3: the Matto stays with its team
            continue
        gained += points[c]
        if not led:
            led = led_of[c]
        if top < 0 or beat[top] >> c & 1:
            top, top_seat = c, seat
    left = popcount(h0 | h1 | h2 | h3)
    while left:
        hand = hands[p]
        if led:
            m = hand & led or hand & trump_mask
            legal_m = m | (hand & matto_bit) if m else hand
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
            pts[p & 1] += points[MATTO]  # rules §3: the Matto stays with its team
        else:
            gained += points[card]
            if not led:
                led = led_of[card]
            if top < 0 or beat[top] >> card & 1:
                top, top_seat = card, p
        if n < 3:
            n += 1
            p = (p + 1) & 3
            continue
        pts[top_seat & 1] += gained
        won[top_seat & 1] += 1
        p = top_seat
        top, top_seat, led, n, gained = -1, -1, 0, 0, 0
    # rules §4: a team that won no trick gives everything up
    if won[0] == 0:
        return 0, TOTAL
    if won[1] == 0:
        return TOTAL, 0
    return pts[0], pts[1]


def seeded_playout(
    pos: Pos,
    seed: int,
    eps: float = 0.0,
    policy: Policy | Players = POLICY,
    moves: list[int] | None = None,
) -> tuple[int, int]:
    """Play the deal to its end as `playout` does, compiled (`tarocchi.bots.compiled`): the
    same players, with random moves (chance eps) fixed by the seed; or, given heuristic
    `Players`, with the compiled heuristic players (who make no random moves). Return the
    final (NS, EW) totals; the cards played are appended to moves if given."""
    if pos.to_move < 0:
        return totals(pos)
    record = moves is not None
    if isinstance(policy, Players):
        if eps:
            raise ValueError("the heuristic players make no random moves (eps must be 0)")
        out: compiled.Outcome | HeuristicOutcome = policy.playout(pos, record)
    else:
        out = compiled.playout(
            COMPILED, policy is POLICY, pos.hands, pos.to_move, pos.trick, pos.won, eps, seed,
            record,
        )  # fmt: skip
    if moves is not None:
        moves.extend(out.moves)
    pts = [pos.points[t] + PACK.points_of(out.piles[t]) for t in (0, 1)]
    if out.owner >= 0:
        pts[out.owner & 1] += POINTS[MATTO]  # rules §3: the Matto stays with its team
    # rules §4: a team that won no trick gives everything up
    if out.won[0] == 0:
        return 0, TOTAL
    if out.won[1] == 0:
        return TOTAL, 0
    return pts[0], pts[1]


def heuristic_players(view: View) -> Players:
    """Return the compiled heuristic players who know what the view's history shows."""
    return Players(view)


__all__ = ["Pos", "from_state", "legal", "play", "play_mask", "playout", "totals"]


# the past plays replayed on a sampled deal (`tarocchi.bots.likelihood`)
replay = compiled.replay

value = totals  # a team's value at the end is its total
