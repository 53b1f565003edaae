"""A row saying into which tensors' shapes one tensor broadcasts, naming two or more of them
("gradOutput的shape不能向self或者target做broadcast"): the tensor broadcasts into the broadcast of
their shapes (the vendor's kernel computes that shape and compares; the hand spec of
aclnnKlDivBackward reads it so). Broadcastable over the three says less: a gradOutput larger
than both would be drawn as valid, and the kernel refuses it. The row becomes an ``expr`` clause
requiring the targets' broadcastable clause, the tensor drawn inside their broadcast
(shape_draws.py), and broken by drawing it incompatible. A row naming one target keeps its
broadcastable reading (relations.py): the kernels read "不能向self broadcast" as broadcastable."""
from __future__ import annotations

import re

from conformance.draft.context import Clause, Context, Evidence, expressible
from conformance.draft.relations import TOWARDS

KEY = "_into_of"  # (the tensor, the tensors into whose broadcast it broadcasts)


def _named(name: str, text: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text) is not None


def _subject(e: Evidence, tensors: list[str]) -> tuple[str, tuple[str, ...]] | None:
    """(the tensor before "向", the tensors after it) when one stands before and two or more after."""
    m = TOWARDS.search(e.sentence.text)
    if m is None:
        return None
    before = [t for t in tensors if _named(t, e.sentence.text[:m.start()])]
    after = [t for t in tensors if t not in before and _named(t, e.sentence.text[m.start():])]
    return (before[0], tuple(after)) if len(before) == 1 and len(after) >= 2 else None


def _reading(c: Clause, tensors: list[str]) -> tuple[str, tuple[str, ...]] | None:
    """The one (tensor, targets) every row of the clause says, if they all say one."""
    readings = {_subject(e, tensors) for e in c.get("_evidence", [])}
    return next(iter(readings)) if len(readings) == 1 else None


def split(ctx: Context, bcast: list[Clause], null_ids: dict[str, list[str]]
          ) -> tuple[list[Clause], list[Clause]]:
    """(the broadcastable clauses left, the expr clauses made of those whose rows all say one
    tensor broadcasts into the others' broadcast, where a clause over those others stands)."""
    kept, made = [], []
    for c in bcast:
        x, targets = _reading(c, ctx.tensors) or (None, ())
        pair = next((d for d in bcast if d is not c and set(d["params"]) == set(targets)), None)
        if x is None or pair is None or not expressible(x, *targets) \
                or set(c["params"]) != {x, *targets} or not str(c["on_violation"]).startswith("ACLNN_"):
            kept.append(c)
            continue
        made.append(_clause(ctx, c, x, list(targets), pair["id"], null_ids))
    return kept, made


def _clause(ctx: Context, c: Clause, x: str, targets: list[str], pair: str,
            null_ids: dict[str, list[str]]) -> Clause:
    shapes = ", ".join(f"{t}.shape" for t in targets)
    requires = [cid for cid, params in null_ids.items() if set(params) & {x, *targets}]
    return {"id": ctx.new_id("EXPR"), "source": c["source"], "kind": "expr", "requires": [*requires, pair],
            "all": [f"broadcastable({x}.shape, broadcast({shapes}))",
                    f"broadcast({x}.shape, {shapes}) == broadcast({shapes})"],
            "on_violation": c["on_violation"], "_evidence": c["_evidence"],
            "_break": ("incompatible", x), KEY: (x, targets)}
