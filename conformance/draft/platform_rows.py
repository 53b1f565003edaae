"""The error row of a call on a product line the operator does not support ("当前平台不在支持的平台
范围内", "产品型号不支持"): a ``product_in`` clause. Any otherwise valid case on a line the
product-support section marks unsupported breaks it, so it is checkable where the page marks
one; a page marking none leaves the row read (the section says it) but with nothing to break."""
from __future__ import annotations

from conformance.draft.context import Clause, Context, Evidence, source

KIND = "product_in"


def clauses(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    """One clause for the rows of the first row's code (a spec has at most one: spec/model.py)."""
    coded = [e for e in evidence if e.status.startswith("ACLNN_")]
    if not coded or not ctx.unsupported():
        return []
    mine = [e for e in coded if e.status == coded[0].status]
    return [{"id": ctx.new_id("PLATFORM"), "source": source(e.sentence for e in mine), "kind": KIND,
             "on_violation": coded[0].status, "_evidence": mine}]
