"""The words of the readable pages: the card traditions, the games, rule sections, glossary.

The rules text itself lives in the templates (rules_<game>.html); this module holds
the facts those pages are built from, so that tests can check them against the packs
(card codes of the sample cards and of the order-and-points tables) and against the
routes (every tradition and game has a page).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tarocchi.cards import Card
from tarocchi.games import GameName, entry, pack_of
from tarocchi.i18n import N_

# the player line every game shares (the product's own pages said it the same way)
PLAYERS = N_("4 players · you and your AI partner against two AI opponents · a single deal")


@dataclass(frozen=True, slots=True)
class Style:
    """The look of one pack's cards: paper, frame colours, numerals, layout and back."""

    key: str  # id prefix
    paper: str
    frame: str  # outer frame line, banners
    accent: str  # inner frame line, medallion rings
    panel: str  # medallion and court-panel fill
    banner_text: str
    roman: bool  # numerals in the trump banner: Roman (True) or Arabic
    double: bool  # trumps and court cards double-headed (the Tarocchino)
    back: tuple[str, str, str]  # back: ground, pattern, highlight
    tile: Literal["tartan", "lattice", "rosettes"]  # the back's pattern


@dataclass(frozen=True, slots=True)
class OrderRow:
    """A row of a "Card order and points" table, with the codes it describes for tests."""

    group: str
    order: str  # strongest first, as a reader reads it
    points: str
    codes: tuple[str, ...]  # the cards of the row, strongest first (ties allowed: the Moors)


@dataclass(frozen=True, slots=True)
class Game:
    """One game's pages and card art: its route name, names, tradition, difficulty, one-line
    summary, its cards' style, the card of the home page's fan, the cards its rules page
    shows, its numbered rules sections, its card order and its glossary's terms."""

    slug: GameName  # the route name: /rules/{slug}, /play/{slug}
    name: str  # "Piedicavallo Tarocchi"
    title: str  # the heading of its rules page
    tradition: str  # slug of its card tradition
    difficulty: str  # "beginner game", "intermediate game", "advanced game"
    summary: str
    style: Style
    hero: str  # the code of its card in the fan at the top of the home page
    key_cards: tuple[str, ...]  # the cards its rules page shows: those that count most
    sections: tuple[tuple[str, str], ...]  # the rules page's sections: (anchor id, title)
    card_order: tuple[OrderRow, ...]
    glossary_terms: tuple[str, ...]
    players: str = PLAYERS


@dataclass(frozen=True, slots=True)
class Tradition:
    """One card tradition: where it comes from, its pack, its history and its games."""

    slug: str
    name: str
    region: str
    country: str
    cards: int  # cards in the full traditional pack
    tagline: str
    history: tuple[str, ...]  # paragraphs, in our own words
    wiki: str
    games: tuple[GameName, ...]  # its games
    samples: tuple[str, ...]  # card codes shown as sample cards (of the first game's pack)


