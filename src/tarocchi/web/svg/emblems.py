"""The trumps' emblems: one drawing per subject (the Sun, the Tower, the zodiac signs, the
Minchiate Papi...), each in a 100x100 box centred on the origin.
"""

from __future__ import annotations

import math

from tarocchi.cards import FOOL, Card
from tarocchi.web.svg.base import (
    BLUE,
    BROWN,
    CREAM,
    DARK_SKIN,
    GOLD,
    GREEN,
    GREY,
    INK,
    RED,
    SKIN,
    SKY,
    YELLOW,
    coords,
    num,
    subject_of,
)
from tarocchi.web.svg.symbols import rosette, star


def _crescent(r1: float, d: float, r2: float, rot: float) -> str:
    """Return a crescent: circle r1 minus a circle r2 shifted right by d, rotated."""
    x = (d * d + r1 * r1 - r2 * r2) / (2 * d)
    y = math.sqrt(max(r1 * r1 - x * x, 0.0))
    a = math.radians(rot)

    def p(px: float, py: float) -> str:
        return coords(px * math.cos(a) - py * math.sin(a), px * math.sin(a) + py * math.cos(a))

    large = 1 if x > d else 0
    return (
        f"M{p(x, -y)}A{num(r1)} {num(r1)} 0 1 0 {p(x, y)}"
        f"A{num(r2)} {num(r2)} 0 {large} 1 {p(x, -y)}Z"
    )


def _sun() -> str:
    rays = []
    for k in range(16):
        a = math.radians(k * 22.5)
        r = 47 if k % 2 == 0 else 38
        b1 = (24 * math.cos(a - 0.2), 24 * math.sin(a - 0.2))
        b2 = (24 * math.cos(a + 0.2), 24 * math.sin(a + 0.2))
        rays.append(f"M{coords(*b1)}L{coords(r * math.cos(a), r * math.sin(a))}L{coords(*b2)}Z")
    return (
        f'<path d="{"".join(rays)}" fill="{GOLD}" stroke="{INK}" stroke-width="1.5"/>'
        f'<circle r="24" fill="{YELLOW}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="M-10 -5h6M4 -5h6M-8 8Q0 14 8 8" fill="none" stroke="{INK}" '
        f'stroke-width="2.5" stroke-linecap="round"/>'
    )


def _moon() -> str:
    return (
        f'<path d="{_crescent(40, 20, 34, -25)}" fill="{SKY}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="{star(4, 9, 3)}" transform="translate(26 -28)" fill="{GOLD}" stroke="{INK}"/>'
        f'<path d="{star(4, 7, 2.5)}" transform="translate(34 14)" fill="{GOLD}" stroke="{INK}"/>'
    )


def _star_emblem() -> str:
    return (
        f'<path d="{star(8, 46, 18)}" fill="{GOLD}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="{star(8, 26, 12, -67.5)}" fill="{YELLOW}" stroke="{INK}" stroke-width="1.5"/>'
        f'<circle r="6" fill="{CREAM}" stroke="{INK}" stroke-width="1.5"/>'
    )


def _world() -> str:
    return (
        f'<circle r="42" fill="{SKY}" stroke="{INK}" stroke-width="3"/>'
        f'<path d="M-30 -24C-20 -30 -8 -26 -10 -16C-12 -6 -26 -2 -22 8C-18 18 -30 22 -36 12'
        f"C-40 0 -38 -16 -30 -24ZM8 -34C20 -38 34 -26 36 -14C30 -16 22 -8 26 4C30 14 20 30 8 32"
        f'C12 18 0 10 4 -2C8 -12 -2 -24 8 -34Z" fill="{GREEN}" stroke="{INK}" stroke-width="1.5"/>'
        f'<g fill="none" stroke="{INK}" stroke-width="1.5"><ellipse rx="18" ry="42"/>'
        f'<path d="M-42 0H42M-38 -18Q0 -10 38 -18M-38 18Q0 26 38 18"/></g>'
    )


