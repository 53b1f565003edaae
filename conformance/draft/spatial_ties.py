"""Error rows tying tensors' spatial dimensions to an int array of their sizes (the MaxUnpool
family's outputSize; the phrasings: spatial_phrasings.py): ``expr`` clauses, and the draws that
keep them in valid cases and break each alone. Until read, outputSize was drawn as ones and out
with self's shape: nearly every valid case was one a kernel refuses.

With k spatial dimensions (H, W; or D, H, W), the last k of each tensor:
- product: ``len(a) != k or x.rank < k or prod(a) >= prod(x.shape[x.rank - k:])``;
- trailing: ``len(a) != k or y.rank < k or y.shape[y.rank - k:] == a``;
- leading: ``y.rank != x.rank or y.rank < k or y.shape[:y.rank - k] == x.shape[:x.rank - k]``
  (k from the page's other rows: this one names N and C only; tensors of two ranks, 3-d C, H, W
  beside 4-d N, C, H, W, are the rank rows' to judge);
- at rank: ``x.rank != r or y.rank != r or (y.shape[0] == x.shape[0] and …)``, the leading row
  at one rank of x naming the dimensions by letter (MaxUnpool2dBackward's "当self为4维时，self与
  gradOutput在N，C维度上的size不一致"; a letter the layout at that rank lacks is for a person:
  MaxUnpool3dBackward's N of a 4-d C, D, H, W self).

Valid cases draw the array as x's spatial dimensions and each y as x's leading dimensions then
the array. Breaks: the array with its product one less (y follows it), y's last dimension one
more, y's first dimension one more (x drawn at the row's rank for an at-rank row). Trailing rows
alone name no x: drawn from y, the array would leave y's leading dimensions apart from the other
tensors', so they are reviewed. A tie that
cannot be drawn so (y sharing x's shape by a row, x's shape not a draw of its own) is removed and
its row reviewed.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review
from conformance.draft.numel_ties import fresh
from conformance.draft.shape_draws import Shapes
from conformance.draft.tie_breaks import drop_guesses, settle

KIND = "spatial_tie"
_LEADS = ("leading", "at rank")  # (the forms tying two tensors, no array)


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per row naming plain tensors and one required int array (a leading row
    only beside another one saying how many dimensions are spatial)."""
    ks = {e.limits["spatial"][3] for e in evidence} - {None}
    out = []
    for e in evidence:
        form, first, second, k, *at = e.limits["spatial"]
        k = k if k is not None else (min(ks) if len(ks) == 1 else None)
        tensors = [n for n in (first, second) if ctx.params.get(n, {}).get("kind") == "tensor"]
        arrays = [n for n in (first, second) if ctx.params.get(n, {}).get("kind") == "int_array"
                  and not ctx.params[n].get("optional")]
        if k is None or len(tensors) + len(arrays) != 2 or (form in _LEADS) != (not arrays) \
                or not expressible(first, second):
            continue
        if at:  # (the letters' dimensions at that rank; a letter its layout lacks is for a person)
            places = _places(at[0] - k, at[1])
            if places is None:
                continue
            at = [at[0], places]
        tie = (form, first, second, k, *at)
        same = next((c for c in out if c["_spatial"] == tie), None)
        if same is not None:  # (two rows saying one thing: "outputSize的乘积小于self的H轴与W轴的乘积")
            same["_evidence"].append(e)
            same["source"] = source([d.sentence for d in same["_evidence"]])
            continue
        requires = [cid for cid, params in null_ids.items() if set(params) & {first, second}]
        text = _text(tie)
        for t in dict.fromkeys(tensors):
            text = ctx.if_given(t, text)
        out.append({"id": ctx.new_id("SPATIAL"), "source": source([e.sentence]), "kind": "expr",
                    "requires": requires, "all": [text],
                    "on_violation": e.status, "_evidence": [e], "_spatial": tie})
    return out


def _places(lead: int, letters: tuple[str, ...]) -> tuple[int, ...] | None:
    """The dimensions the letters name where ``lead`` dimensions come before the spatial ones (N, C
    the first two; C alone the first); None where the layout lacks one."""
    layout = {2: "NC", 1: "C"}.get(lead, "")
    return tuple(sorted(layout.index(c) for c in letters)) if all(c in layout for c in letters) else None


