"""Friends' tables: the seats a deal's creator opens to other people, and a seat's actions.

The creator (South, holding the game's token) opens East, North or West to a human with
an invitation: a secret shown once, stored hashed as game tokens are, re-issued on asking
(the old link and its holder's token then open nothing). Whoever sends the secret first
takes the seat and gets its own token; a second holder is refused. Until a seat is taken
the AI plays it at the table's level (`tarocchi.web.driver`).

A seat acts with an action id of its choosing: the id is stored with its first answer in
the action's own transaction (`store.tables`), so an id sent twice, to any process, gets
that answer again and nothing applies twice. Refusals are answers too, kept as message
recipes and told in each reader's language.

Once the deal is over, each seated human wishes for the same deal again or a new one; when
all of them wish the same, the next game starts with the same people in the same seats:
each seat's token opens it too (no new link), and every connection of the table is told
its id (`tarocchi.web.live`). A human away (a closed tab, no ping) does not keep the others
waiting: the wishes of those here decide, and the AI plays the away seat of the next game
until its human is back, as it does during a deal. The creator chooses whether the seats
may ask for hints.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse

from tarocchi.cards import Card
from tarocchi.games import game
from tarocchi.games.base import GameState, IllegalAction
from tarocchi.i18n import Msg, Translator, from_recipe, recipe
from tarocchi.record import now
from tarocchi.web.api import Auth, GameId, reply
from tarocchi.web.errors import Conflict, Forbidden, NotFound
from tarocchi.web.jobs import HUMAN, card_of
from tarocchi.web.models import (
    Invitation,
    Seats,
    SeatTaken,
    Secret,
    TableSettings,
    errors_for,
)
from tarocchi.web.service import (
    DEAL_OVER,
    NO_GAME,
    NOT_OVER,
    NOT_YOUR_TURN,
    SEED_BITS,
    WRONG_TOKEN,
    Games,
    outcome,
)
from tarocchi.web.store import GameRow, token_hash
from tarocchi.web.store.presence import stamp
from tarocchi.web.store.tables import Followed

NOT_OPEN = Msg("this seat is not open to a guest")
TAKEN = Msg("this seat is taken")
WRONG_INVITATION = Msg("wrong invitation for this seat")
SeatNumber = Annotated[int, Path(ge=1, le=3, description="1 East, 2 North, 3 West")]


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to a seat's action: applied (reaching version) or refused (a reason)."""

    ok: bool
    version: int | None = None
    reason: Msg | None = None

    def dump(self) -> str:
        """Return the answer as stored: JSON, its reason a message recipe."""
        data = {"ok": self.ok, "version": self.version}
        if self.reason is not None:
            data["reason"] = recipe(self.reason)
        return json.dumps(data)

    @staticmethod
    def load(text: str, card: Callable[[str], Card]) -> Answer:
        """Return a stored answer (cards of its reason read by card(code))."""
        data = json.loads(text)
        why = data.get("reason")
        return Answer(data["ok"], data["version"], None if why is None else from_recipe(why, card))

    def to_json(self, tr: Translator) -> dict[str, object]:
        """Return the answer as a seat reads it, in tr's language."""
        out: dict[str, object] = {"ok": self.ok}
        if self.version is not None:
            out["version"] = self.version
        if self.reason is not None:
            out["reason"] = tr.text(self.reason)
        return out


