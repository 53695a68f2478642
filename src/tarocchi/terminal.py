"""Terminal play: a person plays South against bots, reading commands from a text stream.

Everything printed comes from South's view, so nothing hidden can show: what
the bots did is told by comparing South's view before and after their moves.
Works with piped stdin, so a test can play a whole deal through it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, TextIO

from tarocchi.bots import make_bot
from tarocchi.cards import FOOL, SEATS, SUIT_NAMES_EN, TEAMS, TRUMPS, bits, team_of
from tarocchi.games import game
from tarocchi.games.base import IllegalAction, Result, TrickGame
from tarocchi.match import advance, bot_seed
from tarocchi.views import View, changes

HUMAN = 0
SUIT_ORDER = (TRUMPS, 0, 1, 2, 3, FOOL)

HELP = """Commands:
  a card code (e.g. CU-3, T21, MATTO) or the number shown beside it -- play or discard it
  DECLARE / PASS and other actions -- as listed when they are offered
  ?       ask for a hint (the search ranks your choices)
  hand    show your hand        last   show the last trick
  trick   show the current trick   score  show tricks and points so far
  help    this text             quit   leave the deal"""


def seat_label(seat: int) -> str:
    """Return "South (you)" for the human, "North (partner)" and so on."""
    role = {0: "you", 2: "partner"}.get(seat, "opponent")
    return f"{SEATS[seat]} ({role})"


def card_names(rules: TrickGame, cards: Iterable[int]) -> str:
    """Return the text codes of cards, space-separated."""
    return " ".join(rules.pack.codes[c] for c in cards) or "-"


def sorted_cards(rules: TrickGame, mask: int) -> list[int]:
    """Return the cards of a mask in display order (trumps, suits, strongest first)."""
    return sorted(bits(mask), key=rules.pack.sort_key)


def describe_hand(rules: TrickGame, mask: int) -> str:
    """Return a hand as one line per suit, strongest first."""
    pack = rules.pack
    lines = []
    for suit in SUIT_ORDER:
        cards = [c for c in sorted_cards(rules, mask & pack.suit_mask[suit])]
        if cards:
            name = "Matto" if suit == FOOL else SUIT_NAMES_EN[suit]
            lines.append(f"  {name + ':':8} {card_names(rules, cards)}")
    return "\n".join(lines) or "  (no cards)"


def describe_trick(rules: TrickGame, trick: tuple[tuple[int, int], ...]) -> str:
    """Return who played what in a trick."""
    if not trick:
        return "  (no card played yet)"
    return "\n".join(f"  {seat_label(s):20} {rules.pack.codes[c]}" for s, c in trick)


def describe_result(rules: TrickGame, result: Result, state: Any) -> str:
    """Return the end-of-deal summary: each team's cards and points, the breakdown, the winner."""
    out = ["", "=== End of the deal ==="]
    for t in (0, 1):
        out.append(f"{TEAMS[t]} cards: {card_names(rules, sorted_cards(rules, result.piles[t]))}")
    out.append("")
    out.append(f"  {'':44} {'NS':>6} {'EW':>6}")
    for line in result.lines:
        note = f"  ({line.note})" if line.note else ""
        out.append(f"  {line.label:44} {_num(line.ns):>6} {_num(line.ew):>6}{note}")
    out.append(f"  {'Total':44} {_num(result.ns):>6} {_num(result.ew):>6}")
    winner = {
        "NS": "North-South win: you and your partner",
        "EW": "East-West win: the opponents",
        "draw": "a draw",
    }[result.winner]
    out.append(f"Result: {winner}.")
    return "\n".join(out)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


class Narrator:
    """Tells the human what changed in their view since the last look."""

    def __init__(self, rules: TrickGame, out: TextIO) -> None:
        self.rules = rules
        self.out = out
        self.last: View | None = None

    def catch_up(self, v: View) -> None:
        """Print the announcements, plays and trick winners that are new in v."""
        for item in changes(self.last, v):
            if item["type"] == "event":
                seat = item["seat"]
                named = seat is None or item["text"].startswith(SEATS[seat])
                who = "" if named else f"{seat_label(seat)}: "
                cards = f" [{' '.join(item['cards'])}]" if item["cards"] else ""
                self.say(f"* {who}{item['text']}{cards}")
            elif item["type"] == "play":
                self.say(f"  {seat_label(item['seat']):20} plays {item['card']}")
            else:
                winner = seat_label(item["winner"])
                self.say(f"  -> {winner} wins trick {item['trick']} ({item['points']} points)\n")
        self.last = v

    def say(self, text: str) -> None:
        """Print a line."""
        print(text, file=self.out)


