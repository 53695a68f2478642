"""What every game shares: errors, public events, results, and the trick-taking core.

A game is a stateless rules object (a subclass of `TrickGame`) over an immutable
state. States are NamedTuples that carry at least the fields the `GameState`
protocol lists, so the one view function, the match runner and records work
for every game. Chance enters only through the seed given to `deal`, which draws the
deal's chance outcomes (the dealer, the deck order, Minchiate's cut); the adapters
deal from those outcomes one at a time (`chance_outcomes`, `deal_outcomes`).
"""

from __future__ import annotations

import functools
import random
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeAlias, TypeVar, cast

from tarocchi.cards import FOOL, SUIT_NAMES_EN, TRUMPS, Pack, bits, popcount
from tarocchi.i18n import N_, Msg


class IllegalAction(ValueError):
    """An action the rules do not allow here; the message names the rule."""


@dataclass(frozen=True, slots=True)
class Event:
    """A public fact every seat learns (an announcement, a declaration, a robbed card...)."""

    kind: str
    seat: int | None = None
    cards: int = 0  # mask of the cards the event shows
    value: int = 0
    text: str = ""


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of an end-of-deal breakdown."""

    label: str
    ns: float
    ew: float
    note: str = ""


@dataclass(frozen=True, slots=True)
class Result:
    """Final totals per team in the game's own unit, with the breakdown and winner."""

    ns: float
    ew: float
    winner: str  # "NS", "EW" or "draw"
    lines: tuple[ScoreLine, ...]
    piles: tuple[int, int]  # final card masks of NS and EW
    extra: tuple[tuple[str, Any], ...] = field(default=())

    def margin(self, team: int) -> float:
        """Return team's total minus the other team's total (team 0 = NS)."""
        return self.ns - self.ew if team == 0 else self.ew - self.ns


