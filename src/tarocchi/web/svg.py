"""The cards drawn as SVG: faces, backs and a contact sheet, generated from the packs' data.

Every card is a standalone SVG document (viewBox 0 0 200 320) built only from paths,
circles and text: no scans, no external assets, nothing random. Each pack has its own
style (see `STYLES`): the Piemontese pack is cream with a blue and red frame and Roman
numerals in a banner; the Bolognese pack (Tarocchino) draws its trumps and court cards
double-headed in a deep red frame; the Minchiate pack is parchment with a green frame,
Arabic numerals in a cartouche and the trump's name on a banner.

Suit cards carry the Italian suit symbols (cups, coins, curved swords, batons) in their
real number and layout; court cards a figure with the suit symbol and a title. Every card
has a corner index in two opposite corners. The suits use colour-blind-safe colours from
the Okabe-Ito palette (`SUIT_COLOURS`) and differ in shape as well as in colour.

Ids inside a card are prefixed with the pack and card code, so any number of different
cards can be inlined in one HTML page without their `<use>` references colliding.
"""

from __future__ import annotations

import html
import importlib
import math
import re
from dataclasses import dataclass
from functools import cache

from tarocchi.cards import BATONS, COINS, CUPS, FOOL, SUIT_NAMES_EN, SWORDS, TRUMPS, Card, Pack
from tarocchi.i18n import Translator, translator

# Okabe & Ito (2008), "Color Universal Design": distinguishable under the common forms of
# colour blindness. The shapes differ too (blade, stave, goblet, disc), so colour is never
# the only cue.
SUIT_COLOURS: dict[int, str] = {
    SWORDS: "#0072B2",  # blue
    BATONS: "#009E73",  # bluish green
    CUPS: "#D55E00",  # vermillion
    COINS: "#E69F00",  # orange (gold)
}
# darker inks of the same hues for outlines and index text (contrast >= 4.5:1 on the paper)
SUIT_INKS: dict[int, str] = {
    SWORDS: "#004a75",
    BATONS: "#005a42",
    CUPS: "#8f3d00",
    COINS: "#7a5200",
}

# the game -> pack map (DESIGN.md: piedicavallo plays the Piemontese pack, and so on);
# the packs are imported directly so drawing a card never needs the rules modules
PACK_MODULES: dict[str, str] = {
    "piedicavallo": "tarocchi.packs.piemontese",
    "ottocento": "tarocchi.packs.bolognese",
    "minchiate": "tarocchi.packs.minchiate",
}

INK = "#2a2118"
CREAM = "#fff7e3"
GOLD = "#E69F00"
YELLOW = "#F0E442"
RED = "#D55E00"
BLUE = "#0072B2"
SKY = "#56B4E9"
GREEN = "#009E73"
BROWN = "#8a5a2b"
GREY = "#c3c8cc"
SKIN = "#f3d6b3"
DARK_SKIN = "#7b4b2a"

W, H = 200, 320
# behind the Latin faces, system faces with Devanagari for Hindi titles (an SVG shown as an
# image cannot load the site's web font)
FONT = (
    "Georgia,'Times New Roman','Noto Serif Devanagari','Noto Sans Devanagari','Nirmala UI',"
    "Mangal,'Kohinoor Devanagari','Lohit Devanagari',serif"
)
# the message context of the words printed on card faces (catalogs: "card label")
CARD_LABEL = "card label"
MOOR = "Moor"


@dataclass(frozen=True, slots=True)
class Style:
    """The look of one pack: paper, frame colours, numerals and layout."""

    key: str  # id prefix
    paper: str
    frame: str  # outer frame line, banners
    accent: str  # inner frame line, medallion rings
    panel: str  # medallion and court-panel fill
    banner_text: str
    roman: bool  # numerals in the trump banner: Roman (True) or Arabic
    double: bool  # trumps and court cards double-headed (the Tarocchino)
    back: tuple[str, str, str]  # back: ground, pattern, highlight


STYLES: dict[str, Style] = {
    "piedicavallo": Style(
        "pm", "#fbf6e9", "#1f4e8c", "#b8322a", "#eef2f8", "#fbf6e9", True, False,
        ("#1f4e8c", "#5b8fd0", "#b8322a"),
    ),
    "ottocento": Style(
        "bo", "#fdfaf3", "#7a1f1f", "#c9a227", "#f8efe0", "#fdfaf3", False, True,
        ("#7a1f1f", "#c9a227", "#fdfaf3"),
    ),
    "minchiate": Style(
        "mi", "#f6edd6", "#245b45", "#c08a1e", "#efe6cc", "#f6edd6", False, False,
        ("#245b45", "#c08a1e", "#f6edd6"),
    ),
}  # fmt: skip


# --------------------------------------------------------------------------- helpers