TRADITIONS: dict[str, Tradition] = {
    t.slug: t
    for t in (
        Tradition(
            slug="tarocco-piemontese",
            name="Tarocco Piemontese",
            region=N_("Piedmont"),
            country=N_("Italy"),
            cards=78,
            tagline=N_(
                "The double-headed tarot of Piedmont, with Italian suits, 21 trumps and the Matto, "
                "still made and played today."
            ),
            history=(
                N_(
                    "Tarot cards were invented in northern Italy in the fifteenth century, not for "
                    "fortune-telling but for playing trick-taking games: an ordinary pack of four "
                    "suits was given a fifth, permanent suit of picture cards, the trumps, and a "
                    "wandering card, the Fool. Fortune-telling with tarot came centuries later."
                ),
                N_(
                    "The Tarocco Piemontese is the pack of this family that lives on in Piedmont, "
                    "in north-west Italy. It descends from the Tarot of Marseilles pattern: 78 "
                    "cards in four Italian suits (Swords, Batons, Cups and Coins) of fourteen "
                    "cards each, 21 numbered trumps from the Magician up to the World, and the "
                    "Matto. Modern packs are double-headed, so a card reads the same either way "
                    "up."
                ),
                N_(
                    "As in the old tarot games, the suits of Swords and Batons rank their number "
                    "cards with the 10 highest, while Cups and Coins rank them the other way "
                    "round, with the ace just below the court cards."
                ),
                N_(
                    "Piedicavallo is a village in the upper Cervo valley, in the province of "
                    "Biella. Its partnership game sets aside sixteen low number cards and plays "
                    "with the remaining 62."
                ),
            ),
            wiki="https://en.wikipedia.org/wiki/Tarocco_Piemontese",
            games=("piedicavallo",),
            samples=("T21", "T1", "MATTO", "CU-K", "SW-Q", "CO-A"),
        ),
        Tradition(
            slug="tarocchino-bolognese",
            name="Tarocchino Bolognese",
            region=N_("Bologna, Emilia-Romagna"),
            country=N_("Italy"),
            cards=62,
            tagline=N_(
                "Bologna's shortened tarot of 62 cards, with the Angel at the top of the trumps "
                "and four equal Moors near the bottom."
            ),
            history=(
                N_(
                    "Bologna was one of the early centres of the tarot, which was invented in "
                    "fifteenth-century northern Italy for trick-taking games. Its pack is called "
                    "the tarocchino, the little tarot, because it leaves out the 2 to 5 of each "
                    "suit: four suits of ten cards (King, Queen, Knight, Jack, the 10 down to the "
                    "6, and the ace), 21 trumps and the Matto make 62 cards."
                ),
                N_(
                    "The trumps have their own Bolognese order. The Angel is the highest, above "
                    "the World, the Sun and the Moon; then come trumps numbered 16 down to 5, four "
                    "Moors of equal rank, and the Bégato, the Magician, at the bottom. The four "
                    "Moors took the place of four older trumps that showed papal and imperial "
                    "figures."
                ),
                N_(
                    "The pack is double-headed. Swords and Batons rank their number cards from the "
                    "10 down to the ace; Cups and Coins the other way round, with the ace highest."
                ),
                N_(
                    "Ottocento, 'eight hundred', is the classic partnership game of Bologna, "
                    "traditionally played over many deals until a team reaches 800 points. Here "
                    "you play it one deal at a time."
                ),
            ),
            wiki="https://en.wikipedia.org/wiki/Tarocco_Bolognese",
            games=("ottocento",),
            samples=("ANGEL", "WORLD", "MOOR1", "BEGATO", "MATTO", "CO-K"),
        ),
        Tradition(
            slug="minchiate",
            name="Minchiate",
            region=N_("Florence, Tuscany"),
            country=N_("Italy"),
            cards=97,
            tagline=N_(
                "Florence's great tarot of 97 cards, whose 40 trumps add the virtues, the four "
                "elements and the twelve signs of the zodiac."
            ),
            history=(
                N_(
                    "Minchiate is the Florentine branch of the tarot, the family of card games "
                    "invented in fifteenth-century northern Italy. Its pack is the largest of the "
                    "traditional tarots: four Italian suits of fourteen cards, the Matto, and 40 "
                    "trumps instead of the usual 21."
                ),
                N_(
                    "The extra trumps complete the cardinal and theological virtues (Prudence, "
                    "Faith, Hope and Charity join Temperance, Fortitude and Justice) and add the "
                    "four elements and the twelve signs of the zodiac. Above them come the Star, "
                    "the Moon, the Sun, the World and, highest of all, the Trumpets."
                ),
                N_(
                    "In Cups and Coins the lowest court card is a maid (Fantina) rather than a "
                    "jack. Cups and Coins rank their number cards with the ace high; Swords and "
                    "Batons with the 10 high."
                ),
                N_(
                    "The game spread from Florence across Italy and stayed popular for centuries "
                    "before fading away. Its scoring has its own vocabulary: combinations of "
                    "trumps are versicole, and points are settled in resti."
                ),
            ),
            wiki="https://en.wikipedia.org/wiki/Minchiate",
            games=("minchiate",),
            samples=("T40", "T20", "T28", "T1", "MATTO", "CU-J"),
        ),
    )
}


