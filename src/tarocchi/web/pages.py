"""The readable pages: home, one page per card tradition, one rules page per game.

Server-rendered with Jinja2 and readable without JavaScript; the words come from
tarocchi.web.content and the rules templates.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.responses import Response

from tarocchi.i18n import Msg
from tarocchi.web.content import (
    ENGLISH_TERMS,
    GAMES,
    TRADITIONS,
    card,
    glossary,
    sample_cards,
)
from tarocchi.web.errors import NotFound
from tarocchi.web.lang import render

router = APIRouter(include_in_schema=False)  # pages, not API: no OpenAPI entries


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> Response:
    """Show the three card traditions and their games."""
    traditions = [(t, sample_cards(t)[0]) for t in TRADITIONS.values()]
    hero_cards = [(name, card(name, g.hero)) for name, g in GAMES.items()]
    return render(
        request,
        "home.html",
        {"traditions": traditions, "games": GAMES, "hero_cards": hero_cards},
    )


@router.get("/traditions/{slug}", response_class=HTMLResponse)
async def tradition(slug: str, request: Request) -> Response:
    """Show one card tradition: its facts, history, sample cards and games."""
    found = TRADITIONS.get(slug)
    if found is None:
        raise NotFound(Msg("no such card tradition"))
    return render(
        request,
        "tradition.html",
        {
            "tradition": found,
            "games": [GAMES[g] for g in found.games],
            "cards": sample_cards(found),
        },
    )


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules(game: str, request: Request) -> Response:
    """Show the rules of one game, in numbered sections."""
    found = next((g for name, g in GAMES.items() if name == game), None)
    if found is None:
        raise NotFound(Msg("no such game"))
    sections = found.sections
    return render(
        request,
        f"rules_{game}.html",
        {
            "game": found,
            "tradition": TRADITIONS[found.tradition],
            "sections": sections,
            "number": {key: n for n, (key, _) in enumerate(sections, start=1)},
            "titles": dict(sections),
            "card_order": found.card_order,
            "glossary": glossary(game),
            "english_terms": ENGLISH_TERMS,
            "key_cards": found.key_cards,
            "card": card,
        },
    )
