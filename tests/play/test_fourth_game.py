"""A fourth game needs one entry per layer: the toy game of tests/games/toy.py, registered
here in the registry (its rules and pack), in the bots' table (its heuristic player, no
search) and in the web's (its page's facts and its cards' style), plays through `match`,
`arena`, `view` and the terminal, and its cards are drawn."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

from tarocchi import arena, games
from tarocchi.bots import parts
from tarocchi.games import GameInfo, game
from tarocchi.match import play_deal
from tarocchi.record import make_record, replay
from tarocchi.terminal import play_terminal
from tarocchi.views import view
from tarocchi.web import content
from tarocchi.web.svg import card_back_svg, card_svg, contact_sheet
from tests.games.toy import PACK, ToyBot

TOY_PAGES = content.Game(
    slug="toy",
    name="Toy",
    title="How to play Toy",
    tradition="tarocco-piemontese",
    difficulty="beginner game",
    summary="Follow suit; each trick counts 1.",
    style=content.Style(
        "ty", "#ffffff", "#333333", "#aa3333", "#eeeeee", "#ffffff", True, False,
        ("#333333", "#777777", "#ffffff"), "lattice",
    ),
    hero="MATTO",
    key_cards=("T3", "MATTO"),
    sections=(("objective", "Objective"),),
    card_order=(),
    glossary_terms=("Matto", "trick"),
)  # fmt: skip


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Register the toy game: one entry in the registry, one in the bots' table."""
    monkeypatch.setitem(games.GAMES, "toy", GameInfo("toy", "tests.games.toy", "tests.games.toy"))
    monkeypatch.setitem(parts.PARTS, "toy", parts.Parts(ToyBot, search=None))
    monkeypatch.setitem(content.GAMES, "toy", TOY_PAGES)
    yield "toy"
    game.cache_clear()
    games.pack_of.cache_clear()


def test_the_toy_game_plays_through_match_view_and_records(toy: str) -> None:
    rules = game(toy)
    assert games.pack_of(toy) is PACK
    for level in ("random", "heuristic", "easy"):
        log = play_deal(toy, 3, [level] * 4)
        state = log.final
        assert rules.is_over(state) and len(state.tricks) == 4
        result = rules.result(state)
        assert result.ns + result.ew == 4 and abs(result.margin(0)) <= rules.max_margin
        # every seat's view holds its own hand and nothing of the others' until the end
        start = rules.deal(3)
        for seat in range(4):
            seen = view(start, seat)
            assert seen.hand == seen.known == start.hands[seat] and seen.result is None
            assert view(state, seat).result == result
        record = make_record(log)
        assert replay(record)[1] == state  # a record of the toy game replays


def test_the_toy_game_plays_in_the_arena(toy: str) -> None:
    summary = arena.run(toy, "heuristic", "random", pairs=4)
    assert summary["game"] == toy and summary["pairs"] == 4
    assert summary["wins"] + summary["draws"] + summary["losses"] == 8
    assert all(d["ns"] + d["ew"] == 4 for d in summary["deals"])


def test_the_toy_game_plays_in_the_terminal(toy: str) -> None:
    out = io.StringIO()
    assert play_terminal(toy, 5, "easy", io.StringIO("1\n" * 20), out) == 0
    text = out.getvalue()
    assert "=== End of the deal ===" in text and text.count("wins trick") == 4


def test_the_search_levels_refuse_a_game_without_a_search(toy: str) -> None:
    from tarocchi.bots import make_bot

    with pytest.raises(ValueError, match="no search"):
        make_bot("normal", game(toy))


def test_the_toy_game_s_cards_are_drawn_in_its_own_style(toy: str) -> None:
    for card in PACK.cards:
        art = card_svg(toy, card.code)
        assert f"<title>{card.name_en}</title>" in art and 'id="ty' in art
    assert "#777777" in card_back_svg(toy) and card_back_svg(toy) != card_back_svg("ottocento")
    assert contact_sheet(toy).count("<svg ") == PACK.size + 1
