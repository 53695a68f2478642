"""The readable pages: home, traditions and rules, served by tarocchi.web.pages."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.testclient import TestClient

import tarocchi
from tarocchi.i18n import LANGUAGES, translator
from tarocchi.web import content, pages
from tarocchi.web.app import add_error_handlers
from tarocchi.web.daily import make_router as daily_routes

STATIC = Path(pages.__file__).parent / "static"

HOME = "/"
TRADITION_PAGES = [f"/traditions/{slug}" for slug in content.TRADITIONS]
RULES_PAGES = [f"/rules/{game}" for game in content.GAMES]
ALL_PAGES = [HOME, *TRADITION_PAGES, *RULES_PAGES]

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    add_error_handlers(app)  # the pages refuse with the service's errors, answered as the app does
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return TestClient(app)


class Page(HTMLParser):
    """Parse a page: check tags balance, collect links, ids, headings, images and text."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.counts: dict[str, int] = {}
        self.links: list[str] = []
        self.ids: list[str] = []
        self.images: list[dict[str, str]] = []
        self.section_headings: list[str] = []
        self.text_parts: list[str] = []
        self._heading: list[str] | None = None
        self._in_section_h2 = False
        self.feed(html)
        self.close()
        if self.stack:
            self.errors.append(f"unclosed tags {self.stack}")
        self.text = re.sub(r"\s+", " ", "".join(self.text_parts))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if "id" in a:
            self.ids.append(a["id"])
        if tag in ("a", "link") and "href" in a:
            self.links.append(a["href"])
        if tag == "img":
            self.images.append(a)
            self.links.append(a.get("src", ""))
        if (
            tag == "h2"
            and self.stack
            and "section" in self.stack
            and a.get("id", "").endswith("-title")
        ):
            self._heading = []
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]} at {self.getpos()}")
            return
        self.stack.pop()
        if tag == "h2" and self._heading is not None:
            self.section_headings.append(re.sub(r"\s+", " ", "".join(self._heading)).strip())
            self._heading = None

    def handle_data(self, data: str) -> None:
        self.text_parts.append(data)
        if self._heading is not None:
            self._heading.append(data)


def get_page(client: TestClient, path: str) -> Page:
    response = client.get(path)
    assert response.status_code == 200, path
    assert response.headers["content-type"].startswith("text/html")
    return Page(response.text)


@pytest.mark.parametrize("path", ALL_PAGES)
def test_page_is_well_formed(client: TestClient, path: str) -> None:
    page = get_page(client, path)
    assert page.errors == []
    assert page.counts.get("main") == 1
    assert page.counts.get("h1") == 1
    assert page.counts.get("script", 0) == 0  # readable without JavaScript
    assert len(page.ids) == len(set(page.ids)), "duplicate ids"
    for img in page.images:
        assert img.get("alt"), img
        assert img.get("width") and img.get("height"), img


def route_exists(client: TestClient, link: str, page: Page) -> bool:
    """Tell whether an internal link points at a route of the app (or an id on the page)."""
    if link.startswith("#"):
        return link[1:] in page.ids
    if m := re.fullmatch(r"\?lang=([a-z]+)", link):  # the language switcher: this page
        return m[1] in LANGUAGES
    if m := re.fullmatch(r"\?theme=([a-z]+)", link):  # the light or dark switch: this page
        return m[1] in ("light", "dark")
    if link == "/daily":  # the deal of the day's page (its own router, on the store)
        return link in {getattr(r, "path", "") for r in daily_routes(lambda r: None).routes}
    if link in ("/", "/static/site.css", "/static/favicon.svg"):
        return client.get(link).status_code == 200
    if link in ("/history", "/move"):  # a player's pages (the app's, not this test's)
        from tarocchi.web.history import make_router

        return link in {getattr(r, "path", "") for r in make_router().routes}
    if m := re.fullmatch(r"/traditions/([a-z-]+)", link):
        return m[1] in content.TRADITIONS
    if m := re.fullmatch(r"/(rules|play|learn)/([a-z]+)", link):
        return m[2] in content.GAMES
    if m := re.fullmatch(r"/cards/([a-z]+)/([A-Z0-9-]+)\.svg(?:\?lang=[a-z]+)?", link):
        return m[1] in content.GAMES and m[2] in content.pack_of(m[1]).codes
    return False


@pytest.mark.parametrize("path", ALL_PAGES)
def test_every_internal_link_exists(client: TestClient, path: str) -> None:
    page = get_page(client, path)
    internal = [x for x in page.links if not x.startswith("https://")]
    assert internal
    for link in internal:
        assert route_exists(client, link, page), f"{path} links to missing {link}"
    for link in page.links:
        if link.startswith("https://"):
            assert link.startswith("https://en.wikipedia.org/wiki/"), link


def test_links_lead_to_routes_that_serve(client: TestClient) -> None:
    for path in ALL_PAGES:
        for link in get_page(client, path).links:
            if link.startswith(("/traditions/", "/rules/")):
                assert client.get(link).status_code == 200, link


