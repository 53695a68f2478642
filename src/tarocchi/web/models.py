"""The API's request and response bodies, as pydantic models: what the OpenAPI document says.

Requests are strict (`version` is a whole number, not "5", 5.5 or true; 5.0 is the number 5,
as JSON Schema's "integer" counts it) and bounded (every string has a length limit, names
are enumerations, actions match the codes the games know). Responses are documented
loosely enough that a view or a record may gain fields (extra keys are allowed) and
precisely for what clients rely on.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
)
from pydantic.json_schema import WithJsonSchema
from pydantic_core import PydanticCustomError

from tarocchi.bots import LEVELS
from tarocchi.games import GAMES, game
from tarocchi.progress import Line

MAX_SEED = 2**64 - 1  # 64 bits (and the largest integer a 64-bit JSON reader keeps exact)
MAX_VERSION = 10_000  # far above any deal's number of actions (Minchiate's is about 110)


def _action_codes() -> list[str]:
    """Return every action code of every game (card codes, declarations, passes)."""
    codes: set[str] = set()
    for name in GAMES:
        rules = game(name)
        codes.update(rules.pack.codes, rules.extra_actions)
    return sorted(codes)


ACTION_PATTERN = "^(?:" + "|".join(re.escape(c) for c in _action_codes()) + ")$"


def _one_of(names: list[str]) -> AfterValidator:
    """Accept only one of names (a pydantic `enum` error otherwise)."""

    def check(value: str) -> str:
        if value not in names:
            raise PydanticCustomError("enum", "must be one of {expected}", {"expected": names})
        return value

    return AfterValidator(check)


# the registry's names, documented as enumerations (the registry stays their one source)
GAME_NAMES = sorted(GAMES)
LEVEL_NAMES = list(LEVELS)
GameName = Annotated[
    str,
    StringConstraints(max_length=32),
    _one_of(GAME_NAMES),
    WithJsonSchema({"type": "string", "enum": GAME_NAMES}),
]
LevelName = Annotated[
    str,
    StringConstraints(max_length=32),
    _one_of(LEVEL_NAMES),
    WithJsonSchema({"type": "string", "enum": LEVEL_NAMES}),
]


class Strict(BaseModel):
    """A request body: strict types, no unknown fields; a JSON number with no fraction (5.0)
    is the integer it is, as JSON Schema's "integer" counts it (the strict check still
    refuses "5", 5.5 and true)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def whole(cls, value: object) -> object:
        """Take an integral float for the integer it is."""
        return int(value) if isinstance(value, float) and value.is_integer() else value


class NewGame(Strict):
    """The body of POST /api/games. Without a seed the server draws one nobody can guess;
    with one (practice, the same deal again) the deal's record says it was chosen."""

    game: GameName
    level: LevelName | None = None
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)


class Action(Strict):
    """The body of POST /api/games/{id}/actions: an action code and the version it answers."""

    action: str = Field(max_length=16, pattern=ACTION_PATTERN)
    version: int = Field(ge=0, le=MAX_VERSION)


class Practice(Strict):
    """The body of POST /api/games/{id}/practice: which of your decisions to play again
    (0: your first), counted in the finished deal's log."""

    decision: int = Field(ge=0, le=MAX_VERSION)


class Secret(Strict):
    """The body of POST /api/games/{id}/seats/{seat}: the invitation's secret."""

    secret: str = Field(min_length=1, max_length=64)


class Invitation(BaseModel):
    """A seat opened to a friend: the invitation's secret, shown this once."""

    seat: int
    secret: str


class SeatTaken(BaseModel):
    """A seat taken with its invitation: the holder's token for the live connection."""

    seat: int
    token: str


class SeatState(BaseModel):
    """A seat opened to a friend, and whether someone has taken it."""

    seat: int
    taken: bool


class Seats(BaseModel):
    """The seats of a deal opened to friends."""

    seats: list[SeatState]


class Hello(Strict):
    """A live connection's first message: the seat's token (the game's, or a seat's taken
    with an invitation) and the last version the client saw (none: a whole view)."""

    type: Literal["hello"]
    token: str = Field(min_length=1, max_length=128)
    since: int | None = Field(default=None, ge=0, le=MAX_VERSION)


