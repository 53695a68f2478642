"""Deal records: JSON with a schema version, written from a played deal and checked by replay.

A record holds the seed and the explicit hands as dealt, the dealer, who played
each seat, every action in order by its text code, the trick winners, the
public events and the final result with its breakdown. `replay` re-plays the
actions through the rules (`games.replay`, the one replay) and confirms the stored
result; the first bad thing it finds is reported by a RecordError that names it.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NotRequired, TypedDict, TypeVar

from tarocchi.cards import bits
from tarocchi.games import GAMES, game
from tarocchi.games.base import GameState, Rules
from tarocchi.games.replay import ReplayError, iter_replay
from tarocchi.i18n import Msg
from tarocchi.match import DealLog
from tarocchi.views import event_to_json, result_to_json

FORMAT = "tarocchi-record"
VERSION = 1
RULES_VERSION = 1
T = TypeVar("T")  # the kind of a record's field


class ActionJson(TypedDict):
    """One action of a record: its seat and its text code (`stand_in`: the AI made it for an
    absent human at a friends' table, see `at_table`)."""

    seat: int
    action: str
    stand_in: NotRequired[bool]


class RecordError(ValueError):
    """A record that is malformed or does not replay to what it claims."""


def now() -> str:
    """Return the current UTC time as ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def make_record(
    log: DealLog, started_at: str | None = None, finished_at: str | None = None
) -> dict[str, Any]:
    """Return the record of a finished deal (its times now unless given: a stored deal's
    record is the same at every reading)."""
    rules = log.rules
    codes = rules.pack.codes
    final = log.final
    if final is None or not rules.is_over(final):
        raise ValueError("the deal is not over")
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": rules.name,
        "rules_version": RULES_VERSION,
        "seed": log.seed,
        "dealer": log.initial.dealer,
        "hands": [[codes[c] for c in bits(h)] for h in rules.dealt_hands(log.initial)],
        **rules.deal_fields(log.initial),
        "players": [
            {"seat": s, "kind": "human" if name == "human" else "bot", "name": name}
            for s, name in enumerate(log.players)
        ],
        "actions": [{"seat": s, "action": rules.action_code(a)} for s, a in log.actions],
        "winners": list(final.winners),
        "tricks": [
            {"plays": [{"seat": s, "card": codes[c]} for s, c in trick], "winner": w}
            for trick, w in zip(rules.finished_tricks(final), final.winners, strict=True)
        ],
        "events": [event_to_json(rules.pack, e) for e in rules.public_events(final)],
        "result": result_to_json(rules, log.result),
        "started_at": started_at or now(),
        "finished_at": finished_at or now(),
    }
    return record


def at_table(record: dict[str, Any], humans: Collection[int], stand_ins: Iterable[int]
             ) -> dict[str, Any]:  # fmt: skip
    """Return a record of a friends' table: the seats friends held are players of kind
    "human", and each decision the AI made for an absent human (by index in the actions) is
    marked `"stand_in": true` (the table's AI level made it)."""
    for player in record["players"]:
        if player["seat"] in humans:
            player.update(kind="human", name="human")
    for i in stand_ins:
        record["actions"][i]["stand_in"] = True
    return record


def save(record: dict[str, Any], path: Path) -> None:
    """Write a record as pretty JSON."""
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def load(path: Path) -> dict[str, object]:
    """Read a record file (RecordError if it is not JSON)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RecordError(f"cannot read {path}: {e}") from None
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    return data


def _field(record: Mapping[str, object], key: str, kind: type[T]) -> T:
    value = record.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RecordError(Msg("the record's '%(key)s' is missing or malformed", key=key))
    return value


def replay(record: Mapping[str, object]) -> tuple[Rules, GameState]:
    """Re-play a record through the rules; return (rules, final state) or raise RecordError."""
    rules, states, _ = replay_states(record)
    return rules, states[-1]


def replay_states(
    record: Mapping[str, object],
) -> tuple[Rules, tuple[GameState, ...], tuple[int, ...]]:
    """Re-play a record through the rules; return the rules, the states (before each action,
    then the end) and the actions, or raise RecordError naming the first thing that is wrong."""
    rules, state = _dealt(record)
    log = [_entry(i, e) for i, e in enumerate(_field(record, "actions", list), start=1)]
    states, actions = [state], []
    try:
        for _, action, after in iter_replay(rules, state, log):
            states.append(after)
            actions.append(action)
    except ReplayError as e:
        raise RecordError(*e.args) from None
    final = states[-1]
    if not rules.is_over(final):
        raise RecordError(Msg("the record stops after %(n)d actions, before the deal ends",
                              n=len(log)))  # fmt: skip
    want = record.get("result")
    got = result_to_json(rules, rules.result(final))
    if not isinstance(want, dict):
        raise RecordError(Msg("the record has no result"))
    for key in ("ns", "ew", "winner", "ns_resti", "ew_resti"):
        if key in got and want.get(key) != got[key]:
            claim = f"{key}={want.get(key)!r}"
            raise RecordError(Msg("the stored result has %(claim)s but replay gives %(got)s",
                                  claim=claim, got=repr(got[key])))  # fmt: skip
    if "winners" in record and record["winners"] != list(final.winners):
        raise RecordError(Msg("the stored trick winners do not match the replay"))
    return rules, tuple(states), tuple(actions)


def _dealt(record: Mapping[str, object]) -> tuple[Rules, GameState]:
    """Return a record's rules and its deal, checked against what the record says was dealt."""
    if record.get("format") != FORMAT:
        raise RecordError(Msg("not a tarocchi record (format must be '%(format)s')", format=FORMAT))
    if record.get("version") != VERSION:
        raise RecordError(Msg("unsupported record version %(version)s",
                              version=repr(record.get("version"))))  # fmt: skip
    name = _field(record, "game", str)
    if name not in GAMES:
        raise RecordError(Msg("unknown game '%(game)s'", game=name))
    rules = game(name)
    state = rules.deal(_field(record, "seed", int))
    if record.get("dealer") != state.dealer:
        raise RecordError(Msg("the dealer does not match the seed (the seed deals %(dealer)d)",
                              dealer=state.dealer))  # fmt: skip
    hands = _field(record, "hands", list)
    dealt = [rules.pack.codes_of(h) for h in rules.dealt_hands(state)]
    try:
        stored = [sorted(rules.pack.card_id(str(c)) for c in h) for h in hands]
    except (TypeError, ValueError) as e:
        raise RecordError(
            Msg("the record's hands are malformed: %(reason)s", reason=str(e))
        ) from None
    if stored != [sorted(rules.pack.card_id(c) for c in h) for h in dealt]:
        raise RecordError(Msg("the hands do not match the seed"))
    for key, value in rules.deal_fields(state).items():
        if record.get(key) != json.loads(json.dumps(value)):
            raise RecordError(Msg("the record's '%(key)s' does not match the seed", key=key))
    return rules, state


def _entry(n: int, entry: object) -> tuple[int, str]:
    """Return the record's n-th action as (seat, code), or raise RecordError if malformed."""
    if not isinstance(entry, dict):
        raise RecordError(Msg("action %(n)d is malformed: %(entry)s", n=n, entry=repr(entry)))
    seat, code = entry.get("seat"), entry.get("action")
    if not isinstance(code, str) or not isinstance(seat, int) or isinstance(seat, bool):
        raise RecordError(Msg("action %(n)d is malformed: %(entry)s", n=n, entry=repr(entry)))
    return seat, code
