"""A player's history on the web: their deals newest first (filtered, paginated), their
progress per game and level with its charts, the exports, and the pages /history and
/move.

Only the browser's own player sees their deals: every route reads the device cookie
(`players.current_player`), none takes a player's id. The statistics are sums the
database adds up (`store.players.sums`), turned into means and intervals by
`tarocchi.progress`; no route loads a player's deals to count them.
"""

from __future__ import annotations

import asyncio
import csv
import io
import math
from dataclasses import asdict
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from markupsafe import Markup

from tarocchi.games import GAMES, game
from tarocchi.games.replay import ReplayError, replay
from tarocchi.i18n import DECIMAL_MARKS, N_, Translator, translator
from tarocchi.progress import Line, line
from tarocchi.record import FORMAT, RULES_VERSION, VERSION
from tarocchi.views import view
from tarocchi.web.charts import Words, chart
from tarocchi.web.jobs import HUMAN
from tarocchi.web.lang import language, render
from tarocchi.web.models import GameName, History, LevelName, Stats, errors_for
from tarocchi.web.players import CurrentPlayer, known, store_of
from tarocchi.web.service import is_revealed, record_of
from tarocchi.web.store import GameRow
from tarocchi.web.store.players import Deal, Filter
from tarocchi.web.store.schema import games

PAGE = 25  # deals a page shows
CHART_DEALS = 200  # the last deals a chart draws
MAX_PAGE = 100_000
LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
RESULT_WORDS = {"win": N_("won"), "draw": N_("drawn"), "loss": N_("lost"), "left": N_("left")}
ResultName = Literal["win", "draw", "loss", "left"]
GameQuery = Annotated[GameName | None, Query()]
LevelQuery = Annotated[LevelName | None, Query()]
ResultQuery = Annotated[ResultName | None, Query()]
PageQuery = Annotated[int, Query(ge=1, le=MAX_PAGE)]
GAME_TITLES = {name: game(name).title for name in sorted(GAMES)}
CSV_FIELDS = ("id", "game", "level", "finished_at", "result", "margin", "ai_margin", "accuracy")


def deal_json(d: Deal) -> dict[str, object]:
    """Return a deal of the history as the API lists it, with the page that opens it."""
    return {"id": d.id, "game": d.game, "level": d.level, "finished_at": d.finished_at,
            "result": d.result, "margin": d.margin, "ai_margin": d.ai_margin,
            "accuracy": d.accuracy, "url": f"/play/{d.game}?deal={d.id}"}  # fmt: skip


async def page_of(request: Request, which: Filter, page: int) -> dict[str, object]:
    """Return a page of a filter's deals: the total, the number of pages and the deals."""
    store = store_of(request)
    total, found = await asyncio.to_thread(store.players.deals, which, PAGE, (page - 1) * PAGE)
    return {"total": total, "page": page, "pages": max(1, math.ceil(total / PAGE)),
            "deals": [deal_json(d) for d in found]}  # fmt: skip


async def lines_of(request: Request, which: Filter) -> list[Line]:
    """Return the statistics per game and level of a filter's deals."""
    return [line(s) for s in await asyncio.to_thread(store_of(request).players.sums, which)]


def records(request: Request, which: Filter) -> list[dict[str, object]]:
    """Return the records of a filter's deals, finished or left, newest first (a log the
    rules refuse is left out): a finished deal's record, without its seed while its day's
    deal of the day lasts; a left deal's as far as South saw it (`left_record`)."""
    rows = store_of(request).select(
        *which.where(), order=(games.c.finished_at.desc(), games.c.id.desc())
    )
    out = []
    for row in rows:
        try:
            record = record_of(row) if row.over else left_record(row)
        except ReplayError:
            continue
        if not is_revealed(row):  # the seed would tell the day's AI answers to any play
            record.pop("seed", None)
        out.append(record)
    return out


def left_record(row: GameRow) -> dict[str, object]:
    """Return the record of a deal South left before its end, holding only what South saw:
    South's hand as dealt, and the actions in order, each seat's card laid aside face down
    as null; no seed, no other hand (a left deal's cards stay hidden: its seat may still be
    played, and another seat's discard is never shown)."""
    rules = game(row.game)
    dealt = rules.deal(row.seed)
    played = view(replay(rules, row.seed, row.actions), HUMAN).played
    shown = []
    for seat, code in row.actions:
        action = rules.parse_action(code)
        hidden = seat != HUMAN and action < rules.pack.size and not played >> action & 1
        shown.append({"seat": seat, "action": None if hidden else code})
    return {"format": FORMAT, "version": VERSION, "game": row.game,
            "rules_version": RULES_VERSION, "dealer": dealt.dealer, "left": True,
            "hands": [rules.pack.codes_of(rules.dealt_hands(dealt)[HUMAN]), None, None, None],
            "players": [{"seat": s, "kind": "human" if s == HUMAN else "bot",
                         "name": "human" if s == HUMAN else row.level} for s in range(4)],
            "actions": shown, "result": None, "started_at": row.started_at}  # fmt: skip


