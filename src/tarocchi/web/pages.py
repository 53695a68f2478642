"""The readable pages: home, one page per card tradition, one rules page per game.

Server-rendered with Jinja2 and readable without JavaScript; the words come from
tarocchi.web.content and the rules templates.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from tarocchi.web.content import (
    CARD_ORDER,
    GAMES,
    HERO_CARDS,
    RULE_SECTIONS,
    TRADITIONS,
    card,
    glossary,
    sample_cards,
)

templates = Jinja2Templates(directory=Path(__file__).parent / "templates")

router = APIRouter()


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    """Show the three card traditions and their games."""
    traditions = [(t, sample_cards(t)[0]) for t in TRADITIONS.values()]
    hero_cards = [(game, card(game, code)) for game, code in HERO_CARDS]
    return templates.TemplateResponse(
        request,
        "home.html",
        {"traditions": traditions, "games": GAMES, "hero_cards": hero_cards},
    )


@router.get("/traditions/{slug}", response_class=HTMLResponse)
async def tradition(slug: str, request: Request) -> HTMLResponse:
    """Show one card tradition: its facts, history, sample cards and games."""
    found = TRADITIONS.get(slug)
    if found is None:
        raise HTTPException(404, "no such card tradition")
    return templates.TemplateResponse(
        request,
        "tradition.html",
        {
            "tradition": found,
            "games": [GAMES[g] for g in found.games],
            "cards": sample_cards(found),
        },
    )


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules(game: str, request: Request) -> HTMLResponse:
    """Show the rules of one game, in numbered sections."""
    found = GAMES.get(game)
    if found is None:
        raise HTTPException(404, "no such game")
    sections = RULE_SECTIONS[game]
    return templates.TemplateResponse(
        request,
        f"rules_{game}.html",
        {
            "game": found,
            "tradition": TRADITIONS[found.tradition],
            "sections": sections,
            "number": {key: n for n, (key, _) in enumerate(sections, start=1)},
            "titles": dict(sections),
            "card_order": CARD_ORDER[game],
            "glossary": glossary(game),
        },
    )
