"""Error rows on values the other builders do not take: every element of an int array fixed to
one value ("dilation的数值不等于1": an ``expr`` clause, broken by the drawn array with every
element one more, its length as drawn, so no length clause breaks too), a float attribute or host
scalar fixed to one ("threshold不等于0") or that must not be zero ("alpha等于0": drawn positive,
broken by 0.0)."""
from __future__ import annotations

from conformance.draft.context import Clause, Context, Evidence, expressible, source


def elements_equal(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    clauses = []
    for e in evidence:
        if len(e.params) == 1 and e.params[0] in ctx.of_kind("float", "scalar") and expressible(e.params[0]):
            clauses.append(_fixed(ctx, e, e.params[0], e.limits["values"][0]))
        if len(e.params) != 1 or e.params[0] not in ctx.of_kind("int_array") or not expressible(e.params[0]):
            continue
        attr, (value,) = e.params[0], e.limits["values"]
        if value != 1:  # valid arrays are drawn all ones (generate_section): only 1 can hold for them
            continue
        text = f"len({attr}) == 0 or (min({attr}) == {value} and max({attr}) == {value})"
        clauses.append(array_clause(ctx, e, attr, text, _element_sign=(attr, value + 1)))
    return clauses


def _fixed(ctx: Context, e: Evidence, attr: str, value: int) -> Clause:
    """"threshold不等于0" of a float attribute or host scalar: drawn as that value alone (the
    generate section reads ``_fixed``), broken one above and one below it."""
    scalar = ctx.params[attr]["kind"] == "scalar"
    text = f"{attr}.value == {value}" if scalar else f"{attr} == {value}"
    if ctx.params[attr].get("optional"):
        text = f"not present({attr}) or {text}"
    return {"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr", "all": [text],
            "on_violation": e.status, "_evidence": [e],
            "break": {attr: {"sampled": [value + 1.0, value - 1.0]}},
            "_fixed": (attr, float(value)), "_reads_value": [attr] if scalar else []}


def length_bound(ctx: Context, e: Evidence, attr: str) -> Clause:
    """"repeats的参数个数超过8" → len(repeats) <= 8 (a length clause on an int array is exact):
    drawn as long as the bound allows (at least one), broken one past it."""
    if "max" in e.limits:
        n = e.limits["max"]
        return array_clause(ctx, e, attr, f"len({attr}) <= {n}", _lengths=([attr], [min(n, 1)]),
                            **{"break": {attr: {"expr": f"[1] * {n + 1}"}}})
    n = e.limits["min"]
    return array_clause(ctx, e, attr, f"len({attr}) >= {n}", _lengths=([attr], [max(n, 1)]),
                        **{"break": {attr: {"expr": f"[1] * {n - 1}"}}})


def array_clause(ctx: Context, e: Evidence, attr: str, text: str, **extra: object) -> Clause:
    """The coded expr clause of one error row on the int array ``attr`` (absent: nothing to hold)."""
    if ctx.params[attr].get("optional"):
        text = f"not present({attr}) or {text}"
    return {"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr", "all": [text],
            "on_violation": e.status, "_evidence": [e], **extra}


def nonzero(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    clauses = []
    for e in evidence:
        attr = e.params[0] if len(e.params) == 1 else ""
        if attr not in ctx.of_kind("float", "scalar") or not expressible(attr):
            continue
        scalar = ctx.params[attr]["kind"] == "scalar"
        text = f"{attr}.value != 0" if scalar else f"{attr} != 0"
        if ctx.params[attr].get("optional"):
            text = f"not present({attr}) or {text}"
        # "_sign" positive: the generate section draws the attribute from positive values only
        clauses.append({"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr",
                        "all": [text], "on_violation": e.status, "_evidence": [e],
                        "break": {attr: {"sampled": [0.0]}}, "_sign": (attr, True),
                        "_reads_value": [attr] if scalar else []})
    return clauses