def _n(x: float) -> str:
    """Format a coordinate compactly (one decimal, no trailing zeros)."""
    s = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _pts(*xy: float) -> str:
    """Join coordinates as 'x y x y ...'."""
    return " ".join(_n(v) for v in xy)


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _tint(colour: str, t: float) -> str:
    """Mix a #rrggbb colour with white (t = share of white)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = (round(c + (255 - c) * t) for c in (r, g, b))
    return "#" + "".join(f"{c:02x}" for c in mix)


def _tf(x: float, y: float, s: float = 1.0, rot: float = 0.0) -> str:
    """Return a transform attribute value: translate, then rotate, then scale."""
    out = f"translate({_n(x)} {_n(y)})"
    if rot:
        out += f" rotate({_n(rot)})"
    if s != 1:
        out += f" scale({s:.3g})"
    return out


def _use(ref: str, x: float, y: float, s: float = 1.0, rot: float = 0.0, cls: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    return f'<use href="#{ref}"{c} transform="{_tf(x, y, s, rot)}"/>'


def roman(n: int) -> str:
    """Return n (1..3999) in Roman numerals."""
    out = ""
    for value, letters in (
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
        (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ):  # fmt: skip
        while n >= value:
            out += letters
            n -= value
    return out


# rough advance widths (em) of a Times-like serif, to fit titles into their banners
_WIDE = set("MWmw")
_NARROW = set("Iijlt.,'’ ")


def _text_width(text: str, size: float) -> float:
    """Estimate the rendered width of text in a bold serif face (an upper bound)."""
    em = 0.0
    for ch in text:
        if ch in _WIDE:
            em += 0.9
        elif ch in _NARROW:
            em += 0.3
        elif ch.isupper():
            em += 0.7
        else:
            em += 0.5
    return em * size


def _fit_lines(text: str, size: float, width: float) -> list[str]:
    """Split text into one or two lines that fit width at size (best balanced split)."""
    # a slightly long line is squeezed (textLength) rather than split
    if _text_width(text, size) <= width * 1.15 or " " not in text:
        return [text]
    words = text.split(" ")
    best = [text]
    best_w = math.inf
    for i in range(1, len(words)):
        a, b = " ".join(words[:i]), " ".join(words[i:])
        w = max(_text_width(a, size), _text_width(b, size))
        if w < best_w:
            best, best_w = [a, b], w
    return best


def _text(
    x: float, y: float, text: str, size: float, fill: str, width: float = 0.0, bold: bool = True
) -> str:
    """Return one centred text line, squeezed with textLength when it would overflow width."""
    extra = ' font-weight="bold"' if bold else ""
    if width and _text_width(text, size) > width:
        extra += f' textLength="{_n(width)}" lengthAdjust="spacingAndGlyphs"'
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" fill="{fill}"{extra}>'
        f"{_esc(text)}</text>"
    )


def _display_name(card: Card) -> str:
    """Return the name to print on a card: the subject without its number ('Bégato', 'Sun')."""
    name = card.name_en
    m = re.search(r"\(([^)]+)\)", name)
    if m:
        return m.group(1)
    # the article is dropped to leave room for a large type
    return re.sub(r"^(\d+\s+)?(The\s+)?", "", name)


def _subject(card: Card) -> str:
    """Return the lower-case subject used to pick a trump's emblem."""
    name = re.sub(r"\s*\([^)]*\)", "", card.name_en)
    name = re.sub(r"^\d+\s+", "", name).lower()
    name = re.sub(r"^the\s+", "", name)
    if card.rank.startswith("MOOR"):
        return "moor"
    return name


# --------------------------------------------------------------------------- suit symbols
# Each symbol is drawn at unit size 100 (-50..50) centred on the origin.


def _rosette(r_in: float, r_out: float, n: int, spread: float) -> str:
    """Return the path of an n-petal rosette."""
    parts = []
    for k in range(n):
        a = 2 * math.pi * k / n - math.pi / 2
        tip = (r_out * math.cos(a), r_out * math.sin(a))
        base = (r_in * math.cos(a), r_in * math.sin(a))
        c1 = (r_out * 0.62 * math.cos(a - spread), r_out * 0.62 * math.sin(a - spread))
        c2 = (r_out * 0.62 * math.cos(a + spread), r_out * 0.62 * math.sin(a + spread))
        parts.append(f"M{_pts(*base)}Q{_pts(*c1, *tip)}Q{_pts(*c2, *base)}Z")
    return "".join(parts)


def _star(n: int, r_out: float, r_in: float, rot: float = -90.0) -> str:
    """Return the path of an n-pointed star."""
    pts = []
    for k in range(2 * n):
        r = r_out if k % 2 == 0 else r_in
        a = math.radians(rot + 180.0 * k / n)
        pts.append(_pts(r * math.cos(a), r * math.sin(a)))
    return "M" + "L".join(pts) + "Z"


