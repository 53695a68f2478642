"""Reviews on the web: the AI on each human's cards after every deal, and a seat's review on
request.

When a deal ends, a review row is made per seated human (`store.reviews`: South, and at a
friends' table each friend holding a seat) and the AI of the table's level replays that
seat on the same cards (`review.ai_line`), in the background. `POST
/api/games/{id}/review` asks for the review of the decisions of the seat the token holds
(the game's token: South's); the reviews' service of
whichever server process claims the row values them one at a time, storing each, so the
page fills in as it goes and a restarted server resumes where the stored progress stands.

- Lower priority than live AI turns: the work runs in a pool of its own, one process at
  niceness 19 (the AI pool's is 10): a live turn's search takes a core from it at once.
- Once: a process works on a review only while it holds its lease in the database (a
  conditional update), renewed while it works; a dead process's lease expires and another
  (or the restarted one) takes the review up.
- Language-neutral: the stored review holds its reasons as message recipes
  (`i18n.recipe`), translated into the reader's language when served.
- Hidden cards: nothing is served before the deal ends (409); after it, every hand is
  public, as the end of the deal shows (the AI's own deal on South's cards too: `GET
  /api/games/{id}/review/ai`, the record and history its replay steps through).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Unpack

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from tarocchi.cards import team_of
from tarocchi.games import game
from tarocchi.games.replay import ReplayError, replay
from tarocchi.i18n import Msg, Translator, from_recipe, recipe, translator
from tarocchi.match import replayed
from tarocchi.record import RecordError, make_record
from tarocchi.review import ai_from_json, to_json
from tarocchi.views import history
from tarocchi.web.api import Auth, GameId, reply
from tarocchi.web.errors import Conflict, NotFound
from tarocchi.web.jobs import HUMAN, ai_job, card_of, restored, review_step
from tarocchi.web.lang import language
from tarocchi.web.models import AiDeal, ReviewState, errors_for
from tarocchi.web.service import NOT_OVER, UNREVEALED, Games, Live, is_revealed, record_of
from tarocchi.web.store import GameRow, Store, StoreUnavailable
from tarocchi.web.store.reviews import Progress, ReviewRow
from tarocchi.web.workers import AiPool, Unavailable

POLL_S = 2.0  # how often an idle process looks for work another process left or asked for
REVIEW_NICENESS = 19  # below the AI pool's: a live turn's search always goes first
# one job values one decision (about a second) or plays the AI's line (a whole deal of
# the level's searches): bounded far above both, the machine being busy
REVIEW_DEADLINE_S = 600.0
FAILED = Msg("the review could not be computed; ask for it again")
SERVED_CACHE = 64  # reviews kept translated (a Minchiate review takes ~10 ms to translate)


# -- the service ---------------------------------------------------------------------------


def _at(seconds: float = 0.0) -> str:
    """Return the time in some seconds (now by default), as the store writes times."""
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat(timespec="seconds")


class Reviewer:
    """A server process's share of the reviews: it claims reviews with work left, one at a
    time, and works on each while it holds its lease."""

    def __init__(self, store: Store, pool: AiPool, lease_s: float) -> None:
        """Work on a store's reviews in a pool, a dead process's after lease_s."""
        self.store = store
        self.pool = pool
        self.lease_s = lease_s
        self.owner = f"{os.getpid()}-{secrets.token_hex(6)}"
        self.wake = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()  # rows being made (held until done)

    def until(self) -> str:
        """Return when a lease taken or extended now runs out."""
        return _at(self.lease_s)

    async def opened(self, game_id: str) -> None:
        """Make a finished game's review rows, one per seated human (their AI lines are then
        computed), and wake up."""
        with contextlib.suppress(StoreUnavailable):  # the next GET of its review makes it
            for seat in await asyncio.to_thread(self.store.tables.humans, game_id):
                await asyncio.to_thread(self.store.reviews.open, game_id, _at(), seat)
        self.wake.set()

    def ended(self, game_id: str) -> None:
        """Note a deal that ended (called by the game service, on the event loop)."""
        task = asyncio.get_running_loop().create_task(self.opened(game_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def run(self) -> None:
        """Work on claimable reviews for ever; between them, wait for a wake-up or POLL_S."""
        while True:
            self.wake.clear()
            try:
                claim = self.store.reviews.claim
                key = await asyncio.to_thread(claim, self.owner, _at(), self.until())
            except StoreUnavailable:
                key = None
            if key is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), POLL_S)
                continue
            beat = asyncio.create_task(self.heartbeat(key))
            try:
                claimed = await self.record(key)
                while claimed is not None and await self.step(key, *claimed):
                    pass
            except StoreUnavailable:
                pass  # the lease runs out; this or another process takes it up again
            finally:
                beat.cancel()

    async def heartbeat(self, key: tuple[str, int]) -> None:
        """Extend the lease while the work goes on (a job may take longer than a lease)."""
        while True:
            await asyncio.sleep(self.lease_s / 3)
            with contextlib.suppress(StoreUnavailable):
                await self.save(key)

    async def record(self, key: tuple[str, int]) -> tuple[str, dict[str, object]] | None:
        """Return a claimed review's table level and its game's record, the stored log
        replayed once per claim (a finished deal's log no longer changes) and off the event
        loop; None if the game is gone or its log is refused (the review then failed)."""
        row = await asyncio.to_thread(self.store.get, key[0])
        if row is None:
            return None
        try:
            return row.level, await asyncio.to_thread(record_of, row)
        except ReplayError as e:
            await self.failed(key, e.args[0])
            return None

    async def step(self, key: tuple[str, int], level: str, record: dict[str, object]) -> bool:
        """Do the next piece of a claimed review's work and store it; return whether this
        process should go on with it."""
        game_id, seat = key
        rv = await asyncio.to_thread(self.store.reviews.get, game_id, seat)
        if rv is None or rv.owner != self.owner:
            return False
        keys = [f"review {game_id}"]
        try:
            if rv.status == "running" and (rv.done < (rv.total or 0) or rv.ai is not None):
                data = await self.pool.run(keys, review_step, record, level, rv.data, rv.ai, seat)
                return await self.progress(rv, data)
            if rv.ai is None:
                ai = await self.pool.run(keys, ai_job, record, level, seat)
                return await self.save(key, ai=ai, ai_margin=json.loads(ai)["margin"])
        except (Unavailable, RecordError, ValueError):
            return await self.failed(key, FAILED)
        released = await asyncio.to_thread(self.store.reviews.release, key, self.owner, _at())
        return not released  # asked for meanwhile: go on

    async def progress(self, rv: ReviewRow, data: str) -> bool:
        """Store the review so far; once every decision is valued and the AI's line is in
        it, the review is done. Return whether work is left."""
        done = len(json.loads(data)["decisions"])
        if done >= (rv.total or 0) and rv.ai is not None:
            # the accuracy in its own column: the history's statistics average it in SQL
            finished = {"status": "done", "pending": False, "owner": None,
                        "accuracy": json.loads(data)["accuracy"]}  # fmt: skip
            await self.save((rv.game_id, rv.seat), end=True, done=done, data=data, **finished)
            return False
        return await self.save((rv.game_id, rv.seat), done=done, data=data)

    async def save(
        self, key: tuple[str, int], end: bool = False, **values: Unpack[Progress]
    ) -> bool:
        """Write values while holding the review, extending the lease (with end, ending it);
        return whether this process still held it."""
        lease = None if end else self.until()
        values["updated_at"] = _at()
        keep = self.store.reviews.keep
        return await asyncio.to_thread(keep, key, self.owner, lease, **values)

    async def failed(self, key: tuple[str, int], why: Msg) -> bool:
        """Mark a review failed, saying why; stop working on it."""
        error = json.dumps(recipe(why))
        await asyncio.to_thread(self.store.reviews.fail, key, self.owner, error, _at())
        return False


# -- the routes ----------------------------------------------------------------------------


@lru_cache(maxsize=SERVED_CACHE)
def served(data: str, lang: str) -> dict[str, object]:
    """Return a stored review in a language (kept for the page's next polls, which mostly
    find it unchanged)."""
    return to_json(restored(data), translator(lang))


def body(live: Live, rv: ReviewRow | None, tr: Translator, seat: int = HUMAN) -> dict[str, object]:
    """Return a seat's review of a game as the API serves it, its texts in tr's language."""
    rules = game(live.row.game)
    out: dict[str, object] = {"status": "none", "done": 0, "total": None, "review": None,
                           "ai": None, "error": None}  # fmt: skip
    if rv is None:
        return out
    out.update(status=rv.status, done=rv.done, total=rv.total)
    if rv.data:
        review = served(rv.data, tr.lang)
        if not is_revealed(live.row):  # a deal of the day's seed, before its day is over
            review = {k: v for k, v in review.items() if k != "seed"}
        out["review"] = review
    if rv.ai:
        ai = json.loads(rv.ai)
        yours = rules.result(live.state).margin(team_of(seat))
        out["ai"] = {"level": ai["level"], "margin": ai["margin"], "yours": yours,
                     "diverged": ai["diverged"],
                     "first": first_difference(live.row.game, live.row.seed, live.row.actions,
                                               rv.ai, tr.lang, seat)}  # fmt: skip
    if rv.error:
        out["error"] = tr.text(from_recipe(json.loads(rv.error), card_of(rules.name)))
    return out


@lru_cache(maxsize=SERVED_CACHE)
def first_difference(
    game_name: str,
    seed: int,
    actions: tuple[tuple[int, str], ...],
    ai: str,
    lang: str,
    seat: int = HUMAN,
) -> dict[str, object] | None:
    """Return where the AI in a seat first chose otherwise than its player: the action's
    place, its trick (0 before the first), the AI's action and South's, and for each that
    is not a card the words of its button at the table, in lang (None: it never did)."""
    line = json.loads(ai)
    at = line["diverged"]
    if at is None:
        return None
    rules = game(game_name)
    state = replay(rules, seed, actions[:at])
    trick = len(state.winners) + 1 if rules.phase_name(state) == "play" else 0
    hand = rules.view(state, seat).hand

    def words(code: str) -> str | None:
        action = rules.parse_action(code)
        if action < rules.pack.size:  # a card: the page names it in its own words
            return None
        return translator(lang).text(rules.action_detail(hand, action).label)

    ai_code, yours = line["actions"][at]["action"], actions[at][1]
    return {"index": at, "trick": trick, "ai": ai_code, "yours": yours,
            "ai_words": words(ai_code), "yours_words": words(yours)}  # fmt: skip


def ai_deal(row: GameRow, ai: str, tr: Translator, seat: int = HUMAN) -> dict[str, object]:
    """Return the AI's own deal on a seat's cards: its record and its history as that seat
    saw it (the replay steps through both)."""
    rules = game(row.game)
    line = ai_from_json(json.loads(ai))

    def level(s: int) -> str:
        return line.level if s == seat else row.level

    log = replayed(rules, row.seed, (level(0), level(1), level(2), level(3)), line.actions)
    record = make_record(log)
    record["seed_chosen"] = row.seed_chosen
    return {"record": record, "history": history(rules, row.seed, line.actions, seat, tr)}


def make_router(games: Callable[[Request], Games], reviewer: Callable[[Request], Reviewer]
                ) -> APIRouter:  # fmt: skip
    """Return the review's routes, reading the services from the request's app."""
    router = APIRouter(prefix="/api")
    answers = errors_for(401, 403, 404, 409, 422, 503)

    async def finished(request: Request, game_id: str, auth: Auth
                       ) -> tuple[Live, ReviewRow, int]:  # fmt: skip
        """Return a finished game (its stored log replayed afresh: an altered one is refused,
        naming its first bad action), the seat the token holds (South for the game's own)
        and its review row, made if missing."""
        service = games(request)
        live = await service.load(game_id, auth, fresh=True, seats=True)
        if not live.row.over or live.state.to_move is not None:
            raise Conflict(NOT_OVER)
        seat = await service.seat_of(live.row, auth)
        reviews = reviewer(request).store.reviews
        rv = await asyncio.to_thread(reviews.get, game_id, seat)
        if rv is None:  # a deal that ended before reviews existed, or whose row was lost
            await asyncio.to_thread(reviews.open, game_id, _at(), seat)
            reviewer(request).wake.set()
            rv = await asyncio.to_thread(reviews.get, game_id, seat)
        if rv is None:
            raise NotFound(Msg("no such game"))
        return live, rv, seat

    @router.post("/games/{game_id}/review", status_code=202, response_model=ReviewState,
                 responses={200: {"model": ReviewState, "description": "The review is done"},
                            **answers})  # fmt: skip
    async def post_review(game_id: GameId, request: Request, auth: Auth) -> JSONResponse:
        """Start the review of your decisions once the deal is over (again: nothing new
        starts); 202 with its progress, 200 once it is done. A friend's seat token asks for
        the review of that seat."""
        live, rv, seat = await finished(request, game_id, auth)
        total = sum(1 for s, _ in live.row.actions if s == seat)
        store = reviewer(request).store
        if await asyncio.to_thread(store.reviews.request, game_id, total, _at(), seat):
            reviewer(request).wake.set()
            now = await asyncio.to_thread(store.reviews.get, game_id, seat)
            rv = now if now is not None else rv
        # (a whole review's recipes to translate: off the event loop)
        data = await asyncio.to_thread(body, live, rv, translator(language(request)), seat)
        return reply(data, 200 if data["status"] == "done" else 202)

    @router.get("/games/{game_id}/review", response_model=ReviewState, responses=answers)
    async def get_review(game_id: GameId, request: Request, auth: Auth) -> JSONResponse:
        """Return the review's progress and the decisions valued so far, and the AI on your
        cards (once the deal is over: 409 before)."""
        live, rv, seat = await finished(request, game_id, auth)
        data = await asyncio.to_thread(body, live, rv, translator(language(request)), seat)
        return reply(data)

    @router.get("/games/{game_id}/review/ai", response_model=AiDeal, responses=answers)
    async def get_ai_deal(game_id: GameId, request: Request, auth: Auth) -> JSONResponse:
        """Return the AI's own deal on your cards (its record and history, for the replay),
        once the deal is over and the AI has played it (409 before)."""
        live, rv, seat = await finished(request, game_id, auth)
        if not rv.ai:
            raise Conflict(Msg("the AI has not played your cards yet"))
        if not is_revealed(live.row):  # its record holds the seed
            raise Conflict(UNREVEALED)
        tr = translator(language(request))
        data = await asyncio.to_thread(ai_deal, live.row, rv.ai, tr, seat)
        return reply(data)

    return router
