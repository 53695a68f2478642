"""Hints: the legal actions ranked by the fair valuation, each with its value and a reason.

`suggest(view)` is what the terminal's `?` and the web app's hint button show: the
valuation the review gives the same decision (`tarocchi.bots.valuation.valuate`, seeded
by the view, so asking twice gives the same answer and the review agrees with it), every
legal action valued, best first, each explained in a few words from what the view shows:
the trick, the partner, the points at stake.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from tarocchi.bots.inference import partner
from tarocchi.bots.valuation import valuate
from tarocchi.cards import FOOL, SUIT_NAMES_EN, TRUMPS
from tarocchi.i18n import Msg, nmsg
from tarocchi.views import View


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One ranked action: its id and code, the expected final margin, and why."""

    action: int
    code: str
    # the expected final margin for the player's team, in the game's unit (Minchiate: net
    # resti plus the raw point lead over 60), as the review values it
    value: float
    reason: str


def suggest(view: View, factor: float = 1.0) -> list[Suggestion]:
    """Return the legal actions of a view, best first, with values and reasons (factor:
    times the valuation's playouts; 1 gives the review's values)."""
    if not view.legal:
        return []
    rules = view.rules
    return [
        Suggestion(c.action, rules.action_code(c.action), round(c.value, 2), reason(view, c.action))
        for c in valuate(view, factor=factor).choices
    ]


class HintJson(TypedDict):
    """A hint, JSON-ready: the action's code, its value and the reason."""

    action: str
    value: float
    reason: str


def to_json(suggestions: list[Suggestion]) -> list[HintJson]:
    """Return hints in a JSON-ready form (action codes, values, reasons), best first."""
    return [{"action": s.code, "value": s.value, "reason": s.reason} for s in suggestions]


def reason(view: View, action: int) -> str:
    """Return a few words on what an action does, from what the view shows."""
    rules = view.rules
    pack = rules.pack
    if action >= pack.size:
        return _extra_reason(view, action)
    name = pack.cards[action]
    points = pack.points[action]
    if view.phase == "discard":
        if not rules.discard_counts:
            return Msg("discard %(card)s: it is worthless and goes to the Fola", card=name)
        return nmsg(
            "discard %(card)s: banks %(n)d point for your team and shortens your hand",
            "discard %(card)s: banks %(n)d points for your team and shortens your hand",
            points,
            card=name,
        )
    suit = pack.suit_of[action]
    mate = partner(view.seat)
    if suit == FOOL:
        if not view.trick:
            return Msg("lead the Matto: it cannot win, so the next player chooses the suit")
        return Msg("play the Matto: it never wins, but its points stay with your team")
    if not view.trick:
        if _partner_led(view, suit, mate):
            return Msg("lead %(suit)s back: your partner led that suit", suit=SUIT_NAMES_EN[suit])
        if suit == TRUMPS:
            return Msg("lead %(card)s: draws the opponents' trumps", card=name)
        return Msg("lead %(card)s", card=name)
    before = rules.winning_play(view.trick)
    after = rules.winning_play((*view.trick, (view.seat, action)))
    at_stake = sum(pack.points[c] for _, c in view.trick if c != pack.matto)
    last = len(view.trick) == 3
    if before is not None and before[0] == mate:
        if after is not None and after[0] == view.seat:
            return Msg("overtakes your partner's %(card)s", card=pack.cards[before[1]])
        if points > 1:
            return nmsg(
                "gives %(n)d point to the trick your partner is winning",
                "gives %(n)d points to the trick your partner is winning",
                points,
            )
        return Msg("plays low under your partner's winning card")
    if after is not None and after[0] == view.seat:
        total = at_stake + points
        if last:
            return nmsg("takes the trick (%(n)d point)", "takes the trick (%(n)d points)", total)
        return nmsg(
            "wins the trick for now (%(n)d point so far)",
            "wins the trick for now (%(n)d points so far)",
            total,
        )
    if points > 1:
        return nmsg(
            "gives %(n)d point to the opponents' trick",
            "gives %(n)d points to the opponents' trick",
            points,
        )
    return Msg("does not win the trick, and gives the opponents little")


def _partner_led(view: View, suit: int, mate: int) -> bool:
    """Return True if the partner has led a card of suit (not trumps) in an earlier trick."""
    suit_of = view.rules.pack.suit_of
    for trick in view.tricks:
        lead = next(((s, c) for s, c in trick if suit_of[c] != FOOL), None)
        if lead is not None and lead[0] == mate and suit_of[lead[1]] == suit != TRUMPS:
            return True
    return False


PASS_REASON = Msg("keep your hand hidden and score no declaration")
DONE_REASON = Msg("declare nothing more and keep the rest of your hand hidden")


def _extra_reason(view: View, action: int) -> str:
    """Return the reason of an action that is not a card (a declaration choice): what it
    declares and scores, from the view's own hand."""
    rules = view.rules
    detail = rules.action_detail(view.hand, action)
    if detail.points is None:
        return PASS_REASON if rules.action_code(action) == "PASS" else DONE_REASON
    return nmsg(
        "score %(n)d point now for %(what)s, showing those cards",
        "score %(n)d points now for %(what)s, showing those cards",
        detail.points,
        what=detail.what,
    )
