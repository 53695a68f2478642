"""The game service: create a game, open it, act in it, ask a hint, start a practice deal
from one of South's decisions in a finished deal (a review's "try again"), give its record.

No HTTP in it: it refuses with the domain errors of `tarocchi.web.errors`, which the app
maps to statuses (its routes are `tarocchi.web.api`). The human is always South (seat 0).
Every answer is built from South's view (plus, for South's own turn, the reason each other
card is refused), so no answer can hold a card South cannot see. The AI's moves and hints
run in the supervised worker pool (`tarocchi.web.workers`; the jobs: `tarocchi.web.jobs`),
each client and each game in its own turn, and the database calls in threads, both off the
event loop (a commit waiting for the disk must not hold up other games' requests). Each game
has a version and the store writes only on the version read, so two concurrent actions for
the same version apply exactly once, whichever server processes they reach.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import NotRequired, TypedDict, TypeVar

import sqlalchemy as sa

from tarocchi.bots.hints import HintJson
from tarocchi.cards import team_of
from tarocchi.games import game
from tarocchi.games.base import GameState, IllegalAction, Rules
from tarocchi.games.replay import ReplayError, iter_replay, replay
from tarocchi.i18n import Msg, Translator
from tarocchi.match import replayed
from tarocchi.record import at_table, make_record, now
from tarocchi.views import Entry, View, history, refusals, step, to_json, view
from tarocchi.web.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    TooMany,
    Unauthenticated,
    Unavailable,
)
from tarocchi.web.jobs import HUMAN, ai_turns, daily_turns, hint_for
from tarocchi.web.models import Action, NewGame
from tarocchi.web.rates import SLOW_DOWN, Rates, TooFast
from tarocchi.web.store import GameRow, Store, token_hash
from tarocchi.web.store.players import Player
from tarocchi.web.store.schema import Outcome
from tarocchi.web.workers import RETRY_AFTER_S, AiPool, Busy
from tarocchi.web.workers import Unavailable as AiAway

T = TypeVar("T")

DEFAULT_LEVEL = "normal"
NOT_YOUR_TURN = Msg("it is not your turn")
NO_GAME = Msg("no such game")
WRONG_TOKEN = Msg("wrong token for this game")
DEAL_OVER = Msg("the deal is over")
CHANGED = Msg("the game changed meanwhile; reload it")
# a table with friends is played over its live connection (tarocchi.web.live), where the AI
# plays only the seats nobody holds
AT_A_TABLE = Msg("this deal is played at a table with friends; play it on its live connection")
NOT_OVER = Msg("the deal is not over yet")
HINTS_OFF = Msg("hints are off at this table: its creator decides")
# a record holds its seed, which tells everyone's deal of the day until the day is over
UNREVEALED = Msg("the deal of the day's record is given once the day is over")
CACHE_SIZE = 4096  # live states kept in memory; others are rebuilt from the log on demand
SEED_BITS = 64  # a drawn seed: nobody can choose it, nor find it from South's hand
BUSY = Msg("too many requests at once; wait for the answers")
RESTARTING = Msg("the AI is restarting; try again in a moment")
# milliseconds this request spent waiting for the AI, reported in a Server-Timing header
AI_MS: ContextVar[float] = ContextVar("AI_MS", default=0.0)
# what opens a game: its bearer token (or a friend's seat token), its player, or nothing
Key = str | Player | None


class Told(TypedDict):
    """What a seat saw change at one action (`tell`): the seat that acted, the changes, and
    the action's code when it is the seer's own."""

    seat: int
    changes: list[Entry]
    action: NotRequired[str]


@dataclass(slots=True)
class Live:
    """A game in memory: its stored row, the state its log leads to and South's view of it
    (the next action's events are told from that view, without replaying the deal)."""

    row: GameRow
    state: GameState
    view: View


class Games:
    """The games of one human against the AI: create, load, act, hint, practice, record."""

    def __init__(self, store: Store, pool: AiPool, rates: Rates | None = None) -> None:
        self.store = store
        self.pool = pool
        self.rates = rates or Rates()
        self.cache: OrderedDict[str, Live] = OrderedDict()
        # (game, version) of the actions this process is applying: a second action at the
        # same version is refused at once rather than after the AI's work (the store's
        # conditional write, not this set, keeps games right across processes)
        self.acting: set[tuple[str, int]] = set()
        # told each game whose deal ends here (the reviews' service computes the AI's line)
        self.ended: Callable[[str], None] = lambda game_id: None

    async def in_pool(
        self, client: str, game_id: str, fn: Callable[..., T], *args: object, shortens: bool = True
    ) -> T:
        """Run an AI job in its client's and its game's turn, its time added to AI_MS; with
        shortens and every worker busy, the job runs at the short budget (its last argument).
        A full queue answers 429, an AI that cannot answer 503, both with Retry-After."""
        start = time.perf_counter()
        try:
            return await self.pool.run(_keys(client, game_id), fn, *args, shortens=shortens)
        except Busy:
            raise self.too_many(client, BUSY, RETRY_AFTER_S) from None
        except AiAway:
            raise Unavailable(
                Msg("the AI is restarting; try again in a moment"), RETRY_AFTER_S
            ) from None
        finally:
            AI_MS.set(AI_MS.get() + (time.perf_counter() - start) * 1000)

    def limit(self, kind: str, client: str, game_id: str | None = None) -> None:
        """Count a request of a kind (create, hint) by a client: 429 past its rate. (A
        request its turn's full queue refuses anyway is refused first, and not counted.)"""
        try:
            if game_id is not None:
                self.pool.check_room(_keys(client, game_id))
            self.rates.hit(kind, client)
        except Busy:
            raise self.too_many(client, BUSY, RETRY_AFTER_S) from None
        except TooFast as e:
            raise self.too_many(client, SLOW_DOWN, e.retry_after) from None

    def too_many(self, client: str, why: Msg, seconds: int) -> TooMany:
        """Return a 429 telling a client to wait, remembered until then (see Door)."""
        self.rates.told_to_wait(client, seconds)
        return TooMany(why, seconds)

    def remember(self, live: Live) -> None:
        """Keep a live game in the bounded cache."""
        self.cache[live.row.id] = live
        self.cache.move_to_end(live.row.id)
        while len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)

    async def load(
        self,
        game_id: str,
        auth: Key,
        version: int | None = None,
        fresh: bool = False,
        seats: bool = False,
    ) -> Live:
        """Return a game the bearer token (or its player's cookie) opens; with seats, a
        friend's seat token opens it too, for what every seat may see (404 unknown, 401 no
        token or a malformed one, 403 wrong token, 409 a stored log the rules refuse); with
        fresh rebuilt from the stored log even if this process has it in memory. For an
        action at `version`, a game this process holds at that version is not read again:
        the action's write is conditional on the version in the database, so a game another
        process has moved on (or the retention deleted) ends in 409, and any other version
        is read afresh."""
        held = self.cache.get(game_id)
        if version is None or fresh or held is None or held.row.version != version:
            row = await asyncio.to_thread(self.store.get, game_id)
        else:
            row = held.row
        if row is None:
            raise NotFound(NO_GAME)
        if auth is None:
            raise Unauthenticated(Msg("missing bearer token"), bearer=True)
        if isinstance(auth, Player):  # its player's own deal, opened from their history
            if auth.id != row.player_id:
                raise Forbidden(WRONG_TOKEN)
        elif not secrets.compare_digest(hashed := token_hash(auth), row.token_hash) and not (
            seats and await asyncio.to_thread(self.store.tables.holder, game_id, hashed) is not None
        ):
            raise Forbidden(WRONG_TOKEN)
        return self.in_memory(row, fresh)

    async def seat_of(self, row: GameRow, auth: Key) -> int:
        """Return the seat that what opened a game (see load, with seats) holds: South for
        the game's token or its player, else the seat a friend's token holds."""
        if isinstance(auth, Player) or auth is None:
            return HUMAN
        hashed = token_hash(auth)
        if secrets.compare_digest(hashed, row.token_hash):
            return HUMAN
        seat = await asyncio.to_thread(self.store.tables.holder, row.id, hashed)
        if seat is None:
            raise Forbidden(WRONG_TOKEN)
        return seat

    def in_memory(self, row: GameRow, fresh: bool = False) -> Live:
        """Return a stored game in memory: the state its log leads to, kept from before if
        this process holds it at that version (unless fresh), else replayed (409 for a log
        the rules refuse)."""
        live = self.cache.get(row.id)
        if live is None or live.row.version != row.version or fresh:
            try:
                state = caught_up(row, None if fresh else live)
            except ReplayError as e:
                raise Conflict(e.args[0]) from None
            live = Live(row, state, view(state, HUMAN))
        self.remember(live)
        return live

    async def create(
        self, body: NewGame, client: str, tr: Translator, player_id: str | None = None
    ) -> tuple[Live, str, list[Told]]:
        """Start a game (the player's, if any) and let the AI act up to South's first
        decision."""
        self.limit("create", client)
        chosen = body.seed is not None
        seed = body.seed if body.seed is not None else secrets.randbits(SEED_BITS)
        return await self.start(body.game, seed, body.level or DEFAULT_LEVEL, chosen, client, tr,
                                player_id=player_id)  # fmt: skip

    async def start(
        self,
        game_name: str,
        seed: int,
        level: str,
        chosen: bool,
        client: str,
        tr: Translator,
        save: Callable[[GameRow], GameRow] | None = None,
        player_id: str | None = None,
    ) -> tuple[Live, str, list[Told]]:
        """Deal a new game (the player's, if any), let the AI act up to South's first
        decision and store it (by save, which returns the row stored; a deal of the day's AI
        plays its own way)."""
        token = secrets.token_urlsafe(24)
        row = GameRow(secrets.token_urlsafe(12), token_hash(token), game_name, seed, level, (),
                      0, False, now(), chosen, player_id=player_id)  # fmt: skip
        rules = game(game_name)
        state = rules.deal(seed)
        if save is None:
            ai = await self.in_pool(client, row.id, ai_turns, row.game, seed, level, ())
        else:
            ai = await self.in_pool(client, row.id, daily_turns, row.game, seed, (),
                                    shortens=False)  # fmt: skip
        state, seen, events = tell(rules, state, view(state, HUMAN), ai, tr)
        row = replace(row, actions=tuple(ai), version=len(ai), over=rules.is_over(state))
        row = await asyncio.to_thread(save or self.saved, row)
        live = Live(row, state, seen)
        self.remember(live)
        return live, token, events

    def saved(self, row: GameRow) -> GameRow:
        """Store a new game; return its row."""
        self.store.create(row)
        return row

    async def act(
        self, live: Live, body: Action, client: str, tr: Translator
    ) -> tuple[Live, list[Told]]:
        """Apply South's action, then the AI's, and store the longer log."""
        row = live.row  # as load() read it; the conditional write below settles any race
        if body.version != row.version:
            raise Conflict(
                Msg(
                    "stale version %(asked)d: the game is at version %(version)d",
                    asked=body.version,
                    version=row.version,
                ),
            )
        rules = game(row.game)
        if live.state.to_move != HUMAN:
            raise Conflict(
                DEAL_OVER if live.state.to_move is None else NOT_YOUR_TURN,
            )
        await self.alone(row.id)
        try:
            code = rules.action_code(rules.parse_action(body.action))
        except ValueError as e:  # a code of another game: not an action of this deal
            raise Conflict(e.args[0]) from None
        try:
            state, seen, events = tell(rules, live.state, live.view, [(HUMAN, code)], tr)
        except IllegalAction as e:
            raise Conflict(e.args[0]) from None
        actions = (*row.actions, (HUMAN, code))
        at = (row.id, row.version)
        if at in self.acting:  # another request here will land first or fail alike: no AI spent
            raise Conflict(CHANGED)
        self.acting.add(at)
        try:
            if row.daily is None:
                ai = await self.in_pool(client, row.id, ai_turns, row.game, row.seed, row.level,
                                        actions)  # fmt: skip
            else:
                ai = await self.in_pool(client, row.id, daily_turns, row.game, row.seed,
                                        actions, shortens=False)  # fmt: skip
            state, seen, told = tell(rules, state, seen, ai, tr)
            actions = (*actions, *ai)
            over = rules.is_over(state)
            ended = outcome(rules, state)
            then = self.finished_daily(row, actions, state) if over and row.daily else None
            stored = asyncio.to_thread(self.store.update, *at, actions, over, now(), ended, then)
            if not await stored:
                raise Conflict(CHANGED)
        finally:
            self.acting.discard(at)
        live = Live(replace(row, actions=actions, version=len(actions), over=over), state, seen)
        self.remember(live)
        if over:
            self.ended(row.id)
        return live, events + told

    async def alone(self, game_id: str) -> None:
        """Refuse (409) a request of the one-human API for a game at a table with friends:
        it would play the AI in the seats people hold."""
        if await asyncio.to_thread(self.store.tables.is_table, game_id):
            raise Conflict(AT_A_TABLE)

    def finished_daily(
        self, row: GameRow, actions: tuple[tuple[int, str], ...], final: GameState
    ) -> Callable[[sa.Connection], None]:
        """Return the write of a deal of the day's try that ends: its margin and South's
        choices, each at its position (a hash of the log before it), for the field."""
        margin = game(row.game).result(final).margin(team_of(HUMAN))
        choices = [(position(actions[:i]), code) for i, (seat, code) in enumerate(actions)
                   if seat == HUMAN]  # fmt: skip
        stamp = now()
        return lambda conn: self.store.daily.finish(conn, row.id, margin, choices, stamp)

    async def hints(self, live: Live, client: str, seat: int = HUMAN) -> list[HintJson]:
        """Rank a seat's legal actions (409 when it is not to act, or at a table whose
        creator has not allowed hints)."""
        if live.state.to_move != seat:
            raise Conflict(NOT_YOUR_TURN)
        if not await asyncio.to_thread(self.store.tables.hints_allowed, live.row.id):
            raise Conflict(HINTS_OFF)
        row = live.row
        args = (row.game, row.seed, row.actions, seat)
        return await self.in_pool(client, row.id, hint_for, *args, shortens=False)

    async def practice(self, live: Live, decision: int, client: str) -> tuple[Live, str]:
        """Start a practice deal at one of South's decisions of a finished deal: the same
        seed and log up to it (so the same cards, and the AI seeded as in the deal), South
        to act; it remembers where it came from and the deal's final margin. 409 before the
        deal is over (a deal still being played cannot be tried out), 422 for a decision
        South did not have."""
        row = live.row
        rules = game(row.game)
        if live.state.to_move is not None:
            raise Conflict(NOT_OVER)
        mine = [i for i, (seat, _) in enumerate(row.actions) if seat == HUMAN]
        if decision >= len(mine):
            why = Msg("this deal has no decision %(n)d of yours: it has %(total)d",
                      n=decision, total=len(mine))  # fmt: skip
            raise Invalid(why)
        self.limit("create", client)
        at = mine[decision]
        origin = {"from": row.id, "action": at,
                  "margin": rules.result(live.state).margin(team_of(HUMAN))}  # fmt: skip
        token = secrets.token_urlsafe(24)
        practice = GameRow(secrets.token_urlsafe(12), token_hash(token), row.game, row.seed,
                           row.level, row.actions[:at], at, False, now(), True,
                           json.dumps(origin), player_id=row.player_id)  # fmt: skip
        state = await asyncio.to_thread(replay, rules, row.seed, practice.actions)
        await asyncio.to_thread(self.store.create, practice)
        started = Live(practice, state, view(state, HUMAN))
        self.remember(started)
        return started, token

    def record(self, live: Live) -> dict[str, object]:
        """Return the deal record once the deal is over (409 before)."""
        if not game(live.row.game).is_over(live.state):
            raise Conflict(NOT_OVER)
        if not is_revealed(live.row):
            raise Conflict(UNREVEALED)
        held = [s.seat for s in self.store.tables.seats(live.row.id) if s.token_hash is not None]
        stored = self.store.get(live.row.id)  # (its end's time: the row kept here may predate it)
        row = live.row if stored is None else replace(live.row, updated_at=stored.updated_at)
        return at_table(record_of(row), held, self.store.presence.marks(live.row.id))


