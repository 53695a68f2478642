"""Learn to play: one guided deal per game, its lesson's words and when each is said.

A lesson is a real deal (a fixed seed, the AI at a level that always plays alike) through the
real rules and API; this module only explains it. Each step is a test of South's view and
what the page says when it holds, with the cards it talks about (always cards South can see:
its hand, the trick, the last trick, cards shown face up). The page (`/learn/<game>`,
static/learn.js) asks `GET /api/games/{id}/lesson` at each view and says each step the first
time it holds; the texts are here only, in every language through the catalogs. A few
tricks in, `POST /api/games/{id}/lesson/finish` plays the rest of the guided deal (and only
that deal) for South, so that a lesson takes minutes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from tarocchi.bots import LEVELS, make_bot
from tarocchi.cards import SUIT_NAMES_EN, TRUMPS, bits
from tarocchi.games import game
from tarocchi.games.base import View, led_suit
from tarocchi.i18n import SEATS, Msg, translator
from tarocchi.match import turn_seed
from tarocchi.web.api import Auth, GameId
from tarocchi.web.errors import Conflict
from tarocchi.web.jobs import HUMAN
from tarocchi.web.lang import language
from tarocchi.web.models import MAX_VERSION, Action, Moved, errors_for
from tarocchi.web.models import Lesson as LessonModel
from tarocchi.web.players import client_of
from tarocchi.web.service import Games, Live, Told, view_json

# what a step says when it holds: its text and the cards it marks (a mask), or None
Says = Callable[[View], tuple[Msg, int] | None]
LEVEL = "easy"  # the AI of a lesson: quick, and it plays the same cards for the same choices


@dataclass(frozen=True, slots=True)
class Step:
    """One thing a lesson explains: its name and what it says when it applies."""

    key: str
    says: Says
    again: bool = False  # said again at each decision it explains, once read (the page)


@dataclass(frozen=True, slots=True)
class Lesson:
    """A game's guided deal: its seed (South neither deals nor cuts) and its steps, in the
    order the page says them when several hold at once."""

    game: str
    seed: int
    steps: tuple[Step, ...]


# -- what a view shows ---------------------------------------------------------------------------


def is_my_turn(v: View) -> bool:
    """Return whether the view's seat is to act."""
    return v.to_move == v.seat and v.result is None


def is_playing(v: View) -> bool:
    """Return whether the view's seat is to play a card to a trick."""
    return is_my_turn(v) and v.phase == "play"


def led(v: View) -> int | None:
    """Return the suit led to the current trick (None: no trick, or only the Matto)."""
    return led_suit(v.trick, v.rules.pack.suit_of)


def suit_name(suit: int) -> str:
    """Return a suit's English name, translated where it is shown."""
    return SUIT_NAMES_EN[suit]


def legal_cards(v: View) -> int:
    """Return the mask of the cards the seat may play now."""
    return sum(1 << a for a in v.legal if a < v.rules.pack.size)


def decision_cards(v: View) -> int:
    """Return the cards the seat's non-card choices (declarations) would show."""
    rules = v.rules
    m = 0
    for a in v.legal:
        if a >= rules.pack.size:
            m |= rules.action_detail(v.hand, a).cards
    return m


def first_decision(says: Callable[[View], Msg], marks: Callable[[View], int]) -> Says:
    """Return a step that holds at the seat's every decision (the page says it once)."""
    return lambda v: (says(v), marks(v)) if is_my_turn(v) else None


def trumps_in_hand(v: View) -> int:
    """Return the trumps the seat holds."""
    return v.hand & v.rules.pack.trump_mask


def valuable(least: int) -> Callable[[View], int]:
    """Return the seat's cards worth more than least points."""

    def marks(v: View) -> int:
        points = v.rules.pack.points
        return sum(1 << c for c in bits(v.hand) if points[c] > least)

    return marks


# -- trick play, common to the three games (rules: follow, else trump, else any card) -----------


def lead(v: View) -> tuple[Msg, int] | None:
    """Explain a lead."""
    if not is_playing(v) or v.trick:
        return None
    return Msg("You lead this trick: play any card you like. The others must follow its suit "
               "if they can."), 0  # fmt: skip


def follow(v: View) -> tuple[Msg, int] | None:
    """Explain following suit (the choice among the suit's cards is free)."""
    suit = led(v)
    if not is_playing(v) or suit is None or len(v.legal) < 2:
        return None
    cards = v.hand & v.rules.pack.suit_mask[suit]
    if not cards:
        return None
    return Msg("This trick's suit is %(suit)s: you must follow suit with one of the cards "
               "marked. Which one is your choice; you never have to beat the cards already "
               "played.", suit=suit_name(suit)), cards  # fmt: skip


