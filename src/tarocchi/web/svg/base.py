"""The drawing kit every card shares: the palette, SVG helpers, text that
fits its banner, and the face being drawn (`Face`) with its frame, corner index and banner.
"""

from __future__ import annotations

import html
import math
import re

from tarocchi.cards import BATONS, COINS, CUPS, SWORDS, Card
from tarocchi.i18n import Translator
from tarocchi.web.content import Style, game_of

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


def num(x: float) -> str:
    """Format a coordinate compactly (one decimal, no trailing zeros)."""
    s = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def coords(*xy: float) -> str:
    """Join coordinates as 'x y x y ...'."""
    return " ".join(num(v) for v in xy)


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def tint(colour: str, t: float) -> str:
    """Mix a #rrggbb colour with white (t = share of white)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = (round(c + (255 - c) * t) for c in (r, g, b))
    return "#" + "".join(f"{c:02x}" for c in mix)


def tf(x: float, y: float, s: float = 1.0, rot: float = 0.0) -> str:
    """Return a transform attribute value: translate, then rotate, then scale."""
    out = f"translate({num(x)} {num(y)})"
    if rot:
        out += f" rotate({num(rot)})"
    if s != 1:
        out += f" scale({s:.3g})"
    return out


def use(ref: str, x: float, y: float, s: float = 1.0, rot: float = 0.0, cls: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    return f'<use href="#{ref}"{c} transform="{tf(x, y, s, rot)}"/>'


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


def text_line(
    x: float, y: float, text: str, size: float, fill: str, width: float = 0.0, bold: bool = True
) -> str:
    """Return one centred text line, squeezed with textLength when it would overflow width."""
    extra = ' font-weight="bold"' if bold else ""
    if width and _text_width(text, size) > width:
        extra += f' textLength="{num(width)}" lengthAdjust="spacingAndGlyphs"'
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" fill="{fill}"{extra}>'
        f"{esc(text)}</text>"
    )


def display_name(card: Card) -> str:
    """Return the name to print on a card: the subject without its number ('Bégato', 'Sun')."""
    name = card.name_en
    m = re.search(r"\(([^)]+)\)", name)
    if m:
        return m.group(1)
    # the article is dropped to leave room for a large type
    return re.sub(r"^(\d+\s+)?(The\s+)?", "", name)


def subject_of(card: Card) -> str:
    """Return the lower-case subject used to pick a trump's emblem."""
    name = re.sub(r"\s*\([^)]*\)", "", card.name_en)
    name = re.sub(r"^\d+\s+", "", name).lower()
    name = re.sub(r"^the\s+", "", name)
    if card.rank.startswith("MOOR"):
        return "moor"
    return name


class Face:
    """Collects the defs and body of one card's SVG, its words in tr's language."""

    def __init__(self, game: str, card: Card, tr: Translator) -> None:
        self.game = game
        self.card = card
        self.tr = tr
        self.style = game_of(game).style
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
            f"<title>{esc(self.tr.card(self.card))}</title>{defs}{''.join(self.body)}</svg>"
        )


def paper_and_frame(style: Style) -> str:
    """Return the paper and the double frame line of a face."""
    return (
        f'<rect x=".75" y=".75" width="198.5" height="318.5" rx="11" fill="{style.paper}" '
        f'stroke="#6b6258" stroke-width="1.5"/>'
        f'<rect x="6" y="6" width="188" height="308" rx="7" fill="none" stroke="{style.frame}" '
        f'stroke-width="2.5"/>'
        f'<rect x="10.5" y="10.5" width="179" height="299" rx="4" fill="none" '
        f'stroke="{style.accent}" stroke-width="1.2"/>'
    )


# the corner index: one size for every label (a long one is squeezed into the width), so
# the play page can size a hand for legible indexes (INDEX_HEIGHT, INDEX_WIDTH: fractions
# of the card's height and width, the width up to the index's right edge)
INDEX_SIZE = 32.0
INDEX_X, INDEX_W = 27.5, 31.0
INDEX_HEIGHT = INDEX_SIZE / H
INDEX_WIDTH = (INDEX_X + INDEX_W / 2) / W


def corner_index(c: Face, label: str, colour: str, mark: str) -> None:
    """Draw the index in the top-left and (turned) bottom-right corners."""
    content = ""
    if label:
        content += text_line(INDEX_X, 41, label, INDEX_SIZE, colour, INDEX_W)
    content += mark
    ref = c.define("i", content, "index")
    c.body.append(f'<use href="#{ref}"/><use href="#{ref}" transform="rotate(180 100 160)"/>')


def banner(style: Style, y: float, text: str, size: float, width: float = 112) -> str:
    """Return a ribbon banner centred at x=100 from y, holding one or two lines of text."""
    lines = _fit_lines(text, size, width - 12)
    if len(lines) == 2:
        size = max(13.0, size - 2)
    h = size * 1.25 * len(lines) + 8
    x0, x1 = 100 - width / 2, 100 + width / 2
    ribbon = (
        f'<path d="M{coords(x0 - 8, y + 4)}H{num(x0)}V{num(y)}H{num(x1)}V{num(y + 4)}H{num(x1 + 8)}'
        f"L{coords(x1 + 2, y + h / 2 + 2)}L{coords(x1 + 8, y + h)}H{num(x0 - 8)}"
        f'L{coords(x0 - 2, y + h / 2 + 2)}Z" fill="{style.accent}" stroke="{style.frame}"/>'
        f'<path d="M{coords(x0, y)}H{num(x1)}V{num(y + h - 4)}H{num(x0)}Z" fill="{style.frame}"/>'
    )
    texts = "".join(
        text_line(
            100, y + 4 + size * (1.0 + 1.25 * i) - 2, line, size, style.banner_text, width - 8
        )
        for i, line in enumerate(lines)
    )
    return ribbon + texts
