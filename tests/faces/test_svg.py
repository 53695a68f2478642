"""The SVG cards: every card of every pack renders, is valid, titled, indexed and small, and
each pack's art is the art stored as its digest in tests/data/card_digests.json.

    .venv/bin/python -m tests.faces.test_svg   # rewrite them (only when the art is to change)
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from tarocchi.cards import FOOL, TRUMPS, Card
from tarocchi.web import content
from tarocchi.web.svg import (
    SUIT_COLOURS,
    SUIT_INKS,
    card_back_svg,
    card_svg,
    contact_sheet,
    has_emblem,
    pack_of,
)

DIGESTS = Path(__file__).resolve().parents[1] / "data" / "card_digests.json"
NS = "{http://www.w3.org/2000/svg}"
GAMES = ("piedicavallo", "ottocento", "minchiate")
CARD_BUDGET = 6000  # bytes per card
PACK_BUDGET = 3500  # bytes per card on average over a whole pack
OKABE_ITO = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}


def every_card(check: Callable[[str, Card], None]) -> Callable[[str], None]:
    """Turn a check of one card into a test of a whole pack that names every failing card."""

    @pytest.mark.parametrize("game", GAMES)
    def test(game: str) -> None:
        failures = []
        for card in pack_of(game).cards:
            try:
                check(game, card)
            except AssertionError as e:
                failures.append(f"{card.code}: {e}")
        assert not failures, "\n".join(failures)

    test.__name__, test.__doc__ = check.__name__, check.__doc__
    return test


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def with_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def href(e: ET.Element) -> str:
    return e.get("href") or e.get("{http://www.w3.org/1999/xlink}href") or ""


@every_card
def test_every_card_renders_as_a_titled_standalone_svg(game: str, card: Card) -> None:
    svg = card_svg(game, card.code)
    root = parse(svg)
    assert root.get("viewBox") == "0 0 200 320"
    assert root.get("role") == "img"
    title = root.find(f"{NS}title")
    assert title is not None and title.text == card.name_en
    assert len(svg.encode()) < CARD_BUDGET
    # no external assets: every reference points inside the document
    defined = {e.get("id") for e in root.iter() if e.get("id")}
    for e in root.iter():
        ref = href(e)
        if ref:
            assert ref.startswith("#") and ref[1:] in defined, ref
    assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")


@every_card
def test_every_card_has_a_corner_index_in_two_opposite_corners(game: str, card: Card) -> None:
    root = parse(card_svg(game, card.code))
    (index,) = with_class(root, "index")
    assert len(list(index)) >= 1  # a numeral, a rank, or a small emblem
    uses = [e for e in root.iter(f"{NS}use") if href(e) == f"#{index.get('id')}"]
    transforms = sorted(e.get("transform") or "" for e in uses)
    assert transforms == ["", "rotate(180 100 160)"]


@every_card
def test_the_index_shows_the_rank_or_the_number(game: str, card: Card) -> None:
    root = parse(card_svg(game, card.code))
    (index,) = with_class(root, "index")
    text = "".join(t.text or "" for t in index.iter(f"{NS}text"))
    if card.suit < TRUMPS:
        assert text == card.rank
    elif m := re.fullmatch(r"T(\d+)", card.rank):
        assert text == m.group(1)
    elif card.rank.startswith("MOOR"):
        assert text == ["I", "II", "III", "IV"][int(card.rank[4:]) - 1]
    else:  # unnumbered trumps and the Matto carry their emblem in the corner
        assert text == ""
        assert list(index.iter(f"{NS}use"))


@every_card
def test_pip_cards_show_as_many_suit_symbols_as_their_value(game: str, card: Card) -> None:
    root = parse(card_svg(game, card.code))
    pips = with_class(root, "pip")
    if card.suit >= TRUMPS or card.rank in ("K", "Q", "N", "J"):
        assert pips == []
    else:
        assert len(pips) == (1 if card.rank == "A" else int(card.rank))


@every_card
def test_court_cards_and_trumps_carry_a_title(game: str, card: Card) -> None:
    texts = [t.text or "" for t in parse(card_svg(game, card.code)).iter(f"{NS}text")]
    shown = " ".join(texts)
    if card.suit < TRUMPS and card.rank in ("K", "Q", "N", "J"):
        assert card.name_en.split(" of ")[0] in texts
    elif card.rank.startswith("MOOR"):
        assert f"Moor {['I', 'II', 'III', 'IV'][int(card.rank[4:]) - 1]}" in texts
    elif card.suit >= TRUMPS:
        # the subject without its number and article, or the name in brackets
        m = re.search(r"\((.+)\)", card.name_en)
        subject = m.group(1) if m else re.sub(r"^(\d+ )?(The )?", "", card.name_en)
        assert subject in shown


def test_minchiate_cups_and_coins_jacks_are_maids() -> None:
    for code, title in (("CU-J", "Maid"), ("CO-J", "Maid"), ("SW-J", "Jack"), ("BA-J", "Jack")):
        texts = {t.text for t in parse(card_svg("minchiate", code)).iter(f"{NS}text")}
        assert title in texts


@pytest.mark.parametrize("game", GAMES)
def test_every_trump_has_its_own_emblem(game: str) -> None:
    missing = [c.code for c in pack_of(game).cards if c.suit >= TRUMPS and not has_emblem(c)]
    assert missing == []


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_pack_stays_within_the_size_budget(game: str) -> None:
    pack = pack_of(game)
    total = sum(len(card_svg(game, code).encode()) for code in pack.codes)
    assert total < PACK_BUDGET * pack.size


@pytest.mark.parametrize("game", GAMES)
def test_ids_never_collide_between_cards_of_a_page(game: str) -> None:
    seen: dict[str, str] = {}
    for code in pack_of(game).codes:
        for e in parse(card_svg(game, code)).iter():
            ident = e.get("id")
            if ident:
                assert seen.setdefault(ident, code) == code, ident


def test_the_bolognese_trumps_and_courts_are_double_headed() -> None:
    for code in ("ANGEL", "T9", "MOOR1", "BEGATO", "SW-K", "CU-N"):
        svg = card_svg("ottocento", code)
        assert svg.count('transform="rotate(180 100 160)"') >= 2  # the index and the half
    # the Piemontese trumps are not
    assert card_svg("piedicavallo", "T9").count('transform="rotate(180 100 160)"') == 1


def test_piemontese_trumps_show_roman_numerals_and_minchiate_arabic() -> None:
    texts = {t.text for t in parse(card_svg("piedicavallo", "T14")).iter(f"{NS}text")}
    assert {"XIV", "14", "Temperance"} <= texts
    texts = {t.text for t in parse(card_svg("minchiate", "T26")).iter(f"{NS}text")}
    assert {"26", "Scorpio"} <= texts


@pytest.mark.parametrize("game", GAMES)
def test_backs_render_and_each_pack_has_its_own(game: str) -> None:
    root = parse(card_back_svg(game))
    assert root.get("viewBox") == "0 0 200 320"
    title = root.find(f"{NS}title")
    assert title is not None and pack_of(game).name in (title.text or "")
    assert root.find(f"{NS}defs/{NS}pattern") is not None
    others = {card_back_svg(g) for g in GAMES if g != game}
    assert card_back_svg(game) not in others


def test_unknown_codes_and_games_raise_value_error() -> None:
    with pytest.raises(ValueError):
        card_svg("piedicavallo", "T22")
    with pytest.raises(ValueError):
        card_svg("piedicavallo", "SW-A")  # the Piemontese pack has no ace of Swords
    with pytest.raises(ValueError):
        card_svg("ottocento", "T4")
    with pytest.raises(ValueError):
        card_svg("minchiate", "MOOR1")
    with pytest.raises(ValueError):
        card_svg("scopa", "SW-K")
    with pytest.raises(ValueError):
        card_back_svg("scopa")
    with pytest.raises(ValueError):
        contact_sheet("scopa")


def test_codes_are_read_as_the_packs_read_them() -> None:
    assert card_svg("minchiate", " cu-j ") == card_svg("minchiate", "CU-J")
    assert card_svg("OTTOCENTO", "angel") == card_svg("ottocento", "ANGEL")


def digest(game: str) -> str:
    """Return the SHA-256 of a pack's art: its back, then every card in id order."""
    h = hashlib.sha256(card_back_svg(game).encode())
    for code in pack_of(game).codes:
        h.update(card_svg(game, code).encode())
    return h.hexdigest()


