"""Minchiate's words: the public notes of a deal, the texts of its scores and ledger, and the
end-of-deal result with its breakdown.

The rules (tarocchi.games.minchiate) decide what happens and what scores; this module
says it. Every message names cards by name (a `Card` parameter, translated where it is
shown) and keeps its recipe (`Msg`), so each face shows it in the reader's language.
Section numbers (§) refer to docs/rules.md (Minchiate).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol

from tarocchi.cards import SEATS, TEAMS, Card, mask_of
from tarocchi.games.base import Event, Result, ScoreLine, tricks_note, winner_of
from tarocchi.games.minchiate_combos import Combo, combo_base, combo_name, combos, describe
from tarocchi.games.minchiate_deal import (
    CAPTURE_POINTS,
    CARDS_PAR,
    CUT,
    DEAL,
    DECLARATIONS,
    DISCARD,
    DISCARDS,
    END,
    FOLA,
    LAST_TRICK_BONUS,
    OVER,
    PLAY,
    POINTS,
    REVEAL,
    SPECIAL,
    TEAM_NAMES,
    TRICK,
    TRICKS,
    DealInfo,
    Score,
    State,
    card_points,
    end_points,
    settle,
)
from tarocchi.games.minchiate_ledger import Ledger, convert, describe_diff
from tarocchi.i18n import N_, Msg, nmsg
from tarocchi.packs.minchiate import MATTO, PACK


class Minchiate(Protocol):
    """What the words ask of Minchiate's rules: the immediate scores, the Matto payback, the
    Fola (tarocchi.games.minchiate)."""

    def scores(self, state: State) -> list[Score]: ...
    def matto_payback(self, state: State) -> tuple[int, int, int] | None: ...
    def payback_score(self, team: int, card: int) -> Score: ...
    def fola_mask(self, state: State) -> int: ...


# the end breakdown's fixed words, made once (a result is built often: searches, benchmarks)
PAYBACK_LABEL = Msg("Matto payback")
END_TOTAL_LABEL = Msg("End-of-deal total")
CARD_POINTS_LABEL = Msg("Card points in the piles")
OVER_42_LABEL = Msg("Cards over 42")
LAST_TRICK_LABEL = Msg("Last trick")
DRAW_VERDICT = Msg("A draw: equal resti.")
FINAL_DIFFERENCE_LABEL = Msg("Final difference")
RESTI_LABEL = Msg("Resti")

Key = tuple[int, int]  # (stage, index within the stage): the order of a deal's events


def cards_of(mask: int) -> list[Card]:
    """Return the cards of a mask in id order: a message parameter, each card named and the
    list joined as each language joins."""
    return [PACK.cards[c] for c in range(PACK.size) if mask >> c & 1]


def cards_in(ids: tuple[int, ...]) -> list[Card]:
    """Return the cards of ids, in that order."""
    return [PACK.cards[c] for c in ids]


def sentences(first: Msg, *more: Msg) -> Msg:
    """Return independent sentences (each a whole message) one after another."""
    out = first
    for sentence in more:
        out = Msg("%(first)s %(second)s", first=out, second=sentence)
    return out


# -- scores and the ledger ----------------------------------------------------------------------
@lru_cache(maxsize=8192)
def score_what(score: Score) -> Msg:
    """Return what a score was scored for, a noun phrase (cached: a deal's result names dozens
    of scores, and messages are immutable)."""
    stage, index = score.key
    ids = score.ids
    seat = "" if score.seat is None else SEATS[score.seat]
    if stage == CUT:
        return Msg("%(seat)s's robbing (%(cards)s)", seat=seat, cards=cards_in(ids))
    if stage == DEAL:
        return Msg("%(card)s dealt face up to %(seat)s", card=PACK.cards[ids[0]], seat=seat)
    if stage == FOLA:
        listed = cards_in(ids)
        if index == 0:
            return Msg("%(seat)s's robbing from the Fola (%(cards)s)", seat=seat, cards=listed)
        return Msg("%(seat)s's taking from the Fola (%(cards)s)", seat=seat, cards=listed)
    if stage == DECLARATIONS:
        return Msg(
            "%(seat)s's declaration of %(versicola)s",
            seat=seat,
            versicola=combo_name(ids[0], score.cards),
        )
    if stage == TRICK:
        if len(ids) == 2:
            return Msg(
                "%(card)s and %(other)s captured by %(seat)s in trick %(trick)d",
                card=PACK.cards[ids[0]],
                other=PACK.cards[ids[1]],
                seat=seat,
                trick=index + 1,
            )
        return Msg(
            "%(card)s captured by %(seat)s in trick %(trick)d",
            card=PACK.cards[ids[0]],
            seat=seat,
            trick=index + 1,
        )
    return Msg("%(card)s, given for the Matto", card=PACK.cards[ids[0]])


def ledger_text(score: Score, before: Ledger, after: Ledger) -> Msg:
    """Return the public text of a score and where it leaves the resti ledger."""
    team = TEAM_NAMES[score.team]
    made = after.ns + after.ew - before.ns - before.ew
    scored = Msg(
        "%(team)s score %(points)d for %(what)s.",
        team=team,
        points=score.points,
        what=score_what(score),
    )
    ledger = Msg(
        "Running difference: %(difference)s; resti so far: North-South %(ns)d, East-West %(ew)d.",
        difference=describe_diff(after.diff),
        ns=after.ns,
        ew=after.ew,
    )
    if made:
        resti = nmsg("%(team)s make %(n)d resto.", "%(team)s make %(n)d resti.", made, team=team)
        return sentences(scored, resti, ledger)
    return sentences(scored, ledger)


PAYBACK_TEXTS = (
    N_(
        "The Matto lost trick %(trick)d to %(winners)s, so %(owners)s give them %(card)s "
        "from their pile."
    ),
    N_(
        "The Matto lost trick %(trick)d to %(winners)s, so %(owners)s give them the Matto "
        "itself, as %(owners)s won no trick from their pile."
    ),
)


def payback_text(team: int, trick_no: int, card: int) -> Msg:
    """Return the public text of the Matto payback (rules §5)."""
    return Msg(
        PAYBACK_TEXTS[card == MATTO],
        trick=trick_no + 1,
        winners=TEAM_NAMES[1 - team],
        owners=TEAM_NAMES[team],
        card=PACK.cards[card],
    )


# -- the public events ----------------------------------------------------------------------------
def public_events(rules: Minchiate, state: State) -> tuple[Event, ...]:
    """Return the pre-play sequence, the discards, declarations, the Fola once shown and every
    immediate score with the running resti ledger (rules §2, §3, §5), in order."""
    items: list[tuple[tuple[int, int, int], Event | Score]] = [
        ((*key, 0), event) for key, event in notes(rules, state)
    ]
    scores = rules.scores(state)
    if state.phase == OVER:
        payback = rules.matto_payback(state)
        if payback is not None:
            team, trick_no, card = payback
            text = payback_text(team, trick_no, card)
            pts = POINTS[card] if card != MATTO else 0
            items.append(((END, 0, 0), Event("payback", None, 1 << card, pts, text)))
            if pts:
                scores.append(rules.payback_score(team, card))
    items += [((*sc.key, 1), sc) for sc in scores]
    items.sort(key=lambda item: item[0])  # stable: notes of one stage keep their order
    ledger = Ledger()
    out: list[Event] = []
    for _, item in items:
        if isinstance(item, Event):
            out.append(item)
        else:
            after = ledger.score(item.team, item.points)
            text = ledger_text(item, ledger, after)
            out.append(Event("score", item.seat, item.cards, item.points, text))
            ledger = after
    return tuple(out)


class Notes(list[tuple[Key, Event]]):
    """The public events other than scores, each with its (stage, index) key."""

    def note(
        self, key: Key, kind: str, seat: int | None, cards: int, text: Msg, value: int = -1
    ) -> None:
        """Add an event; its value is the number of cards it shows unless given."""
        value = cards.bit_count() if value < 0 else value
        self.append((key, Event(kind, seat, cards, value, text)))


def notes(rules: Minchiate, state: State) -> Notes:
    """Return the public events other than scores, in order within each stage."""
    out = Notes()
    _cut_notes(out, state.info, state.dealer)
    _deal_notes(out, state.info, state.dealer)
    _dealer_notes(out, state.info, state.dealer)
    _discard_notes(out, state)
    for i, (seat, kind, cards, value) in enumerate(state.declared):
        base = combo_base(cards)
        text = describe(Combo(kind, cards, base, value - base))
        text = Msg("%(seat)s declares %(versicola)s.", seat=SEATS[seat], versicola=text)
        out.note((DECLARATIONS, i), "declare", seat, cards, text)
    if state.phase >= PLAY:
        _reveal_notes(out, rules, state)
    return out


def _cut_notes(out: Notes, info: DealInfo, dealer: int) -> None:
    """Note the dealer, the cut and the cutter's robbing (rules §2.1-§2.2)."""
    cutter = info.cutter
    out.note(
        (CUT, 0),
        "dealer",
        dealer,
        0,
        Msg(
            "%(dealer)s deals; %(cutter)s, on the dealer's left, cuts the pack.",
            dealer=SEATS[dealer],
            cutter=SEATS[cutter],
        ),
    )
    out.note(
        (CUT, 0),
        "cut",
        cutter,
        0,
        nmsg(
            "%(seat)s lifts %(n)d card off the top of the pack.",
            "%(seat)s lifts %(n)d cards off the top of the pack.",
            info.cut,
            seat=SEATS[cutter],
        ),
        info.cut,
    )
    n = len(info.robbed)
    if not n:
        text = Msg(
            "%(seat)s robs nothing: the bottom card of the lifted packet is neither a counting "
            "card nor a trump above 20.",
            seat=SEATS[cutter],
        )
        out.note((CUT, 0), "rob", cutter, 0, text)
        return
    text = nmsg(
        "%(seat)s robs %(n)d card from the bottom of the lifted packet (counting cards and "
        "trumps above 20, taken until one fails): %(cards)s. %(seat)s will discard as many "
        "zero-point cards to return to 21.",
        "%(seat)s robs %(n)d cards from the bottom of the lifted packet (counting cards and "
        "trumps above 20, taken until one fails): %(cards)s. %(seat)s will discard as many "
        "zero-point cards to return to 21.",
        n,
        seat=SEATS[cutter],
        cards=cards_in(info.robbed),
    )
    out.note((CUT, 0), "rob", cutter, mask_of(info.robbed), text)


