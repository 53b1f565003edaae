"""A tensor's shape written as a formula in the constraints section: "需满足shape约束：updates.shape =
indices.shape + varRef.shape[1:]" (the tf-style scatter pages), which settles the row "updates的shape
不满足对应shape约束" naming that tensor alone (shape_notes.py). ``expr`` clauses, and the draws.

Read only as A = B.shape + C.shape[k:] (two other tensors, the second from its k-th dimension on),
and only where the section writes one formula for A (TfScatterAdd's page gives two, either to
hold: left for review). The clause is ``A.shape == B.shape + C.shape[k:]``. Valid cases draw A
from B's and C's draws; B, a guess until then (drawn like the first tensor), gets a draw of its
own whose ranks keep A's within A's rank limits (B's highest rank lowered: 1-D indices where A
and C may both reach 8 dimensions). The break: A's last dimension one more. A formula that
cannot be drawn so is left for review.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.numel_ties import fresh
from conformance.draft.sentence_limits import rx
from conformance.draft.shape_draws import Shapes
from conformance.draft.tie_breaks import drop_guesses, settle
from conformance.draft.words import NAME

KIND = "shape_formula"
_FORMULA = rx(rf"^(?:-\s*)?(?:需|需要)?满足\s*shape\s*约束\s*[:：]\s*(?P<a>{NAME})\.shape\s*=\s*"
              rf"(?P<b>{NAME})\.shape\s*\+\s*(?P<c>{NAME})\.shape\s*\[\s*(?P<k>\d)\s*:\s*\]\s*[。.]?$")
_ANY = rx(rf"(?P<a>{NAME})\.shape\s*=(?!=)")  # any formula for a tensor's shape
Formula = tuple[str, str, str, int]  # (A, B, C, k): A.shape = B.shape + C.shape[k:]


def formula(ctx: Context, name: str) -> tuple[Formula, Sentence] | None:
    """The one formula the constraints section writes for ``name``'s shape, and its sentence."""
    said = [s for s in ctx.facts.constraints for m in _ANY.finditer(s.text) if m["a"] == name]
    if len(said) != 1 or not (m := _FORMULA.search(said[0].text)):
        return None
    a, b, c = m["a"], m["b"], m["c"]
    plain = [t for t in ctx.tensors if ctx.params[t]["kind"] == "tensor"]
    if len({a, b, c}) < 3 or not {a, b, c} <= set(plain):
        return None
    return (a, b, c, int(m["k"])), said[0]


def stated(ctx: Context) -> list[tuple[str, tuple[str, ...]]]:
    """(KIND, (A, B, C)) for each tensor whose shape the constraints section writes as a formula."""
    read = [formula(ctx, t) for t in ctx.tensors]
    return [(KIND, r[0][:3]) for r in read if r is not None]


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per reading shape_notes.py made from a row naming A."""
    out = []
    for e in evidence:
        read = formula(ctx, e.params[0])
        if read is None or not expressible(*read[0][:3]):
            continue
        (a, b, c, k), said = read
        text = f"{a}.shape == {b}.shape + {c}.shape[{k}:]"
        for t in (a, b, c):
            text = ctx.if_given(t, text)
        ctx.used.add(said)
        out.append({"id": ctx.new_id("SHAPE"), "source": source([e.sentence, said]), "kind": "expr",
                    "requires": [cid for cid, params in null_ids.items() if {a, b, c} & set(params)],
                    "all": [text], "on_violation": e.status, "_evidence": [e], "_formula": (a, b, c, k)})
    return out


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """Each formula's draws and its clause's break; the tensors now drawn from the rows (no longer
    guesses). A formula that cannot be drawn so: its clause removed, its row reviewed."""
    mine = [c for c in clauses_ if "_formula" in c]
    before = set(args.values())
    drawn: dict[Formula, str] = {}
    for c in mine:
        if (f := c["_formula"]) not in drawn and (name := _draw(s, draws, args, f)) is not None:
            drawn[f] = name
    settle(clauses_, mine, lambda c: _break(c["_formula"], args, drawn), review,
           lambda c: where(c["_formula"][0]))
    drop_guesses(draws, args, clauses_, before)
    return {t for f in drawn for t in f[:2]}


def _draw(s: Shapes, draws: dict[str, Any], args: dict[str, Any], f: Formula) -> str | None:
    """A's draw (B given one of its own, its ranks fitted); None where they cannot be drawn so."""
    a, b, c, k = f
    base = args.get(c)
    if s.members(a) != [a] or s.members(b) != [b] or not isinstance(base, str) \
            or "shape" not in draws.get(base, {}):
        return None  # (A or B tied to other tensors' shapes, or C's shape not a draw of its own)
    low_a, high_a = s.ranks([a])[:2]
    low_c, high_c = s.ranges.get(base, (1, 8))
    low_b, high_b = s.ranks([b])[:2]
    low, high = max(low_b, low_a - low_c + k, 1), min(high_b, high_a - high_c + k)
    if low > high or low_c < k:
        return None
    shape = copy.deepcopy(draws[base]["shape"])
    shape["rank"] = [low, high]
    args[b] = fresh(draws, f"{b}_formula_shape")
    draws[args[b]] = {"shape": shape}
    s.ranges[args[b]] = (low, high)
    args[a] = fresh(draws, f"{a}_formula_shape")
    draws[args[a]] = {"expr": f"{args[b]} + {base}[{k}:]"}
    s.ranges[args[a]] = (low + low_c - k, high + high_c - k)
    return args[a]


def _break(f: Formula, args: dict[str, Any], drawn: dict[Formula, str]) -> dict[str, Any] | None:
    if f not in drawn:
        return None
    whole = f"({args[f[1]]} + {args[f[2]]}[{f[3]}:])"
    return {drawn[f]: {"expr": f"{whole}[:-1] + [{whole}[-1] + 1]"}}