def _suit_symbol(suit: int) -> str:
    """Return the unit-size drawing of a suit symbol (without a wrapper)."""
    c, k = SUIT_COLOURS[suit], SUIT_INKS[suit]
    if suit == COINS:
        return (
            f'<circle r="46" fill="{c}" stroke="{k}" stroke-width="4"/>'
            f'<circle r="35" fill="none" stroke="{k}" stroke-width="2"/>'
            f'<path d="{_rosette(8, 31, 8, 0.42)}" fill="{CREAM}" stroke="{k}" stroke-width="2"/>'
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


def _hilt(suit_ink: str) -> str:
    """Return the hilt of a pip sabre at real size: guard at 0, grip below."""
    return (
        f'<g fill="{suit_ink}" stroke="{suit_ink}" stroke-width="1" stroke-linejoin="round">'
        f'<path d="M-11 -3Q0 1 11 -3Q14 -3 13 1Q0 6 -13 1Q-14 -3 -11 -3Z"/>'
        f'<path d="M-2 3H2V15H-2Z"/><circle cy="18" r="3.2"/></g>'
    )


def _stick(suit: int) -> str:
    """Return a lattice baton at real size: a long stave, vertical, centred."""
    c, k = SUIT_COLOURS[suit], SUIT_INKS[suit]
    return (
        f'<g stroke="{k}" stroke-width="1.6"><rect x="-4.5" y="-92" width="9" height="184" '
        f'rx="4.5" fill="{c}"/><path fill="none" d="M-4.5 -80h9M-4.5 -74h9M-4.5 74h9M-4.5 80h9'
        f'M-4.5 -3h9M-4.5 3h9"/></g>'
    )


# --------------------------------------------------------------------------- emblems
# Each emblem is drawn in a 100x100 box centred on the origin.


def _crescent(r1: float, d: float, r2: float, rot: float) -> str:
    """Return a crescent: circle r1 minus a circle r2 shifted right by d, rotated."""
    x = (d * d + r1 * r1 - r2 * r2) / (2 * d)
    y = math.sqrt(max(r1 * r1 - x * x, 0.0))
    a = math.radians(rot)

    def p(px: float, py: float) -> str:
        return _pts(px * math.cos(a) - py * math.sin(a), px * math.sin(a) + py * math.cos(a))

    large = 1 if x > d else 0
    return (
        f"M{p(x, -y)}A{_n(r1)} {_n(r1)} 0 1 0 {p(x, y)}A{_n(r2)} {_n(r2)} 0 {large} 1 {p(x, -y)}Z"
    )


def _sun() -> str:
    rays = []
    for k in range(16):
        a = math.radians(k * 22.5)
        r = 47 if k % 2 == 0 else 38
        b1 = (24 * math.cos(a - 0.2), 24 * math.sin(a - 0.2))
        b2 = (24 * math.cos(a + 0.2), 24 * math.sin(a + 0.2))
        rays.append(f"M{_pts(*b1)}L{_pts(r * math.cos(a), r * math.sin(a))}L{_pts(*b2)}Z")
    return (
        f'<path d="{"".join(rays)}" fill="{GOLD}" stroke="{INK}" stroke-width="1.5"/>'
        f'<circle r="24" fill="{YELLOW}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="M-10 -5h6M4 -5h6M-8 8Q0 14 8 8" fill="none" stroke="{INK}" '
        f'stroke-width="2.5" stroke-linecap="round"/>'
    )


def _moon() -> str:
    return (
        f'<path d="{_crescent(40, 20, 34, -25)}" fill="{SKY}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="{_star(4, 9, 3)}" transform="translate(26 -28)" fill="{GOLD}" stroke="{INK}"/>'
        f'<path d="{_star(4, 7, 2.5)}" transform="translate(34 14)" fill="{GOLD}" stroke="{INK}"/>'
    )


def _star_emblem() -> str:
    return (
        f'<path d="{_star(8, 46, 18)}" fill="{GOLD}" stroke="{INK}" stroke-width="2.5"/>'
        f'<path d="{_star(8, 26, 12, -67.5)}" fill="{YELLOW}" stroke="{INK}" stroke-width="1.5"/>'
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
        f"M{_pts(9 * math.cos(a), 9 * math.sin(a))}L{_pts(35 * math.cos(a), 35 * math.sin(a))}"
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
        f'<path d="{_star(12, 48, 30)}" fill="{YELLOW}" stroke="{GOLD}" stroke-width="1.5"/>'
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
            f'<path d="M{_n(x - 6)} 14L{_n(x)} -24L{_n(x + 6)} 14Z" fill="{GOLD}" '
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
        f'<path d="{_rosette(6, 38, 8, 0.4)}" fill="{GOLD}" stroke="{INK}" stroke-width="1.5"/>'
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
    return card.suit == FOOL or bool(_emblem(_subject(card)))


def _emblem_of(card: Card) -> str:
    if card.suit == FOOL:
        return _jester()
    return _emblem(_subject(card)) or _rosette_emblem()


# --------------------------------------------------------------------------- the card


class _Card:
    """Collects the defs and body of one card's SVG, its words in tr's language."""

    def __init__(self, game: str, card: Card, tr: Translator) -> None:
        self.game = game
        self.card = card
        self.tr = tr
        self.style = STYLES[game]
        self.p = self.style.key + re.sub(r"[^a-z0-9]", "", card.code.lower())
        self.defs: list[str] = []
        self.body: list[str] = []

    def label(self, english: str) -> str:
        """Return a word printed on the card (a court title, a trump's name) in the card's
        language."""
        return self.tr.catalog.pgettext(CARD_LABEL, english)

    def define(self, name: str, content: str, cls: str = "") -> str:
        """Add a reusable group to defs and return its id."""
        ref = f"{self.p}-{name}"
        c = f' class="{cls}"' if cls else ""
        self.defs.append(f'<g id="{ref}"{c}>{content}</g>')
        return ref

    def document(self) -> str:
        """Return the whole SVG document."""
        defs = f"<defs>{''.join(self.defs)}</defs>" if self.defs else ""
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img" '
            f'font-family="{FONT}" text-anchor="middle">'
            f"<title>{_esc(self.tr.card(self.card))}</title>{defs}{''.join(self.body)}</svg>"
        )


def _frame(style: Style) -> str:
    """Return the paper and the double frame line of a face."""
    return (
        f'<rect x=".75" y=".75" width="198.5" height="318.5" rx="11" fill="{style.paper}" '
        f'stroke="#6b6258" stroke-width="1.5"/>'
        f'<rect x="6" y="6" width="188" height="308" rx="7" fill="none" stroke="{style.frame}" '
        f'stroke-width="2.5"/>'
        f'<rect x="10.5" y="10.5" width="179" height="299" rx="4" fill="none" '
        f'stroke="{style.accent}" stroke-width="1.2"/>'
    )


def _corner_index(c: _Card, label: str, colour: str, mark: str) -> None:
    """Draw the index in the top-left and (turned) bottom-right corners."""
    size = 32.0 if len(label) < 3 else 27.0
    width = 31.0
    content = ""
    if label:
        content += _text(27.5, 41, label, size, colour, width)
    content += mark
    ref = c.define("i", content, "index")
    c.body.append(f'<use href="#{ref}"/><use href="#{ref}" transform="rotate(180 100 160)"/>')


# ------------------------------------------------------------------ suit cards

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


def _pip_value(rank: str) -> int:
    return 1 if rank == "A" else int(rank)


def _round_pips(c: _Card, suit: int, n: int) -> None:
    """Place n cups or coins in their traditional grid."""
    sym = c.define("s", _suit_symbol(suit))
    s = _PIP_SIZE[n]
    c.body.extend(_use(sym, x, y, s, cls="pip") for x, y in _PIPS[n])


SABRE_TOP, SABRE_HILT = -108.0, 104.0  # tip and guard, relative to the card's middle line


def _sabre(colour: str, ink: str, bow: float, e: float) -> str:
    """Return a pip sword at real size: hilt at the bottom, its ends e right of the middle
    line and its blade bowing left by bow from them."""
    q = (8 * (e - bow) - 2 * e) / 6  # control x putting the cubic's apex at e - bow
    l1 = SABRE_HILT + (SABRE_TOP - SABRE_HILT) / 3
    l2 = SABRE_TOP - (SABRE_TOP - SABRE_HILT) / 3
    w = 3.8
    blade = (
        f'<path d="M{_pts(e - w, SABRE_HILT)}C{_pts(q - w, l1, q - w * 0.8, l2, e, SABRE_TOP)}'
        f'C{_pts(q + w * 0.8, l2, q + w, l1, e + w, SABRE_HILT)}Z" fill="{colour}" '
        f'stroke="{ink}" stroke-width="1.3" stroke-linejoin="round"/>'
    )
    angle = math.degrees(math.atan2(q - e, -(l1 - SABRE_HILT)))
    return blade + f'<g transform="{_tf(e, SABRE_HILT, rot=angle)}">{_hilt(ink)}</g>'


def _sword_pips(c: _Card, n: int) -> None:
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
                else _use(sabre, 100, 160, cls="pip")
            )
    if n % 2:
        straight = c.define("t", _sabre(colour, ink, 0.0, 0.0))
        c.body.append(_use(straight, 100, 160, cls="pip"))