def _text(tie: tuple[Any, ...]) -> str:
    form, first, second, k = tie[:4]
    if form == "at rank":
        y, x, rank, places = first, second, tie[4], tie[5]
        same = " and ".join(f"{y}.shape[{i}] == {x}.shape[{i}]" for i in places)
        return f"{x}.rank != {rank} or {y}.rank != {rank} or ({same})"
    if form == "product":
        a, x = first, second
        return f"len({a}) != {k} or {x}.rank < {k} or prod({a}) >= prod({x}.shape[{x}.rank - {k}:])"
    y = first
    if form == "trailing":
        return f"len({second}) != {k} or {y}.rank < {k} or {y}.shape[{y}.rank - {k}:] == {second}"
    x = second
    return (f"{y}.rank != {x}.rank or {y}.rank < {k} or "
            f"{y}.shape[:{y}.rank - {k}] == {x}.shape[:{x}.rank - {k}]")


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """The array's and the ys' draws and each clause's break; the names now drawn from the rows
    (no longer guesses). Ties that cannot be drawn so are removed and their rows reviewed."""
    mine = [c for c in clauses_ if "_spatial" in c]
    before = set(args.values())
    drawn = _draw(s, draws, args, [c["_spatial"] for c in mine]) if mine else None
    settle(clauses_, mine, lambda c: drawn and _break(c["_spatial"], draws, *drawn), review,
           lambda c: where(c["_spatial"][1]))
    drop_guesses(draws, args, clauses_, before)
    return {drawn[1], *drawn[2]} if drawn else set()


Drawn = tuple[str, str, dict[str, str], int]


def _draw(s: Shapes, draws: dict[str, Any], args: dict[str, Any],
          ties: list[tuple[Any, ...]]) -> Drawn | None:
    """(x's draw, the array, {y: its draw}, k), or None: not one x (no product or leading row),
    array and k, or x's shape not a draw of its own, or the array not a guess drawn after it, or a
    y of x's shape class."""
    xs = {t[2] for t in ties if t[0] != "trailing"}
    arrays = {t[1] if t[0] == "product" else t[2] for t in ties if t[0] not in _LEADS}
    ks = {t[3] for t in ties}
    ys = list(dict.fromkeys(t[1] for t in ties if t[0] != "product"))
    if len(xs) != 1 or len(arrays) != 1 or len(ks) != 1:
        return None
    (x,), (a,), (k,) = xs, arrays, ks
    base, names = args.get(x), list(draws)
    if not isinstance(base, str) or "shape" not in draws.get(base, {}) or args.get(a) != a \
            or a not in draws or names.index(a) < names.index(base) \
            or any(x in s.members(y) or s.members(y) != [y] for y in ys):
        return None
    rank = draws[base]["shape"]["rank"]
    if isinstance(rank, list) and all(isinstance(r, int) for r in rank):
        draws[base]["shape"]["rank"] = [max(rank[0], k), max(rank[1], k)]
    draws[a] = {"expr": f"{base}[len({base}) - {k}:]"}
    own = {}
    for y in ys:
        own[y] = fresh(draws, f"{y}_spatial_shape")
        draws[own[y]] = {"expr": f"{base}[:len({base}) - {k}] + {a}"}
        s.ranges[own[y]] = s.ranges.get(base, (k, 8))
        args[y] = own[y]
    return base, a, own, k


def _break(tie: tuple[Any, ...], draws: dict[str, Any], base: str, a: str, own: dict[str, str], k: int
           ) -> dict[str, Any] | None:
    form, first = tie[0], tie[1]
    lead = f"{base}[:len({base}) - {k}]"
    if form == "product":
        return {a: {"expr": f"[1] * {k - 1} + [max(prod({base}[len({base}) - {k}:]) - 1, 0)]"}}
    if first not in own:
        return None
    if form == "trailing":
        return {own[first]: {"expr": f"{lead} + {a}[:-1] + [{a}[-1] + 1]"}}
    bumped = {own[first]: {"expr": f"[{base}[0] + 1] + {base}[1:len({base}) - {k}] + {a}"}}
    if form == "leading":
        return bumped
    shape, rank = draws[base]["shape"], tie[4]  # (at rank: the base drawn at it)
    held = shape["rank"]
    if tie[5][0] != 0 or not (isinstance(held, list) and held[0] <= rank <= held[1]):
        return None
    return {base: {"shape": {**copy.deepcopy(shape), "rank": [rank, rank]}}, **bumped}
