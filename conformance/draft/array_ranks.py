"""A rank row on an int array ("normalizedShape维度小于1维"): the array is a shape, its 维度 the
number of its elements, so the limit is on its length: an ``expr`` clause ``len(a) >= 1`` broken
by an array one element too short (or too long). Only rows naming one int array alone (a row
naming a tensor too is the tensor's rank limit, table_clauses.rank_in), bar a "维度大小" row naming
tensors and arrays, which states both (rank_parts.py)."""
from __future__ import annotations

from conformance.draft.context import Clause, Context, Evidence, expressible
from conformance.draft.value_rows import array_clause


def array_ranks(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    arrays = ctx.of_kind("int_array")
    clauses = []
    for e in evidence:
        found = _bounds(e.limits)
        if found is None or not _arrays_read(ctx, e, arrays):
            continue
        text, size, bad = found
        for attr in (p for p in e.params if p in arrays):
            clause = array_clause(ctx, e, attr, text.format(a=attr), _lengths=([attr], [size]),
                                  **{"break": {attr: {"expr": f"[1] * {bad}" if bad else "[]"}}})
            clause["requires"] = [cid for cid, params in null_ids.items() if attr in params]
            clauses.append(clause)
    return clauses


def _arrays_read(ctx: Context, e: Evidence, arrays: list[str]) -> bool:
    """One int array named alone, or arrays beside tensors in a "维度大小" row ("x1、x2、permX1的维度大小
    不等于3": each tensor's rank and each array's length, so every one of them has its clause)."""
    named = [p for p in e.params if p in arrays]
    if not named or not all(expressible(p) for p in named):
        return False
    return len(e.params) == 1 or ("维度大小" in e.sentence.text
                                  and all(p in arrays or p in ctx.tensors for p in e.params))


def _bounds(limits: dict[str, object]) -> tuple[str, int, int] | None:
    """(the expression over ``{a}``, a length it allows, one it does not) of a rank limit."""
    low, high, ranks = limits.get("min"), limits.get("max"), limits.get("ranks")
    if isinstance(ranks, list) and ranks:
        return f"len({{a}}) in {sorted(ranks)}", min(ranks), max(ranks) + 1
    if isinstance(low, int) and isinstance(high, int) and low <= high:
        return f"len({{a}}) >= {low} and len({{a}}) <= {high}", low, high + 1
    if isinstance(low, int) and low >= 1 and high is None:
        return f"len({{a}}) >= {low}", low, low - 1
    if isinstance(high, int) and low is None:
        return f"len({{a}}) <= {high}", min(high, 1), high + 1
    return None
