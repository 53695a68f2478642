"""The suit cards' faces: the pips in their real number and layout, and the aces."""

from __future__ import annotations

import math

from tarocchi.cards import BATONS, COINS, CUPS, SWORDS
from tarocchi.web.svg.base import SUIT_COLOURS, SUIT_INKS, Face, coords, num, tf, tint, use
from tarocchi.web.svg.symbols import hilt, stave, suit_symbol

_L, _C, _R = 66.0, 100.0, 134.0


_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((_C, 92), (_C, 228)),
    3: ((_C, 72), (_C, 160), (_C, 248)),
    4: ((_L, 92), (_R, 92), (_L, 228), (_R, 228)),
    5: ((_L, 84), (_R, 84), (_C, 160), (_L, 236), (_R, 236)),
    6: ((_L, 72), (_R, 72), (_L, 160), (_R, 160), (_L, 248), (_R, 248)),
    7: ((_L, 72), (_R, 72), (_C, 116), (_L, 160), (_R, 160), (_L, 248), (_R, 248)),
    8: ((_L, 64), (_R, 64), (_L, 128), (_R, 128), (_L, 192), (_R, 192), (_L, 256), (_R, 256)),
    9: (
        (_L, 64), (_R, 64), (_L, 128), (_R, 128), (_C, 160),
        (_L, 192), (_R, 192), (_L, 256), (_R, 256),
    ),
    10: (
        (_L, 54), (_R, 54), (_L, 107), (_R, 107), (_L, 160), (_R, 160),
        (_L, 213), (_R, 213), (_L, 266), (_R, 266),
    ),
}  # fmt: skip


_PIP_SIZE = {2: 0.6, 3: 0.56, 4: 0.54, 5: 0.5, 6: 0.5, 7: 0.48, 8: 0.44, 9: 0.42, 10: 0.44}


def pip_value(rank: str) -> int:
    return 1 if rank == "A" else int(rank)


def round_pips(c: Face, suit: int, n: int) -> None:
    """Place n cups or coins in their traditional grid."""
    sym = c.define("s", suit_symbol(suit))
    s = _PIP_SIZE[n]
    c.body.extend(use(sym, x, y, s, cls="pip") for x, y in _PIPS[n])


SABRE_TOP, SABRE_HILT = -108.0, 104.0  # tip and guard, relative to the card's middle line


def _sabre(colour: str, ink: str, bow: float, e: float) -> str:
    """Return a pip sword at real size: hilt at the bottom, its ends e right of the middle
    line and its blade bowing left by bow from them."""
    q = (8 * (e - bow) - 2 * e) / 6  # control x putting the cubic's apex at e - bow
    l1 = SABRE_HILT + (SABRE_TOP - SABRE_HILT) / 3
    l2 = SABRE_TOP - (SABRE_TOP - SABRE_HILT) / 3
    w = 3.8
    blade = (
        f'<path d="M{coords(e - w, SABRE_HILT)}C{coords(q - w, l1, q - w * 0.8, l2, e, SABRE_TOP)}'
        f'C{coords(q + w * 0.8, l2, q + w, l1, e + w, SABRE_HILT)}Z" fill="{colour}" '
        f'stroke="{ink}" stroke-width="1.3" stroke-linejoin="round"/>'
    )
    angle = math.degrees(math.atan2(q - e, -(l1 - SABRE_HILT)))
    return blade + f'<g transform="{tf(e, SABRE_HILT, rot=angle)}">{hilt(ink)}</g>'


def sword_pips(c: Face, n: int) -> None:
    """Draw n Italian swords: curved blades nested in a pointed oval, a straight one if odd.

    Each pair is a sabre bowing left and one bowing right, their ends crossing the middle
    line; the pairs nest inside each other, and their hilts alternate between the bottom
    and the top, so the blades interlace as on Italian cards and the hilts can be counted.
    """
    colour, ink = SUIT_COLOURS[SWORDS], SUIT_INKS[SWORDS]
    k = n // 2
    for j in range(k):
        bow = 30.0 + 64.0 * j / max(k - 1, 1)
        sabre = c.define(f"c{j}", _sabre(colour, ink, bow, 10 + 0.3 * bow))
        # one sabre bows left and one right; alternate pairs swap hilts and tips
        left, right = ("scale(1 -1)", "scale(-1 1)") if j % 2 else ("", "rotate(180)")
        for t in (left, right):
            c.body.append(
                f'<use href="#{sabre}" class="pip" transform="translate(100 160) {t}"/>'
                if t
                else use(sabre, 100, 160, cls="pip")
            )
    if n % 2:
        straight = c.define("t", _sabre(colour, ink, 0.0, 0.0))
        c.body.append(use(straight, 100, 160, cls="pip"))


def baton_pips(c: Face, n: int) -> None:
    """Draw n batons: staves crossing in a lattice, a vertical one if odd."""
    stick = c.define("b", stave(BATONS))
    k = n // 2
    spread = min(30.0, 60.0 / max(k - 1, 1))
    theta = 19.0 if k > 1 else 26.0
    for j in range(k):
        dx = (j - (k - 1) / 2) * spread
        c.body.append(use(stick, 100 + dx, 160, rot=theta, cls="pip"))
        c.body.append(use(stick, 100 - dx, 160, rot=-theta, cls="pip"))
    if n % 2:
        c.body.append(use(stick, 100, 160, cls="pip"))


def _wreath(c: Face, colour: str, ink: str, r: float) -> str:
    """Return a laurel wreath of radius r round the card's centre, open at the top."""
    leaf = c.define(
        "l",
        f'<g fill="{colour}" stroke="{ink}" stroke-width="1"><ellipse cx="-3" cy="-6" rx="3.2" '
        f'ry="8" transform="rotate(-35)"/><ellipse cx="3" cy="-6" rx="3.2" ry="8" '
        f'transform="rotate(35)"/></g>',
    )
    leaves = []
    for side in (-1, 1):
        for k in range(7):
            deg = 30 + 21 * k  # from the top, clockwise for the right branch
            t = math.radians(deg)
            x, y = 100 + side * r * math.sin(t), 160 - r * math.cos(t)
            # each pair of leaves points along the stem towards the open top
            leaves.append(use(leaf, x, y, rot=side * (deg - 180)))
    a0 = math.radians(26)
    stem = (
        f"M{coords(100 - r * math.sin(a0), 160 - r * math.cos(a0))}A{num(r)} {num(r)} 0 1 0 "
        f"{coords(100 + r * math.sin(a0), 160 - r * math.cos(a0))}"
    )
    return f'<path d="{stem}" fill="none" stroke="{ink}" stroke-width="1.5"/>{"".join(leaves)}'


def ace(c: Face, suit: int) -> None:
    """Draw an ace: one big suit symbol in a laurel wreath."""
    sym = c.define("s", suit_symbol(suit))
    c.body.append(_wreath(c, tint(SUIT_COLOURS[suit], 0.35), SUIT_INKS[suit], 80))
    # the long suits' aces are stretched: a long blade, a tall club
    scale = {COINS: "1.15", CUPS: "1.3", SWORDS: "1.5 2.5", BATONS: "2.1"}[suit]
    c.body.append(f'<use href="#{sym}" class="pip" transform="translate(100 160) scale({scale})"/>')