def _suit(code: str, ranks: str) -> tuple[str, ...]:
    return tuple(f"{code}-{r}" for r in ranks.split())


def _trumps(high: int, low: int) -> tuple[str, ...]:
    return tuple(f"T{n}" for n in range(high, low - 1, -1))


_MOORS = ("MOOR4", "MOOR3", "MOOR2", "MOOR1")  # equal in rank (rules §4): any order
_COURT_POINTS = N_("King 5, Queen 4, Knight 3, Jack 2, every other card 1")
_MATTO_ROW = OrderRow(N_("The Matto"), N_("no rank: it never wins a trick"), "5", ("MATTO",))
# every rules page opens and closes with the same sections: (anchor id, title)
_OPENING = (("objective", N_("Objective")), ("setup", N_("Setup")))
_CLOSING = (("cards", N_("Card order and points")), ("glossary", N_("Glossary")))


# the terms of the games, defined once; each rules page lists the ones it uses
GLOSSARY: dict[str, str] = {
    "Matto": N_(
        "The Fool. It belongs to no suit, can be played at any turn instead of the card you would "
        "owe, and never wins a trick."
    ),
    "trump": N_(
        "A card of the picture suit (trionfo or tarocco) that beats every card of the four "
        "ordinary suits."
    ),
    "trick": N_("One card from each player; the highest card by the rules takes all four."),
    "void": N_("Having no card of the suit that was led."),
    "sweep": N_("Winning every trick of the deal."),
    "Re, Donna, Regina, Cavallo, Fante": N_(
        "The Italian names of the court cards: King, Queen (Donna or Regina), Knight, Jack."
    ),
    "Fantina": N_("The maid: the lowest court card of Cups and Coins in the Minchiate pack."),
    "Bégato": N_("The Magician, the lowest trump of the Bolognese pack; one of the two contatori."),
    "Moors": N_(
        "Four trumps of equal rank just above the Bégato; if two or more meet in a trick, the last "
        "one played is the higher."
    ),
    "tarocchi": N_(
        "In Ottocento, the four honours Angel, World, Bégato and Matto, which form a set."
    ),
    "contatore": N_(
        "Plural contatori: the Bégato and the Matto, which can fill a gap in a sequence or add one "
        "card to its length."
    ),
    "cricca": N_(
        "A set of three or four cards of one kind (Kings, Queens, Knights, Jacks or tarocchi); "
        "three different sets make a criccone, which doubles the set points."
    ),
    "Grande": N_("The long sequence of trumps that starts from the Angel."),
    "Fola": N_(
        "The thirteen cards left out of play in Minchiate: the undealt cards and the discards."
    ),
    "versicola": N_(
        "Plural versicole: a scoring combination of Minchiate, such as a sequence of trumps or "
        "three Kings."
    ),
    "resto": N_("Plural resti: Minchiate's unit of settlement, one for each 60 points of lead."),
    "robbing": N_(
        "Taking counting cards and high trumps from the cut packet (the cutter) or from the Fola "
        "(the dealer) and adding them to your hand."
    ),
    "counting card": N_("A card worth points: in Minchiate, 25 of the 97 cards."),
    "die at home": N_(
        "In Minchiate, a counting card your own team plays into a trick your team wins scores "
        "nothing at once; it still counts at the end."
    ),
}

# the glossary's terms in English, translated where they are shown; every other term is an
# Italian word of the games and stays Italian in every language
ENGLISH_TERMS = frozenset(
    (
        N_("trump"),
        N_("trick"),
        N_("void"),
        N_("sweep"),
        N_("Moors"),
        N_("robbing"),
        N_("counting card"),
        N_("die at home"),
    )
)


