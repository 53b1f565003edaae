"""Error rows giving each dimension of a tensor a range, counted from the front (the phrasing:
axis_phrasings.py): FlatQuant's "x的第一维度超出范围[1, 262144]，或者第二维度超出[1, 256]，或者第三维度
超出[1, 256]". One ``expr`` clause per dimension, ``x.rank != r or low <= x.shape[k - 1] <= high``.

The vendor's pages count dimensions from 0 on some pages and from 1 on others (dim_phrasings.py
reads no front ordinal for that reason); a row naming dimension r of a tensor whose rank is r
(a third dimension of a 3-D x) can only count from 1, so the row is read only where the tensor's
ranks (its table cell and rank rows) are exactly the largest ordinal it names. Valid cases keep
the draw's dimensions (1 to 4: within every range read here, or the row is reviewed); each break
draws x at rank r, that dimension one past its high end and the others 1.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.shape_draws import Shapes

KIND = "axis_limit"


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per dimension a row ranges (the rank it needs checked in ``resolve``)."""
    out = []
    for e in evidence:
        (t,) = e.params
        if t not in ctx.of_kind("tensor") or not expressible(t) or ctx.params[t].get("optional"):
            continue
        k, low, high = e.limits["axis"]
        out.append({"id": ctx.new_id("AXIS"), "source": source([e.sentence]), "kind": "expr",
                    "requires": [cid for cid, params in null_ids.items() if t in params],
                    "all": [f"{t}.rank != {_rank(e)} or {low} <= {t}.shape[{k - 1}] <= {high}"],
                    "on_violation": e.status, "_evidence": [e], "_axis": (t, k, low, high, _rank(e))})
    return out


def _rank(e: Evidence) -> int:
    """The rank the row's largest ordinal says the tensor has (the count from 1 needs it)."""
    return int(e.limits["rank"])


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """Each clause's break; one whose tensor is not drawn at exactly that rank by a shape draw of
    its own, or whose range the drawn dimensions leave, is removed and its row reviewed."""
    for c in [c for c in clauses_ if "_axis" in c]:
        t, k, low, high, rank = c["_axis"]
        base = args.get(t)
        shape = draws.get(base, {}).get("shape", {}) if isinstance(base, str) else {}
        if not shape or shape.get("rank") != [rank, rank] or s.members(t) != [t] \
                or not (low <= shape["dims"][0] and shape["dims"][1] <= high):
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(t)), "dimension range")
            continue
        dims = [1] * rank
        dims[k - 1] = high + 1
        c["break"] = {base: {"expr": str(dims)}}
    return set()
