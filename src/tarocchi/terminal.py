"""Terminal play: a person plays South against bots, reading commands from a text stream.

Everything printed comes from South's view, so nothing hidden can show: what
the bots did is told by comparing South's view before and after their moves.
Works with piped stdin, so a test can play a whole deal through it. Speaks the
language of `--lang` or of the environment (LANG and friends, see tarocchi.i18n); the
commands and card codes stay the same in every language.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, TextIO

from tarocchi.bots import make_bot
from tarocchi.cards import FOOL, SUIT_NAMES_EN, TEAMS, TRUMPS, bits, team_of
from tarocchi.games import game
from tarocchi.games.base import IllegalAction, Result, TrickGame
from tarocchi.i18n import N_, Translator, translator
from tarocchi.match import advance, bot_seed
from tarocchi.views import View, changes

HUMAN = 0
SUIT_ORDER = (TRUMPS, 0, 1, 2, 3, FOOL)

HELP = N_(
    "Commands:\n"
    "  a card code (e.g. CU-3, T21, MATTO) or the number shown beside it -- play or discard it\n"
    "  DECLARE / PASS and other actions -- as listed when they are offered\n"
    "  ?       ask for a hint (the search ranks your choices)\n"
    "  hand    show your hand\n"
    "  last    show the last trick\n"
    "  trick   show the current trick\n"
    "  score   show tricks and points so far\n"
    "  help    this text\n"
    "  quit    leave the deal"
)
ROLES = (N_("%(seat)s (you)"), N_("%(seat)s (opponent)"), N_("%(seat)s (partner)"))


def seat_label(seat: int, tr: Translator) -> str:
    """Return "South (you)" for the human, "North (partner)" and so on."""
    role = ROLES[0] if seat == 0 else ROLES[2] if seat == 2 else ROLES[1]
    return tr.gettext(role) % {"seat": tr.seat(seat)}


def card_names(rules: TrickGame[Any], cards: Iterable[int]) -> str:
    """Return the text codes of cards, space-separated."""
    return " ".join(rules.pack.codes[c] for c in cards) or "-"


def sorted_cards(rules: TrickGame[Any], mask: int) -> list[int]:
    """Return the cards of a mask in display order (trumps, suits, strongest first)."""
    return sorted(bits(mask), key=rules.pack.sort_key)


def describe_hand(rules: TrickGame[Any], mask: int, tr: Translator) -> str:
    """Return a hand as one line per suit, strongest first."""
    pack = rules.pack
    lines = []
    for suit in SUIT_ORDER:
        cards = [c for c in sorted_cards(rules, mask & pack.suit_mask[suit])]
        if cards:
            name = tr.gettext(N_("Matto") if suit == FOOL else SUIT_NAMES_EN[suit])
            lines.append(f"  {name + ':':8} {card_names(rules, cards)}")
    return "\n".join(lines) or "  " + tr.gettext("(no cards)")


def describe_trick(
    rules: TrickGame[Any], trick: tuple[tuple[int, int], ...], tr: Translator
) -> str:
    """Return who played what in a trick."""
    if not trick:
        return "  " + tr.gettext("(no card played yet)")
    return "\n".join(f"  {seat_label(s, tr):20} {rules.pack.codes[c]}" for s, c in trick)


def describe_result(rules: TrickGame[Any], result: Result, tr: Translator) -> str:
    """Return the end-of-deal summary: each team's cards and points, the breakdown, the winner."""
    _ = tr.gettext
    out = ["", _("=== End of the deal ===")]
    for t in (0, 1):
        cards = card_names(rules, sorted_cards(rules, result.piles[t]))
        out.append(_("%(team)s cards: %(cards)s") % {"team": _(TEAMS[t]), "cards": cards})
    out.append("")
    out.append(f"  {'':44} {_('NS'):>6} {_('EW'):>6}")
    for line in result.lines:
        note = f"  ({tr.text(line.note)})" if line.note else ""
        out.append(f"  {tr.text(line.label):44} {_num(line.ns):>6} {_num(line.ew):>6}{note}")
    out.append(f"  {_('Total'):44} {_num(result.ns):>6} {_num(result.ew):>6}")
    winner = {
        "NS": _("Result: North-South win: you and your partner."),
        "EW": _("Result: East-West win: the opponents."),
        "draw": _("Result: a draw."),
    }[result.winner]
    out.append(winner)
    return "\n".join(out)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


