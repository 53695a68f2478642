"""The one view function: everything a seat may know about a deal, and nothing more.

Bots, the terminal, the web page and the adapters see a deal only through
`view(state, seat)`. A view holds the seat's own hand, the public history (every
card played, by whom, and who won each trick), public announcements, cards known
to be in other hands (declared or exposed), cards only this seat knows (its own
discard), hand sizes, and the legal actions when it is this seat's turn. The
result, with every pile, is public once the deal is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tarocchi.cards import SEATS, TEAMS, Pack, bits, popcount
from tarocchi.games import game
from tarocchi.games.base import Event, GameState, Result, TrickGame
from tarocchi.i18n import Msg, Translator, translator

Trick = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class View:
    """What one seat knows at one moment of a deal."""

    game: str
    seat: int
    phase: str
    dealer: int
    to_move: int | None
    hand: int  # mask of the seat's own cards
    legal: tuple[int, ...]  # legal action ids; empty unless it is this seat's turn
    hand_sizes: tuple[int, int, int, int]
    leader: int  # who led (or leads) the current trick
    trick: Trick  # (seat, card) of the current trick, in play order
    tricks: tuple[Trick, ...]  # every finished trick
    winners: tuple[int, ...]  # the winner of each finished trick
    won: tuple[int, int]  # cards each team has visibly taken so far
    events: tuple[Event, ...]  # public announcements, in order
    shown: tuple[int, int, int, int]  # cards every seat knows are in each hand
    private: int  # cards outside the hand that only this seat knows (its own discard)
    result: Result | None  # the final result once the deal is over

    @property
    def rules(self) -> TrickGame:
        """Return the rules object of this view's game."""
        return game(self.game)

    @property
    def played(self) -> int:
        """Return the mask of every card played to a trick so far."""
        m = 0
        for t in (*self.tricks, self.trick):
            for _, c in t:
                m |= 1 << c
        return m

    @property
    def known(self) -> int:
        """Return every card whose place this seat knows (hand, played, shown, private)."""
        return (
            self.hand
            | self.played
            | self.private
            | _or(self.shown)
            | _or(tuple(e.cards for e in self.events))
        )


def _or(masks: tuple[int, ...]) -> int:
    m = 0
    for x in masks:
        m |= x
    return m


ENGLISH = translator("en")


def view(state: GameState, seat: int) -> View:
    """Return what seat may know of state."""
    rules = game(state.GAME)
    over = state.to_move is None
    hands = state.hands
    my_turn = state.to_move == seat
    return View(
        game=rules.name,
        seat=seat,
        phase=rules.phase_name(state),
        dealer=state.dealer,
        to_move=state.to_move,
        hand=hands[seat],
        legal=tuple(rules.legal_actions(state)) if my_turn else (),
        hand_sizes=(
            popcount(hands[0]),
            popcount(hands[1]),
            popcount(hands[2]),
            popcount(hands[3]),
        ),
        leader=state.leader,
        trick=state.trick,
        tricks=rules.finished_tricks(state),
        winners=state.winners,
        won=rules.public_piles(state),
        events=rules.public_events(state),
        shown=rules.shown_cards(state),
        private=rules.private_cards(state, seat),
        result=rules.result(state) if over else None,
    )


