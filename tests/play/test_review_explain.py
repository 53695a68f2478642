"""What the review says beside its values: every large move of the graph split into causes that
sum to it, the end where a last forced card's value is, lessons that say what was lost (the
made and the best choice's differ, and neither only names the card), causes told from the
seat's view, and each decision's position as the seat saw it."""

from __future__ import annotations

import re

import pytest

from tarocchi.bots.search import kernel
from tarocchi.cards import FOOL
from tarocchi.games import GAMES, game
from tarocchi.i18n import translator
from tarocchi.review import THRESHOLDS, gaps
from tarocchi.review_explain import cause_label
from tarocchi.views import view
from tests.play.test_review import deal, quick, reviewed, states

EN = translator("en")


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.slow
def test_every_large_move_is_split_into_causes_that_sum_to_it(name: str) -> None:
    r, _ = reviewed(name)
    threshold = THRESHOLDS[name].mistake
    # (a stretch with no action between, South acting twice in a row, has nothing to split)
    large = [g for g in gaps(r.graph) if abs(g[3] - g[1]) >= threshold and g[2] > g[0]]
    assert [(s.start, s.before, s.end, s.after) for s in r.swings] == large
    for s in r.swings:
        assert s.causes and abs(sum(c.change for c in s.causes) - s.change) < 0.05
        assert all(s.start <= c.index < s.end and str(c.label) for c in s.causes)
        assert [c.index for c in s.causes] == sorted(c.index for c in s.causes)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_end_is_the_search_s_count_of_the_finished_deal(name: str) -> None:
    r = quick(name)
    final = states(name)[-1]
    end = r.graph[-1]
    assert end.kind == "end"
    k = kernel(name)  # the search's own count of the finished deal
    totals = k.playout(k.from_state(final), None)
    assert end.value == round(float(totals[0] - totals[1]), 2)
    if name != "minchiate":  # card points: the search counts the result itself
        assert end.value == r.margin
    last = r.graph[-2]
    if last.index == end.index:  # South played the deal's last card: nothing left unknown
        assert last.value == pytest.approx(end.value, abs=0.01)


def test_lessons_say_what_was_lost_not_the_card() -> None:
    lessons = 0
    for name in sorted(GAMES):
        r = quick(name)
        rules = game(name)
        costly = [k for k, d in enumerate(r.decisions) if d.mark in ("inaccuracy", "mistake",
                                                                      "blunder")]  # fmt: skip
        assert [x.decision for x in r.lessons] == costly
        for x in r.lessons:
            d = r.decisions[x.decision]
            made, best = EN.text(x.made), EN.text(x.best)
            assert made != best
            for text, code in ((made, d.made), (best, d.best)):
                a = rules.parse_action(code)
                name_en = str(rules.pack.cards[a].name_en) if a < rules.pack.size else code
                rest = text.replace(name_en, "")
                assert len(rest.split()) >= 6, text  # more than "plays the Jack of Swords"
                assert not re.fullmatch(r"(plays?|leads?) .*", text)
            lessons += 1
        for k in r.key_moments:  # the key moments say the same
            x = next(x for x in r.lessons if x.decision == k.decision)
            assert EN.text(x.made) in EN.text(k.reason) and EN.text(x.best) in EN.text(k.reason)
    assert lessons > 0


@pytest.mark.parametrize("name", sorted(GAMES))
def test_causes_say_what_the_seat_saw(name: str) -> None:
    rules = game(name)
    pack = rules.pack
    record = deal(name)
    seen = states(name)
    actions = [rules.parse_action(e["action"]) for e in record["actions"]]
    voids = set()
    for m, a in enumerate(actions):
        label = EN.text(cause_label(rules, seen, actions, 0, m))
        before, after = view(seen[m], 0), view(seen[m + 1], 0)
        if a >= pack.size:
            assert label.startswith(("South declared", "East declared", "North declared",
                                     "West declared")), label  # fmt: skip
            continue
        if len(after.tricks) > len(before.tricks):
            team = "North and South" if after.winners[-1] % 2 == 0 else "East and West"
            assert f"{team} took" in label
            for _, c in after.tricks[-1]:
                counts = pack.points[c] > 1 and c != pack.matto  # (its owner keeps the Matto)
                assert (str(pack.cards[c].name_en) in label) == counts, label
        trick = (*before.trick, (seen[m].to_move, a))
        led = next((pack.suit_of[c] for _, c in trick if pack.suit_of[c] != FOOL), None)
        void = before.phase == "play" and pack.suit_of[a] not in (led, FOOL)
        first = void and (seen[m].to_move, led) not in voids
        assert ("showed no" in label) == first, label
        if void:
            voids.add((seen[m].to_move, led))
        if not first and len(after.tricks) == len(before.tricks):
            assert str(pack.cards[a].name_en) in label


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_decision_s_position_is_the_seat_s_view(name: str) -> None:
    r = quick(name)
    rules = game(name)
    seen = states(name)
    codes = rules.pack.codes
    assert [p.index for p in r.positions] == [d.index for d in r.decisions]
    for p, d in zip(r.positions, r.decisions, strict=True):
        v = view(seen[p.index], 0)
        assert p.trick == d.trick
        assert set(p.hand) == {codes[c] for c in range(rules.pack.size) if v.hand >> c & 1}
        assert p.plays == tuple((s, codes[c]) for s, c in v.trick)