def _baton_pips(c: _Card, n: int) -> None:
    """Draw n batons: staves crossing in a lattice, a vertical one if odd."""
    stick = c.define("b", _stick(BATONS))
    k = n // 2
    spread = min(30.0, 60.0 / max(k - 1, 1))
    theta = 19.0 if k > 1 else 26.0
    for j in range(k):
        dx = (j - (k - 1) / 2) * spread
        c.body.append(_use(stick, 100 + dx, 160, rot=theta, cls="pip"))
        c.body.append(_use(stick, 100 - dx, 160, rot=-theta, cls="pip"))
    if n % 2:
        c.body.append(_use(stick, 100, 160, cls="pip"))


def _wreath(c: _Card, colour: str, ink: str, r: float) -> str:
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
            leaves.append(_use(leaf, x, y, rot=side * (deg - 180)))
    a0 = math.radians(26)
    stem = (
        f"M{_pts(100 - r * math.sin(a0), 160 - r * math.cos(a0))}A{_n(r)} {_n(r)} 0 1 0 "
        f"{_pts(100 + r * math.sin(a0), 160 - r * math.cos(a0))}"
    )
    return f'<path d="{stem}" fill="none" stroke="{ink}" stroke-width="1.5"/>{"".join(leaves)}'


def _ace(c: _Card, suit: int) -> None:
    """Draw an ace: one big suit symbol in a laurel wreath."""
    sym = c.define("s", _suit_symbol(suit))
    c.body.append(_wreath(c, _tint(SUIT_COLOURS[suit], 0.35), SUIT_INKS[suit], 80))
    # the long suits' aces are stretched: a long blade, a tall club
    scale = {COINS: "1.15", CUPS: "1.3", SWORDS: "1.5 2.5", BATONS: "2.1"}[suit]
    c.body.append(f'<use href="#{sym}" class="pip" transform="translate(100 160) scale({scale})"/>')