def test_unknown_slugs_are_404(client: TestClient) -> None:
    for path in ("/traditions/tarot-de-marseille", "/traditions/", "/rules/scopa", "/rules/"):
        assert client.get(path).status_code == 404, path
    assert client.get("/traditions/PIEDICAVALLO").status_code == 404


def test_home_lists_traditions_games_and_difficulties(client: TestClient) -> None:
    page = get_page(client, HOME)
    for tradition in content.TRADITIONS.values():
        assert tradition.name in page.text
        assert f"/traditions/{tradition.slug}" in page.links
        assert f"{tradition.cards} cards" in page.text
    for game in content.GAMES.values():
        assert game.name in page.text
        assert game.difficulty in page.text
        assert f"/rules/{game.slug}" in page.links
        assert f"/play/{game.slug}" in page.links
        assert f"/learn/{game.slug}" in page.links  # its guided deal
    assert "partner is the AI sitting opposite you" in page.text


FACTS = {
    "tarocco-piemontese": ("Piedmont", "Italy", "78 cards", "Piedicavallo Tarocchi",
                           "beginner game", "https://en.wikipedia.org/wiki/Tarocco_Piemontese"),
    "tarocchino-bolognese": ("Bologna, Emilia-Romagna", "Italy", "62 cards", "Ottocento",
                             "intermediate game", "https://en.wikipedia.org/wiki/Tarocco_Bolognese",
                             "Moors"),
    "minchiate": ("Florence, Tuscany", "Italy", "97 cards", "Minchiate", "advanced game",
                  "https://en.wikipedia.org/wiki/Minchiate", "40 trumps", "zodiac",
                  "four elements", "virtues"),
}  # fmt: skip


@pytest.mark.parametrize("slug", list(content.TRADITIONS))
def test_tradition_page_facts(client: TestClient, slug: str) -> None:
    page = get_page(client, f"/traditions/{slug}")
    tradition = content.TRADITIONS[slug]
    for fact in FACTS[slug]:
        assert fact in page.text or fact in page.links, fact
    assert "fifteenth" in page.text  # when tarot cards were invented
    for game in tradition.games:
        assert f"/rules/{game}" in page.links
        assert f"/play/{game}" in page.links
        assert f"/learn/{game}" in page.links
    # sample cards: real codes of the pack, alt text = the pack's English name
    pack = content.pack_of(tradition.games[0])
    samples = [img for img in page.images if "/cards/" in img["src"]]
    assert len(samples) == len(tradition.samples) >= 4
    for img, code in zip(samples, tradition.samples, strict=True):
        assert img["src"] == f"/cards/{tradition.games[0]}/{code}.svg?lang=en"
        assert img["alt"] == pack.cards[pack.card_id(code)].name_en
        assert img["alt"] in page.text  # captioned too


REQUIRED = {
    "piedicavallo": ["The discard", "The Matto"],
    "ottocento": ["Declarations", "Combinations", "The Matto settlement"],
    "minchiate": ["The cut and robbing", "The Fola", "Versicole", "The King rule", "Resti"],
}
CORE = ["Objective", "Setup", "Playing a turn", "Scoring and end"]


@pytest.mark.parametrize("game", list(content.GAMES))
def test_rules_sections_are_numbered_in_order(client: TestClient, game: str) -> None:
    page = get_page(client, f"/rules/{game}")
    titles = [t for _, t in content.GAMES[game].sections]
    assert page.section_headings == [f"{n}. {t}" for n, t in enumerate(titles, start=1)]
    for title in [*CORE, *REQUIRED[game], "Card order and points", "Glossary"]:
        assert title in titles, title
    assert [titles.index(t) for t in CORE] == sorted(titles.index(t) for t in CORE)
    assert titles[-2:] == ["Card order and points", "Glossary"]
    # the contents list links every section, in the same order
    anchors = [link[1:] for link in page.links if link.startswith("#") and link != "#main"]
    assert anchors[: len(titles)] == [key for key, _ in content.GAMES[game].sections]


KEY_RULES = {
    "piedicavallo": ("114 points", "57–57 is a draw", "15 cards", "17", "announces how many trumps",
                     "trump 1", "trump 21", "never wins", "counter-clockwise"),
    "ottocento": ("87", "6 points", "all or nothing", "Tarocchi", "18", "36", "17", "34", "14",
                  "28", "13", "26", "12", "24", "contatori", "double", "1-point card",
                  "the one played last wins"),
    "minchiate": ("97 cards", "13 cards", "trump 29", "trumps 1, 13 and 28", "60", "resto",
                  "1 to 60 gives 1", "beyond 42", "10 points for the last trick", "die at home",
                  "must play the King", "142"),
}  # fmt: skip


@pytest.mark.parametrize("game", list(content.GAMES))
def test_rules_page_content(client: TestClient, game: str) -> None:
    page = get_page(client, f"/rules/{game}")
    text = page.text
    assert "your partner is the AI sitting opposite you" in text
    for fact in KEY_RULES[game]:
        assert fact in text, fact
    assert page.links.count(f"/play/{game}") >= 2  # the "Play this game" buttons
    assert page.links.count(f"/learn/{game}") >= 2  # and the guided deal beside them
    assert "Play this game" in text
    for term, definition in content.glossary(game):
        assert term in text and definition in text
    for row in content.GAMES[game].card_order:
        assert row.group in text and row.order in text and row.points in text


