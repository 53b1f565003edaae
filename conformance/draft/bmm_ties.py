"""Error rows on a batched matrix product of two 3-d operands and the tensor added to it (the
Baddbmm and Addbmm families, self + batch1@batch2; the phrasings: bmm_phrasings.py): ``expr``
clauses, and the draws that keep them in valid cases and break each alone. Until read, batch1,
batch2, self and out were drawn apart: nearly every valid case was one a kernel refuses.

The product P is [b, n, m] of a [b, n, k] and b [b, k, m]; summed over the batch ([n, m]) where the
result is 2-d (the out tensor's rank in the table, else the in-place tensor's: Addbmm's).
- broadcast: x broadcasts to P, ``broadcastable(x.shape, P) and broadcast(x.shape, P) == P`` (the
  result is out, whose shape the pages give as P's: a mutual broadcast past P would not be it);
  in place (x written, no out tensor) P fits into x, ``… == x.shape``;
- batch: ``a.shape[0] == b.shape[0]``;
- empty: ``(x.numel == 0) == (prod(P) == 0)``.
Each guarded by the operands' ranks (3: the rank rows judge others).

Valid cases draw b from a (its batch and k a's; k left to the k row's tie where one draws it), x
as a shape broadcasting to P (in place: P) and each out as P (a guess the review still names).
Breaks: P's last dimension 3 more than b's drew it and x's 2 more (both 2 or more, one apart: they
neither broadcast nor fit); b's batch one more; P
empty (a zero batch, or n for the summed product) beside an x of ones. In place an empty row
cannot be broken alone (x is P), so it is reviewed, as is a tie that cannot be drawn so.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.draft.context import IN_PLACE, Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review
from conformance.draft.numel_ties import fresh, own
from conformance.draft.shape_draws import Shapes
from conformance.draft.tie_breaks import drop_guesses, settle

KIND = "bmm_tie"
Tie = tuple[Any, ...]


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per row on required plain tensors whose operands the table makes 3-d."""
    out = []
    for e in evidence:
        tie = e.limits["bmm"]
        tensors = tie[1:]
        a, b = tensors[-2:]
        if not all(ctx.params.get(t, {}).get("kind") == "tensor" and not ctx.params[t].get("optional")
                   for t in tensors) or not expressible(*tensors) \
                or any(ctx.rows.get(t) is None or ctx.rows[t].rank != (3, 3) for t in (a, b)):
            continue
        summed = tie[0] != "batch" and _result_rank(ctx, tie[1]) == 2
        in_place = tie[0] != "batch" and _in_place(ctx, tie[1])
        outs = tuple(_outs(ctx))
        requires = [cid for cid, params in null_ids.items() if set(params) & set(tensors)]
        out.append({"id": ctx.new_id("BMM"), "source": source([e.sentence]), "kind": "expr",
                    "requires": requires, "all": [_text(tie, summed, in_place)], "on_violation": e.status,
                    "_evidence": [e], "_bmm": (tie, summed, in_place, outs)})
        ctx.used.add(e.sentence)
    return out


def _in_place(ctx: Context, x: str) -> bool:
    """Whether the product is written into x (an in-place call's tensor)."""
    return bool(ctx.params[x].get(IN_PLACE))


def _outs(ctx: Context) -> list[str]:
    """The tensors the call writes, the in-place one aside."""
    return [t for t in ctx.of_kind("tensor")
            if ctx.params[t]["role"] == "output" and not ctx.params[t].get(IN_PLACE)]


def _result_rank(ctx: Context, x: str) -> int | None:
    """The result's rank as the table gives it: the out tensors' largest, else x's."""
    ranks = [ctx.rows[t].rank[1] for t in _outs(ctx) or [x] if t in ctx.rows and ctx.rows[t].rank is not None]
    return max(ranks) if ranks else None


def _product(a: str, b: str, summed: bool, last: str = "") -> str:
    """P of shapes a and b (``last`` added to its last dimension)."""
    return f"[{a}[1], {b}[2]{last}]" if summed else f"[{a}[0], {a}[1], {b}[2]{last}]"