class Narrator:
    """Tells the human what changed in their view since the last look."""

    def __init__(self, rules: TrickGame[Any], out: TextIO, tr: Translator) -> None:
        self.rules = rules
        self.out = out
        self.tr = tr
        self.last: View | None = None

    def catch_up(self, v: View) -> None:
        """Print the announcements, plays and trick winners that are new in v."""
        tr = self.tr
        for item in changes(self.last, v, tr):
            if item["type"] == "event":
                seat = item["seat"]
                named = seat is None or item["text"].startswith(tr.seat(seat))
                who = "" if named else f"{seat_label(seat, tr)}: "
                cards = f" [{' '.join(item['cards'])}]" if item["cards"] else ""
                self.say(f"* {who}{item['text']}{cards}")
            elif item["type"] == "play":
                self.say(
                    "  "
                    + tr.gettext("%(seat)s plays %(card)s")
                    % {"seat": f"{seat_label(item['seat'], tr):20}", "card": item["card"]}
                )
            else:
                text = tr.ngettext(
                    "-> %(seat)s wins trick %(trick)d (%(n)d point)",
                    "-> %(seat)s wins trick %(trick)d (%(n)d points)",
                    item["points"],
                )
                winner = seat_label(item["winner"], tr)
                values = {"seat": winner, "trick": item["trick"], "n": item["points"]}
                self.say("  " + text % values + "\n")
        self.last = v

    def say(self, text: str) -> None:
        """Print a line."""
        print(text, file=self.out)


def play_terminal(
    game_name: str, seed: int | None, level: str, inp: TextIO, out: TextIO, lang: str = "en"
) -> int:
    """Play one deal with the human as South, speaking lang; return the exit status."""
    rules = game(game_name)
    tr = translator(lang)
    _ = tr.gettext
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    try:
        bots = {s: make_bot(level, rules, bot_seed(seed, s)) for s in (1, 2, 3)}
    except ValueError as e:
        print(f"tarocchi play: {tr.text(e.args[0])}", file=out)
        return 2
    state = rules.deal(seed)
    narrator = Narrator(rules, out, tr)
    say = narrator.say
    say(
        _("%(game)s, deal %(seed)d. You are South; North, opposite you, is your AI partner.")
        % {"game": rules.title, "seed": seed}
    )
    dealer, leader = seat_label(state.dealer, tr), seat_label((state.dealer + 1) % 4, tr)
    say(_("%(dealer)s deals; %(leader)s leads first.") % {"dealer": dealer, "leader": leader})
    say(_("Type 'help' for commands.") + "\n")
    while True:
        for step in advance(rules, state, bots):
            state = step.state
            narrator.catch_up(rules.view(state, HUMAN))
        v = rules.view(state, HUMAN)
        narrator.catch_up(v)
        if v.result is not None:
            say(describe_result(rules, v.result, tr))
            return 0
        after = ask(rules, state, v, inp, narrator)
        if after is None:
            say(_("You left the deal."))
            return 1
        state = after
        narrator.catch_up(rules.view(state, HUMAN))