def test_glossary_terms() -> None:
    assert "Matto" in content.GAMES["piedicavallo"].glossary_terms
    assert {"contatore", "Bégato", "Moors"} <= set(content.GAMES["ottocento"].glossary_terms)
    assert {"Fola", "versicola", "resto"} <= set(content.GAMES["minchiate"].glossary_terms)


@pytest.mark.parametrize("game", list(content.GAMES))
def test_card_order_table_matches_the_pack(game: str) -> None:
    pack = content.pack_of(game)
    rows = content.GAMES[game].card_order
    codes = [c for row in rows for c in row.codes]
    assert sorted(codes) == sorted(pack.codes)  # every card exactly once
    for row in rows:
        ids = [pack.card_id(c) for c in row.codes]
        suits = {pack.suit_of[i] for i in ids}
        for suit in suits:  # within a suit, strongest first: strength never rises
            strengths = [pack.cards[i].strength for i in ids if pack.suit_of[i] == suit]
            assert strengths == sorted(strengths, reverse=True), row.group


def test_card_points_stated_on_the_pages(client: TestClient) -> None:
    assert content.pack_of("piedicavallo").total_points == 114
    assert content.pack_of("minchiate").total_points == 142
    bolognese = content.pack_of("ottocento")
    assert bolognese.total_points == 118
    assert bolognese.total_points - bolognese.size // 2 == 87
    assert "118 − 31 = 87" in get_page(client, "/rules/ottocento").text
    assert "make 142 points" in get_page(client, "/rules/minchiate").text


# the worked examples printed on the rules pages (cards, value, the words that state it),
# checked against the rules engine
EXAMPLES = {
    "ottocento": [
        ("SW-K SW-Q SW-J SW-A", 15, "a suit sequence of 4 cards, 15."),
        ("SW-K SW-Q BEGATO", 10, "with the Bégato: 10."),
        ("SW-K SW-Q BEGATO SW-A", 15, "Add the Ace of Swords: 15."),
        ("SW-K SW-Q BEGATO SW-A MATTO", 20, "Add the Matto as well: 20."),
        ("SW-K SW-Q SW-A", 0, "King, Queen and Ace of Swords: nothing."),
        ("ANGEL WORLD MOON T16 T15 T13 T12 BEGATO", 53, "the total is 53."),
        ("ANGEL SUN MOON T16 T15 T12 BEGATO MATTO", 48, "plus Tarocchi 18, 48."),
        ("SW-K BA-K CU-K SW-Q CU-Q CO-Q SW-J BA-J CO-J", 96, "Jack), 10: 96."),
    ],
    "minchiate": [
        ("T1 T2 T3 T4", 14, "5 + 3 + 3 + 3 = 14."),
        ("T28 T29 T30", 15, "5 + 5 + 5 = 15."),
        ("T28 T30 T31", 0, "Trumps 28, 30 and 31: nothing."),
        ("T36 T37 T38 T39 T40", 50, "Trumps 36 to 40: 50;"),
        ("T36 T37 T38 T39 T40 MATTO", 55, "with the Matto in the hand, 55."),
        ("T1 T13 T28 T29 T30 T40 MATTO SW-K CU-K CO-K", 80, "Kings 15 + 5: 80."),
    ],
}


@pytest.mark.parametrize("game", list(EXAMPLES))
def test_worked_examples_agree_with_the_engine(client: TestClient, game: str) -> None:
    rules = tarocchi.game(game)
    text = get_page(client, f"/rules/{game}").text
    for codes, value, words in EXAMPLES[game]:
        assert rules.combination_score(codes.split()) == value, codes
        assert words in text, words


def test_stylesheet(client: TestClient) -> None:
    response = client.get("/static/site.css")
    assert response.status_code == 200
    css = response.text
    for needle in ("prefers-reduced-motion", ".button", "table", ".card-grid", "@media"):
        assert needle in css


def test_a_theme_choice_is_remembered(client: TestClient) -> None:
    """`?theme=dark` draws the page dark and keeps the choice in a cookie; without a
    choice the page follows the system's (no data-theme) and offers both switches."""
    client.cookies.clear()
    plain = client.get("/").text
    assert "data-theme" not in plain.split(">", 2)[1]
    assert 'href="?theme=dark"' in plain and 'href="?theme=light"' in plain
    dark = client.get("/?theme=dark")
    assert dark.cookies.get("theme") == "dark"
    assert '<html lang="en" data-theme="dark">' in dark.text
    later = client.get("/rules/minchiate")  # the client sends the cookie back
    assert 'data-theme="dark"' in later.text and 'href="?theme=dark"' not in later.text
    client.cookies.clear()


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_hints_switch_and_the_hint_button_read_differently(lang: str) -> None:
    tr = translator(lang)
    assert tr.gettext("Show the Hint button") != tr.gettext("Hint")