def trump(v: View) -> tuple[Msg, int] | None:
    """Explain trumping: the led suit is missing, so a trump (any) must be played."""
    suit = led(v)
    if not is_playing(v) or suit is None or suit == TRUMPS or len(v.legal) < 2:
        return None
    pack = v.rules.pack
    if v.hand & pack.suit_mask[suit] or not v.hand & pack.trump_mask:
        return None
    return Msg("You have no %(suit)s, so you must play a trump (marked): any trump will do, "
               "even a low one. The highest trump in a trick wins it.",
               suit=suit_name(suit)), v.hand & pack.trump_mask  # fmt: skip


def free(v: View) -> tuple[Msg, int] | None:
    """Explain a free discard: neither the led suit nor a trump."""
    suit = led(v)
    if not is_playing(v) or suit is None or len(v.legal) < 2:
        return None
    pack = v.rules.pack
    if v.hand & (pack.suit_mask[suit] | pack.trump_mask):
        return None
    return Msg("You have neither %(suit)s nor a trump: play any card. It cannot win this "
               "trick, so keep your valuable cards unless your partner is winning it.",
               suit=suit_name(suit)), 0  # fmt: skip


def forced(v: View) -> tuple[Msg, int] | None:
    """Explain a forced card: the rules leave one card."""
    if not is_playing(v) or len(v.legal) != 1 or not v.trick:
        return None
    card = v.legal[0]
    return Msg("No choice this time: %(card)s is the only card the rules let you play here. "
               "Click a greyed card to read why it may not be played.",
               card=v.rules.pack.cards[card]), 1 << card  # fmt: skip


def matto(note: Msg) -> Says:
    """Return the step explaining the Matto in the seat's hand, with the game's own note."""

    def says(v: View) -> tuple[Msg, int] | None:
        bit = v.rules.pack.matto_bit
        if not is_playing(v) or not v.hand & bit or not legal_cards(v) & bit:
            return None
        return Msg("The Matto (marked) may be played at any time instead of following suit. "
                   "It never wins a trick: %(note)s", note=note), bit  # fmt: skip

    return says


def trick_won(v: View) -> tuple[Msg, int] | None:
    """Explain who takes a trick, after the first one (its winning card is marked)."""
    if not is_my_turn(v) or not v.tricks:
        return None
    winner = v.winners[-1]
    card = next(c for s, c in v.tricks[-1] if s == winner)
    return Msg("%(seat)s took the last trick with %(card)s: the highest trump played wins, or "
               "without a trump the highest card of the suit led. The winner leads the next "
               "trick; the last trick stays in view at the top.",
               seat=SEATS[winner], card=v.rules.pack.cards[card]), 1 << card  # fmt: skip


def over(says: Msg) -> Says:
    """Return the step that explains the count at the end of the deal."""
    return lambda v: (says, 0) if v.result is not None else None


PLAY = tuple(Step(f.__name__, f, again=True) for f in (lead, forced, follow, trump, free))


# -- the games' own steps ------------------------------------------------------------------------


def announced(v: View) -> tuple[Msg, int] | None:
    """Explain Piedicavallo's discard and its announcement (rules §2)."""
    if not is_my_turn(v) or not any(e.kind == "announce" for e in v.events):
        return None
    return Msg("%(seat)s dealt and took 17 cards, laid 2 aside face down (never a King, trump "
               "1, trump 21 or the Matto) and announced how many trumps were among them. Those "
               "2 cards count for the dealer's team.",
               seat=SEATS[v.dealer]), 0  # fmt: skip


def declaring(v: View) -> tuple[Msg, int] | None:
    """Explain Ottocento's declaration (rules §3): all or nothing, before the first card."""
    if not is_my_turn(v) or v.phase != "declare":
        return None
    shown = decision_cards(v)
    if not shown:
        return Msg("Before your first card you may declare your combinations. You hold none, "
                   "so pass."), 0  # fmt: skip
    return Msg(
        "Before your first card you declare your combinations or pass: here the marked "
        "cards. Declaring scores them now (and again at the end if your team's pile "
        "holds them) but shows those cards to everyone. It is all or nothing."
    ), shown


def versicole(v: View) -> tuple[Msg, int] | None:
    """Explain Minchiate's versicole (rules §3), declared before the first lead."""
    if not is_my_turn(v) or v.phase != "declare":
        return None
    return Msg("Before the first lead you may declare your versicole: three or more trumps in "
               "a row within 1-5 or 28-40, the Tens, three or four Kings and a few more. Each "
               "button says what it scores, now and again at the end if your pile holds its "
               "cards. The marked cards would be shown."), decision_cards(v)  # fmt: skip