# ------------------------------------------------------------------ court cards

COURT_RANKS = frozenset("KQNJ")


def _court_title(card: Card) -> str:
    """Return the title word of a court card from its English name ('Maid of Cups' -> Maid)."""
    return card.name_en.split(" of ")[0]


def _rider_horse(card: Card, bottom: float, sym: str) -> str:
    """Return a Knight: a horse's head and neck facing left, the rider behind it."""
    colour, ink = SUIT_COLOURS[card.suit], SUIT_INKS[card.suit]
    pale = _tint(colour, 0.6)
    stroke = f'stroke="{INK}" stroke-width="2.2" stroke-linejoin="round"'
    b = _n(bottom)
    horse = (
        f"M44 {b}C44 {_n(bottom - 24)} 52 120 46 108C40 100 30 98 20 100C10 101 2 94 4 84"
        f"C6 74 18 64 28 54C38 42 46 32 52 26L54 8L62 20L70 10L72 28C84 40 92 60 94 84"
        f"L98 {b}Z"
    )
    return (
        # the rider: body in the suit's colour, a plumed helmet, the suit symbol raised
        f'<path d="M74 58C74 48 86 46 98 46C110 46 120 50 120 62L120 {b}H80Z" fill="{colour}" '
        f"{stroke}/>"
        f'<circle cx="96" cy="30" r="13" fill="{SKIN}" {stroke}/>'
        f'<path d="M82 30C82 12 110 12 110 30C104 24 88 24 82 30Z" fill="{GREY}" {stroke}/>'
        f'<path d="M96 16C92 6 98 0 108 0C102 4 100 10 100 16Z" fill="{RED}" {stroke}/>'
        f'<path d="M90 31v1M101 31v1" stroke="{INK}" stroke-width="2.6" '
        f'stroke-linecap="round"/>'
        + _use(sym, 24, 26, 0.36)
        + f'<path d="{horse}" fill="{pale}" {stroke}/>'
        f'<path d="M72 28C84 40 92 60 94 84L96 104" fill="none" stroke="{ink}" '
        f'stroke-width="7" stroke-linecap="round"/>'
        f'<path d="M14 84L56 52M10 96L46 92L56 52M46 92L74 {_n(bottom - 8)}" fill="none" '
        f'stroke="{ink}" stroke-width="2.5"/>'
        f'<circle cx="50" cy="46" r="3.4" fill="{INK}"/><circle cx="12" cy="88" r="2.2" '
        f'fill="{INK}"/>'
    )