@dataclass(frozen=True, slots=True)
class Tally:
    """The running score as the game counts it, from public facts only: per-team totals
    in the game's unit, how they are counted, and the parts they are made of."""

    ns: float
    ew: float
    unit: str  # "points" or "resti"
    how: str
    parts: tuple[ScoreLine, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionDetail:
    """What an action that is not a card does: a sentence, the cards it involves, what it
    scores (None when it scores nothing itself) and what it declares (a noun phrase)."""

    label: str
    cards: int
    points: int | None
    what: str = ""


def tricks_note(ns: int, ew: int) -> Msg:
    """Return the tricks each team won, for a line of a breakdown (no plural to agree)."""
    return Msg("tricks won: North-South %(ns)d, East-West %(ew)d", ns=ns, ew=ew)


def exact(x: float) -> float:
    """Return x as an int when it is whole (so 4.0 reads "4" and half points stay "4.5")."""
    return int(x) if x == int(x) else x


def winner_of(ns: float, ew: float) -> str:
    """Return the winner label of two totals; equal totals draw."""
    return "NS" if ns > ew else "EW" if ew > ns else "draw"


class GameState(Protocol):
    """The fields every game's state carries (each game adds its own)."""

    GAME: ClassVar[str]

    @property
    def hands(self) -> tuple[int, int, int, int]: ...
    @property
    def dealer(self) -> int: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def leader(self) -> int: ...
    @property
    def trick(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def tricks(self) -> tuple[tuple[tuple[int, int], ...], ...]: ...
    @property
    def piles(self) -> tuple[int, int]: ...


S = TypeVar("S", bound=GameState)  # a game's State


def mover(state: GameState) -> int:
    """Return the seat to move in a deal going on; ValueError once the deal is over."""
    if state.to_move is None:
        raise ValueError("the deal is over: nobody is to move")
    return state.to_move


def led_suit(trick: Sequence[tuple[int, int]], suit_of: Sequence[int]) -> int | None:
    """Return the suit of the first non-Matto card of a trick, or None (rules: a led Matto
    lets the next card set the suit)."""
    for _, card in trick:
        s = suit_of[card]
        if s != FOOL:
            return s
    return None


def led_masks(pack: Pack) -> tuple[int, ...]:
    """Return, per card, the mask of the suit it sets when it is the first card of a trick
    other than the Matto (the Matto: 0)."""
    return tuple(
        0 if c == pack.matto else pack.suit_mask[pack.suit_of[c]] for c in range(pack.size)
    )


def follow_reason(hand: int, led: int | None, card: int, pack: Pack) -> str:
    """Explain why card may not follow (call only when play_mask refuses it)."""
    if not (hand >> card) & 1:
        return Msg("%(card)s is not in your hand", card=pack.cards[card])
    assert led is not None
    if hand & pack.suit_mask[led]:
        if led == TRUMPS:
            return Msg("you must play a trump: trumps were led")
        return Msg("you must follow %(suit)s", suit=SUIT_NAMES_EN[led])
    return Msg("you have no %(suit)s, so you must play a trump", suit=SUIT_NAMES_EN[led])


class TrickCore:
    """A pack's trick rules, written once for every game's `apply`: the cards that may follow
    (`follow`, with the King rule where a game has it), the card that wins (`winning_play`)
    and what each team takes (`take`). The games differ only in data: `kings`, the Kings
    the King rule forces (Minchiate §4; 0: no such rule), and `equal`, trumps of equal rank
    of which the last played wins (Ottocento's Moors, §4; 0: none)."""

    __slots__ = ("equal", "kings", "led", "matto", "matto_bit", "trumps")

    def __init__(self, pack: Pack, kings: int = 0, equal: int = 0) -> None:
        self.led = led_masks(pack)
        self.trumps = pack.trump_mask
        self.matto, self.matto_bit = pack.matto, pack.matto_bit
        self.kings, self.equal = kings, equal

    def suit(self, trick: Sequence[tuple[int, int]]) -> int:
        """Return the mask of the suit a trick follows, 0 while it has none (rules: a led
        Matto lets the next card set the suit)."""
        if not trick:
            return 0
        led = self.led
        return led[trick[0][1]] or (len(trick) > 1 and led[trick[1][1]])

    def follow(self, hand: int, trick: Sequence[tuple[int, int]], led_before: int = 0) -> int:
        """Return the cards of hand that may be played to trick: follow suit, else trump, else
        any card; the Matto always, unless the King rule forces a King alone (Piedicavallo
        §3, Ottocento §4, Minchiate §4). led_before: the suits led in earlier tricks."""
        if not trick:
            return hand
        led = self.led
        suit = led[trick[0][1]] or (len(trick) > 1 and led[trick[1][1]])
        if not suit:
            return hand
        m = hand & suit
        matto_bit = self.matto_bit
        if m:
            if m & self.kings:
                king = self.forced_king(hand, trick, led_before)
                if king:
                    return king
            return m | hand & matto_bit
        m = hand & self.trumps
        return m | hand & matto_bit if m else hand

    def forced_king(self, hand: int, trick: Sequence[tuple[int, int]], led_before: int) -> int:
        """Return the King bit the King rule forces from hand, or 0 (Minchiate §4: a plain
        suit is led for the first time in the deal, a trump is already in the trick, and
        hand holds its King); led_before is the union of the suits led in earlier tricks."""
        suit = self.suit(trick)
        king = hand & suit & self.kings
        if not king or led_before & suit:
            return 0
        for _, c in trick:
            if self.trumps >> c & 1:
                return king
        return 0

    def winning_play(self, trick: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
        """Return the (seat, card) winning a (partial) trick so far, or None while only the
        Matto has been played."""
        real = 0
        for _, c in trick:
            real |= 1 << c
        real &= ~self.matto_bit
        return self._top(trick, real) if real else None

    def _top(self, trick: Sequence[tuple[int, int]], real: int) -> tuple[int, int]:
        """Return the (seat, card) winning a trick whose cards but the Matto are real (not
        empty): the highest trump, else the highest card of the led suit (ids are in strength
        order); of equal cards the last played; the Matto never wins."""
        # with a card besides the Matto, the first or (after a led Matto) the second card
        # sets the suit
        led = self.led
        top = (real & self.trumps or real & (led[trick[0][1]] or led[trick[1][1]])).bit_length()
        equal = self.equal if self.equal >> (top - 1) & 1 else 1 << (top - 1)
        for play in reversed(trick):
            if equal >> play[1] & 1:
                return play
        raise AssertionError("the winning card is in the trick")

    def take(
        self, piles: tuple[int, int], winner: int, trick: Sequence[tuple[int, int]]
    ) -> tuple[int, int]:
        """Return the teams' piles after a trick: the winner's team takes the cards but the
        Matto, which goes to its own player's team (Piedicavallo §3, Ottocento §4,
        Minchiate §4)."""
        return self.close(piles, trick, winner)[1]

    def close(
        self, piles: tuple[int, int], trick: Sequence[tuple[int, int]], winner: int = -1
    ) -> tuple[int, tuple[int, int]]:
        """Return the winner of a complete trick (or the winner given) and the teams' piles
        after it (`take`)."""
        ns, ew = piles
        matto = self.matto
        real = 0
        for seat, c in trick:
            if c == matto:
                if seat & 1:
                    ew |= 1 << c
                else:
                    ns |= 1 << c
            else:
                real |= 1 << c
        if winner < 0:
            winner = self._top(trick, real)[0]
        return winner, ((ns, ew | real) if winner & 1 else (ns | real, ew))


def shuffled_deal(seed: int, size: int) -> tuple[int, list[int]]:
    """Return (dealer, deck order) for a seed: the same on every machine.

    The order sorts the cards by 64-bit keys drawn in one call from Python's
    Mersenne Twister, which is specified bit for bit (and quicker than shuffle)."""
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    keys = struct.unpack(f"<{size}Q", rng.randbytes(8 * size))
    return dealer, sorted(range(size), key=keys.__getitem__)


def hands_by_slots(
    deck: Sequence[int], dealer: int, slots: Sequence[int]
) -> tuple[int, int, int, int]:
    """Return the hands a deck deals when its i-th card goes to seat dealer + slots[i]."""
    hands = [0, 0, 0, 0]
    for card, slot in zip(deck, slots, strict=True):
        hands[(dealer + slot) & 3] |= 1 << card
    return hands[0], hands[1], hands[2], hands[3]


@functools.cache
def slot_counts(slots: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Return how many cards a deal by slots gives the dealer and each seat after it."""
    counts = [0, 0, 0, 0]
    for slot in slots:
        counts[slot & 3] += 1
    return counts[0], counts[1], counts[2], counts[3]


def deck_by_slots(hands: Sequence[int], dealer: int, slots: Sequence[int]) -> list[int]:
    """Return a deck that deals these hands by slots (each hand's cards ascending in its
    slots): the inverse of `hands_by_slots`."""
    cards = [bits(hands[(dealer + s) & 3]) for s in range(4)]
    taken = [0, 0, 0, 0]
    deck = []
    for slot in slots:
        s = slot & 3
        deck.append(cards[s][taken[s]])
        taken[s] += 1
    return deck


class TrickGame(Generic[S]):
    """Shared behaviour of the three rules objects: codes, legal actions, views."""

    name: ClassVar[str]
    title: ClassVar[str]
    pack: ClassVar[Pack]
    hand_size: ClassVar[int]  # the cards of each hand at the first lead, the discards laid aside
    core: ClassVar[TrickCore]  # the trick rules: following, the winner, the taking
    extra_actions: ClassVar[tuple[str, ...]] = ()  # codes of action ids len(pack), len(pack)+1...
    # the action that declares nothing, which the rules take for a seat with nothing to
    # declare without asking it (so a history replayed on another deal may gain or lose it)
    pass_action: ClassVar[int | None] = None

    # -- text codes ---------------------------------------------------------------
    def card_code(self, card: int) -> str:
        """Return the text code of a card id."""
        return self.pack.code(card)

    def card_id(self, code: str) -> int:
        """Return the card id of a text code (ValueError if unknown)."""
        return self.pack.card_id(code)

    def action_code(self, action: int) -> str:
        """Return the text code of an action id."""
        n = self.pack.size
        if 0 <= action < n:
            return self.pack.codes[action]
        if 0 <= action - n < len(self.extra_actions):
            return self.extra_actions[action - n]
        raise ValueError(f"no action {action} in {self.name}")

    def parse_action(self, code: str) -> int:
        """Return the action id of a text code (ValueError if unknown)."""
        c = code.strip().upper()
        if c in self.extra_actions:
            return self.pack.size + self.extra_actions.index(c)
        return self.pack.card_id(c)

    # -- the game protocol -----------------------------------------------------------
    def deal(self, seed: int) -> S:
        """Return the state after a seeded random deal; the first decision is pending."""
        return self.deal_outcomes(self.chance_outcomes(seed))

    # -- the deal as chance outcomes ---------------------------------------------------
    # A deal is a sequence of uniform chance outcomes: the dealer (0-3), then (games with
    # a cut) the cards the cutter lifts, then the deck, top card first.
    cut_range: ClassVar[range | None] = None  # the cuts a game allows (None: no cut)
    deal_slots: ClassVar[tuple[int, ...]] = ()  # deck position -> seat, counted from the dealer

    def chance_outcomes(self, seed: int) -> tuple[int, ...]:
        """Return the chance outcomes of a seeded deal (the same on every machine)."""
        dealer, deck = shuffled_deal(seed, self.pack.size)
        return (dealer, *deck)

    def chance_options(self, drawn: Sequence[int]) -> list[int]:
        """Return the outcomes the next chance event can take after these (each as likely),
        or [] once the deal is complete."""
        head = 1 + (self.cut_range is not None)
        if not drawn:
            return [0, 1, 2, 3]
        if len(drawn) == 1 and self.cut_range is not None:
            return list(self.cut_range)
        if len(drawn) >= head + self.pack.size:
            return []
        return bits(self.pack.full_mask & ~sum(1 << c for c in drawn[head:]))

    def deal_outcomes(self, outcomes: Sequence[int]) -> S:
        """Return the first decision of the deal these chance outcomes make (ValueError if
        they are not a complete deal)."""
        dealer, deck = outcomes[0], outcomes[1:]
        if not 0 <= dealer < 4 or sorted(deck) != list(range(self.pack.size)):
            raise ValueError("a deal is a dealer 0-3 and the deck, each card once")
        hands = hands_by_slots(deck, dealer, self.deal_slots)
        return self.start(hands, dealer)

    def outcomes_of(self, state: S) -> tuple[int, ...]:
        """Return chance outcomes that deal exactly the hands of this state's deal (a state
        built from a sampled deal; the inverse of `deal_outcomes`)."""
        hands = self.dealt_hands(state)
        return (state.dealer, *deck_by_slots(hands, state.dealer, self.deal_slots))

    def start(self, hands: tuple[int, int, int, int], dealer: int) -> S:
        """Return the first decision for explicit hands (games dealt by slots)."""
        raise NotImplementedError

    def check_dealt(self, hands: tuple[int, int, int, int], dealer: int) -> None:
        """Raise ValueError unless explicit hands are what a deal gives: a dealer 0-3, each
        seat as many cards as `deal_slots` deals it, the whole pack between them."""
        counts = slot_counts(self.deal_slots)
        want = [counts[(s - dealer) & 3] for s in range(4)]
        sizes = [popcount(h) for h in hands]
        if not 0 <= dealer < 4 or sizes != want or _or(hands) != self.pack.full_mask:
            raise ValueError(
                f"a deal by dealer {dealer!r} holds {want} cards by seat (South first), the "
                f"whole pack; got {sizes}"
            )

    def discards(self, state: S, seat: int) -> int:
        """Return the cards seat has laid aside in the discard (hidden from the others)."""
        return 0

    def legal_mask(self, state: S) -> int:
        """Return the legal card actions as a mask (the hot path of playouts)."""
        raise NotImplementedError

    def legal_actions(self, state: S) -> list[int]:
        """Return the legal action ids, ascending."""
        return bits(self.legal_mask(state))

    def apply(self, state: S, action: int) -> S:
        """Return the state after the player to move takes action (IllegalAction if not)."""
        raise NotImplementedError

    def is_over(self, state: S) -> bool:
        """Return True when the deal is finished."""
        return state.to_move is None

    def result(self, state: S) -> Result:
        """Return the final result of a finished deal."""
        raise NotImplementedError

    def public_events(self, state: S) -> tuple[Event, ...]:
        """Return the public announcements so far, in order."""
        return ()

    def shown_cards(self, state: S) -> tuple[int, int, int, int]:
        """Return, per seat, cards every seat knows are in that hand (declared, exposed)."""
        return (0, 0, 0, 0)

    def dealt_hands(self, state: S) -> tuple[int, ...]:
        """Return the hands as dealt: each seat's hand now, its discards and its plays."""
        hands = [state.hands[s] | self.discards(state, s) for s in range(4)]
        for trick in (*state.tricks, state.trick):
            for seat, card in trick:
                hands[seat] |= 1 << card
        return tuple(hands)

    def deal_fields(self, state: S) -> dict[str, object]:
        """Return further public facts of the deal for records (Minchiate: cut, Fola...)."""
        return {}

    def finished_tricks(self, state: S) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Return every finished trick as (seat, card) plays."""
        return tuple(state.tricks)

    def public_piles(self, state: S) -> tuple[int, int]:
        """Return the cards each team has visibly taken so far."""
        ns, ew = state.piles
        return ns, ew

    def private_cards(self, state: S, seat: int) -> int:
        """Return cards outside seat's hand that seat alone knows: its own discards."""
        return self.discards(state, seat)

    def phase_name(self, state: S) -> str:
        """Return the name of the current phase ("discard", "play", "over"...)."""
        raise NotImplementedError

    def winning_play(self, trick: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
        """Return the (seat, card) winning a (partial) trick so far, or None."""
        return self.core.winning_play(trick)

    def view(self, state: S, seat: int) -> View:
        """Return everything seat may know (see `View`)."""
        return view_of(self, state, seat)

    # -- the running score ---------------------------------------------------------------
    how: ClassVar[str] = ""  # how the running score is counted, for players
    # the unit of the final result, "points" or "resti" (a message id: the review names it)
    unit: ClassVar[str] = N_("points")
    # whether a discarded card counts for the discarder's team (Minchiate's go to the Fola)
    discard_counts: ClassVar[bool] = True
    # the largest margin a deal can end with, in the unit (OpenSpiel's utility bounds)
    max_margin: ClassVar[float]

    def pile_points(self, mask: int) -> float:
        """Return what the cards of a pile count for now (the plain sum of card points)."""
        return self.pack.points_of(mask)

    def trick_points(self, trick: Sequence[tuple[int, int]], winner: int) -> tuple[float, float]:
        """Return what a finished trick adds to North-South's and East-West's running score:
        its cards go to the winner's team, the Matto to its own player's team."""
        ns, ew = self.core.take((0, 0), winner, trick)
        return self.pile_points(ns), self.pile_points(ew)

    def tally(self, v: View) -> Tally:
        """Return the running score from a view's public facts, counted as the end counts: the
        cards each team has taken, the tricks and the public events (the result's breakdown
        once the deal is over). Every seat's view gives the same tally."""
        raise NotImplementedError

    def action_detail(self, hand: int, action: int) -> ActionDetail:
        """Describe an action that is not a card, for a seat holding hand."""
        raise ValueError(f"{self.name} has no action {action} besides its cards")

    def combination_score(self, codes: Sequence[str]) -> int:
        """Return the value of the combinations in a set of cards."""
        raise NotImplementedError(f"{self.name} has no combinations")

    def check_action(self, state: S, action: int) -> None:
        """Raise IllegalAction with the rule's reason unless action is legal now."""
        if state.to_move is None:
            raise IllegalAction(Msg("the deal is over"))
        if action not in self.legal_actions(state):
            raise IllegalAction(self.illegal_reason(state, action))

    def illegal_reason(self, state: S, action: int) -> str:
        """Explain why an action is illegal in state."""
        raise NotImplementedError


# A game's rules as their consumers hold them (from the registry by name, from a view, for
# a record): the game is known only at run time, so its states are typed by the fields every
# game's state has; a consumer passes back only states these same rules gave it.
Rules: TypeAlias = TrickGame[GameState]


# -- views --------------------------------------------------------------------------
# Bots, the terminal, the web page and the adapters see a deal only through a seat's view:
# its own hand, the public history (every card played, by whom, and who won each trick),
# public announcements, cards known to be in other hands (declared or exposed), cards only
# this seat knows (its own discard), hand sizes, and the legal actions when it is this
# seat's turn. The result, with every pile, is public once the deal is over.


Trick = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class View:
    """What one seat knows at one moment of a deal."""

    game: str
    seat: int
    phase: str
    dealer: int
    to_move: int | None
    hand: int  # mask of the seat's own cards
    legal: tuple[int, ...]  # legal action ids; empty unless it is this seat's turn
    hand_sizes: tuple[int, int, int, int]
    leader: int  # who led (or leads) the current trick
    trick: Trick  # (seat, card) of the current trick, in play order
    tricks: tuple[Trick, ...]  # every finished trick
    winners: tuple[int, ...]  # the winner of each finished trick
    won: tuple[int, int]  # cards each team has visibly taken so far
    events: tuple[Event, ...]  # public announcements, in order
    shown: tuple[int, int, int, int]  # cards every seat knows are in each hand
    private: int  # cards outside the hand that only this seat knows (its own discard)
    result: Result | None  # the final result once the deal is over
    rules: Rules = field(compare=False, repr=False)  # the rules of this view's game

    @property
    def played(self) -> int:
        """Return the mask of every card played to a trick so far."""
        m = 0
        for t in (*self.tricks, self.trick):
            for _, c in t:
                m |= 1 << c
        return m

    @property
    def known(self) -> int:
        """Return every card whose place this seat knows (hand, played, shown, private)."""
        return (
            self.hand
            | self.played
            | self.private
            | _or(self.shown)
            | _or(tuple(e.cards for e in self.events))
        )


def _or(masks: tuple[int, ...]) -> int:
    m = 0
    for x in masks:
        m |= x
    return m


def view_of(rules: TrickGame[S], state: S, seat: int) -> View:
    """Return what seat may know of state (`tarocchi.views.view`, `TrickGame.view`)."""
    over = state.to_move is None
    hands = state.hands
    my_turn = state.to_move == seat
    return View(
        game=rules.name,
        seat=seat,
        phase=rules.phase_name(state),
        dealer=state.dealer,
        to_move=state.to_move,
        hand=hands[seat],
        legal=tuple(rules.legal_actions(state)) if my_turn else (),
        hand_sizes=(
            popcount(hands[0]),
            popcount(hands[1]),
            popcount(hands[2]),
            popcount(hands[3]),
        ),
        leader=state.leader,
        trick=state.trick,
        tricks=rules.finished_tricks(state),
        winners=state.winners,
        won=rules.public_piles(state),
        events=rules.public_events(state),
        shown=rules.shown_cards(state),
        private=rules.private_cards(state, seat),
        result=rules.result(state) if over else None,
        rules=cast(Rules, rules),  # `Rules`: the states a view's reader passes are its game's
    )