def _deal_notes(out: Notes, info: DealInfo, dealer: int) -> None:
    """Note the deal, each player's last card dealt face up and the Fola (rules §2.3)."""
    out.note(
        (DEAL, 0),
        "deal",
        dealer,
        0,
        Msg(
            "%(dealer)s deals 10 cards to each player, then 11, from %(first)s round to "
            "%(dealer)s; each player's last card is dealt face up.",
            dealer=SEATS[dealer],
            first=SEATS[(dealer + 1) & 3],
        ),
    )
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        card = info.exposed[seat]
        if POINTS[card]:
            text = Msg(
                "%(seat)s's last card is dealt face up: %(card)s, worth %(points)d.",
                seat=SEATS[seat],
                card=PACK.cards[card],
                points=POINTS[card],
            )
        else:
            text = Msg(
                "%(seat)s's last card is dealt face up: %(card)s, worth nothing.",
                seat=SEATS[seat],
                card=PACK.cards[card],
            )
        out.note((DEAL, k), "expose", seat, 1 << card, text)
    n = len(info.fola)
    if n > 1:
        text = nmsg(
            "The %(n)d undealt card forms the Fola, face down.",
            "The %(n)d undealt cards form the Fola, face down.",
            n,
        )
    elif n:
        text = Msg("The one undealt card forms the Fola, face down.")
    else:
        text = Msg("No card is left undealt: the Fola starts empty.")
    out.note((DEAL, 4), "fola", None, 0, text, n)


