"""The AI's review of a deal as terminal text (`tarocchi review FILE`, and `review` after a
deal in `tarocchi play`): each decision with its values and mark, the accuracy, the key
moments, what moved the estimate and the AI in the seat on the same cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tarocchi.i18n import Translator

if TYPE_CHECKING:
    from tarocchi.review import Decision, Review


def num(x: float) -> str:
    """Return a number as the terminal shows it: whole, else to one decimal."""
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def describe_review(r: Review, tr: Translator) -> str:
    """Return a review as text: each decision with its values and mark, the accuracy, the key
    moments and the AI in the seat on the same cards."""
    from tarocchi.review import THRESHOLDS

    _ = tr.gettext
    unit = _(r.unit)
    t = THRESHOLDS[r.game]
    out = [
        "",
        _("=== Review of %(seat)s's play ===") % {"seat": tr.seat(r.seat)},
        _(
            "Values: your team's estimated final margin (%(unit)s) from what you could see; "
            "in brackets, seeing every card (hindsight)."
        )
        % {"unit": unit},
        _("Marks by cost: inaccuracy from %(a)s, mistake from %(b)s, blunder from %(c)s.")
        % {"a": num(t.inaccuracy), "b": num(t.mistake), "c": num(t.blunder)},
        "",
    ]
    out.extend(describe_decision(d, tr) for d in r.decisions)
    out.append("")
    if r.accuracy is not None and r.average_cost is not None:
        out.append(
            _(
                "Accuracy: %(share)d%% of %(n)d valued decisions best or good; "
                "average cost %(cost)s %(unit)s."
            )
            % {
                "share": round(100 * r.accuracy),
                "n": len(r.valued),
                "cost": num(r.average_cost),
                "unit": unit,
            }
        )
    out.append(
        _("Costs in all: %(cost)s %(unit)s; final margin: %(margin)s %(unit)s.")
        % {"cost": num(r.total_cost), "margin": f"{r.margin:+g}", "unit": unit}
    )
    if r.key_moments:
        out.append(_("Key moments:"))
        for k in r.key_moments:
            d = r.decisions[k.decision]
            out.append(
                "  "
                + _("%(where)s (%(mark)s, %(cost)s %(unit)s): %(reason)s")
                % {
                    "where": where(d, tr),
                    "mark": _(k.mark),
                    "cost": num(-k.cost),
                    "unit": unit,
                    "reason": tr.text(k.reason),
                }
            )
    out.extend(describe_swings(r, tr))
    if r.ai is not None:
        out.append(describe_ai(r, tr))
    return "\n".join(out)


def describe_swings(r: Review, tr: Translator) -> list[str]:
    """Return the lines of the graph's large moves: each with its causes as large as a
    mistake (else its largest), largest first."""
    from tarocchi.review import THRESHOLDS

    if not r.swings:
        return []
    _ = tr.gettext
    unit = _(r.unit)
    lines = [_("What moved the estimate")]
    for s in r.swings:
        causes = sorted(s.causes, key=lambda c: -abs(c.change))
        named = [c for c in causes if abs(c.change) >= THRESHOLDS[r.game].mistake] or causes[:1]
        trick = s.causes[0].trick if s.causes else 1
        head = _("%(when)s: %(change)s in all") % {
            "when": tr.gettext("Trick %(n)d") % {"n": trick},
            "change": f"{s.change:+g} {unit}",
        }
        what = _("%(what)s: %(change)s")
        parts = [what % {"what": tr.text(c.label), "change": f"{c.change:+g}"} for c in named]
        lines.append(f"  {head}: " + _("; ").join(parts))
    return lines


def where(d: Decision, tr: Translator) -> str:
    """Return when a decision was taken: its trick, or its phase before the play."""
    if d.trick:
        return tr.gettext("Trick %(n)d") % {"n": d.trick}
    return {
        "discard": tr.gettext("Discard"),
        "declare": tr.gettext("Declaration"),
    }.get(d.phase, d.phase)


def describe_decision(d: Decision, tr: Translator) -> str:
    """Return one line on a decision: the choice made, its value, the best and the mark."""
    _ = tr.gettext

    def valued(code: str) -> str:
        c = d.choice(code)
        if c.fair is None:
            return code
        hindsight = "" if c.hindsight is None else f" [{c.hindsight:+.1f}]"
        return f"{code} ({c.fair:+.1f}{hindsight})"

    head = f"  {where(d, tr) + ':':12} "
    if d.kind == "forced":
        return head + _("%(made)s, your only choice: forced") % {"made": valued(d.made)}
    values = {"made": valued(d.made), "mark": _(d.mark) if d.mark else ""}
    if d.made == d.best or d.cost == 0:
        return head + _("you chose %(made)s: %(mark)s") % values
    values.update(best=valued(d.best), cost=num(-(d.cost or 0.0)))
    return head + _("you chose %(made)s, best %(best)s: %(mark)s (%(cost)s)") % values


def describe_ai(r: Review, tr: Translator) -> str:
    """Return the line comparing the seat's margin with the AI's on the same cards."""
    assert r.ai is not None
    _ = tr.gettext
    gap = r.margin - r.ai.margin
    values = {
        "level": r.ai.level,
        "you": f"{r.margin:+g}",
        "ai": f"{r.ai.margin:+g}",
        "n": num(abs(gap)),
        "unit": _(r.unit),
    }
    line = _("The AI (%(level)s) on your cards: you %(you)s, the AI in your seat %(ai)s") % values
    if gap > 0:
        return line + ": " + _("you beat it by %(n)s %(unit)s.") % values
    if gap < 0:
        return line + ": " + _("it beat you by %(n)s %(unit)s.") % values
    return line + ": " + _("the same.")
