"""The deal of the day on the web: its JSON API under /api/daily (the commitments and
revealed seeds, a try, your results among everyone's, a past day's standings) and its pages
(/daily, /daily/GAME/DATE, /daily/GAME/DATE/verify, which also checks a record of the
day's deal, uploaded or pasted, through POST /api/daily/GAME/DATE/verify).

A try is a normal game (played on the table page) whose seed is the day's and whose AI
plays `tarocchi.daily`'s way; a player's first try of the day is scored, any other is
practice. Nothing of the field is shown to a player before their own scored try is over,
and a day's seed is told nobody before the day (UTC) has ended: the results, the field's
choices and the standings are read only behind those checks.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Any, TypedDict

from fastapi import APIRouter, Body, Path, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.responses import Response

from tarocchi import daily
from tarocchi.games import GAMES, game
from tarocchi.games.base import Rules
from tarocchi.i18n import Msg, Translator, from_recipe, recipe, translator
from tarocchi.web.api import reply
from tarocchi.web.errors import Conflict, NotFound, Refused
from tarocchi.web.jobs import HUMAN, restored
from tarocchi.web.lang import language, render
from tarocchi.web.models import (
    DailyCreated,
    DailyDay,
    DailyIndex,
    DailyResults,
    Standings,
    Verification,
    errors_for,
)
from tarocchi.web.players import CurrentPlayer, IssuedPlayer, client_of, known
from tarocchi.web.service import Games, position, view_json
from tarocchi.web.store import GameRow, Store, StoreUnavailable
from tarocchi.web.store.players import Player

NO_SUCH_DAY = Msg("no deal of the day was published for that game and date")
NOT_YET = Msg("the field's results are shown once your scored try of the day is over")
NOT_REVEALED = Msg("a record of the day's deal is checked once the day is over (UTC)")
DAY_NOT_OVER = Msg("the day's standings are final once the day is over (UTC)")
PUBLISH_EVERY_S = 3600
log = logging.getLogger(__name__)
Game = Annotated[str, Path(pattern="^(" + "|".join(sorted(GAMES)) + ")$")]


def today() -> date:
    """Return the day it is (UTC), the deal of the day's calendar."""
    return datetime.now(UTC).date()


def stamp() -> str:
    """Return the time now as the store writes it."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class DayJson(TypedDict):
    """A game's day as the API tells it (`Day.json`)."""

    game: str
    date: str
    commitment: str
    seed: int | None  # once the day is over


@dataclass(frozen=True, slots=True)
class Day:
    """A game's published day: its seed (kept on the server until the day is over) and
    the commitment to it."""

    game: str
    day: date
    seed: int
    commitment: str

    def json(self) -> DayJson:
        """Return the day as the API tells it: the seed only once the day is over."""
        revealed = self.day < today()
        return {"game": self.game, "date": self.day.isoformat(), "commitment": self.commitment,
                "seed": self.seed if revealed else None}  # fmt: skip


def published(store: Store, game_name: str, day: date) -> Day | None:
    """Return a game's day: today's and tomorrow's are published when first asked for; an
    earlier day only if it was published (None otherwise, and for later days)."""
    key = store.daily.key(stamp())
    seed = daily.seed_of(key, game_name, day)
    if day > today() + timedelta(days=1):
        return None
    if day < today():
        stored = store.daily.commitment(game_name, day.isoformat())
        return None if stored is None else Day(game_name, day, seed, stored)
    made = daily.commitment(game_name, day, seed)
    return Day(game_name, day, seed, store.daily.publish(game_name, day.isoformat(), made,
                                                         stamp()))  # fmt: skip


async def publish_ahead(store: Store) -> None:
    """Publish today's and tomorrow's commitments of every game now and every hour, until
    cancelled, so that a day's is out before the day begins even if nobody asks for it.
    A round that fails (the database away) is logged and the next one tries again."""
    while True:
        try:
            for name in sorted(GAMES):
                for offset in (0, 1):
                    day = today() + timedelta(days=offset)
                    await asyncio.to_thread(published, store, name, day)
        except StoreUnavailable as e:
            log.warning("deal of the day: the database is unavailable (%s); trying again", e)
        except Exception:  # logged with its traceback: a silent end would stop publishing
            log.exception("deal of the day: publishing the commitments failed; trying again")
        await asyncio.sleep(PUBLISH_EVERY_S)