def _figure(card: Card, bottom: float, sym: str) -> str:
    """Return a court figure in a 120-wide box, from its head (y 0) down to bottom."""
    rank = card.rank
    if rank == "N":
        return _rider_horse(card, bottom, sym)
    colour, ink = SUIT_COLOURS[card.suit], SUIT_INKS[card.suit]
    pale = _tint(colour, 0.62)
    stroke = f'stroke="{INK}" stroke-width="2.2" stroke-linejoin="round"'
    b = _n(bottom)
    female = rank == "Q" or (rank == "J" and _court_title(card) != "Jack")
    out = ""
    if female:  # a veil or long hair behind the head and shoulders
        out += (
            f'<path d="M40 36C34 60 30 84 26 112H94C90 84 86 60 80 36C72 20 48 20 40 36Z" '
            f'fill="{colour if rank == "Q" else "#9a6a3a"}" {stroke}/>'
        )
    if rank == "K":  # a mantle over the shoulders
        out += (
            f'<path d="M60 56C34 56 16 70 12 96L6 {b}H114L108 96C104 70 86 56 60 56Z" '
            f'fill="{colour}" {stroke}/>'
        )
    out += (
        f'<path d="M60 60C44 60 34 68 32 84L26 {b}H94L88 84C86 68 76 60 60 60Z" '
        f'fill="{pale}" {stroke}/>'
        f'<path d="M60 64V{b}" stroke="{ink}" stroke-width="1.5" stroke-dasharray="3 5"/>'
    )
    if bottom > 120:  # a belt
        out += f'<path d="M30 118H90V126H30Z" fill="{GOLD}" {stroke}/>'
    if rank == "K":  # an ermine collar
        out += (
            f'<path d="M34 68C46 80 74 80 86 68L88 78C74 90 46 90 32 78Z" fill="{CREAM}" '
            f'{stroke}/><path d="M44 80v2M60 84v2M76 80v2" stroke="{INK}" stroke-width="2.4"/>'
        )
    else:
        out += f'<path d="M38 70C48 80 72 80 82 70" fill="none" stroke="{GOLD}" stroke-width="4"/>'
    out += (
        f'<path d="M53 50H67V64H53Z" fill="{SKIN}" {stroke}/>'
        f'<circle cx="60" cy="40" r="16" fill="{SKIN}" {stroke}/>'
        f'<path d="M54 38v1M66 38v1" stroke="{INK}" stroke-width="3" stroke-linecap="round"/>'
        f'<path d="M56 47.5h8" stroke="{INK}" stroke-width="1.6"/>'
    )
    if rank == "K":
        out += (
            f'<path d="M46 48C48 64 72 64 74 48C66 54 54 54 46 48Z" fill="#a08a70" {stroke}/>'
            f'<path d="M43 28L41 6L51 16L60 2L69 16L79 6L77 28Z" fill="{GOLD}" {stroke}/>'
            f'<circle cx="60" cy="22" r="3" fill="{RED}"/>'
        )
    elif rank == "Q":
        out += (
            f'<path d="M45 27L44 11L53 19L60 8L67 19L76 11L75 27Z" fill="{GOLD}" {stroke}/>'
            f'<circle cx="60" cy="22" r="2.6" fill="{BLUE}"/>'
        )
    elif female:  # the Minchiate Maid (Fantina): a cap with a ribbon
        out += (
            f'<path d="M43 33C40 15 80 15 77 33C70 26 50 26 43 33Z" fill="{colour}" {stroke}/>'
            f'<path d="M76 28C84 30 88 40 86 48" fill="none" stroke="{GOLD}" stroke-width="3"/>'
        )
    else:  # a Jack's feathered cap
        out += (
            f'<path d="M72 22C84 8 96 4 104 2C98 12 88 20 76 26Z" fill="{GOLD}" {stroke}/>'
            f'<path d="M41 33C37 18 56 13 78 20C84 22 85 28 81 32Z" fill="{colour}" {stroke}/>'
        )
    # the right arm holds the suit symbol up
    arm = "M84 68C98 74 102 86 98 98"
    out += (
        f'<path d="{arm}" fill="none" stroke="{INK}" stroke-width="13" stroke-linecap="round"/>'
        f'<path d="{arm}" fill="none" stroke="{colour}" stroke-width="9" '
        f'stroke-linecap="round"/>'
        f'<circle cx="98" cy="101" r="5.5" fill="{SKIN}" {stroke}/>'
    )
    # a sword or a baton is held like a sceptre, so it is drawn taller than a cup or a coin
    held = 0.52 if card.suit in (SWORDS, BATONS) else 0.4
    return out + _use(sym, 100, 84 if held < 0.5 else 80, held)


def _court(c: _Card) -> None:
    card, style = c.card, c.style
    sym = c.define("s", _suit_symbol(card.suit))
    title = c.label(_court_title(card))
    if style.double:
        # the Tarocchino: a half-length figure, turned round for the bottom half
        half = (
            f'<g transform="translate(46 24) scale(.9)">{_figure(card, 130, sym)}</g>'
            f'<path d="M46 139H154V160H46Z" fill="{style.frame}"/>'
            + _text(100, 156, title, 18, style.banner_text, 96)
        )
        ref = c.define("f", half)
        c.body.append(
            f'<path d="M46 16H154V304H46Z" fill="{style.panel}" stroke="{style.accent}" '
            f'stroke-width="1.2"/>'
            f'<use href="#{ref}"/><use href="#{ref}" transform="rotate(180 100 160)"/>'
            f'<path d="M46 160H154" stroke="{style.accent}" stroke-width="1.2"/>'
        )
        return
    c.body.append(
        f'<path d="M46 250V78A54 54 0 0 1 154 78V250Z" fill="{style.panel}" '
        f'stroke="{style.accent}" stroke-width="1.5"/>'
        f'<g transform="translate(48 46) scale(.88)">{_figure(card, 232, sym)}</g>'
    )
    c.body.append(_banner(style, 256, title, 21, 84))


def _banner(style: Style, y: float, text: str, size: float, width: float = 112) -> str:
    """Return a ribbon banner centred at x=100 from y, holding one or two lines of text."""
    lines = _fit_lines(text, size, width - 12)
    if len(lines) == 2:
        size = max(13.0, size - 2)
    h = size * 1.25 * len(lines) + 8
    x0, x1 = 100 - width / 2, 100 + width / 2
    ribbon = (
        f'<path d="M{_pts(x0 - 8, y + 4)}H{_n(x0)}V{_n(y)}H{_n(x1)}V{_n(y + 4)}H{_n(x1 + 8)}'
        f"L{_pts(x1 + 2, y + h / 2 + 2)}L{_pts(x1 + 8, y + h)}H{_n(x0 - 8)}"
        f'L{_pts(x0 - 2, y + h / 2 + 2)}Z" fill="{style.accent}" stroke="{style.frame}"/>'
        f'<path d="M{_pts(x0, y)}H{_n(x1)}V{_n(y + h - 4)}H{_n(x0)}Z" fill="{style.frame}"/>'
    )
    texts = "".join(
        _text(100, y + 4 + size * (1.0 + 1.25 * i) - 2, line, size, style.banner_text, width - 8)
        for i, line in enumerate(lines)
    )
    return ribbon + texts


