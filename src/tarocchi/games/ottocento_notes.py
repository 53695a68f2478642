"""Ottocento's words: the lines of a deal's result and the texts of its declarations, the
discard and the Matto's settlement (rules §3, §5 of docs/rules.md, Ottocento). The rules
(tarocchi.games.ottocento) decide what happened; this module says it.
"""

from __future__ import annotations

from functools import cache, lru_cache

from tarocchi.cards import SEATS, TEAMS, iter_bits
from tarocchi.games.base import Event, ScoreLine, exact
from tarocchi.games.ottocento_combos import Analysis, Combo, analyse
from tarocchi.i18n import Msg, joined
from tarocchi.packs.bolognese import CANONICAL_INDEX, PACK

CARD_POINTS_LABEL = Msg("Card points (counted in pairs)")


def split_value(team: int, value: int) -> tuple[int, int]:
    """Return value as (NS, EW) points for team."""
    return (value, 0) if team == 0 else (0, value)


# The lines of a result are immutable values that recur from deal to deal: built once.


@lru_cache(maxsize=4096)
def codes(mask: int) -> tuple[str, ...]:
    return tuple(PACK.codes_of(mask))


@lru_cache(maxsize=4096)
def declaration_line(seat: int, value: int, shown: int) -> ScoreLine:
    return ScoreLine(
        Msg("Declared by %(seat)s", seat=SEATS[seat]),
        *split_value(seat & 1, value),
        describe_declaration(shown),
    )


@lru_cache(maxsize=4096)
def declaration_extra(seat: int, shown: int, value: int) -> tuple[int, int, tuple[str, ...], str]:
    return (seat, value, codes(shown), describe_declaration(shown))


def card_points_line(piles: tuple[int, int], scored: tuple[float, float]) -> ScoreLine:
    """Return the card points line: what each team's pile scores, the pair counting told
    with the pile's own numbers (rules §1: each pair scores its two values minus 1)."""
    sides = [
        Msg(
            "%(team)s: %(cards)d cards worth %(points)d, minus 1 a pair: "
            "%(points)d − %(pairs)s = %(score)s",
            team=TEAMS[t],
            cards=pile.bit_count(),
            points=PACK.points_of(pile),
            pairs=exact(pile.bit_count() / 2),
            score=exact(scored[t]),
        )
        for t, pile in enumerate(piles)
    ]
    note = Msg(
        "each pair of cards scores its two values minus 1: %(ns)s; %(ew)s",
        ns=sides[0],
        ew=sides[1],
    )
    if piles[0].bit_count() & 1:  # (the two piles are odd together)
        # rules §5: piles are even once the Matto is settled; before, one may be odd
        note = Msg("%(note)s (%(half)s)", note=note, half=HALF_NOTE)
    return ScoreLine(CARD_POINTS_LABEL, scored[0], scored[1], note)


HALF_NOTE = Msg("an odd card counts its value minus a half until the Matto is settled")


def captured_lines(piles: tuple[int, int]) -> tuple[ScoreLine, ScoreLine]:
    """Return the lines of the combinations each team's pile makes (rules §3, §5)."""
    ns_found, ew_found = analyse(piles[0]), analyse(piles[1])
    return (
        ScoreLine(CAPTURED_LABELS[0], ns_found.value, 0, combos_note(ns_found)),
        ScoreLine(CAPTURED_LABELS[1], 0, ew_found.value, combos_note(ew_found)),
    )


CAPTURED_LABELS = Msg("Combinations captured by NS"), Msg("Combinations captured by EW")


def last_trick_lines(bonus: int) -> tuple[ScoreLine, ...]:
    """Return the last trick's line for each seat that may win it (rules §5: worth bonus)."""
    return tuple(
        ScoreLine(
            Msg("Last trick"),
            *split_value(s & 1, bonus),
            Msg("won by %(seat)s", seat=SEATS[s]),
        )
        for s in range(4)
    )


@cache  # at most 4 * 4 * 62 * 3 lines
def matto_line(owner: int, taker: int, settled: int, swept: int) -> ScoreLine:
    """Return the line telling where the Matto went and what was given for it (rules §5)."""
    team, other = TEAMS[owner & 1], TEAMS[1 - (owner & 1)]
    if swept == owner & 1:
        note = Msg(
            "%(team)s won no trick, so %(owner)s's Matto goes to %(other)s",
            team=team,
            owner=SEATS[owner],
            other=other,
        )
    elif settled >= 0:
        note = Msg(
            "%(owner)s's Matto fell in a trick won by %(taker)s: "
            "%(team)s keep the Matto and give %(card)s to %(other)s",
            owner=SEATS[owner],
            taker=SEATS[taker],
            team=team,
            card=PACK.cards[settled],
            other=other,
        )
    else:
        note = Msg(
            "%(owner)s's Matto fell in a trick won by its own team: no exchange",
            owner=SEATS[owner],
        )
    return ScoreLine(Msg("Matto settlement"), 0, 0, note)


@cache  # at most 4 * 1891 * 2 lines
def discard_line(dealer: int, discard: int, lost: bool) -> ScoreLine:
    """Return the line telling whose pile the discard joined (rules §2, §5)."""
    team = TEAMS[dealer & 1]
    if lost:
        note = Msg(
            "%(dealer)s discarded %(cards)s; %(team)s won no trick, so it goes to %(other)s",
            dealer=SEATS[dealer],
            cards=cards_text(discard),
            team=team,
            other=TEAMS[1 - (dealer & 1)],
        )
    else:
        note = Msg(
            "%(dealer)s discarded %(cards)s; it counts for %(team)s, the dealer's team",
            dealer=SEATS[dealer],
            cards=cards_text(discard),
            team=team,
        )
    return ScoreLine(Msg("The discard"), 0, 0, note)


@lru_cache(maxsize=4096)
def cards_text(mask: int) -> Msg:
    """Return the cards of a mask in canonical order (strongest first), named and joined."""
    return joined([PACK.cards[c] for c in sorted(iter_bits(mask), key=CANONICAL_INDEX.__getitem__)])


@lru_cache(maxsize=4096)
def declaration_event(seat: int, shown: int, value: int) -> Event:
    """Return the public event of a declaration showing cards worth value, or of a pass
    (shown 0) (rules §3)."""
    if not shown:
        text = Msg("%(seat)s passes (declares nothing)", seat=SEATS[seat])
        return Event("pass", seat, 0, 0, text)
    text = Msg(
        "%(seat)s declares %(combos)s: %(points)d points",
        seat=SEATS[seat],
        combos=describe_declaration(shown),
        points=value,
    )
    return Event("declare", seat, shown, value, text)


def describe_declaration(shown: int) -> str:
    """Return the combinations a declaration showed, e.g. "3 Kings 17, ..." (the shown cards
    score exactly what the whole hand scored)."""
    return analyse(shown).describe()


@lru_cache(maxsize=4096)
def combo_text(combo: Combo) -> str:
    return Msg("%(combo)s: %(cards)s", combo=combo.describe(), cards=cards_text(combo.cards))


@lru_cache(maxsize=4096)
def combos_note(found: Analysis) -> str:
    """Describe the combinations of a pile with their cards."""
    if not found.value:
        return Msg("no combinations")
    parts = [combo_text(x) for x in found.combos]
    if found.sets_doubled:
        parts.append(Msg("%(n)d different sets: set points doubled", n=len(found.sets)))
    if found.sequences_doubled:
        parts.append(
            Msg("%(n)d different sequences: sequence points doubled", n=len(found.sequences))
        )
    return joined(parts, "; ")
