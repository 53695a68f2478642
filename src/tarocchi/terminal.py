"""Terminal play: a person plays South against bots, reading commands from a text stream.

Everything printed comes from South's view, so nothing hidden can show: what
the bots did is told by comparing South's view before and after their moves.
Works with piped stdin, so a test can play a whole deal through it. Speaks the
language of `--lang` or of the environment (LANG and friends, see tarocchi.i18n); the
commands and card codes stay the same in every language.

Each deal finished (its record) or quit (a note of it) is kept in the user's data folder
(platformdirs', or $TAROCCHI_DATA), for `tarocchi history`: the list and the statistics
of `tarocchi.progress`. A seat played at a friends' table with `tarocchi join` keeps its own
final view, never another seat's hidden cards, and counts for its own team.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import textwrap
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from pathlib import Path
from typing import Any, TextIO, TypedDict

from tarocchi import daily, progress
from tarocchi.bots import make_bot
from tarocchi.cards import FOOL, SUIT_NAMES_EN, TEAMS, TRUMPS, bits, team_of
from tarocchi.games import game
from tarocchi.games.base import GameState, IllegalAction, Rules
from tarocchi.i18n import N_, Msg, Translator, joined, nmsg, translator
from tarocchi.match import DealLog, advance, bot_seed
from tarocchi.record import now
from tarocchi.terminal_review import num
from tarocchi.views import Entry, PlayJson, View, amount, changes, step, to_json, view

HUMAN = 0
SUIT_ORDER = (TRUMPS, 0, 1, 2, 3, FOOL)
WIDTH = 100  # wrap long lines (a 26-card hand, the end piles) for a terminal
NBSP = "\xa0"  # keeps a card's name on one line when wrapping

HELP = N_(
    "Commands:\n"
    "  a card code (e.g. %(examples)s) or the number shown beside it -- play or discard it\n"
    "%(actions)s"
    "  ?       ask for a hint (the search ranks your choices)\n"
    "  hand    show your hand\n"
    "  last    show the last trick\n"
    "  trick   show the current trick\n"
    "  score   show tricks and points so far\n"
    "  help    this text\n"
    "  quit    leave the deal"
)
ACTIONS_HELP = N_("  %(actions)s -- as listed when they are offered\n")
ROLES = (N_("%(seat)s (you)"), N_("%(seat)s (opponent)"), N_("%(seat)s (partner)"))
DATA_ENV = "TAROCCHI_DATA"  # the folder of the kept deals, instead of the platform's
LEFT = "tarocchi-left"  # the format of a quit deal's note (a finished one keeps its record)
SEATED = "tarocchi-seat"  # a deal played with `tarocchi join`: its seat's own final view


def seat_label(seat: int, tr: Translator, me: int = HUMAN) -> str:
    """Return a seat as the player of seat me says it: "South (you)", "North (partner)"..."""
    role = ROLES[0] if seat == me else ROLES[2] if seat == (me + 2) % 4 else ROLES[1]
    return tr.gettext(role) % {"seat": tr.seat(seat)}


def help_text(rules: Rules, tr: Translator) -> str:
    """Return the commands, with example codes that are cards of this game (a Cups King, the
    highest trump, the Matto) and the game's actions that are not cards."""
    pack = rules.pack
    examples = ("CU-K", pack.codes[(pack.trump_mask.bit_length() - 1)], "MATTO")
    actions = ""
    if rules.extra_actions:
        actions = tr.gettext(ACTIONS_HELP) % {"actions": " / ".join(rules.extra_actions)}
    return tr.gettext(HELP) % {"examples": ", ".join(examples), "actions": actions}


def card_label(rules: Rules, card: int, tr: Translator) -> str:
    """Return a card's code with its name in tr's language: "CU-K (King of Cups)"."""
    return f"{rules.pack.codes[card]} ({tr.card(rules.pack.cards[card])})"


def wrap(text: str, first: str, rest: str) -> str:
    """Return a list of card labels ("CU-K (King of Cups), ...") wrapped to the terminal's
    width, breaking only between cards."""
    glued = ", ".join(part.replace(" ", NBSP) for part in text.split(", "))
    return textwrap.fill(glued, WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False).replace(NBSP, " ")  # fmt: skip


