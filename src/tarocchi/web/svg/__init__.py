"""The cards drawn as SVG: faces, backs and a contact sheet, generated from the packs' data.

Every card is a standalone SVG document (viewBox 0 0 200 320) built only from paths,
circles and text: no scans, no external assets, nothing random. Each pack has its own
style (its `content.Game.style`): the Piemontese pack is cream with a blue and red frame and Roman
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

from functools import cache

from tarocchi.cards import BATONS, COINS, CUPS, FOOL, SUIT_NAMES_EN, SWORDS, TRUMPS, Card
from tarocchi.games import pack_of
from tarocchi.i18n import translator
from tarocchi.web.content import GAMES, game_of
from tarocchi.web.svg.base import (
    CARD_LABEL,
    INDEX_HEIGHT,
    INDEX_WIDTH,
    MOOR,
    SUIT_COLOURS,
    SUIT_INKS,
    Face,
    H,
    W,
    corner_index,
    display_name,
    esc,
    paper_and_frame,
    roman,
    use,
)
from tarocchi.web.svg.courts import COURT_RANKS, court, court_title
from tarocchi.web.svg.emblems import has_emblem
from tarocchi.web.svg.pips import ace, baton_pips, pip_value, round_pips, sword_pips
from tarocchi.web.svg.symbols import rosette, suit_symbol
from tarocchi.web.svg.trumps import trump, trump_number

__all__ = [
    "CARD_LABEL",
    "INDEX_HEIGHT",
    "INDEX_WIDTH",
    "SUIT_COLOURS",
    "SUIT_INKS",
    "card_back_svg",
    "card_labels",
    "card_svg",
    "contact_sheet",
    "has_emblem",
    "pack_of",
]


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
    for key in GAMES:
        for card in pack_of(key).cards:
            if card.suit in (TRUMPS, FOOL):
                labels.add(display_name(card))
            elif card.rank in COURT_RANKS:
                labels.add(court_title(card))
    return labels


@cache
def _face(game: str, card: Card, lang: str) -> str:
    """Draw one card's face: the frame, the picture or pips, and the corner index."""
    c = Face(game, card, translator(lang))
    style = c.style
    c.body.append(paper_and_frame(style))
    suit = card.suit
    if suit == TRUMPS:
        n = trump_number(card)
        if card.rank.startswith("MOOR"):
            label = roman(n)
        elif n:
            label = str(n)
        else:
            label = ""
        trump(c)
        mark = "" if label else use(f"{c.p}-e", 27.5, 42, 0.34)
        corner_index(c, label, style.frame, mark)
    elif suit == FOOL:
        trump(c)
        corner_index(c, "", style.frame, use(f"{c.p}-e", 27.5, 42, 0.34))
    else:
        sym = f"{c.p}-s"
        if card.rank in COURT_RANKS:
            court(c)
        elif card.rank == "A":
            ace(c, suit)
        else:
            n = pip_value(card.rank)
            if suit in (CUPS, COINS):
                round_pips(c, suit, n)
            elif suit == SWORDS:
                c.define("s", suit_symbol(suit))
                sword_pips(c, n)
            else:
                c.define("s", suit_symbol(suit))
                baton_pips(c, n)
        corner_index(c, card.rank, SUIT_INKS[suit], use(sym, 27.5, 62, 0.24))
    return c.document()


@cache
def card_back_svg(game: str) -> str:
    """Return the back of a game's cards as a standalone SVG document."""
    key = _game_key(game)
    style = game_of(key).style
    ground, pattern, light = style.back
    pid = f"{style.key}-back"
    if style.tile == "tartan":  # crossing bands
        tile = (
            f'<rect width="24" height="24" fill="{ground}"/>'
            f'<path d="M0 6H24V14H0ZM6 0V24H14V0Z" fill="{pattern}" opacity=".55"/>'
            f'<path d="M0 18.5H24M18.5 0V24" stroke="{light}" stroke-width="1.5"/>'
        )
        size = 24
    elif style.tile == "lattice":  # lozenges with dots
        tile = (
            f'<rect width="20" height="20" fill="{ground}"/>'
            f'<path d="M10 0L20 10L10 20L0 10Z" fill="none" stroke="{pattern}" '
            f'stroke-width="1.4"/><circle cx="10" cy="10" r="2.4" fill="{light}"/>'
        )
        size = 20
    else:  # Florentine rosettes
        tile = (
            f'<rect width="28" height="28" fill="{ground}"/>'
            f'<path d="{rosette(1.5, 10, 4, 0.5)}" transform="translate(14 14)" '
            f'fill="{pattern}"/><circle cx="14" cy="14" r="2" fill="{light}"/>'
            f'<circle r="2.5" fill="{pattern}"/><circle cx="28" r="2.5" fill="{pattern}"/>'
            f'<circle cy="28" r="2.5" fill="{pattern}"/><circle cx="28" cy="28" r="2.5" '
            f'fill="{pattern}"/>'
        )
        size = 28
    pack = pack_of(key)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img">'
        f"<title>Back of a {esc(pack.name)} card</title>"
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
        f'<path d="{rosette(4, 28, 8, 0.42)}" transform="translate(100 160)" fill="{pattern}" '
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
        f"<title>{esc(pack.name)}: every card</title><style>",
        "body{font-family:sans-serif;background:#d9d4c7;margin:16px}",
        "h1,h2{margin:8px 0;color:#333}.row{display:flex;flex-wrap:wrap;gap:10px}",
        f"figure{{margin:0;text-align:center;font-size:12px;color:#333}}svg{{width:{width}px;",
        "height:auto;display:block}</style></head><body>",
        f"<h1>{esc(pack.name)} ({esc(key)}): {pack.size} cards</h1>",
    ]
    for title, cards in groups:
        parts.append(f"<h2>{esc(title)}</h2><div class='row'>")
        for card in cards:
            parts.append(
                f"<figure>{card_svg(key, card.code)}<figcaption>{esc(card.code)}"
                f"</figcaption></figure>"
            )
        parts.append("</div>")
    parts.append(
        f"<h2>Back</h2><div class='row'><figure>{card_back_svg(key)}"
        "<figcaption>back</figcaption></figure></div></body></html>"
    )
    return "".join(parts)