def _angel() -> str:
    wing = (
        "M-4 -4C-16 -30 -40 -36 -50 -24C-42 -20 -36 -18 -32 -12C-40 -10 -46 -4 -46 4"
        "C-36 2 -28 4 -24 8C-30 12 -32 20 -32 28C-20 22 -8 12 -2 6Z"
    )
    return (
        f'<g fill="{CREAM}" stroke="{INK}" stroke-width="2.5" stroke-linejoin="round">'
        f'<path d="{wing}"/><path d="{wing}" transform="scale(-1 1)"/></g>'
        f'<path d="M0 -6C-10 -6 -16 14 -22 46H22C16 14 10 -6 0 -6Z" fill="{SKY}" stroke="{INK}" '
        f'stroke-width="2.5"/>'
        f'<ellipse cy="-36" rx="13" ry="4" fill="none" stroke="{GOLD}" stroke-width="4"/>'
        f'<circle cy="-18" r="11" fill="{SKIN}" stroke="{INK}" stroke-width="2.5"/>'
    )


def _trumpet(flag: bool = True) -> str:
    out = (
        f'<g stroke="{INK}" stroke-width="2" stroke-linejoin="round">'
        f'<path d="M-46 -3H18V3H-46Z" fill="{GOLD}"/>'
        f'<path d="M18 -3C32 -6 40 -16 44 -22V22C40 16 32 6 18 3Z" fill="{GOLD}"/>'
        f'<circle cx="-46" r="4" fill="{GOLD}"/><path d="M-14 -4V4M6 -4V4" fill="none"/>'
    )
    if flag:
        out += (
            f'<path d="M-30 3V36L-18 30L-6 36V3Z" fill="{CREAM}"/>'
            f'<path d="M-18 8V28M-26 16H-10" fill="none" stroke="{RED}" stroke-width="4"/>'
        )
    return out + "</g>"


def _judgement() -> str:
    return f'<g transform="rotate(-28) translate(0 -4)">{_trumpet()}</g>'


def _trumpets() -> str:
    t = _trumpet(False)
    return (
        f'<g transform="rotate(-35) translate(0 -10)">{t}</g>'
        f'<g transform="scale(-1 1) rotate(-35) translate(0 -10)">{t}</g>'
        f'<path d="M-16 14H16V40L0 32L-16 40Z" fill="{RED}" stroke="{INK}" stroke-width="2"/>'
    )


def _tower(flames: bool = False) -> str:
    out = (
        f'<path d="M-24 46V-22H-28V-40H-19V-32H-10V-40H-1V-32H8V-40H17V-32H26V-40H28V-22H24V46Z"'
        f' transform="translate(-4 0)" fill="#d9c9a3" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="M-12 46V30Q-4 20 4 30V46ZM-8 -14h8v12h-8Z" fill="{INK}"/>'
        f'<path d="M48 -50L22 -22L32 -20L12 4L40 -26L30 -28L44 -50Z" fill="{YELLOW}" '
        f'stroke="{INK}" stroke-width="1.5" stroke-linejoin="round"/>'
    )
    if flames:
        out += (
            f'<path d="M-30 -40C-34 -48 -26 -50 -24 -56C-20 -48 -12 -50 -14 -58C-4 -50 -4 -44 '
            f'-8 -40ZM2 -40C-2 -48 6 -52 8 -58C12 -50 18 -50 16 -40Z" fill="{RED}" '
            f'stroke="{INK}" stroke-width="1.5"/>'
        )
    return out


def _devil() -> str:
    horn = "M-18 -22C-30 -30 -34 -44 -28 -52C-24 -42 -16 -36 -8 -30Z"
    return (
        f'<g fill="{CREAM}" stroke="{INK}" stroke-width="2"><path d="{horn}"/>'
        f'<path d="{horn}" transform="scale(-1 1)"/></g>'
        f'<path d="M-28 -22C-32 6 -16 38 0 44C16 38 32 6 28 -22C16 -34 -16 -34 -28 -22Z" '
        f'fill="{RED}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="M-18 -6L-4 -2L-15 3ZM18 -6L4 -2L15 3Z" fill="{YELLOW}" stroke="{INK}" '
        f'stroke-width="1.5"/>'
        f'<path d="M-14 16Q0 28 14 16" fill="none" stroke="{INK}" stroke-width="3"/>'
        f'<path d="M-8 20L-5 27L-2 22ZM8 20L5 27L2 22Z" fill="{CREAM}" stroke="{INK}"/>'
    )