def charts(request: Request, which: Filter, tr: Translator, lines: list[Line]) -> list[Markup]:
    """Return the charts of a filter: each game's margins, and the reviews' accuracy."""
    series = store_of(request).players.series
    words = (tr.gettext(N_("oldest")), tr.gettext(N_("newest")))
    out = []
    for name in dict.fromkeys(x.game for x in lines):
        points = series(Filter(which.player_id, name, which.level, which.result), CHART_DEALS)
        margins = [m for _, m, _ in points if m is not None]
        title = tr.gettext(N_("%(game)s: your margin deal by deal")) % {"game": game(name).title}
        about = tr.gettext(N_("A bar per deal above or below zero, and the average of the "
                              "last ten deals as a line."))  # fmt: skip
        out.append(chart(margins, Words(title, about, *words), f"margin-{name}", bars=True))
    points = series(which, CHART_DEALS)
    accuracy = [a for _, _, a in points if a is not None]
    title = tr.gettext(N_("Your review accuracy over time"))
    about = tr.gettext(N_("A dot per reviewed deal, from 0% to 100%, and the average of the "
                          "last ten as a line."))  # fmt: skip
    out.append(chart(accuracy, Words(title, about, *words), "accuracy", bars=False, percent=True))
    return [c for c in out if c]


def make_router() -> APIRouter:
    """Return the history's routes: the API under /api/me and the pages."""
    router = APIRouter()
    mine = errors_for(401, 422, 503)

    @router.get("/api/me/history", response_model=History, responses=mine)
    async def get_history(request: Request, player: CurrentPlayer, game: GameQuery = None,
                          level: LevelQuery = None, result: ResultQuery = None,
                          page: PageQuery = 1) -> dict[str, object]:  # fmt: skip
        """Your finished and left deals, newest first, a page of 25 at a time (a deal is
        left when you start another before its end, or leave it a week)."""
        which = Filter(known(player).id, game, level, result)
        return await page_of(request, which, page)

    @router.get("/api/me/stats", response_model=Stats, responses=mine)
    async def get_stats(request: Request, player: CurrentPlayer, game: GameQuery = None,
                        level: LevelQuery = None) -> dict[str, object]:  # fmt: skip
        """Your statistics per game and level: deals, results, the mean margin with its 95%
        interval, the mean margin over the AI in your seat, the mean review accuracy."""
        which = Filter(known(player).id, game, level)
        return {"lines": [asdict(x) for x in await lines_of(request, which)]}

    @router.get("/api/me/export.json", responses={**mine, 200: {"description": "A JSON list "
                "of deal records (a finished deal's as GET /api/games/{id}/record gives "
                "it)"}})  # fmt: skip
    async def export_json(request: Request, player: CurrentPlayer) -> Response:
        """Every deal of yours, finished or left, as its record, newest first (a download):
        a left deal's holds only what you saw of it (`"left": true`, no seed, your hand
        alone, another seat's discard as null) and no result."""
        which = Filter(known(player).id)
        data = await asyncio.to_thread(records, request, which)
        return JSONResponse(data, headers=attachment("tarocchi-history.json"))

    @router.get("/api/me/export.csv", response_class=Response, responses={**mine, 200: {
                "content": {"text/csv": {"schema": {"type": "string"}}},
                "description": "One row a deal: " + ", ".join(CSV_FIELDS)}})  # fmt: skip
    async def export_csv(request: Request, player: CurrentPlayer) -> Response:
        """Every deal of your history, one row a deal, newest first (a download)."""
        which = Filter(known(player).id)
        _, found = await asyncio.to_thread(store_of(request).players.deals, which, 10**9, 0)
        out = io.StringIO()
        writer = csv.DictWriter(out, CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(deal_json(d) for d in found)
        return Response(out.getvalue(), media_type="text/csv; charset=utf-8",
                        headers=attachment("tarocchi-history.csv"))  # fmt: skip

    @router.get("/history", response_class=HTMLResponse, include_in_schema=False)
    async def history_page(request: Request, player: CurrentPlayer, game: GameQuery = None,
                           level: LevelQuery = None, result: ResultQuery = None,
                           page: PageQuery = 1) -> Response:  # fmt: skip
        """Your history: your progress, its charts, your deals, the exports, your player."""
        context: dict[str, object] = {"player": player, "filters": {"game": game, "level": level,
                                   "result": result}, "level_words": LEVEL_WORDS,
                                   "result_words": RESULT_WORDS, "games": GAME_TITLES}  # fmt: skip
        if player is not None:
            which = Filter(player.id, game, level, result)
            tr = translator(language(request))
            # the statistics and the page's deals at once (on PostgreSQL, two connections)
            lines, found = await asyncio.gather(
                lines_of(request, Filter(player.id, game, level)), page_of(request, which, page)
            )
            drawn = await asyncio.to_thread(charts, request, which, tr, lines)
            url = request.url
            context.update(
                lines=lines,
                deals=found,
                charts=drawn,
                num=lambda v: signed(v, tr.lang),
                page_url=lambda n: f"?{url.include_query_params(page=n).query}",
            )
        return render(request, "history.html", context)

    @router.get("/move", response_class=HTMLResponse, include_in_schema=False)
    async def move_page(request: Request) -> Response:
        """Bring a history to this browser with the code another browser shows (the link's
        fragment, #CODE, fills it in: the code never reaches the server in a URL)."""
        return render(request, "move.html", {})

    return router


def signed(value: float, lang: str) -> str:
    """Return a margin as the language writes it: signed, to one decimal at most."""
    text = f"{value:+.1f}".removesuffix(".0")
    return text.replace(".", DECIMAL_MARKS.get(lang, "."))


def attachment(name: str) -> dict[str, str]:
    """Return the header that makes a browser save an answer as a file."""
    return {"Content-Disposition": f'attachment; filename="{name}"'}