# ------------------------------------------------------------------ trumps


def _trump_number(card: Card) -> int:
    """Return the number printed on a trump, 0 if it has none."""
    m = re.fullmatch(r"(?:T|MOOR)(\d+)", card.rank)
    return int(m.group(1)) if m else 0


def _trump(c: _Card) -> None:
    """Draw a trump or the Matto: its emblem in a medallion, its numeral and its name."""
    card, style = c.card, c.style
    n = _trump_number(card)
    name = c.label(_display_name(card))
    if card.rank.startswith("MOOR"):
        name = f"{c.label(MOOR)} {roman(n)}"
    emblem = c.define("e", _emblem_of(card))
    if style.double:
        # the Tarocchino: the top half, turned round for the bottom half; the number is
        # in the corner index, the name in the cartouche
        half = (
            f'<rect x="48" y="16" width="104" height="29" rx="5" fill="{style.frame}" '
            f'stroke="{style.accent}" stroke-width="1.5"/>'
            + _text(100, 37.5, name, 19, style.banner_text, 94)
            + f'<circle cx="100" cy="101" r="50" fill="{style.panel}" stroke="{style.accent}" '
            f'stroke-width="2"/>' + _use(emblem, 100, 101, 0.88)
        )
        ref = c.define("f", half)
        c.body.append(
            f'<path d="M48 160H152" stroke="{style.accent}" stroke-width="1.5"/>'
            f'<use href="#{ref}"/><use href="#{ref}" transform="rotate(180 100 160)"/>'
        )
        return
    cy = 140 if n else 128
    c.body.append(
        f'<circle cx="100" cy="{cy}" r="60" fill="{style.panel}" stroke="{style.accent}" '
        f'stroke-width="2.5"/><circle cx="100" cy="{cy}" r="54.5" fill="none" '
        f'stroke="{style.frame}" stroke-width="1"/>' + _use(emblem, 100, cy, 0.96)
    )
    if n and style.roman:
        c.body.append(_banner(style, 16, roman(n), 24, 80))
    elif n:
        c.body.append(
            f'<ellipse cx="100" cy="43" rx="28" ry="21" fill="{style.frame}" '
            f'stroke="{style.accent}" stroke-width="3"/>'
            + _text(100, 53, str(n), 28, style.banner_text)
        )
    c.body.append(_banner(style, 210 if n else 206, name, 21 if n else 24, 122))


# --------------------------------------------------------------------------- public API


@cache
def pack_of(game: str) -> Pack:
    """Return the pack a game plays with; raise ValueError for an unknown game."""
    try:
        module = PACK_MODULES[game.strip().lower()]
    except KeyError:
        raise ValueError(
            f"unknown game {game!r}; choose one of {', '.join(PACK_MODULES)}"
        ) from None
    pack: Pack = importlib.import_module(module).PACK
    return pack


def _game_key(game: str) -> str:
    """Return the registry name of a game; raise ValueError for an unknown game."""
    key = game.strip().lower()
    pack_of(key)
    return key


def card_svg(game: str, code: str, lang: str = "en") -> str:
    """Return the face of one card as a standalone SVG document, its words (the title of a
    court card or trump, the accessible name) in a language; ValueError if unknown."""
    key = _game_key(game)
    pack = pack_of(key)
    return _face(key, pack.cards[pack.card_id(code)], lang)


def card_labels() -> set[str]:
    """Return every word printed on a card face, in English (for the catalogs)."""
    labels = {MOOR}
    for key in STYLES:
        for card in pack_of(key).cards:
            if card.suit in (TRUMPS, FOOL):
                labels.add(_display_name(card))
            elif card.rank in COURT_RANKS:
                labels.add(_court_title(card))
    return labels


@cache
def _face(game: str, card: Card, lang: str) -> str:
    """Draw one card's face: the frame, the picture or pips, and the corner index."""
    c = _Card(game, card, translator(lang))
    style = c.style
    c.body.append(_frame(style))
    suit = card.suit
    if suit == TRUMPS:
        n = _trump_number(card)
        if card.rank.startswith("MOOR"):
            label = roman(n)
        elif n:
            label = str(n)
        else:
            label = ""
        _trump(c)
        mark = "" if label else _use(f"{c.p}-e", 27.5, 42, 0.34)
        _corner_index(c, label, style.frame, mark)
    elif suit == FOOL:
        _trump(c)
        _corner_index(c, "", style.frame, _use(f"{c.p}-e", 27.5, 42, 0.34))
    else:
        sym = f"{c.p}-s"
        if card.rank in COURT_RANKS:
            _court(c)
        elif card.rank == "A":
            _ace(c, suit)
        else:
            n = _pip_value(card.rank)
            if suit in (CUPS, COINS):
                _round_pips(c, suit, n)
            elif suit == SWORDS:
                c.define("s", _suit_symbol(suit))
                _sword_pips(c, n)
            else:
                c.define("s", _suit_symbol(suit))
                _baton_pips(c, n)
        _corner_index(c, card.rank, SUIT_INKS[suit], _use(sym, 27.5, 62, 0.24))
    return c.document()


