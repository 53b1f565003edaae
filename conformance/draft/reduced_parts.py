"""Error rows saying one part of a reduction's output shape under one value of its keepdim flag
(NanMedianDim's "keepDim为true时，valuesOut或indicesOut的维度与self的维度不一致" and four more; the
phrasings: reduced_part_phrasings.py): an ``expr`` clause per row, on outputs reduction_shapes.py
draws as ``reduced(x, dim, keep)``. With d the dimension counted from 0 (``dim % x.rank``):
- rank: ``not keep or y.rank == x.rank``; ``keep or y.rank == max(x.rank - 1, 0)``;
- others: y's dimensions but d are x's (kept), y is x without d (dropped);
- one: ``y.shape[dim] == 1`` (kept).
Each after its guards (the flag's other value, a 0-d x, y of another rank, dim outside the rank:
other rows judge those). Breaks, on the first output named: the flag at the row's value and y as
the other value would reduce x ([1] beside a 0-d x); x drawn at a rank with another dimension (2,
or 1 for "one") and y's first other dimension one more, or its dimension d 2. Rows whose outputs
are not drawn so, or whose dimension is not an int, are reviewed.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, reading, source
from conformance.draft.facts import Review, Sentence

KIND = "reduced_part"
_REDUCED = re.compile(r"^reduced\((\w+), (\w+), (\w+)\)$")


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per row on tensor outputs and a bool flag (its text written once drawn)."""
    out = []
    for e in evidence:
        form, keep, value, ys, x, d = e.limits["part"]
        names = [keep, *ys, *(n for n in (x, d) if n)]
        if ctx.params.get(keep, {}).get("kind") != "bool" or not expressible(*names) \
                or any(ctx.params.get(y, {}).get("kind") != "tensor" for y in ys) \
                or (d is not None and ctx.params.get(d, {}).get("kind") != "int"):
            continue
        ctx.used.add(e.sentence)
        out.append({"id": ctx.new_id("REDUCED"), "source": source([e.sentence]), "kind": "expr",
                    "requires": [cid for cid, params in null_ids.items() if set(params) & set(names)],
                    "all": [], "on_violation": e.status, "_evidence": [e], "_part": e.limits["part"]})
    return out


def _text(form: str, keep: str, value: bool, y: str, x: str, d: str) -> str:
    guard = f"{'not ' * value}{keep} or "
    if form == "rank":
        return guard + (f"{y}.rank == {x}.rank" if value else f"{y}.rank == max({x}.rank - 1, 0)")
    at = f"{d} % {x}.rank"
    guard += f"{x}.rank == 0 or {y}.rank != {x}.rank{' - 1' * (not value)} or "
    guard += f"not (-{x}.rank <= {d} < {x}.rank) or "
    without = f"{x}.shape[:{at}] + {x}.shape[{at} + 1:]"
    if form == "one":
        return f"{guard}{y}.shape[{d}] == 1"
    kept = f"{y}.shape[:{at}] + {y}.shape[{at} + 1:]" if value else f"{y}.shape"
    return f"{guard}{kept} == {without}"


def resolve(draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause], review: Review,
            where: Callable[[str], Any]) -> None:
    """Each clause's text and break from the outputs' reduced draws; a row whose outputs are not
    drawn so (the flag and dimension it names) is reviewed."""
    for c in [c for c in clauses_ if "_part" in c]:
        form, keep, value, ys, x, d = c["_part"]
        drawn = [_REDUCED.match(str(draws.get(args.get(y), {}).get("expr", ""))) for y in ys]
        found = {m.groups() for m in drawn if m}
        base, dim, flag = found.pop() if len(found) == 1 and all(drawn) else (None, None, None)
        x = x or next((t for t, a in args.items() if a == base), None)
        if base is None or flag != args.get(keep) or (d is not None and dim != args.get(d)) \
                or args.get(x) != base or not isinstance(draws.get(base, {}).get("shape"), dict):
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(ys[0])), reading(c))
            continue
        c["all"] = [_text(form, keep, value, y, x, d or next(n for n, a in args.items() if a == dim))
                    for y in ys]
        step = _break(form, value, draws, base, dim, flag, args[ys[0]])
        if step is None:
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(ys[0])), reading(c))
        else:
            c["break"] = step


def _break(form: str, value: bool, draws: dict[str, Any], base: str, dim: str, flag: str,
           y: str) -> dict[str, Any] | None:
    r = f"reduced({base}, {dim}, {value})"
    at = f"{dim} % len({base})"
    if form == "rank":  # (the other value's rank, within the rank rows' limits; [1] beside a 0-d x)
        other = f"reduced({base}, {dim}, {not value})"
        return {flag: {"sampled": [value]}, y: {"expr": f"({other} if len({base}) else [1])"}}
    least = 1 if form == "one" else 2
    shape = draws[base]["shape"]
    low, high = shape["rank"] if isinstance(shape.get("rank"), list) else (None, None)
    if not isinstance(high, int) or high < least:
        return None
    step = {base: {"shape": {**copy.deepcopy(shape), "rank": [max(low, least), high]}},
            flag: {"sampled": [value]}}
    if form == "one":
        return step | {y: {"expr": f"{base}[:{at}] + [2] + {base}[{at} + 1:]"}}
    if value:  # (the first dimension but d one more)
        bumped = f"[{r}[0] + 1] + {r}[1:] if {at} != 0 else [{r}[0]] + [{r}[1] + 1] + {r}[2:]"
        return step | {y: {"expr": f"({bumped})"}}
    return step | {y: {"expr": f"[{r}[0] + 1] + {r}[1:]"}}
