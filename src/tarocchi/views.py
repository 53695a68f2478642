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

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, Literal, NotRequired, TypedDict

from tarocchi.cards import SEATS, TEAMS, Pack, bits
from tarocchi.games import game
from tarocchi.games.base import Event, GameState, Result, Rules, Tally, exact
from tarocchi.games.base import Trick as Trick  # the View and its parts, built by the rules
from tarocchi.games.base import View as View
from tarocchi.games.minchiate_ledger import plural_resti
from tarocchi.games.replay import iter_replay
from tarocchi.i18n import N_, Msg, Translator, nmsg, translator

ENGLISH = translator("en")
WATCHER = -1  # the seat of a public view: no seat's


def view(state: GameState, seat: int) -> View:
    """Return what seat may know of state."""
    return game(state.GAME).view(state, seat)


def public_view(state: GameState) -> View:
    """Return what anyone watching the table may know of state: a seat's view without its
    hand, its own cards laid aside and its legal actions (the cards played, the public
    events, the cards every seat knows of, each hand's size; every hand once it is over)."""
    return replace(view(state, 0), seat=WATCHER, hand=0, legal=(), private=0)


class PlayJson(TypedDict):
    """A card played to a trick, JSON-ready: its seat and its code."""

    seat: int
    card: str


class DetailJson(TypedDict):
    """What an action that is not a card does, JSON-ready (`detail_to_json`)."""

    code: str
    label: str
    cards: list[str]
    points: int | None


class PartJson(TypedDict):
    """One part of a running score, JSON-ready, by team ("NS", "EW")."""

    label: str
    NS: float
    EW: float
    note: str


class TallyJson(TypedDict):
    """A running score, JSON-ready (`tally_to_json`): totals by team, unit, how, parts."""

    NS: float
    EW: float
    unit: str
    how: str
    parts: list[PartJson]


class EventJson(TypedDict):
    """A public event, JSON-ready (`event_to_json`)."""

    kind: str
    seat: int | None
    cards: list[str]  # card codes
    value: int
    text: str  # in the reader's language


# One thing a seat saw happen, JSON-ready (`changes`, `witness`, `history`), by its "type":
# a card played, a trick won, a public event or a card laid aside, each with its sentence.


class PlayEntry(TypedDict):
    """A card played to trick number `trick` (from 1)."""

    type: Literal["play"]
    seat: int
    card: str
    trick: int
    text: str


class TrickEntry(TypedDict):
    """A trick won: what it adds to the winner's team, and to each team by "NS" and "EW"."""

    type: Literal["trick"]
    trick: int
    winner: int
    points: float
    scores: dict[str, float]
    text: str


class EventEntry(EventJson):
    """A public event."""

    type: Literal["event"]


class AsideEntry(TypedDict):
    """A card laid aside face down: which, to its own seat only."""

    type: Literal["aside"]
    seat: int
    card: NotRequired[str]
    text: str


Entry = PlayEntry | TrickEntry | EventEntry | AsideEntry


def to_json(v: View, tr: Translator = ENGLISH) -> dict[str, Any]:
    """Return a JSON-ready form of a view, with cards and actions as text codes and the
    texts (events, the result's lines) in tr's language."""
    rules = v.rules
    codes = rules.pack.codes

    def cards(mask: int) -> list[str]:
        return [codes[c] for c in bits(mask)]

    def plays(trick: Trick) -> list[PlayJson]:
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
        # the cards this seat must still lay aside, at its turn to discard (rules §2)
        "to_lay_aside": max(0, v.hand.bit_count() - rules.hand_size)
        if v.phase == "discard" and v.to_move == v.seat
        else 0,
        "over": v.result is not None,
        "action_details": [
            detail_to_json(rules, v.hand, a, tr) for a in v.legal if a >= rules.pack.size
        ],
        "score": tally_to_json(rules.tally(v), tr),
    }
    if v.result is not None:
        out["result"] = result_to_json(rules, v.result, tr)
        out["result"]["headline"] = tr.text(headline(rules, v.result))
    return out


def detail_to_json(rules: Rules, hand: int, action: int, tr: Translator) -> DetailJson:
    """Return what an action that is not a card does, for a seat holding hand: its code, a
    sentence in tr's language, the codes of the cards involved and its points (or None)."""
    d = rules.action_detail(hand, action)
    return {
        "code": rules.action_code(action),
        "label": tr.text(d.label),
        "cards": rules.pack.codes_of(d.cards),
        "points": d.points,
    }


def tally_to_json(t: Tally, tr: Translator) -> TallyJson:
    """Return a running score JSON-ready: totals, unit, how it is counted and its parts."""
    return {
        "NS": exact(t.ns),
        "EW": exact(t.ew),
        "unit": t.unit,
        "how": tr.text(t.how),
        "parts": [
            {
                "label": tr.text(x.label),
                "NS": exact(x.ns),
                "EW": exact(x.ew),
                "note": tr.text(x.note),
            }
            for x in t.parts
        ],
    }


def event_to_json(pack: Pack, e: Event, tr: Translator = ENGLISH) -> EventJson:
    """Return a JSON-ready form of a public event, its text in tr's language."""
    return {
        "kind": e.kind,
        "seat": e.seat,
        "cards": pack.codes_of(e.cards),
        "value": e.value,
        "text": tr.text(e.text),
    }