def _dealer_notes(out: Notes, info: DealInfo, dealer: int) -> None:
    """Note the dealer's robbing and compulsory taking from the Fola (rules §2.4)."""
    name = SEATS[dealer]
    if info.fola_robbed:
        text = Msg(
            "%(seat)s turns up the Fola's top card, card by card, and robs %(cards)s "
            "(counting cards and trumps above 20).",
            seat=name,
            cards=cards_in(info.fola_robbed),
        )
        out.note((FOLA, 0), "rob", dealer, mask_of(info.fola_robbed), text)
    if info.fola_stop >= 0:
        text = Msg(
            "%(seat)s turns up %(card)s from the Fola: neither a counting card nor a trump "
            "above 20, so the robbing stops.",
            seat=name,
            card=PACK.cards[info.fola_stop],
        )
        out.note((FOLA, 0), "fola", dealer, 1 << info.fola_stop, text)
        if info.fola_taken:
            text = Msg(
                "%(seat)s must take every counting card and trump 29 left in the Fola: %(cards)s.",
                seat=name,
                cards=cards_of(info.fola_taken),
            )
        else:
            text = Msg(
                "%(seat)s looks through the Fola: no counting card or trump 29 is left.",
                seat=name,
            )
        out.note((FOLA, 1), "take", dealer, info.fola_taken, text)
    n = len(info.fola_robbed) + info.fola_taken.bit_count()
    if n:
        text = nmsg(
            "%(seat)s will discard %(n)d zero-point card to return to 21.",
            "%(seat)s will discard %(n)d zero-point cards to return to 21.",
            n,
            seat=name,
        )
        out.note((FOLA, 2), "take", dealer, 0, text, n)