def to_json(v: View, tr: Translator = ENGLISH) -> dict[str, Any]:
    """Return a JSON-ready form of a view, with cards and actions as text codes and the
    texts (events, the result's lines) in tr's language."""
    rules = v.rules
    codes = rules.pack.codes

    def cards(mask: int) -> list[str]:
        return [codes[c] for c in bits(mask)]

    def plays(trick: Trick) -> list[dict[str, Any]]:
        return [{"seat": s, "card": codes[c]} for s, c in trick]

    out: dict[str, Any] = {
        "game": v.game,
        "seat": v.seat,
        "phase": v.phase,
        "dealer": v.dealer,
        "to_move": v.to_move,
        "hand": [codes[c] for c in sorted(bits(v.hand), key=rules.pack.sort_key)],
        "legal": [rules.action_code(a) for a in v.legal],
        "hand_sizes": list(v.hand_sizes),
        "leader": v.leader,
        "trick": plays(v.trick),
        "tricks": [
            {"plays": plays(t), "winner": w} for t, w in zip(v.tricks, v.winners, strict=True)
        ],
        "won": {TEAMS[t]: cards(v.won[t]) for t in (0, 1)},
        "events": [event_to_json(rules.pack, e, tr) for e in v.events],
        "shown": [cards(m) for m in v.shown],
        "private": cards(v.private),
        "over": v.result is not None,
    }
    if v.result is not None:
        out["result"] = result_to_json(rules, v.result, tr)
    return out


def event_to_json(pack: Pack, e: Event, tr: Translator = ENGLISH) -> dict[str, Any]:
    """Return a JSON-ready form of a public event, its text in tr's language."""
    return {
        "kind": e.kind,
        "seat": e.seat,
        "cards": pack.codes_of(e.cards),
        "value": e.value,
        "text": tr.text(e.text),
    }


def changes(before: View | None, after: View, tr: Translator = ENGLISH) -> list[dict[str, Any]]:
    """Return what became visible to a seat between two of its views, in order, JSON-ready:
    new public events (texts in tr's language), card plays, and finished tricks with their
    winner and card points."""
    rules = after.rules
    pack = rules.pack
    out: list[dict[str, Any]] = []
    seen_events = len(before.events) if before else 0
    for e in after.events[seen_events:]:
        out.append({"type": "event", **event_to_json(pack, e, tr)})
    old_plays = sum(len(t) for t in before.tricks) + len(before.trick) if before else 0
    plays = [p for t in after.tricks for p in t] + list(after.trick)
    for i in range(old_plays, len(plays)):
        seat, card = plays[i]
        out.append({"type": "play", "seat": seat, "card": pack.codes[card], "trick": i // 4 + 1})
        if i % 4 == 3 and i // 4 < len(after.winners):
            trick = after.tricks[i // 4]
            points = sum(pack.points[c] for _, c in trick if c != pack.matto)
            winner = after.winners[i // 4]
            out.append({"type": "trick", "trick": i // 4 + 1, "winner": winner, "points": points})
    return out


def refusals(state: GameState, seat: int) -> dict[int, str]:
    """Return, when seat is to act, the reason each card of its hand may not be played now."""
    if state.to_move != seat:
        return {}
    rules = game(state.GAME)
    legal = set(rules.legal_actions(state))
    return {c: rules.illegal_reason(state, c) for c in bits(state.hands[seat]) if c not in legal}


def result_to_json(rules: TrickGame, r: Result, tr: Translator = ENGLISH) -> dict[str, Any]:
    """Return a JSON-ready form of a result, its lines in tr's language."""
    out: dict[str, Any] = {
        "ns": r.ns,
        "ew": r.ew,
        "winner": r.winner,
        "lines": [
            {"label": tr.text(x.label), "ns": x.ns, "ew": x.ew, "note": tr.text(x.note)}
            for x in r.lines
        ],
        "piles": {TEAMS[t]: rules.pack.codes_of(r.piles[t]) for t in (0, 1)},
    }
    for key, value in r.extra:
        out[key] = _plain(value, tr)
    return out


def _plain(value: Any, tr: Translator) -> Any:
    """Return value with tuples turned into lists, as JSON would read it back, and texts in
    tr's language."""
    if isinstance(value, tuple | list):
        return [_plain(v, tr) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v, tr) for k, v in value.items()}
    if isinstance(value, Msg):
        return tr.text(value)
    return value


def seat_name(seat: int) -> str:
    """Return "South", "East", "North" or "West"."""
    return SEATS[seat]
