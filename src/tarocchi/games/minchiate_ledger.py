"""The resti ledger of Minchiate: how point leads become resti, during play and at the end.

Section numbers (§) refer to docs/rules.md (Minchiate). The ledger keeps one
running difference D (positive favours North-South) and the resti each side has
made. Every immediate scoring event (rules §5: robbing, exposed cards, the
dealer's Fola cards, declarations, opponents' counting cards captured in a trick,
a counting card given back for the Matto) moves D; whenever a side leads by 60
or more it makes a resto and D moves 60 back towards that side's opponents,
repeatedly. At the end the two end-of-deal totals are added to D in one step and
what remains is rounded up in units of 60 (a lead of 1-60 makes 1 resto, 61-120
makes 2, ...; 0 makes nothing). Because each event is converted as it comes,
the same points in another order can give other resti (§6.11, §7 test 18).
"""

from __future__ import annotations

from typing import NamedTuple

from tarocchi.i18n import Msg, nmsg

RESTO = 60  # rules §5: points per resto
NS, EW = 0, 1


class Ledger(NamedTuple):
    """The running state of the resti ledger (immutable)."""

    diff: int = 0  # the running difference: > 0 favours North-South
    ns: int = 0  # resti made by North-South
    ew: int = 0  # resti made by East-West

    def score(self, team: int, points: int) -> Ledger:
        """Return the ledger after team scores points at once (rules §5: each lead of 60
        becomes a resto, repeatedly)."""
        if points <= 0:
            return self
        return _new_ledger(Ledger, convert(*self, team, points))

    def finish(self, end_ns: int, end_ew: int) -> Ledger:
        """Return the ledger after the end-of-deal totals: the remaining lead is rounded up
        in units of 60 (rules §5), leaving a difference of 0."""
        diff, ns, ew = self
        diff += end_ns - end_ew
        if diff > 0:
            ns += -(-diff // RESTO)
        elif diff < 0:
            ew += -(diff // RESTO)
        return Ledger(0, ns, ew)

    @property
    def net(self) -> int:
        """Return North-South's resti minus East-West's (> 0: NS win, < 0: EW win, 0: draw)."""
        return self.ns - self.ew


_new_ledger = tuple.__new__  # the ledger moves at every scoring event: skip NamedTuple.__new__


def convert(diff: int, ns: int, ew: int, team: int, points: int) -> tuple[int, int, int]:
    """Return (difference, NS resti, EW resti) after team scores points (rules §5): while a
    side leads by 60 or more it makes a resto and the difference moves 60 back."""
    diff += points if team == NS else -points
    if diff >= RESTO:
        made, diff = divmod(diff, RESTO)
        ns += made
    elif diff <= -RESTO:
        made, rest = divmod(-diff, RESTO)
        ew += made
        diff = -rest
    return diff, ns, ew


def describe_diff(diff: int) -> Msg:
    """Return the running difference in words."""
    if diff > 0:
        return Msg("North-South lead by %(points)d", points=diff)
    if diff < 0:
        return Msg("East-West lead by %(points)d", points=-diff)
    return Msg("the sides are level")


def plural_resti(n: int) -> Msg:
    """Return "1 resto" or "n resti"."""
    return nmsg("%(n)d resto", "%(n)d resti", n)
