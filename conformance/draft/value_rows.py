"""Error rows on values the other builders do not take: every element of an int array fixed to
one value ("dilation的数值不等于1": an ``expr`` clause, broken by the drawn array with every
element one more, its length as drawn, so no length clause breaks too), a float attribute or host
scalar fixed to one ("threshold不等于0") or that must not be zero ("alpha等于0": drawn positive,
broken by 0.0)."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review


def elements_equal(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    clauses = []
    for e in evidence:
        if isinstance(e.limits["values"][0], bool):  # (a flag: fixed_flags)
            continue
        if len(e.params) == 1 and e.params[0] in ctx.of_kind("float", "scalar") and expressible(e.params[0]):
            clauses.append(fixed_value(ctx, e, e.params[0], e.limits["values"][0]))
        if len(e.params) != 1 or e.params[0] not in ctx.of_kind("int_array") or not expressible(e.params[0]):
            continue
        attr, (value,) = e.params[0], e.limits["values"]
        if value != 1:  # valid arrays are drawn all ones (generate_section): only 1 can hold for them
            continue
        text = f"len({attr}) == 0 or (min({attr}) == {value} and max({attr}) == {value})"
        clauses.append(array_clause(ctx, e, attr, text, _element_sign=(attr, value + 1)))
    return clauses


def fixed_flags(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    """"modulated参数不等于true" of a bool attribute: value_in that one value (drawn alone, the
    generate section; broken by the other). A usage note saying so without a row ("当前该参数仅支持
    取True"): value_in, ``unspecified`` (drawn alone: a case with the other value promises nothing)."""
    rows = [{"id": ctx.new_id("VALUE"), "source": source([e.sentence]), "kind": "value_in",
             "params": [e.params[0]], "values": list(e.limits["values"]), "on_violation": e.status,
             "_evidence": [e]}
            for e in evidence if len(e.params) == 1 and e.params[0] in ctx.of_kind("bool")
            and e.limits.get("single") and all(isinstance(v, bool) for v in e.limits["values"])]
    ruled = {c["params"][0] for c in rows}
    notes = []
    for name in (n for n in ctx.of_kind("bool") if n not in ruled and n in ctx.rows):
        row = ctx.rows[name]
        said = next(((s, v) for s in (row.description, *row.usage) if (v := only_flag(s.text))), None)
        if said is not None:
            ctx.used.add(said[0])
            notes.append({"id": ctx.new_id("VALUE"), "source": source([said[0]]), "kind": "value_in",
                          "params": [name], "values": said[1], "on_violation": "unspecified"})
    return rows + notes


def only_flag(text: str) -> list[bool] | None:
    """[the one value] a usage note allows a bool attribute; None."""
    m = _ONLY_FLAG.search(text)
    return [m[1].lower() == "true"] if m else None


# "当前该参数仅支持取True", "仅支持false", "只支持配置为False" (never under a condition: "…时，只支持…")
_ONLY_FLAG = re.compile(r"^(?:(?!时).)*(?:仅|只)支持(?:取|配置为|设置为|传入|取值为|值为)?\s*"
                        r"(true|false)(?![A-Za-z])", re.IGNORECASE)


def fixed_value(ctx: Context, e: Evidence, attr: str, value: int) -> Clause:
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


def same_length(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    """"begin和end和strides的长度不一致" of int arrays alone → len(begin) == len(end) == …, broken by
    the last array one element longer than drawn (``length_breaks``)."""
    clauses = []
    for e in evidence:
        arrays = [p for p in e.params if p in ctx.of_kind("int_array") and expressible(p)
                  and not ctx.params[p].get("optional")]
        if len(arrays) < 2 or len(arrays) != len(e.params):
            continue
        clauses.append({"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr",
                        "all": [f"len({arrays[0]}) == len({a})" for a in arrays[1:]],
                        "on_violation": e.status, "_evidence": [e], "_longer": arrays[-1]})
    return clauses


def length_breaks(draws: dict[str, Any], clauses: list[Clause], draw_of: Callable[[str], str],
                  review: Review) -> None:
    """A same-length clause's break: its last array drawn one element longer (the others as
    drawn); one whose array is not drawn as a run of ones goes for review."""
    for c in [c for c in clauses if "_longer" in c]:
        drawn = draws.get(draw_of(c["_longer"]), {}).get("expr", "")
        if drawn == "[1]" or drawn.startswith("[1] * "):
            c["break"] = {draw_of(c["_longer"]): {"expr": f"{drawn} + [1]"}}
        else:
            clauses.remove(c)
            review(c["_evidence"][0].sentence, "lengths differ")


def array_clause(ctx: Context, e: Evidence, attr: str, text: str, **extra: object) -> Clause:
    """The coded expr clause of one error row on the int array ``attr`` (absent: nothing to hold)."""
    text = ctx.if_given(attr, text)
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
        text = ctx.if_given(attr, text)
        # "_sign" positive: the generate section draws the attribute from positive values only
        clauses.append({"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr",
                        "all": [text], "on_violation": e.status, "_evidence": [e],
                        "break": {attr: {"sampled": [0.0]}}, "_sign": (attr, True),
                        "_reads_value": [attr] if scalar else []})
    return clauses