def _scythe() -> str:
    return (
        f'<path d="M-34 46L22 -40" stroke="{BROWN}" stroke-width="7" stroke-linecap="round"/>'
        f'<path d="M-16 18l10 6" stroke="{BROWN}" stroke-width="5" stroke-linecap="round"/>'
        f'<path d="M24 -42C6 -56 -28 -50 -48 -30C-26 -38 -2 -38 18 -32Z" fill="{GREY}" '
        f'stroke="{INK}" stroke-width="2" stroke-linejoin="round"/>'
        f'<path d="M6 26A16 15 0 1 1 38 26V34H32V42H12V34H6Z" fill="{CREAM}" stroke="{INK}" '
        f'stroke-width="2.5" stroke-linejoin="round"/>'
        f'<circle cx="16" cy="25" r="4.5" fill="{INK}"/><circle cx="28" cy="25" r="4.5" '
        f'fill="{INK}"/><path d="M22 30L19 35H25ZM18 36V42M22 36V42M26 36V42" fill="{INK}" '
        f'stroke="{INK}" stroke-width="1.5"/>'
    )


def _jug(colour: str) -> str:
    return (
        f'<path d="M-9 -20H9L7 -13C17 -6 17 12 8 18H-8C-17 12 -17 -6 -7 -13Z" fill="{colour}" '
        f'stroke="{INK}" stroke-width="2.5" stroke-linejoin="round"/>'
    )


def _temperance() -> str:
    return (
        f'<path d="M-10 -30C8 -40 22 -22 20 2" fill="none" stroke="{SKY}" stroke-width="5" '
        f'stroke-linecap="round"/>'
        f'<g transform="translate(-24 -22) rotate(-50)">{_jug(GOLD)}</g>'
        f'<g transform="translate(20 24)">{_jug(RED)}</g>'
    )


def _justice() -> str:
    pan = "M-12 0Q0 14 12 0Z"
    return (
        f'<g stroke="{INK}" fill="none" stroke-linecap="round"><path d="M0 -40V42M-16 44H16" '
        f'stroke-width="5"/><path d="M-38 -30H38" stroke-width="4"/>'
        f'<path d="M-38 -30L-48 6M-38 -30L-28 6M38 -30L28 6M38 -30L48 6" stroke-width="1.5"/>'
        f"</g>"
        f'<circle cy="-42" r="5" fill="{GOLD}" stroke="{INK}" stroke-width="2"/>'
        f'<g fill="{GOLD}" stroke="{INK}" stroke-width="2"><path d="{pan}" '
        f'transform="translate(-38 6)"/><path d="{pan}" transform="translate(38 6)"/></g>'
    )


def _column(broken: bool) -> str:
    top = "M-14 -26L-6 -34L0 -28L8 -38L14 -30" if broken else "M-14 -32H14"
    cap = "" if broken else (f'<path d="M-24 -42H24V-32H-24Z" fill="{CREAM}" stroke="{INK}" '
                             f'stroke-width="2.5"/>')  # fmt: skip
    return (
        f'<path d="{top}V36H-14Z" fill="{CREAM}" stroke="{INK}" stroke-width="2.5" '
        f'stroke-linejoin="round"/>{cap}'
        f'<path d="M-6 -24V34M2 -24V34M10 -24V34" stroke="{GREY}" stroke-width="2"/>'
        f'<path d="M-22 36H22V46H-22Z" fill="{GOLD}" stroke="{INK}" stroke-width="2.5"/>'
    )


def _wheel() -> str:
    spokes = "".join(
        f"M{coords(9 * math.cos(a), 9 * math.sin(a))}L{coords(35 * math.cos(a), 35 * math.sin(a))}"
        for a in (math.radians(22.5 + 45 * k) for k in range(8))
    )
    return (
        f'<circle r="39" fill="none" stroke="{INK}" stroke-width="11"/>'
        f'<circle r="39" fill="none" stroke="{GOLD}" stroke-width="7"/>'
        f'<path d="{spokes}" stroke="{INK}" stroke-width="4"/>'
        f'<circle r="10" fill="{RED}" stroke="{INK}" stroke-width="2.5"/>'
    )


