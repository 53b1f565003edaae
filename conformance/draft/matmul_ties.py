"""Matrix-product rows: "X和A@B shape不一致" as an ``expr`` clause ``X.shape == A.shape[:-1] +
B.shape[-1:]`` with the draws keeping it (X drawn as the product of A's and B's draws) and breaking
it alone (the product's last dimension one more); the test "A and B are matrices the page does
not transpose" the k tie of "A和B不满足相乘条件" (dim_ties.py) shares; and the operands taken out of
the uncoded broadcast relations the usage notes put them in. The phrasings: matmul_phrasings.py.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft import outer_ties
from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.matmul_phrasings import broadcast_note
from conformance.draft.shape_draws import Shapes, drop_unused

KIND = "product_shape"
# A parameter that may transpose an operand ("transposeX1", "permX2", "transA"): the shapes then do
# not say which dimension is k
_TRANSPOSING = re.compile(r"trans|perm", re.IGNORECASE)


def matrices(ctx: Context, tensors: set[str]) -> bool:
    """Whether a product of ``tensors`` is one of plain matrices: each a matrix by the table (rank
    2: no batch dimensions to broadcast) and no parameter of the page transposing them (then k is
    another dimension)."""
    rows = [ctx.rows.get(t) for t in tensors]
    return all(r is not None and r.rank == (2, 2) for r in rows) \
        and not any(_TRANSPOSING.search(name) for name in ctx.params)


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One coded expr clause per "X和A@B shape不一致" row on plain required tensors, A and B matrices."""
    out = []
    for e in evidence:
        x, a, b = e.limits["product"]
        tensors = {x, a, b}
        if len(tensors) < 3 or not expressible(*tensors) or not matrices(ctx, {a, b}) or not all(
                t in ctx.tensors and ctx.params[t]["kind"] == "tensor" and not ctx.params[t].get("optional")
                for t in tensors):
            continue
        requires = [cid for cid, params in null_ids.items() if set(params) & tensors]
        text = f"{a}.rank != 2 or {b}.rank != 2 or {x}.shape == {a}.shape[:-1] + {b}.shape[-1:]"
        out.append({"id": ctx.new_id("DIM"), "source": source([e.sentence]), "kind": "expr",
                    "requires": requires, "all": [text], "on_violation": e.status, "_evidence": [e],
                    "_product": (x, a, b)})
    return out


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """Each product clause's draws (``draws`` and ``args`` gain them) and ``break``; the tensors
    drawn so. One whose tensor cannot be drawn so (not a free shape of its own class, or a class
    holding an operand) is removed and its row reviewed."""
    tied: set[str] = set()
    for c in list(clauses_):
        if "_product" not in c:
            continue
        x, a, b = c["_product"]
        base, members = args.get(x), s.members(x)
        if not _free(s, draws, args, base, members, {a, b}):
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(x)), "matrix product shape")
            continue
        left, right = args[a], args[b]
        name = f"{x}_product_shape"
        draws[name] = {"expr": f"{left}[:-1] + {right}[-1:]"}
        s.ranges[name] = (2, 2)
        for t in members:
            args[t] = name
        c["break"] = {name: {"expr": f"{left}[:-1] + [{right}[-1] + 1]"}}
        drop_unused(draws, args, clauses_, base)
        tied |= set(members) | _broadcast_into(s, draws, args, clauses_, (x, a, b), name)
    return tied


def _broadcast_into(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
                    product: tuple[str, str, str], drawn: str) -> set[str]:
    """The tensors a usage note says broadcast with the product ("self: 需要与mat1@mat2满足broadcast关系")
    drawn inside it (a sub_broadcast of its draw), where each is a free shape of its own class:
    their valid cases were a guess beside it. The note itself stays for review (no clause)."""
    _, a, b = product
    note = broadcast_note(a, b)
    moved = set()
    for row in s.ctx.facts.params:
        t, base = row.name, args.get(row.name)
        if t in product or not any(note.search(u.text) for u in row.usage) or not _alone(s, draws, args, t):
            continue
        low = max(s.ranges.get(base, (0, 0))[0], 0)
        name = f"{t}_broadcast_shape"
        draws[name] = {"sub_broadcast": drawn, "min_rank": low}
        s.ranges[name] = (low, 2)
        args[t] = name
        drop_unused(draws, args, clauses_, base)
        moved.add(t)
    return moved


def _free(s: Shapes, draws: dict[str, Any], args: dict[str, Any], base: Any, members: list[str],
          operands: set[str]) -> bool:
    """Whether the tensor's class may be drawn as the product: its draw a free shape (not a
    broadcast operand or a derived one) of rank 2 among its ranks, no operand in the class, and
    the operands drawn by name."""
    if not isinstance(base, str) or "shape" not in draws.get(base, {}) or operands & set(members):
        return False
    if any(args.get(t) != base for t in members) or not all(isinstance(args.get(o), str) for o in operands):
        return False
    low, high = s.ranges.get(base, (0, 0))
    return low <= 2 <= high


def _alone(s: Shapes, draws: dict[str, Any], args: dict[str, Any], t: str) -> bool:
    """Whether tensor ``t`` has a free shape draw no other tensor uses."""
    base = args.get(t)
    return t in s.ctx.tensors and s.members(t) == [t] and isinstance(base, str) \
        and "shape" in draws.get(base, {}) and not any(args.get(o) == base for o in s.ctx.tensors if o != t)


def unbroadcast_operands(ctx: Context, built: list[Clause], review: Review) -> list[Clause]:
    """The clauses with the matrices of a matrix product (and the vectors of an outer product,
    outer_ties.py) out of the uncoded broadcast relations
    (dropped when one tensor is left): "mat1: 需要与self、mat2满足broadcast关系" beside "mat1和mat2不满足
    相乘条件" cannot mean elementwise broadcasting ([m, k] against [k, n]); drawn inside one broadcast
    group the operands could not keep their k tie. The notes such a relation quoted are reviewed."""
    operands = {t for c in built if "_dim_tie" in c and "matmul" in c["_evidence"][0].limits
                for t in (c["_dim_tie"][0][0], c["_dim_tie"][0][2])} | outer_ties.operands(built)
    out = []
    for c in built:
        if c["kind"] == "broadcastable" and operands & set(c["params"]) \
                and not str(c.get("on_violation")).startswith("ACLNN_"):
            _review_notes(ctx, c, review)
            c = {**c, "params": [p for p in c["params"] if p not in operands]}
            if len(c["params"]) < 2:
                continue
        out.append(c)
    return out


def _review_notes(ctx: Context, clause: Clause, review: Review) -> None:
    quoted = set(clause["source"]["quote"].split(" / "))
    for row in ctx.facts.params:
        for note in row.usage:
            if note.text in quoted:
                review(note, "cannot broadcast")