def play_terminal(game_name: str, seed: int | None, level: str, inp: TextIO, out: TextIO) -> int:
    """Play one deal with the human as South; return the exit status."""
    rules = game(game_name)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    try:
        bots = {s: make_bot(level, rules, bot_seed(seed, s)) for s in (1, 2, 3)}
    except ValueError as e:
        print(f"tarocchi play: {e}", file=out)
        return 2
    state = rules.deal(seed)
    narrator = Narrator(rules, out)
    say = narrator.say
    say(f"{rules.title}, deal {seed}. You are South; North is your AI partner.")
    say(f"{seat_label(state.dealer)} deals; {seat_label((state.dealer + 1) % 4)} leads first.")
    say("Type 'help' for commands.\n")
    while True:
        for step in advance(rules, state, bots):
            state = step.state
            narrator.catch_up(rules.view(state, HUMAN))
        v = rules.view(state, HUMAN)
        narrator.catch_up(v)
        if v.result is not None:
            say(describe_result(rules, v.result, state))
            return 0
        after = ask(rules, state, v, inp, narrator)
        if after is None:
            say("You left the deal.")
            return 1
        state = after
        narrator.catch_up(rules.view(state, HUMAN))


def ask(rules: TrickGame, state: Any, v: View, inp: TextIO, narrator: Narrator) -> Any:
    """Prompt until the human gives a legal action; return the state after it, or None on quit
    or end of input. A refused action is explained and changes nothing."""
    say = narrator.say
    say(f"\nYour hand:\n{describe_hand(rules, v.hand)}")
    if v.trick:
        say(f"Current trick:\n{describe_trick(rules, v.trick)}")
    options = [rules.action_code(a) for a in v.legal]
    numbered = "  ".join(f"{i}) {c}" for i, c in enumerate(options, start=1))
    say(f"{prompt_title(v)} -- legal: {numbered}")
    while True:
        print("> ", end="", file=narrator.out, flush=True)
        line = inp.readline()
        if not line:
            return None
        text = line.strip()
        if not inp.isatty():
            say(text)  # echo piped input so the transcript reads like a session
        word = text.lower()
        if not text:
            continue
        if word in ("quit", "exit", "q"):
            return None
        if word in ("help", "h"):
            say(HELP)
        elif word in ("?", "hint"):
            say(describe_hints(v))
        elif word in ("hand",):
            say(describe_hand(rules, v.hand))
        elif word in ("last", "l"):
            if v.tricks:
                say(f"Last trick (won by {seat_label(v.winners[-1])}):")
                say(describe_trick(rules, v.tricks[-1]))
            else:
                say("No trick has been finished yet.")
        elif word in ("trick", "t"):
            say(describe_trick(rules, v.trick))
        elif word in ("score", "s"):
            say(describe_score(rules, v))
        else:
            action = parse_choice(rules, v, text)
            if isinstance(action, str):
                say(action)
                continue
            try:
                return rules.apply(state, action)
            except IllegalAction as e:
                say(f"Not allowed: {e}.")


def parse_choice(rules: TrickGame, v: View, text: str) -> int | str:
    """Return the action meant by text (a code or a listed number), or the reason it is refused."""
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(v.legal):
            return v.legal[n - 1]
        return f"Choose a number from 1 to {len(v.legal)}, or type a card code."
    try:
        action = rules.parse_action(text)
    except ValueError as e:
        return f"{e}. Type a card code such as {rules.action_code(v.legal[0])}, or 'help'."
    return action


def prompt_title(v: View) -> str:
    """Return what the human is asked to do in this phase."""
    if v.phase == "discard":
        role = "the dealer" if v.dealer == HUMAN else "the cutter"
        return f"You are {role}: choose a card to discard (face down)"
    if v.phase == "declare":
        return "Declare your combinations or pass"
    if v.phase == "play":
        return "Your turn to lead" if not v.trick else "Your turn to play"
    return f"Your decision ({v.phase})"


def describe_hints(v: View) -> str:
    """Return the search's ranking of the human's choices, with values and reasons."""
    from tarocchi.bots.hints import suggest

    lines = ["Hint, best first (estimated final margin for your team; type a code to play it):"]
    for h in suggest(v)[:5]:
        value = "" if h.value is None else f"{h.value:+.1f}"
        lines.append(f"  - {h.code:8} {value:>7}  {h.reason}")
    return "\n".join(lines)


def describe_score(rules: TrickGame, v: View) -> str:
    """Return tricks won and points taken so far by each team, as far as South can see."""
    tricks = [0, 0]
    for w in v.winners:
        tricks[team_of(w)] += 1
    pts = [rules.pack.points_of(v.won[t]) for t in (0, 1)]
    return (
        f"  NS: {tricks[0]} tricks, {pts[0]} card points taken\n"
        f"  EW: {tricks[1]} tricks, {pts[1]} card points taken"
    )
