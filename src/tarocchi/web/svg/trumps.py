"""The trumps' and the Matto's faces: the emblem in a medallion, the numeral and the name."""

from __future__ import annotations

import re

from tarocchi.cards import Card
from tarocchi.web.svg.base import MOOR, Face, banner, display_name, roman, text_line, use
from tarocchi.web.svg.emblems import emblem_of


def trump_number(card: Card) -> int:
    """Return the number printed on a trump, 0 if it has none."""
    m = re.fullmatch(r"(?:T|MOOR)(\d+)", card.rank)
    return int(m.group(1)) if m else 0


def trump(c: Face) -> None:
    """Draw a trump or the Matto: its emblem in a medallion, its numeral and its name."""
    card, style = c.card, c.style
    n = trump_number(card)
    name = c.label(display_name(card))
    if card.rank.startswith("MOOR"):
        name = f"{c.label(MOOR)} {roman(n)}"
    emblem = c.define("e", emblem_of(card))
    if style.double:
        # the Tarocchino: the top half, turned round for the bottom half; the number is
        # in the corner index, the name in the cartouche
        half = (
            f'<rect x="48" y="16" width="104" height="29" rx="5" fill="{style.frame}" '
            f'stroke="{style.accent}" stroke-width="1.5"/>'
            + text_line(100, 37.5, name, 19, style.banner_text, 94)
            + f'<circle cx="100" cy="101" r="50" fill="{style.panel}" stroke="{style.accent}" '
            f'stroke-width="2"/>' + use(emblem, 100, 101, 0.88)
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
        f'stroke="{style.frame}" stroke-width="1"/>' + use(emblem, 100, cy, 0.96)
    )
    if n and style.roman:
        c.body.append(banner(style, 16, roman(n), 24, 80))
    elif n:
        c.body.append(
            f'<ellipse cx="100" cy="43" rx="28" ry="21" fill="{style.frame}" '
            f'stroke="{style.accent}" stroke-width="3"/>'
            + text_line(100, 53, str(n), 28, style.banner_text)
        )
    c.body.append(banner(style, 210 if n else 206, name, 21 if n else 24, 122))