def _hourglass() -> str:
    return (
        f'<path d="M-20 -36H20C20 -14 4 -6 4 0C4 6 20 14 20 36H-20C-20 14 -4 6 -4 0C-4 -6 -20 '
        f'-14 -20 -36Z" fill="#e6f2fa" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="M-15 -26H15C11 -14 2 -8 0 -4C-2 -8 -11 -14 -15 -26ZM-16 34C-10 20 10 20 16 '
        f'34ZM0 -4V24" fill="{GOLD}" stroke="{GOLD}" stroke-width="1.5"/>'
        f'<path d="M-24 -36V36M24 -36V36" stroke="{BROWN}" stroke-width="4"/>'
        f'<path d="M-30 -46H30V-36H-30ZM-30 36H30V46H-30Z" fill="{BROWN}" stroke="{INK}" '
        f'stroke-width="2"/>'
    )


def _lantern() -> str:
    return (
        f'<circle cy="-44" r="5" fill="none" stroke="{INK}" stroke-width="3"/>'
        f'<path d="M-20 -28L0 -39L20 -28ZM-22 24H22L14 34H-14Z" fill="{GOLD}" stroke="{INK}" '
        f'stroke-width="2.5" stroke-linejoin="round"/>'
        f'<path d="M-17 -28H17V24H-17Z" fill="{YELLOW}" stroke="{INK}" stroke-width="3"/>'
        f'<path d="M0 14C-10 12 -10 2 -4 -4C-4 2 0 2 0 -8C6 -2 10 10 0 14Z" fill="{RED}" '
        f'stroke="{INK}" stroke-width="1.5"/>'
        f'<path d="M-17 -2H-10M10 -2H17" stroke="{INK}" stroke-width="2"/>'
    )


def _hanged() -> str:
    return (
        f'<path d="M-36 46V-40H36V46" fill="none" stroke="{BROWN}" stroke-width="7" '
        f'stroke-linejoin="round"/>'
        f'<g fill="none" stroke-linecap="round" stroke-linejoin="round">'
        f'<path d="M0 -40V-26" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="M0 -24V2M0 -22L15 -10L2 -4" stroke="{BLUE}" stroke-width="8"/>'
        f'<path d="M0 4V22" stroke="{RED}" stroke-width="16"/>'
        f'<path d="M-9 6L-14 20M9 6L14 20" stroke="{SKIN}" stroke-width="5"/></g>'
        f'<circle cy="33" r="10" fill="{SKIN}" stroke="{INK}" stroke-width="2"/>'
    )


def _chariot() -> str:
    spokes = "M-14 26h28M0 12v28M-10 16l20 20M10 16l-20 20"
    return (
        f'<path d="M8 -20V-48" stroke="{INK}" stroke-width="3"/>'
        f'<path d="M8 -48L32 -41L8 -34Z" fill="{GOLD}" stroke="{INK}" stroke-width="1.5"/>'
        f'<path d="M-40 -20H28C36 -20 42 -12 40 0L36 16H-36Z" fill="{RED}" stroke="{INK}" '
        f'stroke-width="2.5" stroke-linejoin="round"/>'
        f'<path d="M-40 -12H30" stroke="{GOLD}" stroke-width="4"/>'
        f'<circle cy="26" r="19" fill="{CREAM}" stroke="{INK}" stroke-width="4"/>'
        f'<path d="{spokes}" stroke="{INK}" stroke-width="2.5"/>'
        f'<circle cy="26" r="4" fill="{INK}"/>'
    )


_HEART = (
    "M0 40C-30 16 -44 -2 -44 -18C-44 -34 -30 -42 -18 -42C-8 -42 -2 -36 0 -28"
    "C2 -36 8 -42 18 -42C30 -42 44 -34 44 -18C44 -2 30 16 0 40Z"
)


def _love() -> str:
    return (
        f'<path d="M-48 32L46 -30" stroke="{INK}" stroke-width="3.5"/>'
        f'<path d="{_HEART}" fill="{RED}" stroke="{INK}" stroke-width="2.5" '
        f'transform="scale(.85)"/>'
        f'<path d="M-48 32L-22 15" stroke="{INK}" stroke-width="3.5"/>'
        f'<path d="M48 -32L33 -30L41 -19Z" fill="{INK}"/>'
        f'<path d="M-48 32l-2 -12M-48 32l12 2M-42 28l-2 -12M-42 28l12 2" stroke="{INK}" '
        f'stroke-width="2.5"/>'
    )


def _charity() -> str:
    return (
        f'<path d="M0 -14C-14 -24 -10 -38 -4 -46C-2 -36 6 -36 4 -50C16 -40 20 -24 6 -14Z" '
        f'fill="{GOLD}" stroke="{INK}" stroke-width="2"/>'
        f'<path d="{_HEART}" fill="{RED}" stroke="{INK}" stroke-width="3" '
        f'transform="translate(0 12) scale(.8)"/>'
    )


