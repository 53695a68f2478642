"""A lean Ottocento trick-play kernel on raw ints: the search's positions and playouts.

It plays the trick phase as `tarocchi.games.ottocento` does (rules §3-§5),
including each player's DECLARE or PASS at its first turn of trick 1 and the
equal Moors (the last one played wins), and scores the end exactly: card
points counted in pairs, captured combinations, declarations, the last trick,
the discard with the dealer's team, the sweep and the Matto's settlement (with
the rules' own combination tables). tests/bots/test_search.py proves it on many
seeded deals. In a playout every player declares whatever it holds: a
playout's players see every card, so a declaration hides nothing from them.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from tarocchi.bots import compiled
from tarocchi.bots.heuristic.compiled_ottocento import Players
from tarocchi.bots.kernel_common import Policy, beat_table, random_card
from tarocchi.cards import BIT, iter_bits, popcount
from tarocchi.games.base import Result
from tarocchi.games.ottocento import (
    DECIDE_LEGAL,
    DECLARE,
    DECLARE_ACTION,
    LAST_TRICK_BONUS,
    LED_MASK,
    NEUTRAL,
    PASS_ACTION,
    PLAY,
    PROTECTED,
    RULES,
    TRICKS,
    State,
    settle_matto,
)
from tarocchi.games.ottocento_combos import combination_value
from tarocchi.packs.bolognese import MATTO, MOORS_MASK, PACK
from tarocchi.views import View

POINTS = PACK.points
MATTO_BIT = BIT[MATTO]
TRUMP_MASK = PACK.trump_mask
NOT_MATTO = PACK.full_mask & ~MATTO_BIT
# the largest margin a deal can plausibly reach, to put margins on about [-1, 1]
SCALE = 400
TIE = 2.0  # margins this close are a tie, which the heuristic bot's choice breaks
# cards that may play alike: equal ones in sequence need one search (search.equivalent)
INTERCHANGEABLE = NEUTRAL  # the cards of no combination family (rules §3)


def _beat_table() -> tuple[int, ...]:
    """Return, per card, what beats it; rules §4: a later Moor beats an earlier one."""
    beat = list(beat_table(PACK))
    for moor in iter_bits(MOORS_MASK):
        beat[moor] |= MOORS_MASK
    return tuple(beat)


BEAT = _beat_table()
POLICY = Policy(PACK, BEAT, POINTS)
# the playout players who see only which cards are out (an experiment: see search.py)
COUNTING = Policy(PACK, BEAT, POINTS, clairvoyant=False)
COMPILED = compiled.tables(PACK, BEAT, LED_MASK, POLICY)


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
    judge = HeuristicBot(RULES)

    def score(line: tuple[int, ...]) -> float:
        pair = [*iter_bits(state.discard), *line]
        return judge.discard_value(full, (pair[0], pair[1]))

    return sorted(lines, key=score, reverse=True)


def after_line(state: State, line: tuple[int, ...]) -> Pos:
    """Return the kernel position after the dealer of a sampled deal discards line."""
    for card in line:
        state = RULES.apply(state, card)
    return from_state(state)


def legal(pos: Pos) -> int:
    """Return the legal actions of the player to move, as a mask."""
    if pos.deciding:
        return DECIDE_LEGAL
    trick = pos.trick
    hand = pos.hands[pos.to_move]
    if not trick:
        return hand
    led = LED_MASK[trick[0]] or (len(trick) > 1 and LED_MASK[trick[1]])
    if not led:
        return hand
    m = hand & led or hand & TRUMP_MASK
    return m | (hand & MATTO_BIT) if m else hand


def play(pos: Pos, action: int) -> Pos:
    """Return the position after the player to move takes action (assumed legal)."""
    (hands, p, deciding, trick, piles, won, decided, declared, matto, last, dealer, discard) = pos
    if deciding:
        d = list(declared)
        if action == DECLARE_ACTION:
            d[p & 1] += combination_value(hands[p])
        return pos._replace(deciding=False, decided=decided | 1 << p, declared=(d[0], d[1]))
    bit = BIT[action]
    h = list(hands)
    h[p] ^= bit
    new_hands = (h[0], h[1], h[2], h[3])
    if action == MATTO:
        matto = (p, -1)
    trick = (*trick, action)
    if len(trick) < 4:
        p = (p + 1) & 3
        if not won[0] + won[1] and not decided >> p & 1:
            # rules §3: p's first turn; a hand that scores nothing passes at once
            if combination_value(new_hands[p]):
                return Pos(
                    new_hands, p, True, trick, piles, won, decided, declared, matto, last,
                    dealer, discard,
                )  # fmt: skip
            decided |= 1 << p
        return Pos(
            new_hands, p, False, trick, piles, won, decided, declared, matto, last, dealer,
            discard,
        )  # fmt: skip
    first = (p + 1) & 3
    top, top_i = -1, -1
    for i, c in enumerate(trick):
        if c != MATTO and (top < 0 or BEAT[top] >> c & 1):
            top, top_i = c, i
    winner = (first + top_i) & 3
    real = 0
    for c in trick:
        real |= BIT[c]
    real &= NOT_MATTO
    pl = [piles[0], piles[1]]
    pl[winner & 1] |= real
    if MATTO in trick:
        owner = (first + trick.index(MATTO)) & 3
        pl[owner & 1] |= MATTO_BIT
        matto = (owner, winner)
    w = [won[0], won[1]]
    w[winner & 1] += 1
    done = w[0] + w[1] == TRICKS
    return Pos(
        new_hands, -1 if done else winner, False, (), (pl[0], pl[1]), (w[0], w[1]), decided,
        declared, matto, winner, dealer, discard,
    )  # fmt: skip


def score(
    piles: tuple[int, int] | list[int],
    won_ew: int,
    matto: tuple[int, int],
    last: int,
    declared: tuple[int, int] | list[int],
    dealer: int,
    discard: int,
) -> tuple[int, int]:
    """Return the final (NS, EW) totals (rules §5), as `Ottocento.result` counts them."""
    pl = [piles[0], piles[1]]
    dealer_team = dealer & 1
    pl[dealer_team] |= discard
    swept = -1
    if won_ew == 0 or won_ew == TRICKS:
        swept = 1 if won_ew == 0 else 0
        # rules §5: a team with no trick loses its Matto and, as the dealer's team, the
        # discard
        if pl[swept] & MATTO_BIT:
            pl[swept] ^= MATTO_BIT
            pl[1 - swept] |= MATTO_BIT
        if swept == dealer_team:
            pl[swept] &= ~discard
            pl[1 - swept] |= discard
    owner_team, taker_team = matto[0] & 1, matto[1] & 1
    if owner_team != taker_team and swept != owner_team:
        # rules §5: the Matto stays with its team, which owes the takers one card
        card = settle_matto(pl[owner_team], pl[1 - owner_team])
        pl[owner_team] ^= BIT[card]
        pl[1 - owner_team] |= BIT[card]
    ns_pile, ew_pile = pl
    ns = (2 * PACK.points_of(ns_pile) - popcount(ns_pile)) // 2
    ew = (2 * PACK.points_of(ew_pile) - popcount(ew_pile)) // 2
    ns += combination_value(ns_pile) + declared[0]
    ew += combination_value(ew_pile) + declared[1]
    if last & 1:
        ew += LAST_TRICK_BONUS
    else:
        ns += LAST_TRICK_BONUS
    return ns, ew


def totals(pos: Pos) -> tuple[int, int]:
    """Return the final (NS, EW) totals of a finished position."""
    return score(pos.piles, pos.won[1], pos.matto, pos.last, pos.declared, pos.dealer, pos.discard)


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
    """Play the deal to its end with the greedy policy (a random legal card with chance eps;
    every player declares what it holds); return the final (NS, EW) totals. The actions
    taken are appended to moves if given."""
    h0, h1, h2, h3 = pos.hands
    hands = [h0, h1, h2, h3]
    p = pos.to_move
    if p < 0:
        return totals(pos)
    piles = [pos.piles[0], pos.piles[1]]
    won = [pos.won[0], pos.won[1]]
    declared = [pos.declared[0], pos.declared[1]]
    decided = pos.decided
    owner, taker = pos.matto
    last = pos.last
    rnd = rng.random
    beat, led_of = BEAT, LED_MASK
    lead, follow = policy.lead, policy.follow
    trump_mask, matto_bit = TRUMP_MASK, MATTO_BIT
    top, top_seat, led, n, cards = -1, -1, 0, 0, 0
    for c in pos.trick:
        seat = (p - len(pos.trick) + n) & 3
        n += 1
        cards |= BIT[c]
        if c == MATTO:
            continue
        if not led:
            led = led_of[c]
        if top < 0 or beat[top] >> c & 1:
            top, top_seat = c, seat
    deciding = pos.deciding
    left = popcount(h0 | h1 | h2 | h3)
    while left:
        hand = hands[p]
        if deciding or (not won[0] + won[1] and not decided >> p & 1):
            # rules §3: declare or pass at the first turn; a playout declares all it holds
            value = combination_value(hand)
            if value:
                declared[p & 1] += value
                if moves is not None:
                    moves.append(DECLARE_ACTION)
            decided |= 1 << p
            deciding = False
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
        cards |= 1 << card
        if card == MATTO:
            owner = p
        else:
            if not led:
                led = led_of[card]
            if top < 0 or beat[top] >> card & 1:
                top, top_seat = card, p
        if n < 3:
            n += 1
            p = (p + 1) & 3
            continue
        real = cards & ~matto_bit
        piles[top_seat & 1] |= real
        if real != cards:
            piles[owner & 1] |= matto_bit
            taker = top_seat
        won[top_seat & 1] += 1
        last = p = top_seat
        top, top_seat, led, n, cards = -1, -1, 0, 0, 0
    return score(piles, won[1], (owner, taker), last, declared, pos.dealer, pos.discard)


def seeded_playout(
    pos: Pos,
    seed: int,
    eps: float = 0.0,
    policy: Policy | Players = POLICY,
    moves: list[int] | None = None,
) -> tuple[int, int]:
    """Play the deal to its end as `playout` does, compiled (`tarocchi.bots.compiled`): the
    same players and declarations, with random moves (chance eps) fixed by the seed; or,
    given heuristic `Players`, with the compiled heuristic players (who make no random
    moves and declare as the heuristic bot does). Return the final (NS, EW) totals; the
    actions taken are appended to moves if given."""
    p = pos.to_move
    if p < 0:
        return totals(pos)
    if isinstance(policy, Players):
        if eps:
            raise ValueError("the heuristic players make no random moves (eps must be 0)")
        h = policy.playout(pos, moves is not None)
        if moves is not None:
            moves.extend(h.moves)
        return score(h.piles, h.won[1], h.matto, h.last, h.declared, pos.dealer, pos.discard)
    declared = [pos.declared[0], pos.declared[1]]
    declaring = 0  # rules §3: in trick 1 every seat yet to decide declares what it holds
    if not pos.won[0] + pos.won[1]:
        for s in range(4):
            if not pos.decided >> s & 1:
                value = combination_value(pos.hands[s])
                if value:
                    declared[s & 1] += value
                    declaring |= 1 << s
    out = compiled.playout(
        COMPILED, policy is POLICY, pos.hands, p, pos.trick, pos.won, eps, seed,
        moves is not None,
    )  # fmt: skip
    if moves is not None:
        for i, card in enumerate(out.moves):
            seat = (p + i) & 3
            if i < 4 and declaring >> seat & 1:
                moves.append(DECLARE_ACTION)  # before its first card (trick 1 only)
            moves.append(card)
    piles = [pos.piles[0] | out.piles[0], pos.piles[1] | out.piles[1]]
    matto = pos.matto
    if out.owner >= 0:
        piles[out.owner & 1] |= MATTO_BIT  # rules §4: the Matto returns to its team
        matto = (out.owner, out.taker)
    return score(piles, out.won[1], matto, out.last, declared, pos.dealer, pos.discard)


def heuristic_players(view: View) -> Players:
    """Return the compiled heuristic players who know what the view's history shows."""
    return Players(view)


__all__ = ["PASS_ACTION", "Pos", "from_state", "legal", "play", "playout", "totals"]


# the past plays replayed on a sampled deal (`tarocchi.bots.likelihood`)
replay = compiled.replay

value = totals  # a team's value at the end is its total
