"""Error rows putting two number attributes in order ("quantMin大于quantMax", "clipValueMin的数值大于
clipValueMax") or making them equal ("numSeqs的值不等于numQueries的值"): an ``expr`` clause of the
order the row leaves valid. Valid cases draw the larger attribute one above the smaller (strictly
inside either reading of the bound), an equal one as the other; the break draws it one below (one
above, for equal ones). Only where nothing else speaks of the larger one's value: its draw is the
order's alone.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review, Sentence

_NUMBERS = ("int", "float", "scalar")
_LARGER = {"<": 1, "<=": 1, ">": 0, ">=": 0, "==": 1}  # which side of the valid order is the larger
# (the one drawn from the other)


def clauses(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    out = []
    for e in evidence:
        left, op, right = e.limits["order"]
        names = (left, right)
        if e.params != names or not all(_number(ctx, n) for n in names):
            continue
        number = {n: f"{n}.value" if ctx.params[n]["kind"] == "scalar" else n for n in names}
        larger = names[_LARGER[op]]
        out.append({"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr",
                    "all": [f"{number[left]} {op} {number[right]}"], "on_violation": e.status,
                    "_evidence": [e], "_order": (names[1 - _LARGER[op]], larger, op),
                    "_reads_value": [n for n in names if ctx.params[n]["kind"] == "scalar"]})
    return out


def draws(ctx: Context, draws: dict[str, Any], clauses: list[Clause], draw_of: Callable[[str], str],
          review: Review) -> set[str]:
    """The larger attribute drawn one above the smaller (after it), broken one below; a clause
    whose larger attribute another clause also speaks of goes for review. The attributes drawn."""
    drawn = set()
    for c in [c for c in clauses if "_order" in c]:
        smaller, larger, op = c["_order"]
        if op == "==" and _spoken(c, clauses, larger) and not _spoken(c, clauses, smaller):
            smaller, larger = larger, smaller  # (equal ones: the one nothing else speaks of is drawn)
        if _spoken(c, clauses, larger):
            clauses.remove(c)
            review(Sentence(c["source"]["quote"], c["_evidence"][0].sentence.where), "attribute order")
            continue
        draws.pop(draw_of(larger), None)
        # (expression constants are integers: a float's draw plus 1 stays a float)
        equal = op == "=="
        draws[draw_of(larger)] = {"expr": draw_of(smaller) if equal else f"{draw_of(smaller)} + 1"}
        c["break"] = {draw_of(larger): {"expr": f"{draw_of(smaller)} {'+' if equal else '-'} 1"}}
        drawn.add(larger)
    return drawn


def _spoken(c: Clause, clauses: list[Clause], name: str) -> bool:
    """Whether a clause other than ``c`` speaks of ``name``'s value."""
    return any(d is not c and d["kind"] in ("expr", "value_in") and _names(d, name) for d in clauses)


def _number(ctx: Context, name: str) -> bool:
    """A required number attribute an expression can name."""
    p = ctx.params[name]
    return expressible(name) and p["kind"] in _NUMBERS and not p.get("optional")


def _names(clause: Clause, name: str) -> bool:
    """Whether ``clause`` speaks of ``name`` (its params, or a word of its expressions)."""
    said = " ".join(clause.get("all", []))
    word = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)")
    return name in clause.get("params", ()) or word.search(said) is not None
