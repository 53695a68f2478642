"""What a seat can infer from its view: unseen cards, revealed voids, who is winning the trick.

Every bot and the belief sampler reason from these; each function reads only a
View, so nothing here can reach a hidden card.
"""

from __future__ import annotations

from tarocchi.cards import FOOL, TRUMPS
from tarocchi.games.base import led_suit
from tarocchi.views import View


def unseen(view: View) -> int:
    """Return the cards whose place the seat does not know (in other hands, or hidden aside)."""
    return view.rules.pack.full_mask & ~view.known


def partner(seat: int) -> int:
    """Return the partner's seat."""
    return (seat + 2) & 3


def void_masks(view: View) -> tuple[int, int, int, int]:
    """Return, per seat, the cards it cannot hold because it failed to follow suit or to trump.

    Rules (all three games): follow the led suit, else trump, else any card. A
    player who did not follow is void in the led suit; one who then played
    neither the suit nor a trump is void in trumps too. The Matto reveals nothing.
    """
    pack = view.rules.pack
    suit_of = pack.suit_of
    out = [0, 0, 0, 0]
    for trick in (*view.tricks, view.trick):
        for i, (seat, card) in enumerate(trick):
            s = suit_of[card]
            if s == FOOL:
                continue
            led = led_suit(trick[:i], suit_of)
            if led is None or s == led:
                continue
            out[seat] |= pack.suit_mask[led]
            if s != TRUMPS:
                out[seat] |= pack.trump_mask
    return out[0], out[1], out[2], out[3]


def winning_play(view: View) -> tuple[int, int] | None:
    """Return (seat, card) of the play currently winning the trick, or None if none can win."""
    return view.rules.winning_play(view.trick)
