"""The deal of the day: its seed, derived from a key the server keeps; the commitment to it
published before the day; and `verify`, which checks a revealed seed against its
commitment and that every AI action of a record of that deal followed from the deal and
the play.

One deal a day per game, the same for every player: the seed is the first 64 bits of
HMAC-SHA256(key, game and date), so nobody without the key can compute it, and the rules
deal from it (the dealer included). The AI seats play the `normal` level, each bot made as
the web server makes its own (`match.table_bots`: seeded by the deal and the log's length)
and without its clock (`review.unhurried`: it stops at its playout cap), so the same play
always meets the same answer, on the server as in `verify`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date

from tarocchi.games import GAMES, game
from tarocchi.games.base import GameState, Rules
from tarocchi.i18n import Msg
from tarocchi.match import Step, advance, table_bots
from tarocchi.record import RecordError, replay
from tarocchi.review import unhurried

LEVEL = "normal"  # the AI seats' level on the deal of the day
HUMAN = 0
KEY_BYTES = 32
SEED_DOMAIN = "tarocchi daily seed v1"
COMMITMENT_DOMAIN = "tarocchi daily commitment v1"


class VerifyError(ValueError):
    """A seed that does not match its commitment, or a record that is not the day's deal or
    whose AI did not play as the deal and the play make it."""


def new_key() -> bytes:
    """Return a fresh random key for the daily seeds."""
    return secrets.token_bytes(KEY_BYTES)


def seed_of(key: bytes, game_name: str, day: date) -> int:
    """Return the deal of the day's seed: 64 bits of HMAC-SHA256 over the game and date."""
    text = f"{SEED_DOMAIN}\ngame={game_name}\ndate={day.isoformat()}\n"
    return int.from_bytes(hmac.new(key, text.encode(), hashlib.sha256).digest()[:8], "big")


def commitment(game_name: str, day: date, seed: int) -> str:
    """Return the published commitment to a day's seed: SHA-256 (hex) of a text naming
    what it commits to, so that it can be told from any other hash of the same numbers."""
    text = f"{COMMITMENT_DOMAIN}\ngame={game_name}\ndate={day.isoformat()}\nseed={seed}\n"
    return hashlib.sha256(text.encode()).hexdigest()


def answers(rules: Rules, seed: int, state: GameState, index: int) -> Iterator[Step]:
    """Yield the AI seats' actions from a state whose log has `index` actions until South
    must act or the deal ends, each bot made and seeded as the web server makes its own."""
    bots = table_bots(rules, [LEVEL] * 4, seed, (1, 2, 3), index)
    return advance(rules, state, {s: unhurried(b) for s, b in bots.items()})


@dataclass(frozen=True, slots=True)
class Verified:
    """What `verify` checked: the day's deal (its dealer), and of a record, the AI's
    actions found to follow from the deal and the play (0 without a record)."""

    game: str
    day: date
    seed: int
    dealer: int
    ai_actions: int


def verify(
    game_name: str,
    day: date,
    seed: int,
    published: str,
    record: Mapping[str, object] | None = None,
) -> Verified:
    """Check a revealed seed against the commitment published for the game and day, and a
    record of the deal (if given): that it is that deal, replays through the rules to its
    result, and that each AI action is the one the AI plays there. VerifyError names the
    first thing that does not hold."""
    if game_name not in GAMES:
        raise VerifyError(Msg("unknown game '%(game)s'", game=game_name))
    if not hmac.compare_digest(commitment(game_name, day, seed), published.strip().lower()):
        raise VerifyError(Msg("the seed %(seed)d does not match the commitment for %(day)s",
                              seed=seed, day=day.isoformat()))  # fmt: skip
    rules = game(game_name)
    state = rules.deal(seed)
    if record is None:
        return Verified(game_name, day, seed, state.dealer, 0)
    if record.get("game") != game_name or record.get("seed") != seed:
        raise VerifyError(Msg("the record is not the deal of %(game)s on %(day)s", game=game_name,
                              day=day.isoformat()))  # fmt: skip
    daily = record.get("daily")
    if daily is not None and daily != {"game": game_name, "date": day.isoformat()}:
        raise VerifyError(Msg("the record says it is the deal of the day %(daily)s",
                              daily=repr(daily)))  # fmt: skip
    try:
        replay(record)  # the hands, the dealer, every action's legality and the result
    except RecordError as e:
        raise VerifyError(e.args[0]) from None
    entries = record["actions"]
    assert isinstance(entries, list)  # replay refuses a record whose actions are not a list
    actions = [(e["seat"], rules.parse_action(e["action"])) for e in entries]
    checked, i = 0, 0
    while i < len(actions):
        seat, action = actions[i]
        if seat == HUMAN:
            state, i = rules.apply(state, action), i + 1
            continue
        for step in answers(rules, seed, state, i):  # the AI's run, as the server played it
            seat, action = actions[i]
            if (step.seat, step.action) != (seat, action):
                want = rules.action_code(step.action)
                why = Msg("action %(n)d (%(action)s by seat %(seat)d) does not follow: the AI "
                          "plays %(want)s there", n=i + 1, seat=seat,
                          action=rules.action_code(action), want=want)  # fmt: skip
                raise VerifyError(why)
            state, i, checked = step.state, i + 1, checked + 1
    return Verified(game_name, day, seed, state.dealer, checked)