def _anchor() -> str:
    return (
        f'<g fill="none" stroke="{BLUE}" stroke-width="7" stroke-linecap="round">'
        f'<circle cy="-40" r="6" stroke-width="4"/><path d="M0 -33V42M-18 -22H18"/>'
        f'<path d="M-36 16C-30 36 -12 42 0 42C12 42 30 36 36 16"/></g>'
        f'<path d="M-36 10L-44 24L-30 22ZM36 10L44 24L30 22Z" fill="{BLUE}" stroke="{BLUE}" '
        f'stroke-width="3" stroke-linejoin="round"/>'
    )


def _cross() -> str:
    return (
        f'<path d="{star(12, 48, 30)}" fill="{YELLOW}" stroke="{GOLD}" stroke-width="1.5"/>'
        f'<path d="M-7 -44H7V-24H24V-10H7V44H-7V-10H-24V-24H-7Z" fill="{GOLD}" stroke="{INK}" '
        f'stroke-width="2.5" stroke-linejoin="round"/>'
    )


def _mirror() -> str:
    return (
        f'<path d="M-4 16H4V46H-4Z" fill="{GOLD}" stroke="{INK}" stroke-width="2"/>'
        f'<ellipse cy="-12" rx="24" ry="30" fill="{GOLD}" stroke="{INK}" stroke-width="2.5"/>'
        f'<ellipse cy="-12" rx="17" ry="23" fill="#cfe8f7" stroke="{INK}" stroke-width="1.5"/>'
        f'<path d="M-34 44C-48 30 -20 26 -30 10C-38 -2 -22 -12 -30 -26" fill="none" '
        f'stroke="{GREEN}" stroke-width="5" stroke-linecap="round"/>'
        f'<circle cx="-30" cy="-28" r="4.5" fill="{GREEN}" stroke="{INK}"/>'
    )


def _fire() -> str:
    flame = (
        "M0 46C-30 46 -38 20 -26 0C-24 14 -16 16 -14 12C-22 -6 -10 -30 4 -48C2 -28 18 -22 20 "
        "-6C24 -10 26 -16 26 -22C40 -2 34 46 0 46Z"
    )
    return (
        f'<path d="{flame}" fill="{RED}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="{flame}" fill="{GOLD}" transform="translate(0 20) scale(.62)"/>'
        f'<path d="{flame}" fill="{YELLOW}" transform="translate(0 32) scale(.32)"/>'
    )


def _water() -> str:
    wave = "q6 -9 12 0t12 0t12 0t12 0t12 0t12 0t12 0"
    return (
        f'<path d="M0 -48C6 -38 14 -32 14 -22A14 14 0 0 1 -14 -22C-14 -32 -6 -38 0 -48Z" '
        f'fill="{SKY}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="M-42 6{wave}M-42 22{wave}M-42 38{wave}" fill="none" stroke="{BLUE}" '
        f'stroke-width="5" stroke-linecap="round"/>'
    )


def _earth() -> str:
    return (
        f'<path d="M-48 38L-18 -14L-4 8L14 -32L48 38Z" fill="{GREEN}" stroke="{INK}" '
        f'stroke-width="2.5" stroke-linejoin="round"/>'
        f'<path d="M14 -32L6 -16L14 -20L20 -14Z" fill="{CREAM}" stroke="{INK}" '
        f'stroke-width="1.5" stroke-linejoin="round"/>'
        f'<path d="M-48 38H48V46H-48Z" fill="{BROWN}" stroke="{INK}" stroke-width="2"/>'
        f'<circle cx="-30" cy="-32" r="9" fill="{GOLD}" stroke="{INK}" stroke-width="1.5"/>'
    )


def _air() -> str:
    return (
        f'<path d="M-30 6A13 13 0 0 1 -22 -18A18 18 0 0 1 12 -26A15 15 0 0 1 32 6Z" '
        f'fill="#e6f2fa" stroke="{INK}" stroke-width="2.5" stroke-linejoin="round"/>'
        f'<g fill="none" stroke="{SKY}" stroke-width="5" stroke-linecap="round">'
        f'<path d="M-44 20H18A9 9 0 1 0 10 10"/><path d="M-34 34H30A9 9 0 1 1 22 44"/></g>'
        f'<path d="M-40 -36q6 -6 10 0q4 -6 10 0M20 -44q5 -5 9 0q4 -5 9 0" fill="none" '
        f'stroke="{INK}" stroke-width="2.5"/>'
    )


