"""Rows refusing a tensor empty by some of its dims only ("self为空tensor且存在非第一维度的值为0",
"self或out为空tensor，且self最后三个维度的值存在0") or at one rank only ("二维self不支持为空tensor"): an
``expr`` clause that those dims are not 0, broken by a zero dim among them (the shape draw's
``zero_dim`` mode with ``at``: indices inside them at every rank the draw may take)."""
from __future__ import annotations

from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review

KIND = "empty_dims"


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    out = []
    for e in evidence:
        t = e.limits["tensor"]
        # (the row's other names: tensors it says are empty with it, "self或out为空tensor")
        if (t not in ctx.of_kind("tensor") or not expressible(t) or ctx.params[t].get("optional")
                or any(p not in ctx.tensors for p in e.params)):
            continue
        rank = e.limits.get("rank")  # (broken at the lowest or highest rank drawn, if it is that)
        if rank is not None and "from" in e.limits:
            text, where = f"len({t}.shape) != {rank} or min({t}.shape[1:]) > 0", ("from", 1)
        elif rank is not None:
            text, where = f"len({t}.shape) != {rank} or {t}.numel > 0", None
        elif "from" in e.limits:
            text, where = f"len({t}.shape) < 2 or min({t}.shape[1:]) > 0", ("from", 1)
        else:
            k = e.limits["last"]
            text, where = f"len({t}.shape) == 0 or min({t}.shape[-{k}:]) > 0", ("last", k)
        out.append({"id": ctx.new_id("EMPTY"), "source": source([e.sentence]), "kind": "expr",
                    "requires": [cid for cid, params in null_ids.items() if t in params],
                    "all": [text], "on_violation": e.status, "_evidence": [e],
                    "_break": ("zero_dim", t), **({"_zero_at": (t, *where)} if where else {})})
    return out


def zero_at(of: dict[str, str], draws: dict[str, Any], clauses: list[Clause],
            review: Review) -> None:
    """Each clause's zero dim put inside its dims (``of``: each tensor's shape draw): indices
    that are among them at every rank the draw takes; none such, or a tensor not drawn by a
    ``shape`` of its own with whole-number ranks: the clause goes for review."""
    for c in [c for c in clauses if "_zero_at" in c]:
        t, how, n = c["_zero_at"]
        shape = draws.get(of.get(t, ""), {}).get("shape", {})
        low, high = shape.get("rank", (None, None))
        at: list[int] = []
        if of.get(t) in c.get("break", {}) and isinstance(low, int) and isinstance(high, int):
            at = list(range(1, high)) if how == "from" else [n] if how == "at" and low > n else \
                list(range(max(high - n, 0), low)) if how == "last" else []
        if at:
            c["break"][of[t]]["at"] = at
        else:
            clauses.remove(c)
            review(c["_evidence"][0].sentence, "empty tensor")
