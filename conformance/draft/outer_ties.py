"""Outer-product rows: "self不能扩展成为vec1和vec2的外积结果形状" as an ``expr`` clause: where both vectors
are 1-d, X broadcasts into ``[len(A), len(B)]`` (``A.shape + B.shape``). The usage notes of these pages
put the three in one broadcast relation ("vec1: shape需要与self满足broadcast关系"), which drew the two
vectors with one length and the output with self's shape: nearly every valid case one a kernel
refuses. The vectors are taken out of those relations (matmul_ties.unbroadcast_operands, their notes
reviewed); valid cases draw each vector 1-d, X inside their outer shape (exactly it for an in-place X,
which holds the result), and an output no clause fixes as the outer shape, reviewed as a guess. The
break: X drawn incompatible with the outer shape (or one of its dimensions moved, in place). Where a
coded rank row holds X to 2 dimensions, X past them is that row's alone.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.draft.context import IN_PLACE, Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.numel_ties import fresh
from conformance.draft.shape_draws import Shapes, drop_unused

KIND = "outer"
KEY = "_outer"  # a clause's private key: (X, A, B)


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One coded expr clause per row on three required plain tensors."""
    out = []
    for e in evidence:
        x, a, b = e.limits["outer"]
        if not expressible(x, a, b) or not all(
                ctx.params.get(t, {}).get("kind") == "tensor" and not ctx.params[t].get("optional")
                for t in (x, a, b)):
            continue
        full = f"{a}.shape + {b}.shape"
        text = (f"{a}.rank != 1 or {b}.rank != 1 or broadcastable({x}.shape, {full}) "
                f"and broadcast({x}.shape, {full}) == {full}")
        requires = [cid for cid, params in null_ids.items() if set(params) & {x, a, b}]
        out.append({"id": ctx.new_id("OUTER"), "source": source([e.sentence]), "kind": "expr",
                    "requires": requires, "all": [text], "on_violation": e.status, "_evidence": [e],
                    KEY: (x, a, b)})
    return out


def operands(built: list[Clause]) -> set[str]:
    """The vectors of the outer-product clauses (no elementwise broadcast relation holds them)."""
    return {t for c in built if KEY in c for t in c[KEY][1:]}


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """Each clause's draws and break; the tensors drawn so. A clause whose tensors are not each
    drawn alone (a vector that cannot be 1-d, X sharing its draw) is removed and its row reviewed."""
    tied: set[str] = set()
    for c in [c for c in clauses_ if KEY in c]:
        x, a, b = c.pop(KEY)
        if not all(_alone(s, draws, args, t) for t in (x, a, b)) \
                or not all(s.ranges[args[v]][0] <= 1 <= s.ranges[args[v]][1] for v in (a, b)):
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(x)), "outer product shape")
            continue
        for v in (a, b):
            draws[args[v]]["shape"]["rank"] = [1, 1]
            s.ranges[args[v]] = (1, 1)
        full = fresh(draws, f"{a}_{b}_outer_shape")
        draws[full], s.ranges[full] = {"expr": f"{args[a]} + {args[b]}"}, (2, 2)
        old = args[x]
        in_place = bool(s.ctx.params[x].get(IN_PLACE))
        name = fresh(draws, f"{x}_in_outer_shape")
        low = max(s.ranges[old][0], 0)
        draws[name] = {"expr": full} if in_place else {"sub_broadcast": full, "min_rank": min(low, 2)}
        s.ranges[name] = (2, 2) if in_place else (min(low, 2), 2)
        args[x] = name
        c["break"] = {name: {"mode": "perturb" if in_place else "incompatible"}}
        if _coded_rank_limit(clauses_, x):  # (X past 2-d is that row's: both break on X 3-d)
            c["all"] = [f"{x}.rank > 2 or {c['all'][0]}"]
        tied |= {x, a, b} | _guessed_outputs(s, args, full, (a, b), review, where)
        _retarget_empty(clauses_, old, args[a])
        drop_unused(draws, args, clauses_, old)
    return tied


def _retarget_empty(clauses_: list[Clause], old: str, vector: str) -> None:
    """A break emptying X's old draw empties the first vector's instead (X is drawn from it now)."""
    for k in clauses_:
        if k.get("break", {}).get(old) == {"mode": "zero_dim"}:
            k["break"] = {vector: {"mode": "zero_dim"}}


def _coded_rank_limit(clauses_: list[Clause], x: str) -> bool:
    """Whether a coded rank clause holds X to 2 dimensions or fewer."""
    return any(k["kind"] == "rank_in" and x in k["params"] and k.get("max", 9) <= 2
               and str(k.get("on_violation", "")).startswith("ACLNN_") for k in clauses_)


def _alone(s: Shapes, draws: dict[str, Any], args: dict[str, Any], t: str) -> bool:
    base = args.get(t)
    return s.members(t) == [t] and isinstance(base, str) and "shape" in draws.get(base, {}) \
        and not any(args.get(o) == base for o in s.ctx.tensors if o != t and o not in s.guessed)


def _guessed_outputs(s: Shapes, args: dict[str, Any], full: str, vectors: tuple[str, str],
                     review: Review, where: Callable[[str], Any]) -> set[str]:
    """Outputs whose shapes were a guess, drawn as the outer shape instead (the guess said so)."""
    outputs = [t for t in s.guessed if s.ctx.params[t]["role"] == "output" and s.members(t) == [t]]
    for t in outputs:
        args[t] = full
        review(Sentence(f"Drafted guess: {t} drawn as the outer product's shape [len({vectors[0]}), "
                        f"len({vectors[1]})], which no row says: check the generate section", where(t)),
               doc="contract")
    return set(outputs)