class Tables:
    """The seats' service: invitations, holders, and a seat's actions with their ids."""

    def __init__(self, games: Games, turn_s: float | None = None) -> None:
        """Serve the seats of a game service's tables, each with a turn timer of turn_s
        seconds (None: none, the default at friends' tables)."""
        self.games = games
        self.store = games.store
        self.turn_s = turn_s
        # told each game whose log a seat lengthened (the driver then plays the AI's seats)
        self.moved: Callable[[str], None] = lambda game_id: None

    async def invite(self, row: GameRow, seat: int) -> str:
        """Open a seat to a human (again: a new secret, the seat freed); return the secret
        of its invitation (shown once). 409 once the deal is over."""
        if row.over:
            raise Conflict(DEAL_OVER)
        secret = secrets.token_urlsafe(24)
        await asyncio.to_thread(self.store.tables.invite, row.id, seat, token_hash(secret))
        await self.time(row.id)
        return secret

    async def time(self, game_id: str) -> None:
        """Give a friends' table the server's turn timer, if it has one."""
        if self.turn_s is not None:
            await asyncio.to_thread(self.store.presence.set_timer, game_id, self.turn_s)

    async def take(self, game_id: str, seat: int, secret: str) -> str:
        """Give a seat to its invitation's holder; return the seat's token. 404 for an
        unknown game or a seat not opened, 403 for a wrong secret, 409 if it is taken."""
        tables = self.store.tables
        token = secrets.token_urlsafe(24)
        asked = token_hash(secret)
        if await asyncio.to_thread(tables.take, game_id, seat, asked, token_hash(token), now()):
            return token
        opened = [s for s in await asyncio.to_thread(tables.seats, game_id) if s.seat == seat]
        if not opened:
            raise NotFound(NOT_OPEN)
        if not secrets.compare_digest(opened[0].invitation_hash, asked):
            raise Forbidden(WRONG_INVITATION)
        raise Conflict(TAKEN)

    async def seat_of(self, game_id: str, token: str) -> tuple[GameRow, int]:
        """Return a game and the seat a token holds at it (NotFound, Forbidden)."""
        row = await asyncio.to_thread(self.store.get, game_id)
        if row is None:
            raise NotFound(NO_GAME)
        hashed = token_hash(token)
        if secrets.compare_digest(hashed, row.token_hash):
            return row, HUMAN
        seat = await asyncio.to_thread(self.store.tables.holder, game_id, hashed)
        if seat is None:
            raise Forbidden(WRONG_TOKEN)
        return row, seat

    async def act(self, game_id: str, seat: int, action_id: str, code: str, version: int
                  ) -> Answer:  # fmt: skip
        """Apply a seat's action sent with an id, once: an id seen before gets its first
        answer; a refusal (stale version, not this seat's turn, an illegal action) is kept
        as the id's answer. Nothing else is written unless the action applies."""
        tables = self.store.tables
        row = await asyncio.to_thread(self.store.get, game_id)
        if row is None:
            raise NotFound(NO_GAME)
        rules = game(row.game)
        card = card_of(rules.name)
        first = await asyncio.to_thread(tables.answer, game_id, seat, action_id)
        if first is not None:
            return Answer.load(first, card)
        live = self.games.in_memory(row)
        why = _refusal(live.state, seat, version, row.version)
        if why is None:
            try:
                state = rules.apply(live.state, rules.parse_action(code))
                code = rules.action_code(rules.parse_action(code))
            except (IllegalAction, ValueError) as e:  # an illegal card, or another game's code
                why = e.args[0]
        if why is not None:
            stored = await asyncio.to_thread(
                tables.refuse, game_id, seat, action_id, Answer(False, reason=why).dump(), now()
            )
            return Answer.load(stored, card)
        actions = (*row.actions, (seat, code))
        answer = Answer(True, len(actions)).dump()
        move = (row.version, actions, rules.is_over(state))
        ended = outcome(rules, state)  # (the creator's history)
        got = await asyncio.to_thread(tables.act, game_id, seat, action_id, answer, now(), move,
                                      ended)  # fmt: skip
        if got is None:  # another action landed first: this id's answer is that refusal
            return await self.act(game_id, seat, action_id, code, version)
        if got == answer:
            self.moved(game_id)
            if move[2]:  # this card ended the deal (its review's AI line starts)
                self.games.ended(game_id)
        return Answer.load(got, card)

    async def agree(self, game_id: str, seat: int, kind: str) -> None:
        """Keep a seated human's wish for the next deal ("same" or "new"); once every seated
        human wishes the same, start it (Conflict before the deal is over)."""
        tables = self.store.tables
        row = await asyncio.to_thread(self.store.get, game_id)
        if row is None:
            raise NotFound(NO_GAME)
        if not row.over:
            raise Conflict(NOT_OVER)
        if (await asyncio.to_thread(tables.agreements, game_id)).get(seat) != kind:
            await asyncio.to_thread(tables.agree, game_id, seat, kind, now())
        await self.settle(row)

    async def settle(self, row: GameRow) -> None:
        """Start the next deal of a finished table once every seated human who is here wishes
        the same: one away (a closed tab, no ping) does not keep the others waiting, and
        keeps their seat in it, the AI playing it until they are back."""
        tables = self.store.tables
        if not row.over or (await asyncio.to_thread(tables.options, row.id)).next_game:
            return
        humans = await asyncio.to_thread(tables.humans, row.id)
        wishes = await asyncio.to_thread(tables.agreements, row.id)
        clock = await asyncio.to_thread(self.store.presence.clock, row.id)
        if clock is None:
            return
        at = datetime.now(UTC)
        here = [s for s in humans if clock.is_here(s, at)]
        kinds = {wishes.get(s) for s in here}
        if here and len(kinds) == 1 and (kind := kinds.pop()) is not None:
            last = {s: clock.of(s) for s in humans if s not in here}
            away = {s: stamp() if p is None else p.seen_until for s, p in last.items()}
            await self.follow(row, kind, away)

    async def follow(self, row: GameRow, kind: str, away: dict[int, str]) -> None:
        """Start the table's next game (the same deal's seed, or a new one) with the same
        people in the same seats (the AI standing in for those away: seat, when last seen),
        unless another process has started it already."""
        tables = self.store.tables
        same = kind == "same"
        seed = row.seed if same else secrets.randbits(SEED_BITS)
        started = now()
        # the creator's token opens it as it did this one; the seen deal is a known one
        known = row.seed_chosen or same
        nxt = GameRow(secrets.token_urlsafe(12), row.token_hash, row.game, seed, row.level, (),
                      0, False, started, known, player_id=row.player_id)  # fmt: skip
        held = [(s.seat, s.token_hash) for s in await asyncio.to_thread(tables.seats, row.id)
                if s.token_hash is not None]  # fmt: skip
        hints = (await asyncio.to_thread(tables.options, row.id)).hints
        writes = tables.following(row.id, nxt.id, held, started, hints, away)
        try:
            await asyncio.to_thread(self.store.create, nxt, writes)
        except Followed:
            return
        await self.time(nxt.id)
        await asyncio.to_thread(tables.announce, row.id)
        self.moved(nxt.id)  # the AI may have the first turn

    async def table(self, game_id: str) -> dict[str, object]:
        """Return what every seat of a table may know of it beyond the deal: who plays each
        seat, whether hints are allowed, each human's wish for the next deal, and the next
        game once they all agreed."""
        tables = self.store.tables
        options = await asyncio.to_thread(tables.options, game_id)
        return {"type": "table", "humans": await asyncio.to_thread(tables.humans, game_id),
                "hints": await asyncio.to_thread(tables.hints_allowed, game_id),
                "agreed": {str(s): k for s, k in
                           (await asyncio.to_thread(tables.agreements, game_id)).items()},
                "next": options.next_game}  # fmt: skip