def results(store: Store, row: GameRow, margin: float) -> dict[str, Any]:
    """Return a scored try's results among the day's: its rank, the histogram, the par and
    how the field chose at each of South's decisions, with the review's values."""
    day = json.loads(row.daily or "{}")["date"]
    rank = store.daily.rank(row.game, day, margin)
    width, bars = store.daily.histogram(row.game, day)
    mine = [i for i, (seat, _) in enumerate(row.actions) if seat == HUMAN]
    spots = [position(row.actions[:i]) for i in mine]
    field = store.daily.field(row.game, day, spots)
    review = store.reviews.get(row.id)
    valued = {d.index: d for d in restored(review.data).decisions} if review and review.data else {}
    decisions = []
    for i, spot in zip(mine, spots, strict=True):
        counts = field[spot]
        total = sum(counts.values()) or 1
        values = {c.action: c.fair for c in valued[i].choices} if i in valued else {}
        choices = [{"action": a, "count": n, "share": n / total, "value": values.get(a)}
                   for a, n in sorted(counts.items(), key=lambda kv: -kv[1])]  # fmt: skip
        decisions.append({"index": i, "made": row.actions[i][1], "choices": choices})
    return {
        "game": row.game, "date": day, "margin": margin, "tries": rank.tries,
        "matchpoints": rank.matchpoints, "percentile": rank.percentile, "width": width,
        "bars": [{"low": low, "count": n, "yours": low <= margin < low + width}
                 for low, n in bars],
        "par": store.daily.par(row.id),
        "values_pending": len(valued) < len(mine), "decisions": decisions,
    }  # fmt: skip