def card_names(rules: Rules, cards: Iterable[int], tr: Translator) -> str:
    """Return cards by name in tr's language, joined as the language joins."""
    return tr.text(joined([rules.pack.cards[c] for c in cards])) or "-"


def sorted_cards(rules: Rules, mask: int) -> list[int]:
    """Return the cards of a mask in display order (trumps, suits, strongest first)."""
    return sorted(bits(mask), key=rules.pack.sort_key)


def describe_hand(rules: Rules, mask: int, tr: Translator) -> str:
    """Return a hand as one line per suit, strongest first."""
    pack = rules.pack
    lines = []
    for suit in SUIT_ORDER:
        cards = [c for c in sorted_cards(rules, mask & pack.suit_mask[suit])]
        if cards:
            name = tr.gettext(N_("Matto") if suit == FOOL else SUIT_NAMES_EN[suit])
            labels = ", ".join(card_label(rules, c, tr) for c in cards)
            lines.append(wrap(labels, f"  {name + ':':8} ", " " * 11))
    return "\n".join(lines) or "  " + tr.gettext("(no cards)")


def describe_trick(rules: Rules, plays: list[PlayJson], tr: Translator,
                   me: int = HUMAN) -> str:  # fmt: skip
    """Return who played what in a trick (its plays as a JSON view gives them)."""
    if not plays:
        return "  " + tr.gettext("(no card played yet)")
    rows = [(seat_label(p["seat"], tr, me), rules.card_id(p["card"])) for p in plays]
    return "\n".join(f"  {who:20} {card_label(rules, card, tr)}" for who, card in rows)


def mask_of(rules: Rules, codes: Iterable[str]) -> int:
    """Return the mask of cards given by their codes."""
    return sum(1 << rules.card_id(c) for c in codes)


def describe_result(rules: Rules, result: dict[str, Any], tr: Translator,
                    me: int = HUMAN) -> str:  # fmt: skip
    """Return the end-of-deal summary from a JSON view's result, as the player of seat me
    reads it: each team's cards and points, the breakdown, the winner."""
    _ = tr.gettext
    out = ["", _("=== End of the deal ===")]
    for t in (0, 1):
        cards = card_names(rules, sorted_cards(rules, mask_of(rules, result["piles"][TEAMS[t]])),
                           tr)  # fmt: skip
        pile = _("%(team)s cards: %(cards)s") % {"team": _(TEAMS[t]), "cards": cards}
        out.append(wrap(pile, "", "  "))
    out.append("")
    out.append(f"  {'':44} {_('NS'):>6} {_('EW'):>6}")
    for line in result["lines"]:
        note = f"  ({line['note']})" if line["note"] else ""
        out.append(f"  {line['label']:44} {num(line['ns']):>6} {num(line['ew']):>6}{note}")
    out.append(f"  {_('Total'):44} {num(result['ns']):>6} {num(result['ew']):>6}")
    ours = result["winner"] == TEAMS[team_of(me)]
    out.append({
        ("NS", True): _("Result: North-South win: you and your partner."),
        ("EW", False): _("Result: East-West win: the opponents."),
        ("EW", True): _("Result: East-West win: you and your partner."),
        ("NS", False): _("Result: North-South win: the opponents."),
    }.get((result["winner"], ours), _("Result: a draw.")))  # fmt: skip
    out.append(result["headline"])
    return "\n".join(out)


class Teller:
    """Tells the player of a seat (me) what they see, in tr's language: the deal's entries
    as they come (`views.changes`), and lines."""

    def __init__(self, rules: Rules, out: TextIO, tr: Translator, me: int = HUMAN
                 ) -> None:  # fmt: skip
        self.rules = rules
        self.out = out
        self.tr = tr
        self.me = me

    def told(self, entries: list[Entry]) -> None:
        """Print history entries: events, cards laid aside, plays and trick winners."""
        tr = self.tr
        for item in entries:
            if item["type"] in ("event", "aside"):
                seat = item["seat"]
                if seat is None or item["text"].startswith(tr.seat(seat)):
                    who = ""  # a public event of no seat, or a sentence that names it
                else:
                    who = f"{seat_label(seat, tr, self.me)}: "
                self.say(f"* {who}{item['text']}")
            elif item["type"] == "play":
                card = card_label(self.rules, self.rules.card_id(item["card"]), tr)
                self.say(
                    "  "
                    + tr.gettext("%(seat)s plays %(card)s")
                    % {"seat": f"{seat_label(item['seat'], tr, self.me):20}", "card": card}
                )
            else:
                self.say(f"  -> {item['text']}\n")

    def say(self, text: str) -> None:
        """Print a line."""
        print(text, file=self.out, flush=True)


