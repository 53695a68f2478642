"""The four Italian suit symbols (cups, coins, curved swords, batons), each drawn at unit size
100 centred on the origin, and the star and rosette paths other drawings reuse.
"""

from __future__ import annotations

import math

from tarocchi.cards import COINS, CUPS, SWORDS
from tarocchi.web.svg.base import CREAM, SUIT_COLOURS, SUIT_INKS, coords


def rosette(r_in: float, r_out: float, n: int, spread: float) -> str:
    """Return the path of an n-petal rosette."""
    parts = []
    for k in range(n):
        a = 2 * math.pi * k / n - math.pi / 2
        tip = (r_out * math.cos(a), r_out * math.sin(a))
        base = (r_in * math.cos(a), r_in * math.sin(a))
        c1 = (r_out * 0.62 * math.cos(a - spread), r_out * 0.62 * math.sin(a - spread))
        c2 = (r_out * 0.62 * math.cos(a + spread), r_out * 0.62 * math.sin(a + spread))
        parts.append(f"M{coords(*base)}Q{coords(*c1, *tip)}Q{coords(*c2, *base)}Z")
    return "".join(parts)


def star(n: int, r_out: float, r_in: float, rot: float = -90.0) -> str:
    """Return the path of an n-pointed star."""
    pts = []
    for k in range(2 * n):
        r = r_out if k % 2 == 0 else r_in
        a = math.radians(rot + 180.0 * k / n)
        pts.append(coords(r * math.cos(a), r * math.sin(a)))
    return "M" + "L".join(pts) + "Z"


def suit_symbol(suit: int) -> str:
    """Return the unit-size drawing of a suit symbol (without a wrapper)."""
    c, k = SUIT_COLOURS[suit], SUIT_INKS[suit]
    if suit == COINS:
        return (
            f'<circle r="46" fill="{c}" stroke="{k}" stroke-width="4"/>'
            f'<circle r="35" fill="none" stroke="{k}" stroke-width="2"/>'
            f'<path d="{rosette(8, 31, 8, 0.42)}" fill="{CREAM}" stroke="{k}" stroke-width="2"/>'
            f'<circle r="7" fill="{k}"/>'
        )
    if suit == CUPS:
        return (
            f'<g stroke="{k}" stroke-width="3.5" stroke-linejoin="round">'
            f'<path fill="{c}" d="M-33 -40C-33 -14 -17 -3 -6 0V13C-6 22 -24 32 -30 46H30'
            f'C24 32 6 22 6 13V0C17 -3 33 -14 33 -40Z"/>'
            f'<path fill="none" d="M-30 -22Q0 -12 30 -22"/>'
            f'<ellipse cy="-40" rx="33" ry="7" fill="{CREAM}"/>'
            f'<ellipse cy="10" rx="12" ry="5" fill="{CREAM}"/>'
            f'<path fill="none" d="M-22 40H22"/></g>'
        )
    if suit == SWORDS:
        return (
            f'<g stroke="{k}" stroke-width="3" stroke-linejoin="round">'
            f'<path fill="{c}" d="M0 -50L8 -38V18H-8V-38Z"/>'
            f'<path fill="none" stroke="{CREAM}" stroke-width="2" d="M0 -38V14"/>'
            f'<path fill="{k}" d="M-24 16Q0 24 24 16L24 24Q0 32 -24 24Z"/>'
            f'<path fill="{k}" d="M-4 26H4V42H-4Z"/><circle cy="46" r="6" fill="{k}"/></g>'
        )
    # batons: a knotted club, the stubs of cut branches along it
    stub = "M0 0l-8 -6l2 -4l8 5Z"
    return (
        f'<g stroke="{k}" stroke-width="2.5" stroke-linejoin="round" fill="{c}" '
        f'transform="rotate(-15)">'
        f'<path d="{stub}" transform="translate(-9 -20)"/>'
        f'<path d="{stub}" transform="translate(8 -2) scale(-1 1)"/>'
        f'<path d="{stub}" transform="translate(-6 18)"/>'
        f'<path d="M-4.5 48C-5 22 -7 -8 -10 -32C-11 -44 -6 -50 0 -50C6 -50 11 -44 10 -32C7 -8 5 22 '
        f'4.5 48Z"/><path fill="none" d="M-5 34H5M-5 40H5"/></g>'
    )


def hilt(suit_ink: str) -> str:
    """Return the hilt of a pip sabre at real size: guard at 0, grip below."""
    return (
        f'<g fill="{suit_ink}" stroke="{suit_ink}" stroke-width="1" stroke-linejoin="round">'
        f'<path d="M-11 -3Q0 1 11 -3Q14 -3 13 1Q0 6 -13 1Q-14 -3 -11 -3Z"/>'
        f'<path d="M-2 3H2V15H-2Z"/><circle cy="18" r="3.2"/></g>'
    )


def stave(suit: int) -> str:
    """Return a lattice baton at real size: a long stave, vertical, centred."""
    c, k = SUIT_COLOURS[suit], SUIT_INKS[suit]
    return (
        f'<g stroke="{k}" stroke-width="1.6"><rect x="-4.5" y="-92" width="9" height="184" '
        f'rx="4.5" fill="{c}"/><path fill="none" d="M-4.5 -80h9M-4.5 -74h9M-4.5 74h9M-4.5 80h9'
        f'M-4.5 -3h9M-4.5 3h9"/></g>'
    )