_ZODIAC: dict[str, str] = {
    "aries": "M0 26V-6C-4 -26 -26 -30 -26 -14C-26 -4 -18 0 -14 -2M0 -6C4 -26 26 -30 26 -14"
    "C26 -4 18 0 14 -2",
    "taurus": "M-26 -26C-20 -8 20 -8 26 -26M16 10A16 16 0 1 1 -16 10A16 16 0 1 1 16 10Z",
    "gemini": "M-22 -26Q0 -18 22 -26M-22 26Q0 18 22 26M-10 -21V21M10 -21V21",
    "cancer": "M-12 -18C4 -28 24 -20 26 -10M12 18C-4 28 -24 20 -26 10M-4 -10A8 8 0 1 1 -20 -10"
    "A8 8 0 1 1 -4 -10ZM20 10A8 8 0 1 1 4 10A8 8 0 1 1 20 10Z",
    "leo": "M-6 12A10 10 0 1 1 -26 12A10 10 0 1 1 -6 12ZM-6 12C-12 -6 -8 -26 8 -26C24 -26 24 -8 "
    "14 8C6 22 14 30 24 24",
    "virgo": "M-26 -18C-20 -18 -20 -14 -20 -10V24M-20 -10C-20 -26 -4 -26 -4 -10V24M-4 -10"
    "C-4 -26 12 -26 12 -10V16C12 28 30 26 26 10C22 2 12 8 10 24",
    "libra": "M-26 24H26M-26 10H-10C-16 -4 -12 -22 0 -22C12 -22 16 -4 10 10H26",
    "scorpio": "M-26 -18C-20 -18 -20 -14 -20 -10V20M-20 -10C-20 -26 -4 -26 -4 -10V20M-4 -10"
    "C-4 -26 12 -26 12 -10V20C12 26 18 28 26 22M19 16L26 22L20 29",
    "sagittarius": "M-22 24L24 -22M4 -22H24V-2M-16 -4L4 16",
    "capricorn": "M-26 -20L-14 20L-4 -14C0 -22 12 -18 10 -2C8 12 10 24 20 24A8 8 0 1 0 12 12",
    "aquarius": "M-24 -6l8 -8l8 8l8 -8l8 8l8 -8l8 8M-24 14l8 -8l8 8l8 -8l8 8l8 -8l8 8",
    "pisces": "M-22 -24C-8 -12 -8 12 -22 24M22 -24C8 -12 8 12 22 24M-14 0H14",
}


def _zodiac(sign: str) -> str:
    return (
        f'<circle r="44" fill="{CREAM}" stroke="{GOLD}" stroke-width="5"/>'
        f'<circle r="38" fill="none" stroke="{INK}" stroke-width="1"/>'
        f'<path d="{_ZODIAC[sign]}" fill="none" stroke="{INK}" stroke-width="6" '
        f'stroke-linecap="round" stroke-linejoin="round"/>'
    )


def _table() -> str:
    return (
        f'<path d="M-44 0H44V9H-44Z" fill="{BROWN}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="M-36 9L-40 46M36 9L40 46M-12 9L-14 40M12 9L14 40" stroke="{BROWN}" '
        f'stroke-width="5" stroke-linecap="round"/>'
        f'<path d="M-36 -28H-18L-21 -18C-18 -14 -21 -8 -25 -6V-2H-29V-6C-33 -8 -36 -14 -33 -18Z"'
        f' fill="{RED}" stroke="{INK}" stroke-width="2"/>'
        f'<circle cx="-4" cy="-6" r="6" fill="{BLUE}" stroke="{INK}" stroke-width="2"/>'
        f'<circle cx="10" cy="-6" r="6" fill="{GOLD}" stroke="{INK}" stroke-width="2"/>'
        f'<path d="M22 -2L44 -38" stroke="{INK}" stroke-width="4" stroke-linecap="round"/>'
    )