def fola(v: View) -> tuple[Msg, int] | None:
    """Explain Minchiate's deal: the cards face up and the Fola (rules §2)."""
    if not is_my_turn(v) or not any(e.kind == "fola" for e in v.events):
        return None
    return (Msg("Each player got 21 cards, the last one face up: a counting card so shown scores "
               "at once. The cards left over are the Fola: the dealer robs it of its valuable "
               "cards and lays aside as many worthless ones. Cards face up beside a seat are "
               "known to all; the Fola is shown before the first lead and belongs to nobody."),
            v.shown[v.seat] & v.hand)  # fmt: skip


def king_rule(v: View) -> tuple[Msg, int] | None:
    """Explain Minchiate's King rule (rules §4) on the first trick led in a suit, once a
    trump is in it."""
    suit = led(v)
    pack = v.rules.pack
    if not is_playing(v) or suit is None or suit == TRUMPS:
        return None
    if not any(pack.suit_of[c] == TRUMPS for _, c in v.trick):
        return None
    if any(led_suit(t, pack.suit_of) == suit for t in v.tricks):
        return None
    king = v.hand & pack.suit_mask[suit] & pack.king_mask
    return Msg("The King rule: this is the first trick led in %(suit)s and a trump is in it, so "
               "whoever holds the King of %(suit)s must play it now, and not even the Matto may "
               "take its place.", suit=suit_name(suit)), king  # fmt: skip


def resti(v: View) -> tuple[Msg, int] | None:
    """Explain Minchiate's running score and resti (rules §5) once something has scored."""
    if not is_my_turn(v) or not any(e.kind == "score" for e in v.events):
        return None
    return Msg("Points score as they happen in Minchiate: cards dealt face up or robbed, "
               "versicole, and every counting card an opponent plays into a trick your team "
               "wins. Each time a team leads by 60 points it makes a resto, and the lead starts "
               "again from nothing. The team with more resti at the end wins."), 0  # fmt: skip


# -- the three lessons ----------------------------------------------------------------------------


def lesson(
    game: str,
    seed: int,
    pack: Msg,
    points: Msg,
    valued: int,
    own: tuple[Step, ...],
    matto_note: Msg,
    end: Msg,
) -> Lesson:
    """Return a game's lesson: the pack and the points at the first decision (the cards worth
    more than `valued` marked), the game's own steps, the Matto, the trick play, each trick
    won and the count at the end."""
    return Lesson(game, seed, (
        Step("pack", first_decision(lambda v: pack, trumps_in_hand)),
        Step("points", first_decision(lambda v: points, valuable(valued))),
        *own,
        Step("matto", matto(matto_note)),
        *PLAY,
        Step("won", trick_won),
        Step("end", again=True, says=over(end)),
    ))  # fmt: skip


PIEDICAVALLO = lesson(
    "piedicavallo", 4,
    pack=Msg(
        "Piedicavallo is played with the Tarocco Piemontese: four suits (Swords, Batons, Cups, "
        "Coins), 21 trumps and the Matto, 62 cards. The trumps, marked in your hand, beat every "
        "suit card."),
    points=Msg(
        "Kings, trumps 1 and 21 and the Matto are worth 5 points, Queens 4, Knights 3, Jacks 2 "
        "and every other card 1: 114 in all. Your team wins with 58. Your cards worth more "
        "than 1 are marked."),
    valued=1,
    own=(Step("announce", announced),),
    matto_note=Msg("it goes back to your team's pile, with its 5 points."),
    end=Msg(
        "The deal is over. Each team counts the points of the cards it took, the dealer's team "
        "with the 2 cards laid aside; a team that took no trick gives everything to the other. "
        "The result shows the count."),
)  # fmt: skip

OTTOCENTO = lesson(
    "ottocento", 18,
    pack=Msg(
        "Ottocento is played with the Tarocchino Bolognese: four suits, 21 trumps (from the "
        "Angel down to the four equal Moors and the Bégato) and the Matto, 62 cards. The "
        "trumps, marked in your hand, beat every suit card."),
    points=Msg(
        "The Angel, the World, the Bégato, the Matto and Kings are worth 5, Queens 4, Knights "
        "3, Jacks 2, the rest 1, counted in pairs (each pair of cards its values less one). "
        "Combinations and the last trick (6) add more. Your most valuable cards are marked."),
    valued=1,
    own=(Step("declare", declaring, again=True),),
    matto_note=Msg("it goes back to your team's pile, and if the opponents won its trick "
                   "your team gives them a card for it at the end."),
    end=Msg(
        "The deal is over. Each team counts its cards in pairs, the combinations its pile "
        "holds (sets and sequences, as declared), 6 for the last trick and its declarations. "
        "The result shows the count."),
)  # fmt: skip