class Narrator(Teller):
    """Follows a local deal and tells the human (South) what each action let them see."""

    def __init__(self, rules: Rules, out: TextIO, tr: Translator, state: GameState) -> None:
        super().__init__(rules, out, tr)
        self.state = state
        self.last = view(state, HUMAN)

    def follow(self, action: int) -> None:
        """Apply an action (IllegalAction if it is not legal) and tell what South saw."""
        self.state, self.last, seen = step(
            self.rules, self.state, action, HUMAN, self.last, self.tr
        )
        self.told(seen)


def play_terminal(
    game_name: str,
    seed: int | None,
    level: str,
    inp: TextIO,
    out: TextIO,
    lang: str = "en",
    day: date | None = None,
) -> int:
    """Play one deal with the human as South, speaking lang; return the exit status. With a
    day, the seed is that day's revealed deal of the day, its AI answering as on the site."""
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
    narrator = Narrator(rules, out, tr, state)
    say = narrator.say
    if day is None:
        say(
            _("%(game)s, deal %(seed)d. You are South; North, opposite you, is your AI partner.")
            % {"game": rules.title, "seed": seed}
        )
    else:  # the AI seats answer as the site's did that day, each made at each answer
        said = {"game": rules.title, "date": day}
        say(_("%(game)s, the deal of the day of %(date)s, as practice. You are South; North, "
              "opposite you, is your AI partner.") % said)  # fmt: skip
        level = daily.LEVEL
    dealer, leader = seat_label(state.dealer, tr), seat_label((state.dealer + 1) % 4, tr)
    say(_("%(dealer)s deals; %(leader)s leads first.") % {"dealer": dealer, "leader": leader})
    say(_("Type 'help' for commands.") + "\n")
    narrator.told(changes(None, narrator.last, tr))  # what the deal shows before anyone acts
    log = DealLog(rules, seed, state, ("human", level, level, level))
    while True:
        if day is None:
            steps = advance(rules, narrator.state, bots)
        else:
            steps = daily.answers(rules, seed, narrator.state, len(log.actions))
        for taken in steps:
            narrator.follow(taken.action)
            log.actions.append((taken.seat, taken.action))
        v = narrator.last
        if v.result is not None:
            say(describe_result(rules, to_json(v, tr)["result"], tr))
            log.final = narrator.state
            extra = {} if day is None else {"daily": {"game": game_name, "date": str(day)},
                                            "practice": {"from": None, "action": 0}}  # fmt: skip
            after_the_deal(log, inp, narrator, extra)
            return 0
        action = ask(rules, narrator.state, v, inp, narrator)
        if action is None:
            say(_("You left the deal."))
            keep({"format": LEFT, "game": rules.name, "seed": seed, "level": level,
                  "actions": len(log.actions), "finished_at": now()}, narrator)  # fmt: skip
            return 1
        narrator.follow(action)
        log.actions.append((HUMAN, action))


def after_the_deal(
    log: DealLog, inp: TextIO, narrator: Narrator, extra: dict[str, object] | None = None
) -> None:
    """Offer the AI's review of the deal and saving its record (with extra fields), until
    another answer."""
    from tarocchi.record import make_record, save
    from tarocchi.review import review
    from tarocchi.terminal_review import describe_review

    tr = narrator.tr
    _ = tr.gettext
    record = make_record(log) | (extra or {})
    keep(record, narrator)
    narrator.say(
        "\n"
        + _(
            "Type 'review' for the AI's review of your play, 'save' (or 'save FILE') to save "
            "the deal's record; anything else ends."
        )
    )
    while True:
        text = read_line(inp, narrator)
        word, _sep, rest = (text or "").partition(" ")
        if word.lower() == "review":
            narrator.say(_("Reviewing your decisions (a few seconds)..."))
            narrator.say(describe_review(review(record, HUMAN, log.players[1]), tr))
        elif word.lower() == "save":
            path = Path(rest.strip() or f"tarocchi-{log.rules.name}-{log.seed}.json")
            try:
                save(record, path)
            except OSError as e:
                narrator.say(_("Cannot save the record: %(reason)s") % {"reason": e.strerror})
                continue
            narrator.say(_("Saved the deal's record to %(path)s.") % {"path": path})
        else:
            return