def outcome(rules: Rules, state: GameState) -> Outcome | None:
    """Return how a deal ended for South's team, or None while it goes on (the history
    reads it, whoever played the last card: South, a friend or the AI)."""
    if not rules.is_over(state):
        return None
    result = rules.result(state)
    team = "NS" if team_of(HUMAN) == 0 else "EW"
    verdict = "draw" if result.winner == "draw" else "win" if result.winner == team else "loss"
    return Outcome(result.margin(team_of(HUMAN)), verdict)


def caught_up(row: GameRow, live: Live | None) -> GameState:
    """Return the state a stored game's log leads to: from a game in memory at an earlier
    point of the same log, by its new actions only (a table's change is one or a few), else
    from the deal; each action checked as in a replay (ReplayError)."""
    rules = game(row.game)
    if live is None or row.actions[: live.row.version] != live.row.actions:
        return replay(rules, row.seed, row.actions)
    state = live.state
    for _, _, after in iter_replay(rules, live.state, row.actions[live.row.version :],
                                   live.row.version + 1):  # fmt: skip
        state = after
    return state


def is_revealed(row: GameRow) -> bool:
    """Return whether a game's seed may be told: any game's but a deal of the day's before
    its day has ended (its seed would tell everyone's deal of the day)."""
    if row.daily is None:
        return True
    return date.fromisoformat(json.loads(row.daily)["date"]) < datetime.now(UTC).date()


