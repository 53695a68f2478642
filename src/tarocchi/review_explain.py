"""What the review says beside its values: why the estimate moved, what a costly choice lost,
and where each decision stood.

- Swings: between two of the seat's valued decisions (and from its last one to the end) the
  change of its team's estimated final margin, split into what caused it: the cards up to the
  end of a trick (each named, a void shown, who took the trick and the cards that count in
  it), then the cards after it. The position at a trick's end is valued by the review's fair
  search from the seat's view at that moment (so it never reads a card the seat could not see
  then); the end is the search's own count of the finished deal, so a forced last card's
  value and the end agree (Minchiate: resti and the point lead, as the search counts them).
  Only moves at least as large as the game's mistake threshold are split, as each costs a
  search: those are the ones the graph and the list label.
- Lessons: what a costly choice lost, from its position, the deal being over (every hand is
  public then): the trick and the points it gave the opponents, the card that beat it, the
  partner's trick it overtook; and what the better choice would have done there.
- Positions: the hand and the trick so far as the seat saw them at each decision (the replay
  opens there).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tarocchi.bots.hints import reason
from tarocchi.bots.inference import partner
from tarocchi.bots.likelihood import Chains, Replay
from tarocchi.bots.parts import belief, search_parts
from tarocchi.bots.search import Draw, SearchBot
from tarocchi.cards import FOOL, SUIT_NAMES_EN, TRUMPS, team_of
from tarocchi.games.base import GameState, Rules, mover
from tarocchi.i18n import N_, SEATS, Msg, Translator, joined, nmsg
from tarocchi.views import View, view

TEAMS = (N_("North and South"), N_("East and West"))


@dataclass(frozen=True, slots=True)
class Cause:
    """One part of a swing: the action (or the actions, when a position between them is one
    the search does not value) and how much the estimate changed with it."""

    index: int  # the (last) action's place in the record
    trick: int  # its trick (1-based)
    change: float
    label: str  # a Msg: what happened


@dataclass(frozen=True, slots=True)
class Swing:
    """The change of the estimate between two points of the graph (after the seat's choice,
    at its next turn or the end), split into its causes (their changes sum to it)."""

    start: int  # the graph's index of its first point
    end: int
    before: float
    after: float
    causes: tuple[Cause, ...]

    @property
    def change(self) -> float:
        """Return the swing's size, signed."""
        return round(self.after - self.before, 2)


@dataclass(frozen=True, slots=True)
class Lesson:
    """What a costly decision's choice lost, and what the best choice would have done."""

    decision: int  # its place in the review's decisions
    made: str  # a Msg (or the hint's reason, outside trick play)
    best: str


@dataclass(frozen=True, slots=True)
class Position:
    """The seat's decision as it saw it: its hand and the trick so far."""

    index: int  # the action's place in the record
    trick: int  # 1-based; 0 before the first trick
    hand: tuple[str, ...]
    plays: tuple[tuple[int, str], ...]  # (seat, card) of the trick so far


# -- positions ---------------------------------------------------------------------------------


def positions(
    rules: Rules, states: Sequence[GameState], seat: int, indices: Sequence[int]
) -> tuple[Position, ...]:
    """Return the seat's view of each decision at the given places of a record."""
    codes = rules.pack.codes
    out = []
    for i in indices:
        v = view(states[i], seat)
        trick = len(v.tricks) + 1 if v.phase == "play" else 0
        hand = tuple(codes[c] for c in range(rules.pack.size) if v.hand >> c & 1)
        plays = tuple((s, codes[c]) for s, c in v.trick)
        out.append(Position(i, trick, hand, plays))
    return tuple(out)


# -- swings ------------------------------------------------------------------------------------


