"""Vague shape rows ("x与out的shape不满足约束", "out的shape不满足infershape结果", "out的shape与实际
不匹配") given the relation the page states elsewhere, in the usage notes of the tensors the row
names ("shape与入参x1一致", "shape为self与other broadcast之后的shape", a dropout mask's size:
bit_masks.py) or as a formula in the constraints section (shape_formulas.py).

An output list's element-count note ("shape size大于等于入参x1的shape size", list_sizes.py) is such a
relation too, a clause of its own beside the same_shape ones (list_sizes.link: the row needs all).
A row is resolved only when every tensor it names is held by such a relation, and each relation
it uses is one whose break changes a tensor the row names: a same_shape group's breaks change all
but its first tensor (in the prototype's order), a broadcast shape's break perturbs its result. A
row naming anything but tensors, or a tensor no note ties, stays a review: the page says what
the shape must be somewhere we do not read (a formula, the shape column), or not at all.

``resolve`` turns each resolved reading into same_shape / expr (broadcast shape) readings that
relations.py builds clauses from; ``relink`` then puts the row's own reading in those clauses'
evidence (so the row counts as encoded) only when every reading made from it is in a coded clause.
"""
from __future__ import annotations

from dataclasses import replace

from conformance.draft import bit_masks, list_sizes, shape_formulas
from conformance.draft.context import Clause, Context, Evidence
from conformance.draft.sentence_limits import IDENT
from conformance.draft.usage import relations

# the words of the phrasing itself, not parameters ("out的shape不满足infer_shape结果")
_WORDS = {"shape", "infershape", "infer_shape", "tensor"}
# the relations whose break changes the first tensor only
_RESULT_FIRST = ("expr", list_sizes.KIND, bit_masks.KIND, shape_formulas.KIND)


def listed(text: str) -> set[str]:
    """The names a vague shape sentence lists (its phrasing's own words left out)."""
    return {w for w in IDENT.findall(text) if w.lower() not in _WORDS}


def resolve(ctx: Context, readings: list[Evidence]) -> tuple[dict[str, list[Evidence]], dict[int, Evidence]]:
    """(kind → the readings made, id(made) → the row's own reading) for the rows the notes settle."""
    stated = _stated(ctx)
    made: dict[str, list[Evidence]] = {}
    origin: dict[int, Evidence] = {}
    for e in readings:
        for kind, group in _settle(ctx, e, stated) or []:
            limits = {"result": group[0]} if kind == "expr" else {}
            new = replace(e, kind=kind, params=group, limits=limits)
            made.setdefault(kind, []).append(new)
            origin[id(new)] = e
    return made, origin


def relink(clauses: list[Clause], origin: dict[int, Evidence]) -> None:
    """Each clause's made readings replaced by the row's reading; a row some of whose readings
    went into no coded clause is linked to none (it is not all encoded)."""
    coded = {id(e) for c in clauses if str(c.get("on_violation", "")).startswith("ACLNN_")
             for e in c.get("_evidence", [])}
    whole: dict[int, bool] = {}
    for made, row in origin.items():
        whole[id(row)] = whole.get(id(row), True) and made in coded
    for c in clauses:
        kept = []
        for e in c.get("_evidence", []):
            row = origin.get(id(e))
            if row is None:
                kept.append(e)
            elif whole[id(row)] and row not in kept:
                kept.append(row)
        if "_evidence" in c:
            c["_evidence"] = kept


def _stated(ctx: Context) -> list[tuple[str, tuple[str, ...]]]:
    """(same_shape | expr, tensors) for each shape relation the usage notes state; an expr's
    first tensor is the broadcast result (the note's owner)."""
    inputs = [t for t in ctx.tensors if ctx.params[t]["role"] == "input"]
    out = []
    for row in ctx.facts.params:
        for s in row.usage:
            for kind, group in relations(s.text, row.name, ctx.tensors, inputs):
                lists = {ctx.params[t]["kind"] == "tensor_list" for t in group}
                if kind == "same_shape" and len(lists) == 1:  # (lists relate to lists only)
                    out.append((kind, group))
                elif kind == "broadcast_of" and lists == {False} and ctx.params[group[0]]["role"] == "output":
                    out.append(("expr", group))  # (an input's would break another tensor)
    return out + list_sizes.stated(ctx) + bit_masks.stated(ctx) + shape_formulas.stated(ctx)


def _settle(ctx: Context, e: Evidence,
            stated: list[tuple[str, tuple[str, ...]]]) -> list[tuple[str, tuple[str, ...]]] | None:
    """The relations that together hold every tensor the row names, or None."""
    tensors = ctx.tensors
    row = tensors if e.limits.get("scope") == "all" else list(e.params)
    if not row or not listed(e.sentence.text) <= set(e.params) or not set(row) <= set(tensors):
        return None
    used = [(kind, _ordered(tensors, kind, group)) for kind, group in stated
            if set(_changed(tensors, kind, group)) <= set(row)]  # (never empty: groups hold two)
    used = list(dict.fromkeys(used))
    held = {t for _, group in used for t in group}
    return used if used and set(row) <= held and _one_clause(used) else None


def _one_clause(used: list[tuple[str, tuple[str, ...]]]) -> bool:
    """One broadcast shape, or same_shape groups joined by shared tensors (relations.py makes them
    one clause): a row encoded by one clause, which a draft keeps or leaves out whole. Element-count
    bounds are clauses of their own, beside at most one such (list_sizes.link ties them)."""
    sizes = [u for u in used if u[0] == list_sizes.KIND]
    if sizes:
        rest = [u for u in used if u[0] != list_sizes.KIND]
        return not rest or _one_clause(rest)
    if {kind for kind, _ in used} <= {"expr", bit_masks.KIND, shape_formulas.KIND}:
        return len(used) == 1
    if any(kind != "same_shape" for kind, _ in used):
        return False
    joined = set(used[0][1])
    rest = [set(g) for _, g in used[1:]]
    while rest:
        touching = [g for g in rest if g & joined]
        if not touching:
            return False
        for g in touching:
            joined |= g
            rest.remove(g)
    return True


def _ordered(tensors: list[str], kind: str, group: tuple[str, ...]) -> tuple[str, ...]:
    if kind in _RESULT_FIRST:  # (the result, the bounded list, or the mask first)
        return (group[0], *[t for t in tensors if t in group[1:]])
    return tuple(t for t in tensors if t in group)


def _changed(tensors: list[str], kind: str, group: tuple[str, ...]) -> tuple[str, ...]:
    """The tensors a break of the relation changes."""
    return (group[0],) if kind in _RESULT_FIRST else _ordered(tensors, kind, group)[1:]