def ask(rules: TrickGame[Any], state: Any, v: View, inp: TextIO, narrator: Narrator) -> Any:
    """Prompt until the human gives a legal action; return the state after it, or None on quit
    or end of input. A refused action is explained and changes nothing."""
    say = narrator.say
    tr = narrator.tr
    _ = tr.gettext
    say("\n" + _("Your hand:") + "\n" + describe_hand(rules, v.hand, tr))
    if v.trick:
        say(_("Current trick:") + "\n" + describe_trick(rules, v.trick, tr))
    options = [rules.action_code(a) for a in v.legal]
    numbered = "  ".join(f"{i}) {c}" for i, c in enumerate(options, start=1))
    say(
        _("%(prompt)s -- legal: %(options)s") % {"prompt": prompt_title(v, tr), "options": numbered}
    )
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
            say(_(HELP))
        elif word in ("?", "hint"):
            say(describe_hints(v, tr))
        elif word in ("hand",):
            say(describe_hand(rules, v.hand, tr))
        elif word in ("last", "l"):
            if v.tricks:
                say(_("Last trick (won by %(seat)s):") % {"seat": seat_label(v.winners[-1], tr)})
                say(describe_trick(rules, v.tricks[-1], tr))
            else:
                say(_("No trick has been finished yet."))
        elif word in ("trick", "t"):
            say(describe_trick(rules, v.trick, tr))
        elif word in ("score", "s"):
            say(describe_score(rules, v, tr))
        else:
            action = parse_choice(rules, v, text, tr)
            if isinstance(action, str):
                say(action)
                continue
            try:
                return rules.apply(state, action)
            except IllegalAction as e:
                say(_("Not allowed: %(reason)s.") % {"reason": tr.text(e.args[0])})


def parse_choice(rules: TrickGame[Any], v: View, text: str, tr: Translator) -> int | str:
    """Return the action meant by text (a code or a listed number), or the reason it is refused."""
    _ = tr.gettext
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(v.legal):
            return v.legal[n - 1]
        return _("Choose a number from 1 to %(n)d, or type a card code.") % {"n": len(v.legal)}
    try:
        action = rules.parse_action(text)
    except ValueError as e:
        return _("%(reason)s. Type a card code such as %(code)s, or 'help'.") % {
            "reason": tr.text(e.args[0]),
            "code": rules.action_code(v.legal[0]),
        }
    return action


def prompt_title(v: View, tr: Translator) -> str:
    """Return what the human is asked to do in this phase."""
    _ = tr.gettext
    if v.phase == "discard":
        if v.dealer == HUMAN:
            return _("You are the dealer: choose a card to discard (face down)")
        return _("You are the cutter: choose a card to discard (face down)")
    if v.phase == "declare":
        return _("Declare your combinations or pass")
    if v.phase == "play":
        return _("Your turn to lead") if not v.trick else _("Your turn to play")
    return _("Your decision (%(phase)s)") % {"phase": v.phase}


def describe_hints(v: View, tr: Translator) -> str:
    """Return the search's ranking of the human's choices, with reasons and, where the
    search played them out, values."""
    from tarocchi.bots.hints import suggest

    hints = suggest(v)[:5]
    # the search plays out only the trick play and the dealer's discard; the other setup
    # decisions are ranked by the heuristic bot alone, without a value to show
    valued = any(h.value is not None for h in hints)
    lines = [
        tr.gettext(
            "Hint, best first (estimated final margin for your team; type a code to play it):"
        )
        if valued
        else tr.gettext("Hint, best first (type a code to play it):")
    ]
    for h in hints:
        value = "" if h.value is None else f"{h.value:+.1f}"
        lines.append(f"  - {h.code:8} {value:>7}  {tr.text(h.reason)}")
    return "\n".join(lines)


def describe_score(rules: TrickGame[Any], v: View, tr: Translator) -> str:
    """Return tricks won and points taken so far by each team, as far as South can see."""
    tricks = [0, 0]
    for w in v.winners:
        tricks[team_of(w)] += 1
    pts = [rules.pack.points_of(v.won[t]) for t in (0, 1)]
    return "\n".join(
        "  "
        + tr.gettext("%(team)s: %(tricks)d tricks, %(points)d card points taken")
        % {"team": tr.gettext(TEAMS[t]), "tricks": tricks[t], "points": pts[t]}
        for t in (0, 1)
    )
