"""The one view function, and views in JSON: everything a seat may know, and nothing more.

Bots, the terminal, the web page and the adapters see a deal only through
`view(state, seat)`. A view holds the seat's own hand, the public history (every
card played, by whom, and who won each trick), public announcements, cards known
to be in other hands (declared or exposed), cards only this seat knows (its own
discard), hand sizes, and the legal actions when it is this seat's turn. The
result, with every pile, is public once the deal is over. The `View` itself is built by
the rules (`TrickGame.view`, `tarocchi.games.base.View`); this module gives its forms.
"""

from __future__ import annotations

from typing import Any

from tarocchi.cards import TEAMS, Pack, bits
from tarocchi.games import game
from tarocchi.games.base import Event, GameState, Result, Trick, TrickGame, View
from tarocchi.i18n import Msg, Translator, translator

__all__ = [
    "Trick",
    "View",
    "changes",
    "event_to_json",
    "refusals",
    "result_to_json",
    "to_json",
    "view",
]

ENGLISH = translator("en")


def view(state: GameState, seat: int) -> View:
    """Return what seat may know of state."""
    return game(state.GAME).view(state, seat)


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