def record_of(row: GameRow) -> dict[str, object]:
    """Return the record of a stored game whose deal is over (ReplayError for a log the
    rules refuse)."""
    level = row.level
    log = replayed(game(row.game), row.seed, ("human", level, level, level), row.actions)
    record = make_record(log, started_at=row.started_at, finished_at=row.updated_at)
    record["seed_chosen"] = row.seed_chosen  # a chosen deal could be known beforehand
    if row.practice:  # a practice deal: the deal and South's action it started from
        origin = json.loads(row.practice)
        record["practice"] = {"from": origin["from"], "action": origin["action"]}
    if row.daily:  # the deal of the day: a second try is practice, from the start
        day = json.loads(row.daily)
        record["daily"] = {"game": row.game, "date": day["date"]}
        if not day["scored"]:
            record["practice"] = {"from": None, "action": 0}
    return record


def tell(
    rules: Rules,
    state: GameState,
    seen: View,
    actions: Sequence[tuple[int, str]],
    tr: Translator,
    seer: int = HUMAN,
) -> tuple[GameState, View, list[Told]]:
    """Apply actions, each by the seat to move (IllegalAction otherwise), to a state a seat
    (seer: South unless told) sees as seen; return the new state, the seat's view of it and
    what it saw change at each action (`views.step`, texts in tr's language), its own action
    named."""
    events: list[Told] = []
    for seat, code in actions:
        if state.to_move != seat:
            raise IllegalAction(Msg("seat %(seat)d is not to move", seat=seat))
        state, seen, shown = step(rules, state, rules.parse_action(code), seer, seen, tr)
        told: Told = {"seat": seat, "changes": shown}
        if seat == seer:
            told["action"] = code
        events.append(told)
    return state, seen, events