def _discard_notes(out: Notes, state: State) -> None:
    """Note how many cards each discarder put face down into the Fola (rules §2.5)."""
    for who, mask in ((state.info.cutter, state.discards[0]), (state.dealer, state.discards[1])):
        if mask and (state.phase > DISCARD or state.to_move != who):
            # rules §6.2: a special card discarded for want of zero-point cards is shown
            forced = mask & SPECIAL
            text = nmsg(
                "%(seat)s discards %(n)d card face down into the Fola.",
                "%(seat)s discards %(n)d cards face down into the Fola.",
                mask.bit_count(),
                seat=SEATS[who],
            )
            if forced:
                text = sentences(
                    text,
                    Msg(
                        "Lacking zero-point cards, %(seat)s had to discard %(cards)s, which are "
                        "dead.",
                        seat=SEATS[who],
                        cards=cards_of(forced),
                    ),
                )
            out.note((DISCARDS, 0), "discard", who, forced, text)


def _reveal_notes(out: Notes, rules: Minchiate, state: State) -> None:
    """Note the Fola turned face up, with the discards in it (rules §2.6)."""
    fola = rules.fola_mask(state)
    text = Msg(
        "The Fola is turned face up: %(cards)s. It belongs to nobody and never scores.",
        cards=cards_of(fola),
    )
    out.note((REVEAL, 0), "fola", None, fola, text)
    for who, mask in ((state.info.cutter, state.discards[0]), (state.dealer, state.discards[1])):
        if mask:
            text = Msg(
                "%(seat)s's discards, now shown with the Fola: %(cards)s.",
                seat=SEATS[who],
                cards=cards_of(mask),
            )
            out.note((REVEAL, 0), "discard", who, mask, text)


# -- the result ---------------------------------------------------------------------------------
def result(rules: Minchiate, state: State) -> Result:
    """Score a finished deal (rules §5): the resti of each side, the ledger and the end
    breakdown; net resti decide, 0 is a draw."""
    if state.phase != OVER:
        raise ValueError("the deal is not over")
    ledger, entries = _ledger(rules.scores(state))
    end = settle(state.piles, ledger, state.winners[-1])
    lines: list[ScoreLine] = []
    payback = rules.matto_payback(state) if end.payback else None
    if payback is not None:
        team, trick_no, card = payback
        lines.append(ScoreLine(PAYBACK_LABEL, 0, 0, payback_text(team, trick_no, card)))
        if CAPTURE_POINTS[card]:
            entries.append(_entry(rules.payback_score(team, card), *end.ledger))
    ew_tricks = len([w for w in state.winners if w & 1])  # (piles move with the Matto)
    lines += ending(end.piles, (TRICKS - ew_tricks, ew_tricks), state.winners[-1])
    # rules §5: the end totals join the running difference in one step, then round up
    (end_ns, end_ew), final = end.points, end.final
    diff = end.ledger.diff + end_ns - end_ew
    entries.append(
        {
            "what": Msg(
                "the end-of-deal totals (%(ns)d to %(ew)d), rounded up in units of 60",
                ns=end_ns,
                ew=end_ew,
            ),
            "team": TEAMS[0] if diff > 0 else TEAMS[1] if diff < 0 else None,
            "points": abs(end_ns - end_ew),
            "difference": 0,
            "ns_resti": final.ns,
            "ew_resti": final.ew,
        }
    )
    lines += _final_lines(end.ledger, final, diff)
    extra = (
        ("ns_resti", final.ns),
        ("ew_resti", final.ew),
        ("ns_points", end_ns),
        ("ew_points", end_ew),
        ("net_resti", final.net),
        ("ledger", entries),
    )
    verdict = winner_of(final.ns, final.ew)
    return Result(final.ns, final.ew, verdict, tuple(lines), end.piles, extra)