def _text(tie: Tie, summed: bool, in_place: bool) -> str:
    a, b = tie[-2:]
    guard = f"{a}.rank != 3 or {b}.rank != 3 or "
    if tie[0] == "batch":
        return f"{guard}{a}.shape[0] == {b}.shape[0]"
    x, p = tie[1], _product(f"{a}.shape", f"{b}.shape", summed)
    if tie[0] == "empty":
        return f"{guard}({x}.numel == 0) == (prod({p}) == 0)"
    into = f"{x}.shape" if in_place else p
    return f"{guard}broadcastable({x}.shape, {p}) and broadcast({x}.shape, {p}) == {into}"


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """The operands', x's and the outputs' draws and each clause's break; the names now drawn
    from the rows. Ties that cannot be drawn so are removed and their rows reviewed."""
    mine = [c for c in clauses_ if "_bmm" in c]
    before = set(args.values())
    drawn = _draw(s, draws, args, [c["_bmm"] for c in mine]) if mine else None
    settle(clauses_, mine, lambda c: drawn and _break(c["_bmm"], draws, drawn), review,
           lambda c: where(c["_bmm"][0][1]))
    drop_guesses(draws, args, clauses_, before)
    return {drawn["x"], drawn["a"], drawn["b"]} - {None} if drawn else set()


def _draw(s: Shapes, draws: dict[str, Any], args: dict[str, Any],
          readings: list[tuple[Any, ...]]) -> dict[str, Any] | None:
    """The names drawn ({"a", "b", "x": parameters; "A", "B", "cur", "X": their draws; "low": x's
    least rank}), or None: the operands not one pair, a's shape not a 3-d draw of its own, b's
    not a draw of its own (or the k row's tie of it), x not one tensor drawn on its own."""
    pairs = {tie[-2:] if tie[0] != "batch" else tie[1:3] for tie, *_ in readings}
    xs = {(tie[1], summed, in_place, outs) for tie, summed, in_place, outs in readings if tie[0] != "batch"}
    if len(pairs) != 1 or len(xs) > 1:
        return None
    ((a, b),) = pairs
    A, cur = args.get(a), args.get(b)
    if not isinstance(A, str) or draws.get(A, {}).get("shape", {}).get("rank") != [3, 3] \
            or not own(s, args, a) or not isinstance(cur, str) or cur not in draws or not own(s, args, b) \
            or not ("shape" in draws[cur] or cur.startswith(f"{b}_tied_shape")):
        return None
    B = fresh(draws, f"{b}_bmm_shape")
    draws[B] = {"expr": _operand(A, cur, draws)}
    s.ranges[B] = (3, 3)
    for t in s.members(b):
        args[t] = B
    names = {"a": a, "b": b, "x": None, "A": A, "B": B, "cur": cur, "X": None, "low": 1}
    if xs:
        ((x, summed, in_place, outs),) = xs
        if x in (a, b) or not own(s, args, x) or not isinstance(args.get(x), str):
            return None
        p, rank = _product(A, B, summed), 2 if summed else 3
        low = s.ranges.get(args[x], (1, rank))[0]
        X = fresh(draws, f"{x}_bmm_shape")
        draws[X] = {"expr": p} if in_place else {"sub_broadcast": p, "min_rank": low}
        s.ranges[X] = (rank if in_place else low, rank)
        for t in s.members(x):
            args[t] = X
        for t in (t for t in outs if t not in (a, b, x) and own(s, args, t)):
            args[t] = fresh(draws, f"{t}_bmm_shape")
            draws[args[t]], s.ranges[args[t]] = {"expr": p}, (rank, rank)
        names.update(x=x, X=X, low=low)
    return names


def _operand(A: str, cur: str, draws: dict[str, Any], batch: str = "", last: str = "") -> str:
    """b's draw from a's: its batch a's (``batch`` added), k a's unless the k row's tie draws it,
    its last dimension its own (``last`` added)."""
    if "shape" in draws[cur]:
        return f"[{A}[0]{batch}, {A}[2], {cur}[2]{last}]"
    return f"[{A}[0]{batch}] + {cur}[1:-1] + [{cur}[-1]{last}]"


def _break(reading: tuple[Any, ...], draws: dict[str, Any], n: dict[str, Any]) -> dict[str, Any] | None:
    (tie, summed, in_place, _), A, B, cur, X = reading, n["A"], n["B"], n["cur"], n["X"]
    if tie[0] == "batch":
        return {B: {"expr": _operand(A, cur, draws, batch=" + 1")}}
    if X is None or tie[1] != n["x"]:
        return None
    if tie[0] == "broadcast":  # (last dimensions of 2 or more, one apart: neither broadcasts, fits)
        return {B: {"expr": _operand(A, cur, draws, last=" + 3")},
                X: {"expr": _product(A, cur, summed, " + 2")}}
    if in_place:
        return None
    zero = "[1, 0, 1]" if summed else "[0, 1, 1]"
    return {A: {"expr": zero}, X: {"expr": f"[1] * {max(n['low'], 1)}"}}