def _tiara() -> str:
    return (
        f'<path d="M0 -50V-34M-7 -44H7" stroke="{GOLD}" stroke-width="4"/>'
        f'<path d="M-24 40H24C24 16 18 -12 0 -34C-18 -12 -24 16 -24 40Z" fill="{CREAM}" '
        f'stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="M-23 28H23M-20 6H20M-13 -16H13" stroke="{GOLD}" stroke-width="6"/>'
        f'<path d="M-24 40L-30 50M24 40L30 50" stroke="{RED}" stroke-width="5"/>'
    )


def _book() -> str:
    return (
        f'<path d="M0 -18C-14 -28 -34 -28 -46 -22V32C-34 26 -14 26 0 36C14 26 34 26 46 32V-22'
        f'C34 -28 14 -28 0 -18Z" fill="{CREAM}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="M0 -18V36M-38 -12C-28 -16 -16 -16 -8 -10M-38 0C-28 -4 -16 -4 -8 2M-38 12'
        f"C-28 8 -16 8 -8 14M8 -10C16 -16 28 -16 38 -12M8 2C16 -4 28 -4 38 0M8 14C16 8 28 8 38 "
        f'12" fill="none" stroke="{INK}" stroke-width="1.5"/>'
        f'<path d="M-46 32C-34 26 -14 26 0 36C14 26 34 26 46 32V38C34 32 14 32 0 42C-14 32 -34 '
        f'32 -46 38Z" fill="{RED}" stroke="{INK}" stroke-width="2"/>'
    )


def _crown(kind: str) -> str:
    band = f'<path d="M-36 14H36V28H-36Z" fill="{GOLD}" stroke="{INK}" stroke-width="2.5"/>'
    jewels = (
        f'<circle cx="-20" cy="21" r="3.5" fill="{RED}"/><circle cy="21" r="3.5" '
        f'fill="{BLUE}"/><circle cx="20" cy="21" r="3.5" fill="{RED}"/>'
    )
    if kind == "imperial":
        top = (
            f'<path d="M-32 14C-34 -26 34 -26 32 14Z" fill="{RED}" stroke="{INK}" '
            f'stroke-width="2.5"/><path d="M0 14V-20M-32 14C-24 -10 24 -10 32 14" fill="none" '
            f'stroke="{GOLD}" stroke-width="5"/>'
            f'<circle cy="-26" r="7" fill="{GOLD}" stroke="{INK}" stroke-width="2"/>'
            f'<path d="M0 -33V-46M-6 -40H6" stroke="{GOLD}" stroke-width="4"/>'
        )
    elif kind == "eastern":
        top = "".join(
            f'<path d="M{num(x - 6)} 14L{num(x)} -24L{num(x + 6)} 14Z" fill="{GOLD}" '
            f'stroke="{INK}" stroke-width="2"/>'
            for x in (-30, -15, 0, 15, 30)
        )
    elif kind == "ducal":
        lily = "M0 14V-6M0 -22C-6 -14 -6 -8 0 -6C6 -8 6 -14 0 -22ZM-10 -12C-12 -2 -6 2 0 -4"
        lily += "M10 -12C12 -2 6 2 0 -4"
        top = "".join(
            f'<path d="{lily}" fill="{GOLD}" stroke="{INK}" stroke-width="2" '
            f'transform="translate({x} 0)"/>'
            for x in (-24, 0, 24)
        )
    else:  # open crown of a queen or empress
        top = (
            f'<path d="M-36 14L-40 -22L-20 0L0 -32L20 0L40 -22L36 14Z" fill="{GOLD}" '
            f'stroke="{INK}" stroke-width="2.5" stroke-linejoin="round"/>'
            f'<g fill="{CREAM}" stroke="{INK}" stroke-width="1.5"><circle cx="-40" cy="-24" '
            f'r="4"/><circle cy="-34" r="4"/><circle cx="40" cy="-24" r="4"/></g>'
        )
    return f'<g transform="translate(0 4)">{top}{band}{jewels}</g>'


