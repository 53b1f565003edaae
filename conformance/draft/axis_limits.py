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
from conformance.draft.numel_ties import fresh
from conformance.draft.shape_draws import Shapes
from conformance.draft.tie_breaks import drop_guesses, settle

KIND = "axis_limit"


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per dimension a row ranges or ties (the ranks they need checked in
    ``resolve``)."""
    out = [c for e in evidence if "ties" in e.limits for c in _ties(ctx, e, null_ids)]
    for e in [e for e in evidence if "axis" in e.limits]:
        (t,) = e.params
        if t not in ctx.of_kind("tensor") or not expressible(t) or ctx.params[t].get("optional"):
            continue
        k, low, high = e.limits["axis"]
        out.append({"id": ctx.new_id("AXIS"), "source": source([e.sentence]), "kind": "expr",
                    "requires": [cid for cid, params in null_ids.items() if t in params],
                    "all": [f"{t}.rank != {_rank(e)} or {low} <= {t}.shape[{k - 1}] <= {high}"],
                    "on_violation": e.status, "_evidence": [e], "_axis": (t, k, low, high, _rank(e))})
    return out


def _ties(ctx: Context, e: Evidence, null_ids: dict[str, list[str]]) -> list[Clause]:
    """"w的维度不为2，或者第一维度和第二维度与x的第二维度不一致": w.shape[a - 1] == x.shape[k - 1] for
    each named a (the rank part is table_clauses.py's)."""
    t, ords, s, k = e.limits["ties"]
    rank = e.limits["ranks"][0]
    if not all(n in ctx.of_kind("tensor") and not ctx.params[n].get("optional") for n in (t, s)) \
            or not expressible(t, s):
        return []
    return [{"id": ctx.new_id("AXIS"), "source": source([e.sentence]), "kind": "expr",
             "requires": [cid for cid, params in null_ids.items() if {t, s} & set(params)],
             "all": [f"{t}.rank != {rank} or {s}.rank < {k} or {t}.shape[{a - 1}] == {s}.shape[{k - 1}]"],
             "on_violation": e.status, "_evidence": [e], "_axis_tie": (t, a, s, k, rank)} for a in ords]


def _rank(e: Evidence) -> int:
    """The rank the row's largest ordinal says the tensor has (the count from 1 needs it)."""
    return int(e.limits["rank"])


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """Each clause's break; one whose tensor is not drawn at exactly that rank by a shape draw of
    its own, or whose range the drawn dimensions leave, is removed and its row reviewed."""
    settle(clauses_, [c for c in clauses_ if "_axis" in c], lambda c: _past(s, draws, args, *c["_axis"]),
           review, lambda c: where(c["_axis"][0]))
    # (a row read above counts from 1 on a tensor of exactly its rank: the page counts so)
    from_one = any("_axis" in c for c in clauses_)
    return _resolve_ties(s, draws, args, clauses_, review, where, from_one)


def _past(s: Shapes, draws: dict[str, Any], args: dict[str, Any], t: str, k: int, low: int, high: int,
          rank: int) -> dict[str, Any] | None:
    """x at its rank, dimension k one past the range and the others 1; None where x is not a draw
    of its own at exactly that rank or its drawn dimensions leave the range."""
    shape = _own_shape(s, draws, args, t, rank)
    if shape is None or not (low <= shape["dims"][0] and shape["dims"][1] <= high):
        return None
    dims = [1] * rank
    dims[k - 1] = high + 1
    return {args[t]: {"expr": str(dims)}}


def _own_shape(s: Shapes, draws: dict[str, Any], args: dict[str, Any], t: str, rank: int) -> dict | None:
    """t's shape draw when it is a draw of t's own at exactly ``rank`` dimensions; else None."""
    base = args.get(t)
    shape = draws.get(base, {}).get("shape", {}) if isinstance(base, str) else {}
    return shape if shape and shape.get("rank") == [rank, rank] and s.members(t) == [t] else None


def _resolve_ties(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
                  review: Review, where: Callable[[str], Any], from_one: bool) -> set[str]:
    """The tied tensor drawn from the source's dimension, each clause broken one past it; ties whose
    count is open (the source's dimension k could be counted from 0: neither k is its rank nor the
    page counts from 1 elsewhere) or that cannot be drawn so are removed and their rows reviewed."""
    mine = [c for c in clauses_ if "_axis_tie" in c]
    before = set(args.values())
    drawn: dict[str, tuple[str, list[str]]] = {}
    for c in mine:
        t, a, src, k, rank = c["_axis_tie"]
        source_rank = draws.get(args.get(src), {}).get("shape", {}).get("rank")
        fits = _own_shape(s, draws, args, t, rank) is not None or t in drawn
        if not fits or source_rank is None or source_rank[0] != source_rank[1] or source_rank[0] < k \
                or not (k == source_rank[0] or from_one):
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(t)), "dimension tie")
            continue
        if t not in drawn:
            old = args[t]
            drawn[t] = (fresh(draws, f"{t}_axis_shape"), [f"{old}[{i}]" for i in range(rank)])
            args[t] = drawn[t][0]
        name, elements = drawn[t]
        elements[a - 1] = f"{args[src]}[{k - 1}]"
        draws[name] = {"expr": f"[{', '.join(elements)}]"}
        s.ranges[name] = (rank, rank)
    for c in [c for c in mine if c in clauses_]:
        t, a, src, k, _ = c["_axis_tie"]
        name, elements = drawn[t]
        broken = [*elements[:a - 1], f"{args[src]}[{k - 1}] + 1", *elements[a:]]
        c["break"] = {name: {"expr": f"[{', '.join(broken)}]"}}
    drop_guesses(draws, args, clauses_, before)
    return set(drawn)