def changes(before: View | None, after: View, tr: Translator = ENGLISH) -> list[Entry]:
    """Return what became visible to a seat between two of its views, in order, JSON-ready:
    a card play and the trick it finished, then the public events it led to (a score, the
    next player's pass); finished tricks with their winner and what they add
    to each team's running score (counted as the game counts, see `TrickGame.tally`), each
    with its text in tr's language."""
    rules = after.rules
    pack = rules.pack
    out: list[Entry] = []
    old_plays = sum(len(t) for t in before.tricks) + len(before.trick) if before else 0
    plays = [p for t in after.tricks for p in t] + list(after.trick)
    for i in range(old_plays, len(plays)):
        seat, card = plays[i]
        text = tr.text(Msg(PLAYS, seat=SEATS[seat], card=pack.cards[card]))
        out.append({"type": "play", "seat": seat, "card": pack.codes[card], "trick": i // 4 + 1,
                    "text": text})  # fmt: skip
        if i % 4 == 3 and i // 4 < len(after.winners):
            out.append(trick_entry(rules, i // 4, after.tricks[i // 4], after.winners[i // 4], tr))
    seen_events = len(before.events) if before else 0
    for e in after.events[seen_events:]:
        out.append({"type": "event", **event_to_json(pack, e, tr)})
    return out


PLAYS = N_("%(seat)s plays %(card)s.")


def trick_entry(rules: Rules, index: int, trick: Trick, winner: int, tr: Translator) -> Entry:
    """Return the history entry of a finished trick: its winner and what it adds to each
    team's running score, with a sentence saying so."""
    ns, ew = rules.trick_points(trick, winner)
    mine, theirs = (ns, ew) if winner & 1 == 0 else (ew, ns)
    if theirs:
        text = Msg(
            "%(seat)s wins trick %(trick)d: %(ns)s to North-South, %(ew)s to East-West.",
            seat=SEATS[winner],
            trick=index + 1,
            ns=points_text(ns),
            ew=points_text(ew),
        )
    else:
        text = Msg(
            "%(seat)s wins trick %(trick)d (%(points)s).",
            seat=SEATS[winner],
            trick=index + 1,
            points=points_text(mine),
        )
    return {"type": "trick", "trick": index + 1, "winner": winner, "points": exact(mine),
            "scores": {"NS": exact(ns), "EW": exact(ew)}, "text": tr.text(text)}  # fmt: skip


def points_text(points: float) -> Msg:
    """Return "1 point", "3 points" or "4.5 points" (a half takes the plural)."""
    whole = exact(points)
    n = whole if isinstance(whole, int) else 2
    return nmsg("%(points)s point", "%(points)s points", n, points=whole)


def step(
    rules: Rules, state: GameState, action: int, seat: int, before: View, tr: Translator
) -> tuple[GameState, View, list[Entry]]:
    """Apply an action; return the new state, seat's new view and what seat saw change."""
    mover = state.to_move
    state = rules.apply(state, action)
    assert mover is not None  # apply refuses any action once the deal is over
    return (state, *witness(rules, mover, action, state, seat, before, tr))


def witness(
    rules: Rules,
    mover: int,
    action: int,
    state: GameState,
    seat: int,
    before: View,
    tr: Translator,
) -> tuple[View, list[Entry]]:
    """Return seat's view of state, reached by mover's action, and what seat saw change. A
    card that was not played to a trick was laid aside face down: seat learns that (and which
    card, if it is its own)."""
    after = view(state, seat)
    seen = changes(before, after, tr)
    if action < rules.pack.size and not any(c["type"] == "play" for c in seen):
        aside: AsideEntry
        if mover == seat:
            card = rules.pack.cards[action]
            aside = {"type": "aside", "seat": mover, "card": card.code,
                     "text": tr.text(Msg(LAYS_CARD, seat=SEATS[mover], card=card))}  # fmt: skip
        else:
            aside = {"type": "aside", "seat": mover,
                     "text": tr.text(Msg(LAYS_ASIDE, seat=SEATS[mover]))}  # fmt: skip
        seen.insert(0, aside)
    return after, seen


LAYS_CARD = N_("%(seat)s lays %(card)s aside.")
LAYS_ASIDE = N_("%(seat)s lays a card aside face down.")


def history(
    rules: Rules, seed: int, log: Iterable[tuple[int, str]], seat: int, tr: Translator
) -> list[Entry]:
    """Return everything seat saw happen in the deal of seed after its action log (seat,
    code), in play order: the entries of the deal's opening view, then what each action
    showed (`witness`), built from seat's successive views only; ReplayError for a log the
    rules refuse."""
    dealt = rules.deal(seed)
    before = view(dealt, seat)
    seen = changes(None, before, tr)
    for mover, action, state in iter_replay(rules, dealt, log):
        before, shown = witness(rules, mover, action, state, seat, before, tr)
        seen += shown
    return seen


def refusals(state: GameState, seat: int) -> dict[int, str]:
    """Return, when seat is to act, the reason each card of its hand may not be played now."""
    if state.to_move != seat:
        return {}
    rules = game(state.GAME)
    legal = set(rules.legal_actions(state))
    return {c: rules.illegal_reason(state, c) for c in bits(state.hands[seat]) if c not in legal}


def result_to_json(rules: Rules, r: Result, tr: Translator = ENGLISH) -> dict[str, Any]:
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


VERDICTS = {"NS": N_("North-South win."), "EW": N_("East-West win."), "draw": N_("A draw.")}


def headline(rules: Rules, r: Result) -> Msg:
    """Return the result in a sentence, naming its unit: "East-West win. North-South 0 resti,
    East-West 3 resti." """
    return Msg(
        "%(verdict)s North-South %(ns)s, East-West %(ew)s.",
        verdict=Msg(VERDICTS[r.winner]),
        ns=amount(rules.unit, r.ns),
        ew=amount(rules.unit, r.ew),
    )


def amount(unit: str, x: float) -> Msg:
    """Return an amount in a game's unit: "1 point", "4.5 points", "1 resto", "3 resti"."""
    if unit == "resti":
        return plural_resti(int(x))
    return points_text(x)


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