def make_router(games: Callable[[Request], Games]) -> APIRouter:
    """Return the deal of the day's API and pages (the player is the device cookie's)."""
    router = APIRouter()

    def store_of(request: Request) -> Store:
        return games(request).store

    async def day_of(request: Request, game_name: str, day: date) -> Day:
        found = await asyncio.to_thread(published, store_of(request), game_name, day)
        if found is None:
            raise NotFound(NO_SUCH_DAY)
        return found

    async def scored_results(request: Request, player: Player | None, game_name: str, day: date
                             ) -> dict[str, Any]:  # fmt: skip
        """Return the player's results of a day (401 without a player, 409 before their
        scored try is over)."""
        who = known(player).id
        store = store_of(request)
        mine = await asyncio.to_thread(store.daily.scored, game_name, day.isoformat(), who)
        if mine is None or mine.margin is None:
            raise Conflict(NOT_YET)
        row = await asyncio.to_thread(store.get, mine.game_id)
        if row is None:  # its game was deleted (retention): the ranking stays, not the field
            raise NotFound(NO_SUCH_DAY)
        await ask_review(request, row)
        return await asyncio.to_thread(results, store, row, mine.margin)

    async def ask_review(request: Request, row: GameRow) -> None:
        """Ask for the review of a finished scored try (its values go with the field)."""
        reviewer = request.app.state.reviewer
        total = sum(1 for seat, _ in row.actions if seat == HUMAN)
        if await asyncio.to_thread(reviewer.store.reviews.request, row.id, total, stamp()):
            reviewer.wake.set()

    @router.get("/api/daily", response_model=DailyIndex, responses=errors_for(503))
    async def get_index(request: Request) -> JSONResponse:
        """Return yesterday's revealed seeds and today's and tomorrow's commitments."""
        days = []
        for offset in (-1, 0, 1):
            for name in sorted(GAMES):
                day = today() + timedelta(days=offset)
                found = await asyncio.to_thread(published, store_of(request), name, day)
                if found is not None:
                    days.append(found.json())
        return reply({"today": today().isoformat(), "days": days})

    @router.get("/api/daily/{game_name}/{day}", response_model=DailyDay,
                responses=errors_for(404, 422, 503))  # fmt: skip
    async def get_day(game_name: Game, day: date, request: Request) -> JSONResponse:
        """Return a game's day: its commitment and, once the day is over, its seed."""
        return reply((await day_of(request, game_name, day)).json())

    @router.post("/api/daily/{game_name}", status_code=201, response_model=DailyCreated,
                 responses=errors_for(401, 422, 429, 503))  # fmt: skip
    async def post_try(game_name: Game, request: Request, player: IssuedPlayer) -> JSONResponse:
        """Play today's deal: your first try of the day is scored, any other is practice
        (the same deal and the same AI answers, not counted). 401: this browser has no
        player and is past the rate of new ones."""
        who = known(player).id
        service = games(request)
        client = client_of(request)
        service.limit("create", client)
        found = await day_of(request, game_name, today())
        tr = translator(language(request))

        def save(row: GameRow) -> GameRow:
            return service.store.create_daily(row, found.day.isoformat(), who)

        live, token, events = await service.start(game_name, found.seed, daily.LEVEL, False,
                                                  client, tr, save, who)  # fmt: skip
        data = {"id": live.row.id, "token": token, "version": live.row.version,
                "view": view_json(live, tr), "events": events,
                "scored": json.loads(live.row.daily or "{}")["scored"]}  # fmt: skip
        return reply(data, 201)

    @router.get("/api/daily/{game_name}/{day}/results", response_model=DailyResults,
                responses=errors_for(401, 404, 409, 422, 503))  # fmt: skip
    async def get_results(game_name: Game, day: date, request: Request, player: CurrentPlayer
                          ) -> JSONResponse:  # fmt: skip
        """Return your scored try's rank among everyone's (matchpoints), the histogram of
        margins, the AI's margin in your seat (par) and how the field chose at each of your
        decisions, once your scored try is over (409 before)."""
        return reply(await scored_results(request, player, game_name, day))

    @router.get("/api/daily/{game_name}/{day}/standings", response_model=Standings,
                responses=errors_for(404, 409, 422, 503))  # fmt: skip
    async def get_standings(game_name: Game, day: date, request: Request) -> JSONResponse:
        """Return a past day's final standings, best first (409 while the day lasts)."""
        if day >= today():
            raise Conflict(DAY_NOT_OVER)
        await day_of(request, game_name, day)
        return reply(await asyncio.to_thread(standings, store_of(request), game_name, day))

    @router.post("/api/daily/{game_name}/{day}/verify", response_model=Verification,
                 responses=errors_for(400, 404, 409, 413, 422, 429, 503))  # fmt: skip
    async def post_verify(game_name: Game, day: date, record: Annotated[dict[str, Any], Body()],
                          request: Request) -> JSONResponse:  # fmt: skip
        """Check a record of a past day's deal as `tarocchi verify --record` does: that it is
        that day's deal, replays through the rules to its result, and that each AI action in
        it is the one the day's AI plays there (409 while the day lasts: its seed is
        secret). A record that does not check is an answer too (`ok` false, the first thing
        that does not hold); its `tricks`, `events` and the result's `lines` and `piles` may
        be left out (the replay derives them)."""
        shown = (await day_of(request, game_name, day)).json()
        if shown["seed"] is None:
            raise Conflict(NOT_REVEALED)
        service = games(request)
        client = client_of(request)
        service.limit("create", client)  # it plays the day's AI, as a deal does
        checked, why = await service.in_pool(client, f"verify-{game_name}", verified, game_name,
                                             day, shown["seed"], shown["commitment"], record,
                                             shortens=False)  # fmt: skip
        tr = translator(language(request))
        if checked is None:
            rules = game(game_name)
            said = from_recipe(why, lambda code: rules.pack.cards[rules.card_id(code)])
        else:
            said = Msg("This record is the deal of the day: it replays through the rules to "
                       "its result, and its %(n)d AI actions all follow from the deal and the "
                       "play.", n=checked)  # fmt: skip
        return reply({"ok": checked is not None, "ai_actions": checked, "text": tr.text(said)})

    add_pages(router, store_of, scored_results)
    return router


