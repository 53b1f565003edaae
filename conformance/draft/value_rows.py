"""Error rows fixing every element of an int array to one value ("dilation的数值不等于1"): an
``expr`` clause, broken by the drawn array with every element one more (its length as drawn, so
no length clause breaks too: generate_section's element breaks)."""
from __future__ import annotations

from conformance.draft.context import Clause, Context, Evidence, expressible, source


def elements_equal(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    clauses = []
    for e in evidence:
        if len(e.params) != 1 or e.params[0] not in ctx.of_kind("int_array") or not expressible(e.params[0]):
            continue
        attr, (value,) = e.params[0], e.limits["values"]
        if value != 1:  # valid arrays are drawn all ones (generate_section): only 1 can hold for them
            continue
        text = f"len({attr}) == 0 or (min({attr}) == {value} and max({attr}) == {value})"
        if ctx.params[attr].get("optional"):
            text = f"not present({attr}) or {text}"
        clauses.append({"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr",
                        "all": [text], "on_violation": e.status, "_evidence": [e],
                        "_element_sign": (attr, value + 1)})
    return clauses
