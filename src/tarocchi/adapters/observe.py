"""What the adapters show a seat: an observation vector, an observation text and the
information-state text, each built from the seat's view and nothing else.

The vector is a fixed-size float32 array of 0s and 1s: one-hot planes for the
seat, the phase, the dealer, the player to move and the trick's leader, then
card planes over the pack (the hand, the seat's own discard, the cards each seat
has played, the current trick by seat, the cards each seat is known to hold,
the cards each team has taken). The information-state text holds the whole
view (hand, announcements, every trick in order), so two positions share it
exactly when the seat cannot tell them apart (perfect recall); the observation
text holds only the present (hand, current trick, cards taken).
"""

from __future__ import annotations

import numpy as np

from tarocchi.cards import SEATS, Pack, bits
from tarocchi.games.base import Rules
from tarocchi.views import View

# "dealing": the chance events of the deal are still being drawn, no seat has cards yet
PHASES = ("dealing", "discard", "declare", "play", "over")
SEAT_PLANES = 3  # the dealer, the player to move, the trick's leader
# hand, private, played by each seat, the trick by seat, shown per seat, taken per team
CARD_PLANES = 1 + 1 + 4 + 4 + 4 + 2


def action_count(rules: Rules) -> int:
    """Return the number of distinct action ids (the cards, then the extra actions)."""
    return rules.pack.size + len(rules.extra_actions)


def observation_size(rules: Rules) -> int:
    """Return the length of a game's observation vector."""
    return _length(rules.pack.size)


def _length(size: int) -> int:
    """Return the length of the observation vector over a pack of this size."""
    return 4 + len(PHASES) + 4 * SEAT_PLANES + CARD_PLANES * size


def observation(view: View) -> np.ndarray:
    """Return the seat's observation vector."""
    pack = view.rules.pack
    out = _blank(pack.size, view.seat, view.phase)
    seats = out[4 + len(PHASES) : 4 + len(PHASES) + 4 * SEAT_PLANES].reshape(SEAT_PLANES, 4)
    seats[0, view.dealer] = 1
    if view.to_move is not None:
        seats[1, view.to_move] = 1
    seats[2, view.leader] = 1
    planes = out[4 + len(PHASES) + 4 * SEAT_PLANES :].reshape(CARD_PLANES, pack.size)
    planes[0, bits(view.hand)] = 1
    planes[1, bits(view.private)] = 1
    for trick in view.tricks:
        for seat, card in trick:
            planes[2 + seat, card] = 1
    for seat, card in view.trick:
        planes[2 + seat, card] = 1
        planes[6 + seat, card] = 1
    for seat, mask in enumerate(view.shown):
        planes[10 + seat, bits(mask)] = 1
    for team, mask in enumerate(view.won):
        planes[14 + team, bits(mask)] = 1
    return out


def dealing_observation(rules: Rules, seat: int) -> np.ndarray:
    """Return a seat's observation vector while the deal is being drawn (nothing seen)."""
    return _blank(rules.pack.size, seat, "dealing")


def _blank(size: int, seat: int, phase: str) -> np.ndarray:
    """Return a zero vector with the seat's and the phase's one-hot planes set."""
    out = np.zeros(_length(size), np.float32)
    out[seat] = 1
    out[4 + PHASES.index(phase)] = 1
    return out


def observation_text(view: View) -> str:
    """Return the seat's present in a line: phase, hand, current trick, cards taken."""
    pack = view.rules.pack
    won = " ".join(f"{t}:{len(bits(m))}" for t, m in zip(("NS", "EW"), view.won, strict=True))
    return (
        f"{SEATS[view.seat]} {view.phase} to move {_seat(view.to_move)} | "
        f"hand {_codes(pack, view.hand)} | trick {_trick(pack, view.trick)} | taken {won}"
    )


def infostate_text(view: View) -> str:
    """Return everything the seat knows, in order (its information state)."""
    pack = view.rules.pack
    events = " ".join(
        f"{e.kind}/{_seat(e.seat)}/{_codes(pack, e.cards)}/{e.value}" for e in view.events
    )
    shown = " ".join(f"{SEATS[s]}:{_codes(pack, m)}" for s, m in enumerate(view.shown) if m)
    tricks = " ".join(f"[{_trick(pack, t)}]" for t in view.tricks)
    return (
        f"{SEATS[view.seat]} dealer {SEATS[view.dealer]} {view.phase} "
        f"to move {_seat(view.to_move)} | sizes {'/'.join(map(str, view.hand_sizes))} | "
        f"hand {_codes(pack, view.hand)} | "
        f"private {_codes(pack, view.private)} | events {events} | shown {shown} | "
        f"tricks {tricks} | trick {_trick(pack, view.trick)}"
    )


def dealing_text(seat: int, drawn: int) -> str:
    """Return a seat's text while the deal is being drawn (it has seen nothing yet)."""
    return f"{SEATS[seat]} dealing {drawn}"


def _seat(seat: int | None) -> str:
    return "-" if seat is None else SEATS[seat]


def _codes(pack: Pack, mask: int) -> str:
    return ",".join(pack.codes_of(mask)) or "-"


def _trick(pack: Pack, trick: tuple[tuple[int, int], ...]) -> str:
    return " ".join(f"{SEATS[s]}:{pack.codes[c]}" for s, c in trick) or "-"