@pytest.mark.parametrize("game", GAMES)
def test_a_pack_s_art_is_the_stored_one(game: str) -> None:
    """Every card's SVG, hashed per pack, is the one stored in tests/data/card_digests.json:
    the art is the same in every process and on every machine, and a change to it is meant.
    After changing the art on purpose: `.venv/bin/python -m tests.faces.test_svg`."""
    stored = json.loads(DIGESTS.read_text())
    assert digest(game) == stored[game], f"{game}'s card art changed"


def test_a_changed_card_changes_its_pack_s_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    from tarocchi.web import svg

    before = {game: digest(game) for game in GAMES}
    drawn = svg.card_svg

    def one_card_changed(game: str, code: str) -> str:
        art = drawn(game, code)
        return art.replace("<title>", "<title> ") if (game, code) == ("ottocento", "T9") else art

    monkeypatch.setattr(sys.modules[__name__], "card_svg", one_card_changed)
    assert digest("ottocento") != before["ottocento"]
    assert digest("piedicavallo") == before["piedicavallo"]


def test_suit_colours_are_okabe_ito_and_distinct() -> None:
    colours = list(SUIT_COLOURS.values())
    assert len(set(colours)) == 4
    assert set(colours) <= OKABE_ITO


def contrast(a: str, b: str) -> float:
    """Return the WCAG contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("game", GAMES)
def test_index_and_banner_text_has_enough_contrast(game: str) -> None:
    style = content.GAMES[game].style
    for ink in (*SUIT_INKS.values(), style.frame):
        assert contrast(ink, style.paper) >= 4.5
    assert contrast(style.banner_text, style.frame) >= 4.5


@pytest.mark.parametrize("game", GAMES)
def test_the_contact_sheet_shows_every_card_and_the_back(game: str) -> None:
    page = contact_sheet(game)
    pack = pack_of(game)
    assert page.startswith("<!doctype html>")
    assert page.count("<svg ") == pack.size + 1
    for card in pack.cards:
        assert card_svg(game, card.code) in page
    assert card_back_svg(game) in page
    assert sum(1 for c in pack.cards if c.suit == FOOL) == 1


if __name__ == "__main__":
    # rewrite the stored digests (only when the art is meant to change)
    DIGESTS.write_text(json.dumps({game: digest(game) for game in GAMES}, indent=1) + "\n")
