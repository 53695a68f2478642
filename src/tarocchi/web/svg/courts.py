"""The court cards' faces: a figure (on horseback for the Knight) holding its suit's symbol,
and its title on a banner.
"""

from __future__ import annotations

from tarocchi.cards import BATONS, SWORDS, Card
from tarocchi.web.svg.base import (
    BLUE,
    CREAM,
    GOLD,
    GREY,
    INK,
    RED,
    SKIN,
    SUIT_COLOURS,
    SUIT_INKS,
    Face,
    banner,
    num,
    text_line,
    tint,
    use,
)
from tarocchi.web.svg.symbols import suit_symbol

COURT_RANKS = frozenset("KQNJ")


def court_title(card: Card) -> str:
    """Return the title word of a court card from its English name ('Maid of Cups' -> Maid)."""
    return card.name_en.split(" of ")[0]


def _rider_horse(card: Card, bottom: float, sym: str) -> str:
    """Return a Knight: a horse's head and neck facing left, the rider behind it."""
    colour, ink = SUIT_COLOURS[card.suit], SUIT_INKS[card.suit]
    pale = tint(colour, 0.6)
    stroke = f'stroke="{INK}" stroke-width="2.2" stroke-linejoin="round"'
    b = num(bottom)
    horse = (
        f"M44 {b}C44 {num(bottom - 24)} 52 120 46 108C40 100 30 98 20 100C10 101 2 94 4 84"
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
        + use(sym, 24, 26, 0.36)
        + f'<path d="{horse}" fill="{pale}" {stroke}/>'
        f'<path d="M72 28C84 40 92 60 94 84L96 104" fill="none" stroke="{ink}" '
        f'stroke-width="7" stroke-linecap="round"/>'
        f'<path d="M14 84L56 52M10 96L46 92L56 52M46 92L74 {num(bottom - 8)}" fill="none" '
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
    pale = tint(colour, 0.62)
    stroke = f'stroke="{INK}" stroke-width="2.2" stroke-linejoin="round"'
    b = num(bottom)
    female = rank == "Q" or (rank == "J" and court_title(card) != "Jack")
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
    return out + use(sym, 100, 84 if held < 0.5 else 80, held)


def court(c: Face) -> None:
    card, style = c.card, c.style
    sym = c.define("s", suit_symbol(card.suit))
    title = c.label(court_title(card))
    if style.double:
        # the Tarocchino: a half-length figure, turned round for the bottom half
        half = (
            f'<g transform="translate(46 24) scale(.9)">{_figure(card, 130, sym)}</g>'
            f'<path d="M46 139H154V160H46Z" fill="{style.frame}"/>'
            + text_line(100, 156, title, 18, style.banner_text, 96)
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
    c.body.append(banner(style, 256, title, 21, 84))
