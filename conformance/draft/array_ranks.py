"""A rank row on an int array ("normalizedShape维度小于1维"): the array is a shape, its 维度 the
number of its elements, so the limit is on its length: an ``expr`` clause ``len(a) >= 1`` broken
by an array one element too short (or too long). Only rows naming nothing but int arrays: a row
naming a tensor too is the tensor's rank limit (table_clauses.rank_in) and says more."""
from __future__ import annotations

from conformance.draft.context import Clause, Context, Evidence, expressible
from conformance.draft.value_rows import array_clause


def array_ranks(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    arrays = ctx.of_kind("int_array")
    clauses = []
    for e in evidence:
        if len(e.params) != 1 or e.params[0] not in arrays or not expressible(e.params[0]):
            continue
        found = _bounds(e.limits)
        if found is None:
            continue
        attr, (text, size, bad) = e.params[0], found
        clause = array_clause(ctx, e, attr, text.format(a=attr), _lengths=([attr], [size]),
                              **{"break": {attr: {"expr": f"[1] * {bad}" if bad else "[]"}}})
        clause["requires"] = [cid for cid, params in null_ids.items() if attr in params]
        clauses.append(clause)
    return clauses


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