@cache
def card_back_svg(game: str) -> str:
    """Return the back of a game's cards as a standalone SVG document."""
    key = _game_key(game)
    style = STYLES[key]
    ground, pattern, light = style.back
    pid = f"{style.key}-back"
    if key == "piedicavallo":  # a tartan of crossing bands
        tile = (
            f'<rect width="24" height="24" fill="{ground}"/>'
            f'<path d="M0 6H24V14H0ZM6 0V24H14V0Z" fill="{pattern}" opacity=".55"/>'
            f'<path d="M0 18.5H24M18.5 0V24" stroke="{light}" stroke-width="1.5"/>'
        )
        size = 24
    elif key == "ottocento":  # a lattice of lozenges with dots
        tile = (
            f'<rect width="20" height="20" fill="{ground}"/>'
            f'<path d="M10 0L20 10L10 20L0 10Z" fill="none" stroke="{pattern}" '
            f'stroke-width="1.4"/><circle cx="10" cy="10" r="2.4" fill="{light}"/>'
        )
        size = 20
    else:  # Florentine rosettes
        tile = (
            f'<rect width="28" height="28" fill="{ground}"/>'
            f'<path d="{_rosette(1.5, 10, 4, 0.5)}" transform="translate(14 14)" '
            f'fill="{pattern}"/><circle cx="14" cy="14" r="2" fill="{light}"/>'
            f'<circle r="2.5" fill="{pattern}"/><circle cx="28" r="2.5" fill="{pattern}"/>'
            f'<circle cy="28" r="2.5" fill="{pattern}"/><circle cx="28" cy="28" r="2.5" '
            f'fill="{pattern}"/>'
        )
        size = 28
    pack = pack_of(key)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img">'
        f"<title>Back of a {_esc(pack.name)} card</title>"
        f'<defs><pattern id="{pid}" width="{size}" height="{size}" '
        f'patternUnits="userSpaceOnUse">{tile}</pattern></defs>'
        f'<rect x=".75" y=".75" width="198.5" height="318.5" rx="11" fill="{style.paper}" '
        f'stroke="#6b6258" stroke-width="1.5"/>'
        f'<rect x="10" y="10" width="180" height="300" rx="5" fill="url(#{pid})" '
        f'stroke="{ground}" stroke-width="2"/>'
        f'<rect x="16" y="16" width="168" height="288" rx="3" fill="none" stroke="{light}" '
        f'stroke-width="1.5"/>'
        f'<ellipse cx="100" cy="160" rx="34" ry="46" fill="{ground}" stroke="{light}" '
        f'stroke-width="3"/>'
        f'<path d="{_rosette(4, 28, 8, 0.42)}" transform="translate(100 160)" fill="{pattern}" '
        f'stroke="{light}" stroke-width="1"/>'
        f"</svg>"
    )


def contact_sheet(game: str, width: int = 140) -> str:
    """Return an HTML page showing every card of a game's pack (inline SVG), and its back."""
    key = _game_key(game)
    pack = pack_of(key)
    groups: list[tuple[str, list[Card]]] = []
    for suit in (TRUMPS, FOOL, SWORDS, BATONS, CUPS, COINS):
        cards = [c for c in pack.cards if c.suit == suit]
        if cards:
            name = SUIT_NAMES_EN[suit]
            groups.append((name[0].upper() + name[1:], cards))
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{_esc(pack.name)}: every card</title><style>",
        "body{font-family:sans-serif;background:#d9d4c7;margin:16px}",
        "h1,h2{margin:8px 0;color:#333}.row{display:flex;flex-wrap:wrap;gap:10px}",
        f"figure{{margin:0;text-align:center;font-size:12px;color:#333}}svg{{width:{width}px;",
        "height:auto;display:block}</style></head><body>",
        f"<h1>{_esc(pack.name)} ({_esc(key)}): {pack.size} cards</h1>",
    ]
    for title, cards in groups:
        parts.append(f"<h2>{_esc(title)}</h2><div class='row'>")
        for card in cards:
            parts.append(
                f"<figure>{card_svg(key, card.code)}<figcaption>{_esc(card.code)}"
                f"</figcaption></figure>"
            )
        parts.append("</div>")
    parts.append(
        f"<h2>Back</h2><div class='row'><figure>{card_back_svg(key)}"
        "<figcaption>back</figcaption></figure></div></body></html>"
    )
    return "".join(parts)