def _refusal(state: GameState, seat: int, asked: int, version: int) -> Msg | None:
    """Return why a seat may not act on a state at `version` answering `asked`, or None."""
    if asked != version:
        return Msg("stale version %(asked)d: the game is at version %(version)d",
                   asked=asked, version=version)  # fmt: skip
    if state.to_move is None:
        return DEAL_OVER
    if state.to_move != seat:
        return NOT_YOUR_TURN
    return None


def make_router(games: Callable[[Request], Games], tables: Callable[[Request], Tables]
                ) -> APIRouter:  # fmt: skip
    """Return the seats' routes, reading the services from the request's app."""
    router = APIRouter(prefix="/api")

    @router.post("/games/{game_id}/seats/{seat}/invitation", status_code=201,
                 response_model=Invitation,
                 responses=errors_for(401, 403, 404, 409, 422, 503))  # fmt: skip
    async def post_invitation(game_id: GameId, seat: SeatNumber, request: Request, auth: Auth
                              ) -> JSONResponse:  # fmt: skip
        """Open a seat of your deal to a friend (again: a new invitation; the old link, and
        whoever took the seat with it, are refused from then on). The secret is shown once:
        send it in the link's fragment (`/join/{id}/{seat}#secret`), which no server logs."""
        live = await games(request).load(game_id, auth)
        secret = await tables(request).invite(live.row, seat)
        return reply({"seat": seat, "secret": secret}, 201)

    @router.get("/games/{game_id}/seats", response_model=Seats,
                responses=errors_for(401, 403, 404, 409, 422, 503))  # fmt: skip
    async def get_seats(game_id: GameId, request: Request, auth: Auth) -> JSONResponse:
        """List the seats of your deal you opened to friends, and whether each is taken."""
        live = await games(request).load(game_id, auth)
        opened = await asyncio.to_thread(tables(request).store.tables.seats, live.row.id)
        return reply({"seats": [{"seat": s.seat, "taken": s.token_hash is not None}
                                for s in opened]})  # fmt: skip

    @router.post("/games/{game_id}/seats/{seat}", status_code=201, response_model=SeatTaken,
                 responses=errors_for(400, 403, 404, 409, 422, 503))  # fmt: skip
    async def take_seat(game_id: GameId, seat: SeatNumber, body: Secret, request: Request
                        ) -> JSONResponse:  # fmt: skip
        """Take the seat an invitation opened: its token, for the table's live connection
        (403 a wrong secret, 409 the seat already taken)."""
        token = await tables(request).take(game_id, seat, body.secret)
        return reply({"seat": seat, "token": token}, 201)

    @router.put("/games/{game_id}/table", response_model=TableSettings,
                responses=errors_for(400, 401, 403, 404, 409, 422, 503))  # fmt: skip
    async def put_table(game_id: GameId, body: TableSettings, request: Request, auth: Auth
                        ) -> JSONResponse:  # fmt: skip
        """Choose your table's options: whether its seats may ask for hints (each seat's
        hint is from its own view only). By default they may while you are its one human."""
        live = await games(request).load(game_id, auth)
        store = tables(request).store.tables
        await asyncio.to_thread(store.set_options, live.row.id, hints=body.hints)
        return reply({"hints": body.hints})

    return router