class Act(Strict):
    """A seat's action on its live connection, with an id of the client's (a repeated id
    gets the first answer) and the version it answers."""

    type: Literal["act"]
    id: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.~-]+$")
    action: str = Field(max_length=16, pattern=ACTION_PATTERN)
    version: int = Field(ge=0, le=MAX_VERSION)


class Ping(Strict):
    """A live connection's keep-alive: the seat's page is open."""

    type: Literal["ping"]


class Handover(Strict):
    """A seat's wish on its live connection: the AI plays its turns for it from now (ai
    true), or it takes its seat back from its next turn (ai false)."""

    type: Literal["hand"]
    ai: bool


class Agree(Strict):
    """A seated human's wish once the deal is over, on its live connection: the same deal
    again, or a new one (the next starts when every seated human wishes the same)."""

    type: Literal["agree"]
    kind: Literal["same", "new"]


class Watched(BaseModel):
    """A table of four AI players, to watch: its id and its page."""

    id: str
    link: str = Field(description="the page that shows the table as it is played")


class TableSettings(Strict):
    """The options of your table that you, its creator, choose: whether its seats may ask
    for hints (by default only while you are its one human)."""

    hints: bool


class Open(BaseModel):
    """A response part that may gain fields."""

    model_config = ConfigDict(extra="allow")


class Problem(BaseModel):
    """An error: why, in the reader's language."""

    detail: str


class FieldError(BaseModel):
    """One wrong field of a malformed request."""

    loc: list[str | int]
    type: str
    msg: str
    input: str = Field(description="a short excerpt of the value sent (at most 40 characters)")


class Malformed(Problem):
    """A malformed request (422): which fields are wrong, and pydantic's list for programs."""

    errors: list[FieldError] = Field(max_length=10, description="the first 10 wrong fields")


class Play(Open):
    seat: int
    card: str


class Trick(Open):
    plays: list[Play]
    winner: int


class Event(Open):
    kind: str
    seat: int | None
    cards: list[str]
    text: str


class ResultLine(Open):
    label: str
    ns: int | float | None
    ew: int | float | None
    note: str


class Result(Open):
    ns: int | float
    ew: int | float
    winner: Literal["NS", "EW", "draw"]
    lines: list[ResultLine]
    headline: str | None = Field(default=None, description="the result in a sentence (views)")


class Change(Open):
    """One thing South saw happen: a public event, a card played or laid aside, a trick won
    (each with a sentence in the reader's language, `text`)."""

    type: Literal["event", "play", "trick", "aside"]
    seat: int | None = None


class ActionDetail(Open):
    """What an action that is not a card does: a sentence, its cards, its points."""

    code: str
    label: str
    cards: list[str]
    points: int | float | None


class ScorePart(Open):
    label: str
    NS: int | float
    EW: int | float
    note: str


class Score(Open):
    """The running score, counted as the end counts on the cards taken so far: each team's
    total, its unit, how it is counted and its parts (the result's breakdown at the end)."""

    NS: int | float
    EW: int | float
    unit: str
    how: str
    parts: list[ScorePart]


class View(Open):
    """What South may see: its hand, the table, the legal actions (and, for the cards it may
    not play, why); the seed only once the deal is over."""

    game: str
    seat: int
    phase: str
    dealer: int
    to_move: int | None
    hand: list[str]
    legal: list[str]
    hand_sizes: list[int]
    trick: list[Play]
    tricks: list[Trick]
    events: list[Event]
    over: bool
    illegal: dict[str, str]
    to_lay_aside: int = Field(
        0, description="at South's turn to discard: the cards it must still lay aside"
    )
    level: str
    title: str
    action_details: list[ActionDetail]
    score: Score
    result: Result | None = None
    seed: int | None = None


class Reloaded(View):
    """South's view with the deal's history as South saw it, in play order (what a reloaded
    page shows in its log): the entries an action's answer gives in its events."""

    history: list[Change]


class Step(Open):
    """One action (South's own is named; an AI's is told only by what changed)."""

    seat: int
    changes: list[Change]
    action: str | None = None


class GameState(BaseModel):
    version: int
    view: Reloaded


class Moved(BaseModel):
    version: int
    view: View
    events: list[Step]


class Created(Moved):
    id: str
    token: str = Field(description="the bearer token of this game: keep it, it is shown once")


class Suggestion(BaseModel):
    action: str
    value: float | None = Field(description="the estimated final margin (None: not searched)")
    reason: str