def _jester() -> str:
    side = "M-28 22C-32 0 -42 -10 -48 -12C-34 -20 -20 -8 -12 22Z"
    return (
        f'<g stroke="{INK}" stroke-width="2.5" stroke-linejoin="round">'
        f'<path d="{side}" fill="{RED}"/><path d="{side}" fill="{BLUE}" transform="scale(-1 1)"/>'
        f'<path d="M-16 22C-14 -10 -6 -30 0 -44C6 -30 14 -10 16 22Z" fill="{GREEN}"/>'
        f'<path d="M-32 22H32V36H-32Z" fill="{GOLD}"/>'
        f'<g fill="{YELLOW}"><circle cx="-48" cy="-12" r="6"/><circle cy="-44" r="6"/>'
        f'<circle cx="48" cy="-12" r="6"/></g></g>'
        f'<g fill="{RED}" stroke="{INK}" stroke-width="1.5"><circle cx="-18" cy="29" r="3"/>'
        f'<circle cy="29" r="3"/><circle cx="18" cy="29" r="3"/></g>'
    )


def _moor() -> str:
    return (
        f'<path d="M-38 50C-36 30 -20 24 0 24C20 24 36 30 38 50Z" fill="{RED}" stroke="{INK}" '
        f'stroke-width="2.5"/>'
        f'<path d="M-7 14H7V26H-7Z" fill="{DARK_SKIN}" stroke="{INK}" stroke-width="2"/>'
        f'<ellipse cy="2" rx="16" ry="19" fill="{DARK_SKIN}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="M-26 -6C-30 -30 -12 -44 0 -44C12 -44 30 -30 26 -6C14 -14 -14 -14 -26 -6Z" '
        f'fill="{CREAM}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="M-24 -18C-8 -26 8 -26 24 -18M-18 -32C-6 -36 6 -36 18 -32" fill="none" '
        f'stroke="{INK}" stroke-width="1.5"/>'
        f'<path d="M0 -24C-2 -38 6 -48 14 -52" fill="none" stroke="{GOLD}" stroke-width="4" '
        f'stroke-linecap="round"/><circle cy="-22" r="5" fill="{GOLD}" stroke="{INK}"/>'
        f'<path d="M-8 0h4M4 0h4" stroke="{INK}" stroke-width="2.5"/>'
    )


def _rosette_emblem() -> str:
    return (
        f'<circle r="44" fill="{CREAM}" stroke="{GOLD}" stroke-width="5"/>'
        f'<path d="{rosette(6, 38, 8, 0.4)}" fill="{GOLD}" stroke="{INK}" stroke-width="1.5"/>'
    )


# subject (lower case, without "the" and number) -> emblem drawing
_EMBLEMS: dict[str, str] = {}


def _emblem(subject: str) -> str:
    """Return the drawing of a trump's subject; a plain rosette for an unknown subject."""
    if not _EMBLEMS:
        table = {
            "sun": _sun(), "moon": _moon(), "star": _star_emblem(), "world": _world(),
            "angel": _angel(), "judgement": _judgement(), "trumpets": _trumpets(),
            "tower": _tower(), "house of the devil": _tower(flames=True), "devil": _devil(),
            "death": _scythe(), "temperance": _temperance(), "justice": _justice(),
            "strength": _column(False), "fortitude": _column(True), "wheel": _wheel(),
            "wheel of fortune": _wheel(), "hermit": _lantern(), "old man": _hourglass(),
            "hunchback": _hourglass(), "hanged man": _hanged(), "traitor": _hanged(),
            "chariot": _chariot(), "love": _love(), "lovers": _love(), "charity": _charity(),
            "hope": _anchor(), "faith": _cross(), "prudence": _mirror(), "fire": _fire(),
            "water": _water(), "earth": _earth(), "air": _air(), "magician": _table(),
            "pope": _tiara(), "popess": _book(), "empress": _crown("open"),
            "emperor": _crown("imperial"), "moor": _moor(), "fool": _jester(),
            # the five Minchiate Papi show, in order, the Juggler, the Grand Duke, the
            # Western and the Eastern Emperor and Love
            "papa i": _table(), "papa ii": _crown("ducal"), "papa iii": _crown("imperial"),
            "papa iv": _crown("eastern"), "papa v": _love(),
        }  # fmt: skip
        table.update({sign: _zodiac(sign) for sign in _ZODIAC})
        _EMBLEMS.update(table)
    return _EMBLEMS.get(subject, "")


def has_emblem(card: Card) -> bool:
    """Tell whether a trump or the Matto has its own emblem (not the fallback rosette)."""
    return card.suit == FOOL or bool(_emblem(subject_of(card)))


def emblem_of(card: Card) -> str:
    if card.suit == FOOL:
        return _jester()
    return _emblem(subject_of(card)) or _rosette_emblem()