def view_json(live: Live, tr: Translator, with_history: bool = False) -> dict[str, object]:
    """Return South's view of a live game as JSON, with reasons for refused cards, the texts
    in tr's language; with_history, also the deal's history as South saw it (replayed: a
    reloaded page's log; an action's answer tells only its events)."""
    return seat_json(live.row, live.state, live.view, HUMAN, tr, with_history)


def seat_json(
    row: GameRow,
    state: GameState,
    seen: View,
    seat: int,
    tr: Translator,
    with_history: bool = False,
) -> dict[str, object]:
    """Return a seat's view (seen: view(state, seat)) of a stored game as JSON, as view_json
    does South's."""
    rules = game(row.game)
    data = to_json(seen, tr)
    if with_history:
        data["history"] = history(rules, row.seed, row.actions, seat, tr)
    codes = rules.pack.codes
    data["illegal"] = {codes[c]: tr.text(why) for c, why in refusals(state, seat).items()}
    data["level"] = row.level
    data["title"] = rules.title
    if row.practice:  # where it started, and the original deal's margin to beat
        data["practice"] = json.loads(row.practice)
    if row.daily:  # the deal of the day: its date, and whether this try counts
        data["daily"] = json.loads(row.daily)
    if data["over"] and is_revealed(row):
        data["seed"] = row.seed  # only once the deal is over: the seed tells every card
    return data


def position(actions: Sequence[tuple[int, str]]) -> str:
    """Return the key of a deal's position: a hash of the action log that led to it."""
    text = json.dumps([list(a) for a in actions], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _keys(client: str, game_id: str) -> list[str]:
    """Return the keys of a job's turns in the AI pool: its client's and its game's."""
    return [f"client {client}", f"game {game_id}"]
