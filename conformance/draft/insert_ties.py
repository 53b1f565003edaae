"""Error rows on an output that is its input with one dimension inserted (OneHot's out: self's
shape with numClasses inserted at axis) and on the attributes saying where and how big (the
phrasings: insert_phrasings.py): ``expr`` clauses, and the draws that keep them in valid cases and
break each alone. Until read, axis and numClasses were drawn as guesses and out as self: no valid
case was one a kernel accepts.

- insert: ``n < 0 or axis < -1 or axis > x.rank or y.rank != x.rank + 1 or y.shape == (x.shape +
  [n] if axis == -1 else x.shape[:axis] + [n] + x.shape[axis:])`` (a negative count, an axis out
  of its range and a rank off by more are the other rows' to judge);
- more: ``y.rank == x.rank + 1`` (where the rank rows hold: a rank break draws every tensor
  they name at one rank);
- least: ``a >= bound`` ("axis的值小于-1");
- empty sign: ``x.numel != 0 or n > 0`` ("self为空Tensor，且numClasses小于等于0"), ``x.numel == 0 or
  n >= 0`` ("self不为空Tensor，且numClasses小于0").

Valid cases draw axis in [-1, x's rank], the count in [0, 4] (from 1 where x may be empty and an
empty x refuses 0) and y as x with the count inserted. Breaks: the count one more in y; y as x
(one dimension short); the attribute one below its bound; x non-empty with the count -1, or x
empty ([0, 1, …]) with the count 0. A tie that cannot be drawn so is removed and its row reviewed.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.insert_phrasings import note_insert
from conformance.draft.numel_ties import fresh, own
from conformance.draft.shape_draws import Shapes
from conformance.draft.tie_breaks import drop_guesses, settle

KIND = "insert_tie"
Tie = tuple[Any, ...]
_PLACES = {"insert": ("tensor", "tensor", "int", "int"), "more": ("tensor", "tensor"), "least": ("int",),
           "empty sign": ("tensor", "int")}


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per row whose names are parameters of the kinds its form reads."""
    out = []
    for e in evidence:
        tie = e.limits["insert"]
        names = tie[1:1 + len(_PLACES[tie[0]])]
        if not all(_fits(ctx, n, kind) for n, kind in zip(names, _PLACES[tie[0]])) or not expressible(*names):
            continue
        sentences = [e.sentence, *(_notes(ctx, tie) if tie[0] == "insert" else [])]
        ctx.used.update(sentences)
        requires = [cid for cid, params in null_ids.items() if set(params) & set(names)]
        out.append({"id": ctx.new_id("INSERT"), "source": source(sentences), "kind": "expr",
                    "requires": requires, "all": [_text(tie)], "on_violation": e.status,
                    "_evidence": [e], "_insert": tie})
    return out


def _notes(ctx: Context, tie: Tie) -> list[Sentence]:
    """The output's usage notes saying an insert row ("输出维度比self维度多1维，输出的shape与…一致")."""
    row = ctx.rows.get(tie[1])
    return [s for s in (row.usage if row is not None else ()) if note_insert(s.text) == tie[2:]]


def _fits(ctx: Context, name: str, kind: str) -> bool:
    p = ctx.params.get(name)
    return p is not None and p["kind"] == kind and not p.get("optional")


def _text(tie: Tie) -> str:
    form = tie[0]
    if form == "insert":
        y, x, axis, n = tie[1:]
        return (f"{n} < 0 or {axis} < -1 or {axis} > {x}.rank or {y}.rank != {x}.rank + 1 or "
                f"{y}.shape == {_inserted(f'{x}.shape', axis, n)}")
    if form == "more":
        return f"{tie[1]}.rank == {tie[2]}.rank + 1"
    if form == "least":
        return f"{tie[1]} >= {tie[2]}"
    x, n, empty, zero = tie[1:]
    return f"{x}.numel {'!=' if empty else '=='} 0 or {n} {'>' if zero else '>='} 0"