def read_line(inp: TextIO, narrator: Teller) -> str | None:
    """Prompt and return one stripped line of input (echoed when piped), None at its end."""
    print("> ", end="", file=narrator.out, flush=True)
    line = inp.readline()
    if not line:
        return None
    text = line.strip()
    if not inp.isatty():
        narrator.say(text)  # echo piped input so the transcript reads like a session
    return text


QUIT = -1  # the action of a line that leaves the deal


def ask(rules: Rules, state: GameState, v: View, inp: TextIO, narrator: Narrator) -> int | None:
    """Prompt until the human gives a legal action; return it, or None on quit or end of
    input. A refused action is explained and changes nothing."""
    tr = narrator.tr
    data = to_json(v, tr)
    show_turn(rules, data, narrator)
    while True:
        text = read_line(inp, narrator)
        if text is None:
            return None
        action = command(rules, data, text, narrator, lambda: describe_hints(v, tr))
        if action == QUIT:
            return None
        if action is None:
            continue
        try:
            rules.check_action(state, action)
            return action
        except IllegalAction as e:
            narrator.say(tr.gettext("Not allowed: %(reason)s.") % {"reason": tr.text(e.args[0])})


def show_turn(rules: Rules, data: dict[str, Any], teller: Teller) -> None:
    """Print what a seat sees at its turn (its JSON view): its hand, the trick and its
    choices, numbered, each choice that is not a card with what it does."""
    tr, me = teller.tr, teller.me
    _ = tr.gettext
    teller.say("\n" + _("Your hand:") + "\n" + describe_hand(rules, mask_of(rules, data["hand"]),
                                                            tr))  # fmt: skip
    if data["trick"]:
        teller.say(_("Current trick:") + "\n" + describe_trick(rules, data["trick"], tr, me))
    numbered = [f"{i}) {code}" for i, code in enumerate(data["legal"], start=1)]
    line = _("%(prompt)s -- legal: %(options)s") % {
        "prompt": prompt_title(data, tr),
        "options": "  ".join(numbered),
    }
    teller.say(textwrap.fill(line, WIDTH, subsequent_indent="  ", break_on_hyphens=False))
    details = {d["code"]: d["label"] for d in data["action_details"]}
    for i, code in enumerate(data["legal"], start=1):
        if code in details:  # say what an action that is not a card does
            teller.say(f"  {i}) {code} -- {details[code]}")


def command(rules: Rules, data: dict[str, Any], text: str, teller: Teller,
            hint: Callable[[], str] | None) -> int | None:  # fmt: skip
    """Answer a line typed by a seat whose JSON view is data: return the action it names
    (QUIT to leave), or None once answered (a command that shows something, a choice that
    names no action, or a blank line). hint gives the hint's text (None: none offered)."""
    tr, me = teller.tr, teller.me
    _ = tr.gettext
    say = teller.say
    word = text.lower()
    if not text:
        return None
    if word in ("quit", "exit", "q"):
        return QUIT
    if word in ("help", "h"):
        say(help_text(rules, tr))
    elif word in ("?", "hint"):
        say(hint() if hint is not None else _("No hints are offered here."))
    elif word in ("hand",):
        say(describe_hand(rules, mask_of(rules, data["hand"]), tr))
    elif word in ("last", "l"):
        if data["tricks"]:
            last = data["tricks"][-1]
            say(_("Last trick (won by %(seat)s):") % {"seat": seat_label(last["winner"], tr, me)})
            say(describe_trick(rules, last["plays"], tr, me))
        else:
            say(_("No trick has been finished yet."))
    elif word in ("trick", "t"):
        say(describe_trick(rules, data["trick"], tr, me))
    elif word in ("score", "s"):
        say(describe_score(data, tr))
    else:
        action = parse_choice(rules, data["legal"], text, tr)
        if isinstance(action, int):
            return action
        say(action)
    return None


