"""Build the partner-play suites in tests/data/partner_<game>.json (run by hand).

    .venv/bin/python -m tools.make_partner_suite

Each position is a real deal (explicit dealt hands, every action as a card code)
stopped where one of the partnership themes below decides a good partner's move
from what the seat can see; the acceptable moves follow from the theme's rule,
never from a bot. The deals are played by the heuristic bots up to the
position, so the history is a plausible one. A position is kept only if its
move is clear: even seeing every card (the oracle, with many playouts), the best
acceptable move beats every other by at least the game's TIE margin (the gap is stored
as `oracle_gap`; the suites were built when a second judge, with noisy playouts, also
had to agree); the lead after a trick, for one, can make overtaking the partner right
near the end of a deal, and such deals are left out.

Themes (all decided from the view of the player to move):

- load: last to play, the partner's card wins the trick: give a counting card
  that is not a master of its suit (a master may win a trick of its own) without
  overtaking, rather than a blank one (Minchiate: a King, which its 40 trumps
  make no sure winner; its counting trumps also serve versicole, so they are
  left out);
- no-overtrump: trumps were led by the partner with the highest trump still out
  (or the rest are in our hand), so it surely wins: play under it, never over;
- matto: last to play with three cards or fewer left, the opponents win and we
  cannot beat them, every other legal card counts: play the Matto, which stays
  with the team (a counting card kept may still win a later trick);
- duck: last to play, the opponents win and we cannot beat them: give the
  cheapest card (fewest points; the Matto counts as free);
- capture: last to play, the opponents win a trick holding a card that adds to
  the combinations our team's pile already holds (Ottocento and Minchiate), and
  we can win it: win it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from tarocchi.bots import make_bot
from tarocchi.bots.inference import partner, unseen
from tarocchi.cards import TRUMPS, bits
from tarocchi.games import game
from tarocchi.views import View, view
from tests.bots.test_partner_suite import DATA, position

PER_THEME = {"load": 14, "no-overtrump": 10, "matto": 6, "duck": 8, "capture": 10}


def counting(v: View, card: int) -> int:
    """Return what a card is worth in the game's own counting (0 for blanks)."""
    pack = v.rules.pack
    pts = pack.points[card]
    if v.game == "minchiate":
        return pts
    return pts if pts > 1 else 0  # Piedicavallo and Ottocento: blanks are worth 1


def beats(v: View, card: int) -> bool:
    """Return True if playing card would win the current trick for the seat."""
    after = v.rules.winning_play((*v.trick, (v.seat, card)))
    return after is not None and after[0] == v.seat


def theme_load(v: View) -> list[int] | None:
    """Last to play, the partner wins: give a counting card rather than a blank (not a
    master, which may still win a trick of its own)."""
    if len(v.trick) != 3:
        return None
    win = v.rules.winning_play(v.trick)
    if win is None or win[0] != partner(v.seat):
        return None
    pack = v.rules.pack
    out = unseen(v)
    least = 3 if v.game == "ottocento" else 2  # Ottocento: a Jack may be kept for its set
    loads = [
        c
        for c in v.legal
        if not beats(v, c)
        and c != pack.matto
        and counting(v, c) >= least
        and not (is_master(v, c, out) and v.game != "minchiate")
        and not (pack.suit_of[c] == TRUMPS and v.game == "minchiate")
    ]
    blanks = [c for c in v.legal if counting(v, c) == 0 and c != pack.matto]
    if not loads or not blanks:
        return None
    return loads


def is_master(v: View, card: int, out: int) -> bool:
    """Return True if no unseen card of card's suit (or trump) ranks above it."""
    pack = v.rules.pack
    group = pack.suit_mask[pack.suit_of[card]]
    return not out & group & ~((2 << card) - 1)


def theme_no_overtrump(v: View) -> list[int] | None:
    """The partner led the highest trump still out: play under it."""
    if len(v.trick) != 2 or v.trick[0][0] != partner(v.seat):
        return None
    pack = v.rules.pack
    lead = v.trick[0][1]
    if pack.suit_of[lead] != TRUMPS or pack.codes[lead].startswith("MOOR"):
        return None  # (an Ottocento Moor ties with the others: the last one wins)
    out = unseen(v) & pack.trump_mask & ~v.hand
    if out >> lead:  # an unseen trump above the partner's could beat it
        return None
    win = v.rules.winning_play(v.trick)
    if win is None or win[0] != partner(v.seat):
        return None
    under = [c for c in v.legal if not beats(v, c)]
    over = [c for c in v.legal if beats(v, c)]
    if not under or not over:
        return None
    return under


def theme_matto(v: View) -> list[int] | None:
    """Last to play and losing with every card but the Matto worth something."""
    if len(v.trick) != 3:
        return None
    pack = v.rules.pack
    win = v.rules.winning_play(v.trick)
    if win is None or (win[0] ^ v.seat) & 1 == 0 or pack.matto not in v.legal:
        return None
    if any(beats(v, c) for c in v.legal):
        return None
    others = [c for c in v.legal if c != pack.matto]
    if not others or min(counting(v, c) for c in others) < 2:
        return None
    if len(bits(v.hand)) > 3:
        return None  # early on, the Matto may save a better card later
    return [pack.matto]