def _inserted(shape: str, axis: str, n: str) -> str:
    return f"({shape} + [{n}] if {axis} == -1 else {shape}[:{axis}] + [{n}] + {shape}[{axis}:])"


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """The attributes' and the output's draws and each clause's break; the names now drawn from
    the rows (no longer guesses). Ties that cannot be drawn so are removed and their rows reviewed."""
    mine = [c for c in clauses_ if "_insert" in c]
    before = set(args.values())
    ties = [c["_insert"] for c in mine]
    drawn = _draw(s, draws, args, ties) if mine else None
    for c in (c for c in mine if c["_insert"][0] == "more"):  # (ranks past their limits, every tensor
        c["requires"] += [d["id"] for d in clauses_ if d["kind"] == "rank_in"  # alike: the rank rows')
                          and set(d["params"]) & set(c["_insert"][1:])]
    settle(clauses_, mine, lambda c: _break(c["_insert"], draws, args, drawn), review,
           lambda c: where(c["_insert"][1]))
    drop_guesses(draws, args, clauses_, before)
    return {drawn[1], drawn[2], drawn[3]} if drawn else set()


Drawn = tuple[str, str, str, str, str]


def _draw(s: Shapes, draws: dict[str, Any], args: dict[str, Any], ties: list[Tie]) -> Drawn | None:
    """(x's draw, y, axis, count, y's draw), or None: not one insert row, x's shape not a draw of
    its own, axis or count not a draw of its own or read by another, or y of a shape class."""
    inserts = [t for t in ties if t[0] == "insert"]
    if len(inserts) != 1:
        return None
    y, x, axis, n = inserts[0][1:]
    base = args.get(x)
    if not isinstance(base, str) or "shape" not in draws.get(base, {}) or not own(s, args, x) \
            or any(args.get(a) != a or a not in draws for a in (axis, n)) or s.members(y) != [y]:
        return None
    if any(re.search(rf"\b{re.escape(a)}\b", str(d)) for k, d in draws.items() if k not in (axis, n)
           for a in (axis, n)):
        return None  # (another draw reads them: moving their draws would break the order)
    may_be_empty = draws[base]["shape"].get("empty", "none") != "none"
    low = 1 if may_be_empty and any(t[0] == "empty sign" and t[3] and t[4] for t in ties) else 0
    for a in (axis, n):
        del draws[a]
    draws[axis] = {"integers": [-1, f"len({base})"]}
    draws[n] = {"integers": [low, 4]}
    name = fresh(draws, f"{y}_inserted_shape")
    draws[name] = {"expr": _inserted(base, axis, f"max({n}, 0)")}
    low_rank, high_rank = s.ranges.get(base, (0, 8))
    s.ranges[name] = (low_rank + 1, high_rank + 1)
    args[y] = name
    return base, y, axis, n, name


def _break(tie: Tie, draws: dict[str, Any], args: dict[str, Any], drawn: Drawn | None
           ) -> dict[str, Any] | None:
    form = tie[0]
    if form == "least":
        a, bound = tie[1:]
        lo = draws.get(args.get(a), {}).get("integers", [None])[0]
        fits = args.get(a) == a and isinstance(lo, int) and lo >= bound
        return {a: {"sampled": [bound - 1]}} if fits else None
    if drawn is None:
        return None
    base, y, axis, n, name = drawn
    if form == "insert":
        return {name: {"expr": _inserted(base, axis, f"max({n}, 0) + 1")}} if tie[1] == y else None
    if form == "more":
        return {name: {"expr": base}} if tie[1] == y else None
    x, count, empty, zero = tie[1:]
    if count != n or args.get(x) != base:
        return None
    below = {n: {"sampled": [0 if zero else -1]}}
    if not empty:
        return below if draws[base]["shape"].get("empty", "none") == "none" else None
    least = draws[base]["shape"]["rank"][0]
    if not isinstance(least, int):
        return None
    return {base: {"expr": f"[0] + [1] * {max(least, 1) - 1}"}, **below}