def parse_choice(rules: Rules, legal: list[str], text: str, tr: Translator) -> int | str:
    """Return the action meant by text (a code or the number of a legal choice), or the
    reason it is refused."""
    _ = tr.gettext
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(legal):
            return rules.parse_action(legal[n - 1])
        if not legal:
            return _("Not allowed: %(reason)s.") % {"reason": _("it is not your turn")}
        return _("Choose a number from 1 to %(n)d, or type a card code.") % {"n": len(legal)}
    try:
        action = rules.parse_action(text)
    except ValueError as e:
        return _("%(reason)s. Type a card code such as %(code)s, or 'help'.") % {
            "reason": tr.text(e.args[0]),
            "code": legal[0] if legal else "CU-K",
        }
    return action


def prompt_title(data: dict[str, Any], tr: Translator) -> str:
    """Return what a seat (its JSON view) is asked to do in this phase."""
    _ = tr.gettext
    phase = data["phase"]
    if phase == "discard":
        if data["dealer"] == data["seat"]:
            return _("You are the dealer: choose a card to discard (face down)")
        return _("You are the cutter: choose a card to discard (face down)")
    if phase == "declare":
        return _("Declare your combinations or pass")
    if phase == "play":
        return _("Your turn to lead") if not data["trick"] else _("Your turn to play")
    return _("Your decision (%(phase)s)") % {"phase": phase}


def describe_hints(v: View, tr: Translator) -> str:
    """Return the fair valuation's ranking of the human's choices (the review's), with
    values and reasons."""
    from tarocchi.bots.hints import suggest

    return hint_lines([(h.code, h.value, tr.text(h.reason)) for h in suggest(v)], tr)


def hint_lines(ranked: list[tuple[str, float | None, str]], tr: Translator) -> str:
    """Return a hint as text: the five best choices (code, value, reason), best first."""
    lines = [
        tr.gettext(
            "Hint, best first (estimated final margin for your team; type a code to play it):"
        )
    ]
    for code, value, reason in ranked[:5]:
        shown = "" if value is None else f"{value:+.2f}"
        lines.append(f"  - {code:8} {shown:>8}  {reason}")
    return "\n".join(lines)


def describe_score(data: dict[str, Any], tr: Translator) -> str:
    """Return tricks won by each team and the running score as the game counts it, as far
    as the seat of a JSON view can see, with its parts and how it is counted."""
    tricks = [0, 0]
    for t in data["tricks"]:
        tricks[team_of(t["winner"])] += 1
    lines = [
        "  " + tr.text(nmsg("%(team)s: %(n)d trick", "%(team)s: %(n)d tricks", n, team=TEAMS[t]))
        for t, n in enumerate(tricks)
    ]
    tally = data["score"]
    score = Msg(
        "Score: North-South %(ns)s, East-West %(ew)s",
        ns=amount(tally["unit"], tally["NS"]),
        ew=amount(tally["unit"], tally["EW"]),
    )
    lines.append("  " + tr.text(score))
    for part in tally["parts"]:
        row = tr.text(Msg("%(label)s: North-South %(ns)s, East-West %(ew)s", label=part["label"],
                          ns=part["NS"], ew=part["EW"]))  # fmt: skip
        if part["note"]:  # what the part counts, with the deal's own numbers
            row += f" ({part['note']})"
        lines.append(textwrap.fill(row, WIDTH, initial_indent="    ", subsequent_indent="      "))
    lines.append(textwrap.fill(tally["how"], WIDTH, initial_indent="  ", subsequent_indent="  "))
    return "\n".join(lines)


# -- the kept deals: `tarocchi history` ----------------------------------------------------


def deals_dir() -> Path:
    """Return the folder of the kept deals: $TAROCCHI_DATA/deals, else the platform's."""
    from platformdirs import user_data_dir

    return Path(os.environ.get(DATA_ENV) or user_data_dir("tarocchi")) / "deals"