class Hints(BaseModel):
    version: int
    suggestions: list[Suggestion]


class LessonStep(BaseModel):
    key: str = Field(description="which step of the guided deal (pack, follow, trump...)")
    text: str
    cards: list[str] = Field(description="the codes of the cards it talks about")
    again: bool = Field(description="said again at each decision it explains, once read")


class Lesson(BaseModel):
    version: int
    steps: list[LessonStep]


class Record(Open):
    """A deal record (the format of `tarocchi replay`)."""

    format: Literal["tarocchi-record"]
    version: int
    game: str
    seed: int
    seed_chosen: bool
    dealer: int
    hands: list[list[str]]
    # each {"seat", "action"}; at a friends' table, "stand_in": true marks a decision the AI
    # made for an absent human
    actions: list[dict[str, int | str | bool]]
    result: Result


class FirstDifference(BaseModel):
    """The first decision where the AI in your seat chose otherwise than you."""

    index: int = Field(description="the action's place in the deal's log")
    trick: int = Field(description="its trick (0: before the first trick)")
    ai: str = Field(description="the AI's action")
    yours: str = Field(description="your action")
    ai_words: str | None = Field(
        default=None, description="the AI's action in words, as its button says (None: a card)"
    )
    yours_words: str | None = Field(
        default=None, description="your action in words, as its button says (None: a card)"
    )


class AiDeal(BaseModel):
    """The AI's own deal on your cards, for the replay: its record, and its history as your
    seat saw it."""

    record: Record
    history: list[Change]


class AiOnYourCards(BaseModel):
    """The AI of the table's level in your seat on the same cards, the others unchanged."""

    level: str
    margin: float = Field(description="its team's final margin")
    yours: float = Field(description="your team's final margin")
    diverged: int | None = Field(
        description="the first action where its play left yours (None: it played the same)"
    )
    first: FirstDifference | None = Field(
        default=None, description="where it first chose otherwise (None: it never did)"
    )


class ReviewState(BaseModel):
    """A deal's review: its progress, the decisions valued so far (the review's JSON form,
    as `tarocchi review --json` prints it; graph and key moments partial until done), and
    the AI on your cards, computed after every deal."""

    status: Literal["none", "running", "done", "failed"]
    done: int = Field(description="decisions valued so far")
    total: int | None = Field(description="decisions to value (None until asked for)")
    review: dict[str, Any] | None
    ai: AiOnYourCards | None
    error: str | None = Field(default=None, description="why it failed")


class PackCard(BaseModel):
    code: str
    name: str
    name_en: str
    name_it: str
    suit: int
    points: int | float


class Pack(BaseModel):
    game: str
    title: str
    cards: list[PackCard]


class NewName(Strict):
    """The body of PUT /api/me/name: a display name (null or blank: none)."""

    name: str | None = Field(max_length=40, pattern=r"^[^\x00-\x1f\x7f]*$")


class MoveTo(Strict):
    """The body of POST /api/me/move/redeem: the code another browser showed (its dash and
    case do not matter)."""

    code: str = Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9 -]+$")


class Me(BaseModel):
    """This browser's player."""

    id: str
    name: str | None
    since: str = Field(description="when the player was made (ISO 8601 UTC)")


class Deleted(BaseModel):
    """A player's data deleted."""

    deleted: bool


class MoveCode(BaseModel):
    """A one-time code that brings a player's history to another browser."""

    code: str
    url: str = Field(description="the link that opens the code's page")
    expires_at: str = Field(description="ISO 8601 UTC; the code opens nothing after it")
    qr: str = Field(description="the link as a QR code: an SVG element")


class HistoryDeal(BaseModel):
    """A deal of your history."""

    id: str
    game: str
    level: str
    finished_at: str = Field(description="when it ended, or was left (ISO 8601 UTC)")
    result: Literal["win", "draw", "loss", "left"]
    margin: float | None = Field(description="your team's total minus theirs (null: left)")
    ai_margin: float | None = Field(description="the AI's margin in your seat, once played")
    accuracy: float | None = Field(description="your review's accuracy, 0 to 1, once done")
    url: str = Field(description="the page that replays it, with its review")


class History(BaseModel):
    """A page of your history, newest first."""

    total: int
    page: int
    pages: int
    deals: list[HistoryDeal]