MINCHIATE = lesson(
    "minchiate", 295,
    pack=Msg(
        "Minchiate is played with the Florentine pack of 97 cards: four suits, 40 trumps and "
        "the Matto. The trumps, marked in your hand, beat every suit card."),
    points=Msg(
        "Trumps 36-40 are worth 10; Kings, the Matto and trumps 1, 10, 13, 20, 28 and 30-35 "
        "5; trumps 2-5 3; the rest nothing. The cards that count are marked in your hand."),
    valued=0,
    own=(
        Step("fola", fola),
        Step("resti", resti),
        Step("versicole", versicole, again=True),
        Step("king", king_rule, again=True),
    ),
    matto_note=Msg("it goes back to your team's pile, and if the opponents won its trick "
                   "your team gives them a card for it at the end."),
    end=Msg(
        "The deal is over. Each pile counts its card points, its versicole, one point per card "
        "beyond 42 and 10 for the last trick; the remaining lead gives the last resti, and the "
        "team with more resti wins."),
)  # fmt: skip

LESSONS = {each.game: each for each in (PIEDICAVALLO, OTTOCENTO, MINCHIATE)}


def steps(v: View) -> list[tuple[Step, Msg, int]]:
    """Return the steps of the view's game that hold now, each with its text and the cards
    it marks."""
    out = []
    for step in LESSONS[v.game].steps:
        said = step.says(v)
        if said is not None:
            out.append((step, *said))
    return out


def make_router(games: Callable[[Request], Games]) -> APIRouter:
    """Return the lesson's route, reading the game service from the request's app."""
    router = APIRouter(prefix="/api")

    @router.get("/games/{game_id}/lesson", response_model=LessonModel,
                responses=errors_for(401, 403, 404, 409, 422))  # fmt: skip
    async def get_lesson(game_id: GameId, request: Request, auth: Auth) -> JSONResponse:
        """Return what the guided deal explains now, from your view: each step that holds,
        its text and the codes of the cards it talks about."""
        live = await games(request).load(game_id, auth)
        tr = translator(language(request))
        codes = live.view.rules.pack.codes
        found: list[dict[str, object]] = [
            {
                "key": step.key,
                "text": tr.text(text),
                "cards": [codes[c] for c in bits(mask)],
                "again": step.again,
            }
            for step, text, mask in steps(live.view)
        ]
        return JSONResponse({"version": live.row.version, "steps": found})

    @router.post("/games/{game_id}/lesson/finish", response_model=Moved,
                 responses=errors_for(400, 401, 403, 404, 409, 413, 422, 429, 503))  # fmt: skip
    async def finish_lesson(game_id: GameId, body: Finished, request: Request, auth: Auth
                            ) -> JSONResponse:  # fmt: skip
        """Play the rest of the guided deal for you (its lesson said, the deal need not take
        long): your cards as the lesson's AI would play them, then the others', to the end."""
        service = games(request)
        tr = translator(language(request))
        live = await service.load(game_id, auth, body.version)
        lesson = LESSONS[live.row.game]
        if live.row.seed != lesson.seed or live.row.level != LEVEL:
            raise Conflict(Msg("only the guided deal can be finished for you"))
        events: list[Told] = []
        version = body.version  # the first action answers it (a stale one is refused)
        while live.state.to_move == HUMAN:
            code = await asyncio.to_thread(south_choice, live)
            action = Action(action=code, version=version)
            live, told = await service.act(live, action, client_of(request), tr)
            events += told
            version = live.row.version
        data = {"version": live.row.version, "events": events, "view": view_json(live, tr)}
        return JSONResponse(data)

    return router


class Finished(BaseModel):
    """The body of POST /api/games/{id}/lesson/finish: the version it answers."""

    version: int = Field(ge=0, le=MAX_VERSION)


def south_choice(live: Live) -> str:
    """Return South's action as the lesson's AI chooses it from South's view (seeded as the
    server seeds its bots: the deal, the seat, the log's length)."""
    rules = game(live.row.game)
    bot = make_bot(LEVELS[LEVEL], rules, turn_seed(live.row.seed, HUMAN, len(live.row.actions)))
    return rules.action_code(bot.choose(live.view))