def keep(entry: Mapping[str, object], narrator: Teller, key: str | None = None) -> None:
    """Keep a finished deal's record or a quit deal's note for `tarocchi history` (with a
    key, once: a deal kept under it before is not kept again)."""
    folder = deals_dir()
    stamp = str(entry["finished_at"]).replace(":", "").replace("+0000", "Z")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if key is not None and any(folder.glob(f"*-{key}.json")):
            return
        path = folder / f"{stamp}-{entry['game']}-{key or secrets.token_hex(3)}.json"
        path.write_text(json.dumps(entry) + "\n", encoding="utf-8")
    except OSError as e:
        narrator.say(narrator.tr.gettext("Cannot save the record: %(reason)s")
                     % {"reason": e.strerror})  # fmt: skip


class KeptDeal(TypedDict):
    """A kept deal as `tarocchi history` lists it."""

    game: str
    level: str
    when: str  # when it ended, ISO 8601
    result: str  # "win", "draw", "loss" or "left"
    margin: float | None  # None: left


def kept(game_name: str | None, level: str | None) -> list[KeptDeal]:
    """Return the kept deals of a game and a level (None: any), newest first, each with its
    game, level, end, result and margin (None: quit); unreadable files are skipped."""
    out: list[KeptDeal] = []
    folder = deals_dir()
    for path in folder.glob("*.json") if folder.is_dir() else ():
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            if entry.get("format") == LEFT:
                margin, result, lv = None, "left", str(entry["level"])
            else:
                margin, result = ours(entry)
                lv = str(entry["level"] if entry.get("format") == SEATED
                         else entry["players"][1]["name"])  # fmt: skip
            when = str(entry["finished_at"])
            deal: KeptDeal = {"game": str(entry["game"]), "level": lv, "when": when,
                              "result": result, "margin": margin}  # fmt: skip
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            continue  # not a deal this folder keeps
        if game_name in (None, deal["game"]) and level in (None, deal["level"]):
            out.append(deal)
    return sorted(out, key=lambda d: d["when"], reverse=True)


def ours(entry: Mapping[str, object]) -> tuple[float, str]:
    """Return a kept deal's margin and result for its player's team: South's, or the seat
    `tarocchi join` played."""
    margin, result = progress.outcome(entry)
    if team_of(int(str(entry.get("seat", HUMAN)))) == team_of(HUMAN):
        return margin, result
    return -margin, {"win": "loss", "loss": "win"}.get(result, result)


def describe_history(deals: list[KeptDeal], tr: Translator) -> str:
    """Return the kept deals as text, newest first, and the statistics per game and level."""
    _ = tr.gettext
    if not deals:
        return _("No deals kept yet: play one with `tarocchi play`.")
    words = {"win": _("won"), "draw": _("drawn"), "loss": _("lost"), "left": _("left")}
    out = [_("Deals, newest first:")]
    for d in deals:
        margin = "" if d["margin"] is None else f" {d['margin']:+g}"
        out.append(f"  {d['when'][:16].replace('T', ' ')}  {game(d['game']).title}  {d['level']}"
                   f"  {words[d['result']]}{margin}")  # fmt: skip
    out.append("")
    ended = ((d["game"], d["level"], d["result"], d["margin"]) for d in deals)
    out.extend(describe_line(progress.line(s), tr) for s in progress.sums_of(ended))
    return "\n".join(out)


def describe_line(x: progress.Line, tr: Translator) -> str:
    """Return the statistics of one game and level as a line of text."""
    text = tr.gettext(
        "%(game)s, %(level)s: deals %(deals)d, won %(wins)d, drawn %(draws)d, lost %(losses)d, "
        "left %(left)d"
    ) % {"game": game(x.game).title, "level": x.level, "deals": x.deals, "wins": x.wins,
         "draws": x.draws, "losses": x.losses, "left": x.left}  # fmt: skip
    if x.margin is not None:
        text += "; " + tr.gettext("mean margin %(mean)s (95%% interval %(low)s to %(high)s)") % {
            "mean": f"{x.margin.mean:+.1f}", "low": f"{x.margin.low:+.1f}",
            "high": f"{x.margin.high:+.1f}"}  # fmt: skip
    return text