def theme_duck(v: View) -> list[int] | None:
    """Last to play and losing: give the cheapest card."""
    if len(v.trick) != 3:
        return None
    pack = v.rules.pack
    win = v.rules.winning_play(v.trick)
    if win is None or (win[0] ^ v.seat) & 1 == 0:
        return None
    if any(beats(v, c) for c in v.legal):
        return None
    cost = {c: counting(v, c) for c in v.legal if c != pack.matto}
    if not cost:
        return None
    low = min(cost.values())
    if max(cost.values()) < low + 2:
        return None
    # the Matto also gives nothing away (it stays with the team)
    return [c for c in v.legal if c == pack.matto or cost[c] == low]


def theme_capture(v: View) -> list[int] | None:
    """Last to play, the opponents win a trick that adds to our pile's combinations."""
    if v.game == "piedicavallo" or len(v.trick) != 3:
        return None
    win = v.rules.winning_play(v.trick)
    if win is None or (win[0] ^ v.seat) & 1 == 0:
        return None
    value = _combo_value(v.game)
    ours = v.won[v.seat & 1]
    cards = 0
    for _, c in v.trick:
        if c != v.rules.pack.matto:
            cards |= 1 << c
    gain = value(ours | cards) - value(ours)
    winners = [c for c in v.legal if beats(v, c)]
    if gain < 10 or not winners or len(winners) == len(v.legal):
        return None
    return winners


def _combo_value(name: str) -> Callable[[int], int]:
    if name == "ottocento":
        from tarocchi.games.ottocento_combos import combination_value

        return combination_value
    from tarocchi.games.minchiate_combos import versicole_value

    return versicole_value


THEMES: dict[str, Callable[[View], list[int] | None]] = {
    "load": theme_load,
    "no-overtrump": theme_no_overtrump,
    "matto": theme_matto,
    "duck": theme_duck,
    "capture": theme_capture,
}


def deal_record(rules: Any, state: Any) -> dict[str, Any]:
    """Return how to rebuild the dealt state: explicit hands, or Minchiate's deck and cut."""
    codes = rules.pack.codes
    if rules.name == "minchiate":
        info = state.info
        return {"dealer": state.dealer, "deck": [codes[c] for c in info.deck], "cut": info.cut}
    return {"dealer": state.dealer, "hands": [[codes[c] for c in bits(h)] for h in state.hands]}


def positions(name: str, seeds: range) -> Iterator[dict[str, Any]]:
    """Yield themed positions found along heuristic deals."""
    rules = game(name)
    codes = rules.pack.codes
    for seed in seeds:
        state = rules.deal(seed)
        start = deal_record(rules, state)
        bots = [make_bot("heuristic", rules, seed * 4 + s) for s in range(4)]
        actions: list[str] = []
        while state.to_move is not None:
            v = view(state, state.to_move)
            if v.phase == "play" and len(v.legal) > 1:
                for theme, rule in THEMES.items():
                    ok = rule(v)
                    if ok:
                        yield {
                            "theme": theme,
                            "seed": seed,
                            **start,
                            "actions": list(actions),
                            "seat": v.seat,
                            "acceptable": sorted(codes[c] for c in ok),
                        }
                        break
            action = bots[state.to_move].choose(v)
            actions.append(rules.action_code(action))
            state = rules.apply(state, action)


def is_clear(name: str, pos: dict[str, Any], state: Any) -> float | None:
    """Return by how much the best acceptable move beats every other move for the oracle
    (the search given every card, with many playouts), or None when it does not beat them
    by the kernel's TIE: then the theme's move is not clear in this deal."""
    from tarocchi.bots.oracle import OracleBot
    from tarocchi.bots.parts import Settings
    from tarocchi.bots.search import kernel

    rules = game(name)
    v = view(state, state.to_move)
    ok = {rules.card_id(c) for c in pos["acceptable"]}
    k = kernel(name)

    class Judge(OracleBot):
        settings = Settings(playouts=4000, seconds=60.0)

    stats = Judge(rules, pos["seed"]).evaluate_state(state, v)
    assert stats is not None
    best_ok = max(st.mean for a, st in stats.items() if a in ok)
    best_other = max(st.mean for a, st in stats.items() if a not in ok)
    gap = best_ok - best_other
    return round(gap, 2) if gap >= k.TIE else None


def build(name: str) -> list[dict[str, Any]]:
    """Return a suite: per theme up to its quota, from distinct deals, clear ones only."""
    quota = dict(PER_THEME)
    if name == "piedicavallo":
        quota.pop("capture")
        quota["load"] += 6
        quota["duck"] += 4
    if name == "minchiate":
        # clear loads are rare (Kings only): more of the other themes
        for theme in ("no-overtrump", "duck", "capture"):
            quota[theme] += 3
    out: list[dict[str, Any]] = []
    used: set[int] = set()
    for pos in positions(name, range(1, 4000)):
        theme = pos["theme"]
        if quota.get(theme, 0) <= 0 or pos["seed"] in used:
            continue
        gap = is_clear(name, pos, position(name, pos))
        if gap is None:
            continue
        pos["oracle_gap"] = gap
        quota[theme] -= 1
        used.add(pos["seed"])
        out.append(pos)
        if not any(quota.values()):
            break
    return out


def main() -> None:
    """Write the suites of the games named on the command line (default: all three)."""
    import sys

    for name in sys.argv[1:] or ("piedicavallo", "ottocento", "minchiate"):
        suite = build(name)
        path = DATA / f"partner_{name}.json"
        path.write_text(json.dumps({"game": name, "positions": suite}, indent=1) + "\n")
        themes: dict[str, int] = {}
        for p in suite:
            themes[p["theme"]] = themes.get(p["theme"], 0) + 1
        print(name, len(suite), themes)


if __name__ == "__main__":
    main()