class Stats(BaseModel):
    """Your statistics per game and level (`margin`: your team's margin, `over_ai`: your
    margin minus the AI's in your seat, each a mean over n deals with its 95% interval)."""

    lines: list[Line]


class Health(BaseModel):
    status: Literal["ok"]


class Readiness(BaseModel):
    """Whether the server can play: its database answers, and its AI pool runs a job."""

    ready: bool
    database: bool
    ai: bool


def exact_bounds(spec: dict[str, Any]) -> dict[str, Any]:
    """Put back the request bodies' integer bounds that FastAPI's OpenAPI model holds as
    floats (2^64 - 1 becomes 2^64, and a generator then offers 2^64 + 382 as a valid seed);
    return the document, changed in place."""
    documented = spec["components"]["schemas"]
    for model in Strict.__subclasses__():  # every request body a route takes
        exact = model.model_json_schema()["properties"]
        for name, prop in documented.get(model.__name__, {}).get("properties", {}).items():
            theirs_all = exact[name].get("anyOf", [exact[name]])
            for mine, theirs in zip(prop.get("anyOf", [prop]), theirs_all, strict=True):
                mine.update({k: theirs[k] for k in ("minimum", "maximum") if k in theirs})
    return spec


def errors_for(*codes: int) -> dict[int | str, dict[str, object]]:
    """Return the OpenAPI `responses` entry of a route's error statuses."""
    out: dict[int | str, dict[str, object]] = {}
    for code in codes:
        model = Malformed if code == 422 else Problem
        out[code] = {"model": model, "description": STATUS[code]}
    return out


STATUS = {
    400: "The body could not be read (not UTF-8 JSON text)",
    401: "No bearer token, or a malformed one (under /api/me: this browser has no player)",
    403: "The token does not open this game",
    404: "No such game (for a move code: no such code, or it has expired)",
    409: "Not allowed now (stale version, not your turn, an illegal action, the deal is over)",
    413: "The body is larger than 16 KB",
    422: "Malformed request",
    429: "Too many requests from this client (see Retry-After)",
    431: "More than 100 request headers (over 16 KB of them: before the app, same body)",
    503: "The AI or the games' database is unavailable for a moment (see Retry-After)",
}


class Verification(BaseModel):
    """What checking a record of a day's deal found: whether it holds, and in words why."""

    ok: bool = Field(description="the record is that day's deal, replays to its result and "
                     "every AI action in it follows from the deal and the play")  # fmt: skip
    ai_actions: int | None = Field(description="the AI actions checked (None: it fails)")
    text: str = Field(description="what was found, or the first thing that does not hold")


class DailyDay(BaseModel):
    """A game's deal of the day: its commitment, published before the day, and its seed
    once the day (UTC) is over."""

    game: str
    date: str
    commitment: str = Field(description="SHA-256 (hex) of a text naming the game, date and seed")
    seed: int | None = Field(description="the revealed seed; None until the day is over")


class DailyIndex(BaseModel):
    today: str
    days: list[DailyDay] = Field(description="yesterday's (revealed), today's and tomorrow's")


class DailyCreated(Created):
    scored: bool = Field(description="whether this try counts: your day's first (else practice)")


class Bar(BaseModel):
    low: float = Field(description="the bar's margins from low, below low + width")
    count: int
    yours: bool


class FieldChoice(BaseModel):
    action: str
    count: int
    share: float = Field(description="of the scored tries that reached this position")
    value: float | None = Field(description="the review's fair value (None until valued)")


class FieldDecision(BaseModel):
    index: int = Field(description="the action's place in the deal's log")
    made: str
    choices: list[FieldChoice]


class DailyResults(BaseModel):
    """Your scored try at a deal of the day among everyone's, once it is over."""

    game: str
    date: str
    margin: float
    tries: int = Field(description="the scored tries over so far, yours included")
    matchpoints: float = Field(description="one per try you beat, a half per tie")
    percentile: float
    width: float = Field(description="the histogram's bar width")
    bars: list[Bar]
    par: float | None = Field(description="the AI's margin in your seat (None until played)")
    values_pending: bool = Field(description="the review's values of the choices are to follow")
    decisions: list[FieldDecision]


class Standing(BaseModel):
    rank: int
    name: str | None = Field(description="the player's display name; None: anonymous")
    margin: float


class Standings(BaseModel):
    game: str
    date: str
    standings: list[Standing]
