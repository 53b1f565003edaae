"""Error rows tying tensors' spatial dimensions to an int array of their sizes (the MaxUnpool
family's outputSize; the phrasings: spatial_phrasings.py): ``expr`` clauses, and the draws that
keep them in valid cases and break each alone. Until read, outputSize was drawn as ones and out
with self's shape: nearly every valid case was one a kernel refuses.

With k spatial dimensions (H, W; or D, H, W), the last k of each tensor:
- product: ``len(a) != k or x.rank < k or prod(a) >= prod(x.shape[x.rank - k:])``;
- trailing: ``len(a) != k or y.rank < k or y.shape[y.rank - k:] == a``;
- leading: ``y.rank != x.rank or y.rank < k or y.shape[:y.rank - k] == x.shape[:x.rank - k]``
  (k from the page's other rows: this one names N and C only; tensors of two ranks, 3-d C, H, W
  beside 4-d N, C, H, W, are the rank rows' to judge).

Valid cases draw the array as x's spatial dimensions and each y as x's leading dimensions then
the array. Breaks: the array with its product one less (y follows it), y's last dimension one
more, y's first dimension one more. Trailing rows alone name no x (MaxUnpool2dBackward's: its rows
tying gradOutput's leading dimensions to self's hold under a rank condition): drawn from y, the
array would leave y's leading dimensions apart from self's, so they are reviewed. A tie that
cannot be drawn so (y sharing x's shape by a row, x's shape not a draw of its own) is removed and
its row reviewed.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, reading, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.numel_ties import fresh
from conformance.draft.shape_draws import Shapes

KIND = "spatial_tie"


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per row naming plain tensors and one required int array (a leading row
    only beside another one saying how many dimensions are spatial)."""
    ks = {e.limits["spatial"][3] for e in evidence} - {None}
    out = []
    for e in evidence:
        form, first, second, k = e.limits["spatial"]
        k = k if k is not None else (min(ks) if len(ks) == 1 else None)
        tensors = [n for n in (first, second) if ctx.params.get(n, {}).get("kind") == "tensor"]
        arrays = [n for n in (first, second) if ctx.params.get(n, {}).get("kind") == "int_array"
                  and not ctx.params[n].get("optional")]
        if k is None or len(tensors) + len(arrays) != 2 or (form == "leading") != (not arrays) \
                or not expressible(first, second):
            continue
        tie = (form, first, second, k)
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


def _text(tie: tuple[str, str, str, int]) -> str:
    form, first, second, k = tie
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
    drawn = _draw(s, draws, args, [c["_spatial"] for c in mine]) if mine else None
    for c in mine:
        step = drawn and _break(c["_spatial"], *drawn)
        if not step:
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(c["_spatial"][1])), reading(c))
            continue
        c["break"] = step
    return {drawn[1], *drawn[2]} if drawn else set()


Drawn = tuple[str, str, dict[str, str], int]


def _draw(s: Shapes, draws: dict[str, Any], args: dict[str, Any],
          ties: list[tuple[str, str, str, int]]) -> Drawn | None:
    """(x's draw, the array, {y: its draw}, k), or None: not one x (no product or leading row),
    array and k, or x's shape not a draw of its own, or the array not a guess drawn after it, or a
    y of x's shape class."""
    xs = {t[2] for t in ties if t[0] != "trailing"}
    arrays = {t[1] if t[0] == "product" else t[2] for t in ties if t[0] != "leading"}
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


def _break(tie: tuple[str, str, str, int], base: str, a: str, own: dict[str, str], k: int
           ) -> dict[str, Any] | None:
    form, first = tie[0], tie[1]
    lead = f"{base}[:len({base}) - {k}]"
    if form == "product":
        return {a: {"expr": f"[1] * {k - 1} + [max(prod({base}[len({base}) - {k}:]) - 1, 0)]"}}
    if first not in own:
        return None
    if form == "trailing":
        return {own[first]: {"expr": f"{lead} + {a}[:-1] + [{a}[-1] + 1]"}}
    return {own[first]: {"expr": f"[{base}[0] + 1] + {base}[1:len({base}) - {k}] + {a}"}}
