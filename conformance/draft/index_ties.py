"""Error rows tying an index-style operator's shapes along its int attribute ``dim`` (the
phrasings: index_phrasings.py): ``expr`` clauses; index_draws.py draws them.

- dim size ("index的shape大小和source在维度dim上的shape值不相等"):
  ``source.shape[dim % source.rank] == index.numel``;
- other dims ("self和source除了在维度dim上，其余维度上存在shape值不相等"): the shapes before and
  after dimension dim agree;
- size bound ("对于每一个维度d，有index.size(d) <= src.size(d)"; with "d != dim" every dimension
  but dim): each of index's sizes is at most the other's;
- gather shape ("out的shape不满足除dim维扩展为跟index的shape一样外，…"): ``out.shape ==
  x.shape[:d] + index.shape + x.shape[d + 1:]``.

Each is guarded by what another row says: ranks that differ ("的维度数不一致", "维度与self一致"; out's
rank not the sum of self's and index's less one), a dim out of range (the dim-range row) and a 0-d
tensor (no dimension dim to speak of).
"""
from __future__ import annotations

from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source

KIND = "index_tie"


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per row whose tensors are required plain tensors and dim an int."""
    ties: dict[tuple[Any, ...], list[Evidence]] = {}  # (a row a rowspan repeats: one clause)
    for e in evidence:
        ties.setdefault((*_tie(e.limits), e.status), []).append(e)
    out = []
    for (*tie, status), same in ties.items():
        tensors, dim = (*tie[1:3], *tie[4:]), tie[3]
        if not _plain(ctx, *tensors) or dim is not None and not _int(ctx, dim):
            continue
        line = _line(tuple(tie))
        requires = [cid for cid, params in null_ids.items() if set(params) & set(tensors)]
        out.append({"id": ctx.new_id("INDEX"), "source": source(e.sentence for e in same), "kind": "expr",
                    "requires": requires, "all": [ctx.if_given(dim, line) if dim else line],
                    "on_violation": status, "_evidence": same, "_index_tie": tuple(tie)})
    return out


def _tie(limits: dict[str, Any]) -> tuple[Any, ...]:
    """(form, first tensor, second tensor, dim): ("dim_size", source, index, dim), ("other_dims",
    a, b, dim), ("size_bound", a, b, dim or None), ("gather_shape", out, x, dim, index)."""
    if "dim_size" in limits:
        src, dim, index = limits["dim_size"]
        return "dim_size", src, index, dim
    if "gather_shape" in limits:
        return ("gather_shape", *limits["gather_shape"])
    form = "other_dims" if "other_dims" in limits else "size_bound"
    return (form, *limits[form])


def _plain(ctx: Context, *names: str) -> bool:
    return all(ctx.params.get(n, {}).get("kind") == "tensor" and not ctx.params[n].get("optional")
               for n in names) and expressible(*names)


def _int(ctx: Context, name: str) -> bool:
    return ctx.params.get(name, {}).get("kind") == "int" and expressible(name)


def _line(tie: tuple[Any, ...]) -> str:
    form, a, b, dim = tie[:4]
    if dim is None:  # (size bound on every dimension)
        return f"{a}.rank != {b}.rank or all(low <= high for low, high in zip({a}.shape, {b}.shape))"
    x = a if form in ("dim_size", "other_dims") else b  # the tensor dim is a dimension of
    guard = f"{x}.rank == 0 or {dim} < -{x}.rank or {dim} >= {x}.rank"
    d = f"{dim} % {x}.rank"
    if form == "dim_size":
        return f"{guard} or {a}.shape[{d}] == {b}.numel"
    if form == "gather_shape":
        # (out's rank, the sum the parameter table states, is the rank rows' business: a rank row's
        # break widens self and index alone)
        return (f"{guard} or {a}.rank != {b}.rank + {tie[4]}.rank - 1 or "
                f"{a}.shape == {b}.shape[:{d}] + {tie[4]}.shape + {b}.shape[{d} + 1:]")
    a_rest, b_rest = (f"{t}.shape[:{d}] + {t}.shape[{d} + 1:]" for t in (a, b))
    if form == "other_dims":
        return f"{guard} or {a}.rank != {b}.rank or {a_rest} == {b_rest}"
    return f"{guard} or {a}.rank != {b}.rank or all(low <= high for low, high in zip({a_rest}, {b_rest}))"