# each game's pages and card art, by the registry's name (one entry per game)
GAMES: dict[GameName, Game] = {
    "piedicavallo": Game(
        slug="piedicavallo",
        name="Piedicavallo Tarocchi",
        title=N_("How to play Piedicavallo Tarocchi"),
        tradition="tarocco-piemontese",
        difficulty=N_("beginner game"),
        summary=N_(
            "The partnership tarocchi of Piedicavallo, in Piedmont: follow suit, trump when "
            "you cannot, look after the Matto, and take more of the pack's 114 card points "
            "than the other side."
        ),
        style=Style(
            "pm",
            "#fbf6e9",
            "#1f4e8c",
            "#b8322a",
            "#eef2f8",
            "#fbf6e9",
            True,
            False,
            ("#1f4e8c", "#5b8fd0", "#b8322a"),
            "tartan",
        ),
        hero="MATTO",
        key_cards=("T21", "T1", "MATTO", "SW-K", "BA-Q", "CU-N", "CO-J"),
        sections=(
            *_OPENING,
            ("discard", N_("The discard")),
            ("playing", N_("Playing a turn")),
            ("matto", N_("The Matto")),
            ("scoring", N_("Scoring and end")),
            *_CLOSING,
        ),
        card_order=(
            OrderRow(
                N_("Trumps"),
                N_("21 (the World), 20, 19, … down to 2, then 1 (the Magician)"),
                N_("21 and 1: 5 each; 2 to 20: 1 each"),
                _trumps(21, 1),
            ),
            OrderRow(
                N_("Swords, Batons"),
                N_("King, Queen, Knight, Jack, 10, 9, 8, 7, 6, 5"),
                _COURT_POINTS,
                _suit("SW", "K Q N J 10 9 8 7 6 5") + _suit("BA", "K Q N J 10 9 8 7 6 5"),
            ),
            OrderRow(
                N_("Cups, Coins"),
                N_("King, Queen, Knight, Jack, Ace, 2, 3, 4, 5, 6"),
                _COURT_POINTS,
                _suit("CU", "K Q N J A 2 3 4 5 6") + _suit("CO", "K Q N J A 2 3 4 5 6"),
            ),
            _MATTO_ROW,
        ),
        glossary_terms=(
            "Matto",
            "trump",
            "trick",
            "void",
            "sweep",
            "Re, Donna, Regina, Cavallo, Fante",
        ),
    ),
    "ottocento": Game(
        slug="ottocento",
        name="Ottocento",
        title=N_("How to play Ottocento"),
        tradition="tarocchino-bolognese",
        difficulty=N_("intermediate game"),
        summary=N_(
            "The Bolognese partnership game: declare the combinations in your hand, win "
            "tricks, find more combinations in your team's pile, and take the last trick for 6 "
            "points."
        ),
        style=Style(
            "bo",
            "#fdfaf3",
            "#7a1f1f",
            "#c9a227",
            "#f8efe0",
            "#fdfaf3",
            False,
            True,
            ("#7a1f1f", "#c9a227", "#fdfaf3"),
            "lattice",
        ),
        hero="WORLD",
        key_cards=("ANGEL", "WORLD", "BEGATO", "MATTO", "SW-K", "CU-Q"),
        sections=(
            *_OPENING,
            ("declarations", N_("Declarations")),
            ("combinations", N_("Combinations")),
            ("playing", N_("Playing a turn")),
            ("matto", N_("The Matto settlement")),
            ("scoring", N_("Scoring and end")),
            *_CLOSING,
        ),
        card_order=(
            OrderRow(
                N_("Trumps"),
                N_("Angel, World, Sun, Moon, 16, 15, … down to 5, the four Moors (equal), Bégato"),
                N_("Angel, World, Bégato: 5 each; every other trump 1"),
                ("ANGEL", "WORLD", "SUN", "MOON", *_trumps(16, 5), *_MOORS, "BEGATO"),
            ),
            OrderRow(
                N_("Swords, Batons"),
                N_("King, Queen, Knight, Jack, 10, 9, 8, 7, 6, Ace"),
                _COURT_POINTS,
                _suit("SW", "K Q N J 10 9 8 7 6 A") + _suit("BA", "K Q N J 10 9 8 7 6 A"),
            ),
            OrderRow(
                N_("Cups, Coins"),
                N_("King, Queen, Knight, Jack, Ace, 6, 7, 8, 9, 10"),
                _COURT_POINTS,
                _suit("CU", "K Q N J A 6 7 8 9 10") + _suit("CO", "K Q N J A 6 7 8 9 10"),
            ),
            _MATTO_ROW,
        ),
        glossary_terms=(
            "Matto",
            "Bégato",
            "Moors",
            "tarocchi",
            "contatore",
            "cricca",
            "Grande",
            "trump",
            "void",
        ),
    ),
    "minchiate": Game(
        slug="minchiate",
        name="Minchiate",
        title=N_("How to play Minchiate"),
        tradition="minchiate",
        difficulty=N_("advanced game"),
        summary=N_(
            "The Florentine game with 97 cards and 40 trumps: rob the pack, declare your "
            "versicole, capture your opponents' counting cards, and turn every 60-point lead "
            "into a resto."
        ),
        style=Style(
            "mi",
            "#f6edd6",
            "#245b45",
            "#c08a1e",
            "#efe6cc",
            "#f6edd6",
            False,
            False,
            ("#245b45", "#c08a1e", "#f6edd6"),
            "rosettes",
        ),
        hero="T38",
        key_cards=("T40", "T36", "T35", "T20", "T1", "MATTO", "CO-K"),
        sections=(
            *_OPENING,
            ("cut", N_("The cut and robbing")),
            ("fola", N_("The Fola")),
            ("versicole", N_("Versicole")),
            ("playing", N_("Playing a turn")),
            ("king", N_("The King rule")),
            ("scoring", N_("Scoring and end")),
            ("resti", N_("Resti")),
            *_CLOSING,
        ),
        card_order=(
            OrderRow(
                N_("Trumps"),
                N_(
                    "40 (the Trumpets), 39 (the World), 38 (the Sun), 37 (the Moon), "
                    "36 (the Star), 35, … down to 1"
                ),
                N_(
                    "36 to 40: 10 each; 1, 10, 13, 20, 28 and 30 to 35: 5 each; 2 to 5: 3 "
                    "each; every other trump 0 (29 counts 5 inside a sequence)"
                ),
                _trumps(40, 1),
            ),
            OrderRow(
                N_("Swords, Batons"),
                N_("King, Queen, Knight, Jack, 10, 9, … down to 2, Ace"),
                N_("King 5, every other card 0"),
                _suit("SW", "K Q N J 10 9 8 7 6 5 4 3 2 A")
                + _suit("BA", "K Q N J 10 9 8 7 6 5 4 3 2 A"),
            ),
            OrderRow(
                N_("Cups, Coins"),
                N_("King, Queen, Knight, Maid, Ace, 2, 3, … up to 10"),
                N_("King 5, every other card 0"),
                _suit("CU", "K Q N J A 2 3 4 5 6 7 8 9 10")
                + _suit("CO", "K Q N J A 2 3 4 5 6 7 8 9 10"),
            ),
            _MATTO_ROW,
        ),
        glossary_terms=(
            "Matto",
            "Fola",
            "versicola",
            "resto",
            "robbing",
            "counting card",
            "die at home",
            "Fantina",
            "trump",
            "void",
        ),
    ),
}


def sample_cards(tradition: Tradition) -> list[Card]:
    """Return the sample cards of a tradition, from the pack of its first game."""
    return [card(tradition.games[0], code) for code in tradition.samples]


def card(game: str, code: str) -> Card:
    """Return a card of a game's pack by its code."""
    pack = pack_of(game)
    return pack.cards[pack.card_id(code)]


def glossary(game: str) -> list[tuple[str, str]]:
    """Return the (term, definition) pairs shown on a game's rules page."""
    return [(term, GLOSSARY[term]) for term in game_of(game).glossary_terms]


def game_of(name: str) -> Game:
    """Return a game's pages and card art by name; ValueError for an unknown game."""
    return entry(GAMES, name, "has no pages: tarocchi.web.content.GAMES lacks it")
