"""A literal reading of the Ottocento combination rules (rules §3), on sets of card codes.

Written to mirror the spec's pseudocode line by line, with no tables and no
bit tricks, so the engine's fast evaluator can be checked against it.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = ("SW", "BA", "CU", "CO")
SETS = (
    (("ANGEL", "WORLD", "BEGATO", "MATTO"), 18, 36),
    tuple([tuple(f"{s}-K" for s in SUITS), 17, 34]),
    tuple([tuple(f"{s}-Q" for s in SUITS), 14, 28]),
    tuple([tuple(f"{s}-N" for s in SUITS), 13, 26]),
    tuple([tuple(f"{s}-J" for s in SUITS), 12, 24]),
)
ACES = tuple(f"{s}-A" for s in SUITS)
MOORS = ("MOOR1", "MOOR2", "MOOR3", "MOOR4")


def count(family: Iterable[str], cards: set[str]) -> int:
    return sum(1 for x in family if x in cards)


def grande(cards: set[str], c: int) -> int:
    if "ANGEL" not in cards:
        return 0
    h = count(["WORLD", "SUN", "MOON"], cards)
    if h >= 2:
        length, used, prev = 1 + h, 0, False
    elif h == 1 and c >= 1:
        length, used, prev = 3, 1, True
    else:
        return 0
    for n in range(16, 4, -1):
        if f"T{n}" in cards:
            length += 1
            prev = False
        elif used < c and not prev:
            length += 1
            used += 1
            prev = True
        else:
            return length + (c - used)
    return length + count(MOORS, cards) + (c - used)


def suit_seq(cards: set[str], suit: str, c: int) -> int:
    if f"{suit}-K" not in cards:
        return 0
    f = count([f"{suit}-Q", f"{suit}-N", f"{suit}-J"], cards)
    if not (f >= 2 or (f == 1 and c >= 1)):
        return 0
    return 1 + f + (f"{suit}-A" in cards) + c


def group(family: Iterable[str], cards: set[str], c: int) -> int:
    r = count(family, cards)
    return r + c if r >= 3 or (r == 2 and c >= 1) else 0


def evaluate(codes: Iterable[str]) -> int:
    cards = set(codes)
    c = ("BEGATO" in cards) + ("MATTO" in cards)
    sets = []
    for fam, v3, v4 in SETS:
        n = count(fam, cards)
        if n >= 3:
            sets.append(v3 if n == 3 else v4)
    lengths = [grande(cards, c)] + [suit_seq(cards, s, c) for s in SUITS]
    lengths += [group(ACES, cards, c), group(MOORS, cards, c)]
    seqs = [length for length in lengths if length >= 3]
    a = sum(sets) * (2 if len(sets) >= 3 else 1)
    b = sum(10 + 5 * (length - 3) for length in seqs) * (2 if len(seqs) >= 3 else 1)
    return a + b


# -- §1, §4, §5: the pack, trick play and the end of the deal, as the spec writes them --------

LONG = ["K", "Q", "N", "J", "10", "9", "8", "7", "6", "A"]  # Swords, Batons: high to low
ROUND = ["K", "Q", "N", "J", "A", "6", "7", "8", "9", "10"]  # Cups, Coins: high to low
TRUMPS = ["ANGEL", "WORLD", "SUN", "MOON", *(f"T{n}" for n in range(16, 4, -1))]
TRUMPS += [*MOORS, "BEGATO"]
# §1: canonical order: SW, BA, CU, CO, each K Q N J 10 9 8 7 6 A; trumps ANGEL..BEGATO; MATTO
CANONICAL = [f"{s}-{r}" for s in SUITS for r in LONG] + TRUMPS + ["MATTO"]


def suit(code: str) -> str:
    if code == "MATTO":
        return "MATTO"
    return code.split("-")[0] if "-" in code else "TRUMP"


def strength(code: str) -> int:
    s = suit(code)
    if s == "TRUMP":
        if code.startswith("MOOR"):
            return 1
        if code == "BEGATO":
            return 0
        if code.startswith("T"):
            return int(code[1:])
        return {"ANGEL": 20, "WORLD": 19, "SUN": 18, "MOON": 17}[code]
    order = LONG if s in ("SW", "BA") else ROUND
    return 10 - order.index(code.split("-")[1])


def value(code: str) -> int:
    if code in ("ANGEL", "WORLD", "BEGATO", "MATTO"):
        return 5
    rank = code.split("-")[1] if "-" in code else ""
    return {"K": 5, "Q": 4, "N": 3, "J": 2}.get(rank, 1)


def cp2(pile: Iterable[str]) -> int:
    cards = list(pile)
    return 2 * sum(value(x) for x in cards) - len(cards)


def legal(hand: list[str], trick: list[str]) -> list[str]:
    others = [x for x in hand if x != "MATTO"]
    led = next((suit(x) for x in trick if x != "MATTO"), None)
    if led is None:
        ok = others
    elif any(suit(x) == led for x in others):
        ok = [x for x in others if suit(x) == led]
    elif any(suit(x) == "TRUMP" for x in others):
        ok = [x for x in others if suit(x) == "TRUMP"]
    else:
        ok = others
    return ok + (["MATTO"] if "MATTO" in hand else [])


def winner(plays: list[tuple[int, str]]) -> int:
    real = [p for p in plays if p[1] != "MATTO"]
    pool = [p for p in real if suit(p[1]) == "TRUMP"] or [
        p for p in real if suit(p[1]) == suit(real[0][1])
    ]
    best = max(strength(p[1]) for p in pool)
    return [p for p in pool if strength(p[1]) == best][-1][0]


def total(pile: set[str]) -> int:
    """Card points plus captured combinations, in half points (cp2 + 2 * evaluate)."""
    return cp2(pile) + 2 * evaluate(pile)


def end_of_deal(
    tricks: list[list[tuple[int, str]]], discard: set[str], dealer: int, declared: list[int]
) -> tuple[int, int, str | None]:
    """Return (NS total, EW total, the card given for the Matto or None) by §5, choosing the
    Matto's card by trying every candidate."""
    pile: list[set[str]] = [set(), set()]
    won = [0, 0]
    owner = taker = -1
    for plays in tricks:
        w = winner(plays)
        won[w % 2] += 1
        for seat, card in plays:
            if card == "MATTO":
                owner, taker = seat, w
                pile[seat % 2].add(card)
            else:
                pile[w % 2].add(card)
    dealer_team = dealer % 2
    pile[dealer_team] |= discard
    for t in (0, 1):
        if won[t] == 0:
            if "MATTO" in pile[t]:
                pile[t].discard("MATTO")
                pile[1 - t].add("MATTO")
            if t == dealer_team:
                pile[t] -= discard
                pile[1 - t] |= discard
    given_card = None
    o = owner % 2
    if o != taker % 2 and won[o] > 0:
        mine = [x for x in pile[o] if x != "MATTO"]
        cand = [x for x in mine if value(x) == 1]
        if not cand:
            low = min(value(x) for x in mine)
            cand = [x for x in mine if value(x) == low]

        def margin(x: str) -> int:
            return total(pile[o] - {x}) - total(pile[1 - o] | {x})

        best = max(margin(x) for x in cand)
        given_card = min((x for x in cand if margin(x) == best), key=CANONICAL.index)
        pile[o].remove(given_card)
        pile[1 - o].add(given_card)
    last = winner(tricks[-1]) % 2
    out = []
    for t in (0, 1):
        half = total(pile[t])
        assert half % 2 == 0
        out.append(half // 2 + declared[t] + (6 if last == t else 0))
    return out[0], out[1], given_card