def _entry(score: Score, diff: int, ns: int, ew: int) -> dict[str, Any]:
    """Return the ledger's entry for one immediate score, the ledger as it left it."""
    return {
        "what": score_what(score),
        "team": TEAMS[score.team],
        "points": score.points,
        "difference": diff,
        "ns_resti": ns,
        "ew_resti": ew,
    }


def _ledger(scores: list[Score]) -> tuple[Ledger, list[dict[str, Any]]]:
    """Return the running ledger after the immediate scores, with one entry per score."""
    diff = ns = ew = 0
    entries: list[dict[str, Any]] = []
    for sc in scores:
        diff, ns, ew = convert(diff, ns, ew, sc.team, sc.points)
        entries.append(_entry(sc, diff, ns, ew))
    return Ledger(diff, ns, ew), entries


def ending(piles: tuple[int, int], tricks: tuple[int, int], last: int | None) -> list[ScoreLine]:
    """Return the lines of the end-of-deal count of piles (rules §5): card points, captured
    versicole, cards over 42, the last trick (won by last; None: not played yet), the totals.
    The end counts the final piles with it, the running score the cards taken so far."""
    ns_pile, ew_pile = piles
    card_ns, card_ew = card_points(ns_pile), card_points(ew_pile)
    lines = [
        ScoreLine(
            CARD_POINTS_LABEL,
            card_ns,
            card_ew,
            tricks_note(tricks[0], tricks[1]),
        )
    ]
    for team, pile in enumerate(piles):
        found = combos(pile)
        if found:
            v = sum([c.value for c in found])
            described = describe(found[0])
            for c in found[1:]:
                described = Msg("%(first)s; %(second)s", first=described, second=describe(c))
            label = Msg("Captured versicole (%(team)s)", team=TEAM_NAMES[team])
            lines.append(ScoreLine(label, v * (1 - team), v * team, described))
    n_ns, n_ew = ns_pile.bit_count(), ew_pile.bit_count()
    over_ns, over_ew = max(0, n_ns - CARDS_PAR), max(0, n_ew - CARDS_PAR)
    note = Msg("North-South hold %(ns)d cards, East-West %(ew)d", ns=n_ns, ew=n_ew)
    lines.append(ScoreLine(OVER_42_LABEL, over_ns, over_ew, note))
    total_note = ""
    if last is None:
        total_note = Msg("so far: the last trick's 10 and the Matto payback come at the end")
    else:
        last_ns = 0 if last & 1 else LAST_TRICK_BONUS
        won_by = Msg("won by %(seat)s", seat=SEATS[last])
        lines.append(ScoreLine(LAST_TRICK_LABEL, last_ns, LAST_TRICK_BONUS - last_ns, won_by))
    end_ns, end_ew = end_points(ns_pile, ew_pile, last)
    lines.append(ScoreLine(END_TOTAL_LABEL, end_ns, end_ew, total_note))
    return lines


def _final_lines(ledger: Ledger, final: Ledger, diff: int) -> list[ScoreLine]:
    """Return the final difference and the resti lines, with the verdict (rules §5)."""
    net = final.net
    if net:
        verdict = nmsg(
            "%(team)s win by %(n)d resto.",
            "%(team)s win by %(n)d resti.",
            abs(net),
            team=TEAM_NAMES[net < 0],
        )
    else:
        verdict = DRAW_VERDICT
    made = Msg(
        "made during play: North-South %(ns)d, East-West %(ew)d; from the final difference: "
        "North-South %(made_ns)d, East-West %(made_ew)d.",
        ns=ledger.ns,
        ew=ledger.ew,
        made_ns=final.ns - ledger.ns,
        made_ew=final.ew - ledger.ew,
    )
    return [
        ScoreLine(
            FINAL_DIFFERENCE_LABEL,
            max(diff, 0),
            max(-diff, 0),
            Msg(
                "the running difference (%(before)s) plus the end totals: %(after)s; a lead of "
                "1-60 makes 1 resto, 61-120 makes 2, ...",
                before=describe_diff(ledger.diff),
                after=describe_diff(diff),
            ),
        ),
        ScoreLine(RESTI_LABEL, final.ns, final.ew, sentences(made, verdict)),
    ]