def position_value(rules: Rules, state: GameState, seat: int, bot: SearchBot) -> float | None:
    """Return the seat's team's estimated final margin at a position, from the seat's view
    there, as the bot's search counts margins (None: a phase the search does not play)."""
    k = bot.kernel
    team = team_of(seat)
    if state.to_move is None:
        totals = k.playout(k.from_state(state), None)
        return round(float(totals[team] - totals[1 - team]), 2)
    v = view(state, seat)
    if v.phase != "play":
        return None
    cfg = bot.cfg
    # a position between two decisions is searched on a share (1 in n, the game's
    # `position_share`) of the deals a decision is: its value only splits a change whose ends
    # the decisions' own searches give. (Measured: a position's value moves by 2.5 to 5
    # points from seed to seed at a quarter, the hard search's weighed deals being few and
    # alike; valuing every card's position so would take a quarter of a review's 20 s and
    # show that noise as causes: hence one position a trick.)
    share = search_parts(rules.name).position_share
    bot.cfg = replace(cfg, max_samples=max(cfg.min_samples, cfg.max_samples // share))
    known = belief(v)
    players = k.heuristic_players(v)
    draw: Draw = lambda: known.sample(bot.rng)  # noqa: E731
    if bot.cfg.infer and (v.tricks or v.trick):
        # weighed by the plays so far, as the search of the decisions around it weighs them
        replay = Replay(v, players)
        draw = Chains(
            known,
            lambda dealt: replay.log_weight(known.hands(dealt), known.discard(dealt)),
            bot.rng,
            bot.cfg.infer,
        )
    stats = bot.pimc(draw, v, (-1,), k.from_state, lambda pos, _key: (pos, players, -1))
    return round(stats[-1].mean, 2)


def split(
    rules: Rules,
    states: Sequence[GameState],
    actions: Sequence[int],
    seat: int,
    points: tuple[int, float, int, float],
    search: Callable[[int], SearchBot],
) -> Swing:
    """Split the change between two points of the graph (start, its value, end, its value)
    into the actions between: the ones up to a trick's end (its cards, voids shown, who took
    it and what), then the ones after it, each end of trick valued by search(its place)."""
    start, before, end, after = points
    causes: list[Cause] = []
    last, pending = before, []
    for m in range(start, end):
        pending.append(m)
        if m + 1 < end:
            if len(states[m + 1].winners) == len(states[m].winners):
                continue  # no trick ended: the next action's cause takes this one in
            value = position_value(rules, states[m + 1], seat, search(m + 1))
            if value is None:
                continue  # the next action's cause takes this one in
        else:
            value = after
        labels = [cause_label(rules, states, actions, seat, n) for n in pending]
        label = labels[0] if len(labels) == 1 else joined(labels, "; ")
        causes.append(Cause(m, trick_of(states[pending[0]]), round(value - last, 2), label))
        last, pending = value, []
    return Swing(start, end, before, after, tuple(causes))


def swings(
    rules: Rules,
    states: Sequence[GameState],
    actions: Sequence[int],
    seat: int,
    gaps: Sequence[tuple[int, float, int, float]],
    threshold: float,
    search: Callable[[int], SearchBot],
    known: Sequence[Swing] = (),
) -> tuple[Swing, ...]:
    """Return the swings of the gaps (start, value, end, value) between points of the graph
    that move by threshold or more, each split into its causes (those in known reused)."""
    found = {(s.start, s.end): s for s in known}
    out = []
    for gap in gaps:
        start, before, end, after = gap
        if abs(after - before) < threshold or end <= start:
            continue
        kept = found.get((start, end))
        ok = kept is not None and (kept.before, kept.after) == (before, after)
        out.append(kept if ok and kept is not None else split(rules, states, actions, seat,
                                                              gap, search))  # fmt: skip
    return tuple(out)


def trick_of(state: GameState) -> int:
    """Return the 1-based trick a state is in (or ends with)."""
    return len(state.winners) + (1 if state.trick else 0) or 1


def cause_label(
    rules: Rules, states: Sequence[GameState], actions: Sequence[int], seat: int, m: int
) -> Msg:
    """Return what the action at place m did, as the seat saw it: a trick taken (naming the
    cards that count in it; not the Matto, which its owner keeps), a void shown, or the card
    played."""
    pack = rules.pack
    actor, action = mover(states[m]), actions[m]
    if action >= pack.size:  # a declaration: what it showed, as the table saw it
        detail = rules.action_detail(states[m].hands[actor], action)
        if detail.points is None:
            return Msg("%(seat)s declared nothing more", seat=SEATS[actor])
        return nmsg("%(seat)s declared %(what)s (%(n)d point)",
                    "%(seat)s declared %(what)s (%(n)d points)", detail.points,
                    seat=SEATS[actor], what=detail.what)  # fmt: skip
    before, after = view(states[m], seat), view(states[m + 1], seat)
    said = []
    trick = (*before.trick, (actor, action))
    led = next((pack.suit_of[c] for _, c in trick if pack.suit_of[c] != FOOL), None)
    suit = pack.suit_of[action]
    void = before.phase == "play" and led is not None and suit not in (led, FOOL)
    if void and led is not None and not showed_void(before, actor, led):
        said.append(Msg("%(seat)s showed no %(suit)s", seat=SEATS[actor], suit=SUIT_NAMES_EN[led]))
    if len(after.tricks) > len(before.tricks):
        taken = after.tricks[-1]
        team = TEAMS[team_of(after.winners[-1])]
        counting = [pack.cards[c] for _, c in taken if pack.points[c] > 1 and c != pack.matto]
        if counting:
            said.append(Msg("%(team)s took %(cards)s", team=team, cards=joined(counting)))
        else:
            said.append(Msg("%(team)s took the trick", team=team))
    elif not said:
        said.append(Msg("%(seat)s played %(card)s", seat=SEATS[actor], card=pack.cards[action]))
    return said[0] if len(said) == 1 else joined(said, "; ")


def showed_void(v: View, seat: int, suit: int) -> bool:
    """Return True if seat already failed to follow suit in a finished trick."""
    suit_of = v.rules.pack.suit_of
    for t in v.tricks:
        led = next((suit_of[c] for _, c in t if suit_of[c] != FOOL), None)
        if led == suit and any(s == seat and suit_of[c] not in (suit, FOOL) for s, c in t):
            return True
    return False


# -- lessons -----------------------------------------------------------------------------------


def lesson(
    rules: Rules,
    states: Sequence[GameState],
    actions: Sequence[int],
    index: int,
    action: int,
) -> Msg | str:
    """Return what an action of the seat to move at place index did (the one made: what came
    of it in the deal) or would have done (another: from the position, every hand known)."""
    state = states[index]
    seat = mover(state)
    v = view(state, seat)
    if v.phase != "play" or action >= rules.pack.size:
        return reason(v, action)
    if action == actions[index]:
        return _made(rules, states, index, seat, action)
    return _instead(rules, state, seat, action)


def _made(rules: Rules, states: Sequence[GameState], index: int, seat: int, action: int) -> Msg:
    """Return what came of the card the seat played: who took its trick, with what."""
    pack = rules.pack
    v = view(states[index], seat)
    done = len(v.tricks)
    end = next(s for s in states[index + 1 :] if len(s.winners) > done)
    taken = view(end, seat).tricks[done]
    winner = end.winners[done]
    card = dict((s, c) for s, c in taken)[winner]
    n = sum(pack.points[c] for _, c in taken if c != pack.matto)
    before = rules.winning_play(v.trick)
    if team_of(winner) != team_of(seat):
        if pack.suit_of[action] == TRUMPS:
            return nmsg("spent %(mine)s, but %(seat)s's %(card)s beat it: the opponents took the "
                        "trick (%(n)d point)", "spent %(mine)s, but %(seat)s's %(card)s beat it: "
                        "the opponents took the trick (%(n)d points)", n, mine=pack.cards[action],
                        seat=SEATS[winner], card=pack.cards[card])  # fmt: skip
        return nmsg("%(seat)s took the trick with %(card)s: %(n)d point to the opponents",
                    "%(seat)s took the trick with %(card)s: %(n)d points to the opponents", n,
                    seat=SEATS[winner], card=pack.cards[card])  # fmt: skip
    if winner == seat and before is not None and before[0] == partner(seat):
        return Msg("spent %(mine)s on a trick your partner was already winning with %(card)s",
                   mine=pack.cards[action], card=pack.cards[before[1]])  # fmt: skip
    return nmsg("your team took the trick (%(n)d point): what it cost came in the later tricks",
                "your team took the trick (%(n)d points): what it cost came in the later tricks",
                n)  # fmt: skip


def _instead(rules: Rules, state: GameState, seat: int, action: int) -> Msg:
    """Return what another card would have done in the trick, the later seats' cards known:
    whether a card still out beats it, and the points it puts in."""
    pack = rules.pack
    plays = [*state.trick, (seat, action)]
    st = rules.apply(state, action)
    beaten = None
    while len(plays) < 4 and st.to_move is not None and len(st.winners) == len(state.winners):
        s = st.to_move
        legal = [c for c in rules.legal_actions(st) if c < pack.size]  # (not a declaration)
        if not legal:
            break
        beats = [c for c in legal if (rules.winning_play([*plays, (s, c)]) or (-1, -1))[0] == s]
        if beats and team_of(s) != team_of(seat) and beaten is None:
            beaten = (s, max(beats))
        pick = max(beats) if beats else min(legal)
        plays.append((s, pick))
        st = rules.apply(st, pick)
    mine = pack.points[action]
    won = rules.winning_play(plays)
    if beaten is None and won is not None and team_of(won[0]) == team_of(seat):
        n = sum(pack.points[c] for _, c in plays if c != pack.matto)
        return nmsg("no card still out could beat your team in this trick: %(n)d point for you",
                    "no card still out could beat your team in this trick: %(n)d points for you",
                    n)  # fmt: skip
    if beaten is not None:
        return nmsg("%(seat)s's %(card)s still out could beat it, but it puts only %(n)d point "
                    "in the trick", "%(seat)s's %(card)s still out could beat it, but it puts "
                    "only %(n)d points in the trick", mine, seat=SEATS[beaten[0]],
                    card=pack.cards[beaten[1]])  # fmt: skip
    return nmsg(
        "the opponents take this trick anyway, and it gives them only %(n)d point",
        "the opponents take this trick anyway, and it gives them only %(n)d points",
        mine,
    )


# -- the JSON form (the review's, `review.to_json`) ---------------------------------------------


def parts_to_json(
    swings: Sequence[Swing], lessons: Sequence[Lesson], positions: Sequence[Position],
    tr: Translator,
) -> dict[str, Any]:  # fmt: skip
    """Return the review's swings, lessons and positions in a JSON-ready form, their texts
    in tr's language."""
    return {
        "swings": [
            {"start": s.start, "end": s.end, "before": s.before, "after": s.after,
             "causes": [{"index": c.index, "trick": c.trick, "change": c.change,
                         "label": tr.text(c.label)} for c in s.causes]}
            for s in swings
        ],
        "lessons": [
            {"decision": x.decision, "made": tr.text(x.made), "best": tr.text(x.best)}
            for x in lessons
        ],
        "positions": [
            {"index": x.index, "trick": x.trick, "hand": list(x.hand),
             "plays": [{"seat": s, "card": c} for s, c in x.plays]}
            for x in positions
        ],
    }  # fmt: skip


def parts_from_json(
    data: dict[str, Any],
) -> tuple[tuple[Swing, ...], tuple[Lesson, ...], tuple[Position, ...]]:
    """Return the swings, lessons and positions a review's JSON form holds (none in a review
    stored before they were)."""
    swings = tuple(
        Swing(s["start"], s["end"], s["before"], s["after"],
              tuple(Cause(c["index"], c["trick"], c["change"], c["label"]) for c in s["causes"]))
        for s in data.get("swings", ())
    )  # fmt: skip
    lessons = tuple(Lesson(x["decision"], x["made"], x["best"]) for x in data.get("lessons", ()))
    positions = tuple(
        Position(x["index"], x["trick"], tuple(x["hand"]),
                 tuple((p["seat"], p["card"]) for p in x["plays"]))
        for x in data.get("positions", ())
    )  # fmt: skip
    return swings, lessons, positions