def verified(game_name: str, day: date, seed: int, published: str,
             record: Mapping[str, object]) -> tuple[int | None, object]:  # fmt: skip
    """Return the AI actions a record of a day's deal has, all checked (`daily.verify`),
    and None; or None and the recipe of the first thing that does not hold (an AI worker's
    job: it replays the day's AI)."""
    try:
        return daily.verify(game_name, day, seed, published, record).ai_actions, None
    except daily.VerifyError as e:
        return None, recipe(e.args[0])


def standings(store: Store, game_name: str, day: date) -> dict[str, object]:
    """Return a day's standings as the API tells them."""
    rows = store.daily.standings(game_name, day.isoformat())
    return {"game": game_name, "date": day.isoformat(),
            "standings": [{"rank": i, "name": name, "margin": margin}
                          for i, (name, margin) in enumerate(rows, start=1)]}  # fmt: skip


def add_pages(
    router: APIRouter,
    store_of: Callable[[Request], Store],
    scored_results: Callable[..., Awaitable[dict[str, Any]]],
) -> None:
    """Add the deal of the day's pages."""

    @router.get("/daily", response_class=HTMLResponse, include_in_schema=False)
    async def daily_page(request: Request) -> Response:
        """Today's deal of each game, tomorrow's commitments, yesterday's seeds and
        standings."""
        store = store_of(request)
        days: dict[str, list[Day | None]] = {}
        for name in sorted(GAMES):
            days[name] = [await asyncio.to_thread(published, store, name, today() + timedelta(d))
                          for d in (-1, 0, 1)]  # fmt: skip
        tops = {name: (await asyncio.to_thread(standings, store, name, today() - timedelta(1)))
                ["standings"] for name in GAMES}  # fmt: skip
        titles = {n: game(n).title for n in GAMES}
        return render(request, "daily.html", {"days": days, "tops": tops, "titles": titles})

    @router.get("/daily/{game_name}/{day}", response_class=HTMLResponse, include_in_schema=False)
    async def results_page(game_name: Game, day: date, request: Request, player: CurrentPlayer
                           ) -> Response:  # fmt: skip
        """Your results of a day's deal among everyone's (or why they are not shown yet)."""
        rules = game(game_name)
        tr = translator(language(request))
        try:
            found = await scored_results(request, player, game_name, day)
        except Refused as e:
            found = {"why": tr.text(e.reason)}
        for d in found.get("decisions", ()):  # each action named in the reader's language
            d["made_label"] = named(rules, d["made"], tr)
            for c in d["choices"]:
                c["label"] = named(rules, c["action"], tr)
        return render(request, "daily_results.html", {"r": found, "game": game_name,
                      "title": rules.title, "day": day.isoformat(),
                      "unit": rules.unit})  # fmt: skip

    @router.get("/daily/{game_name}/{day}/verify", response_class=HTMLResponse,
                include_in_schema=False)  # fmt: skip
    async def verify_page(game_name: Game, day: date, request: Request) -> Response:
        """Check a day's revealed seed against its commitment and show the deal it deals."""
        found = await asyncio.to_thread(published, store_of(request), game_name, day)
        if found is None:
            raise NotFound(NO_SUCH_DAY)
        shown = found.json()
        checked = None
        if shown["seed"] is not None:
            done = daily.verify(game_name, day, shown["seed"], shown["commitment"])
            rules = game(game_name)
            hands = [rules.pack.codes_of(h) for h in rules.dealt_hands(rules.deal(done.seed))]
            checked = {"dealer": done.dealer, "hands": hands}
        tr = translator(language(request))
        return render(request, "daily_verify.html", {"d": shown, "checked": checked,
                      "title": game(game_name).title,
                      "seat_names": [tr.seat(s) for s in range(4)]})  # fmt: skip


def named(rules: Rules, code: str, tr: Translator) -> str:
    """Return an action as a reader reads it: a card by its code and name, else its code."""
    try:
        return f"{code} ({tr.card(rules.pack.cards[rules.card_id(code)])})"
    except ValueError:
        return code
