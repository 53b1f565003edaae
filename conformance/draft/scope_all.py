"""Rows said of every tensor ("传入的计算输入的shape不一致时", "如果传入参数类型为aclTensor，数据类型
不同": no name, scope "all") and the tensors the page sets apart from them."""
from __future__ import annotations

from conformance.draft.context import Clause, Context


def unpinned(ctx: Context, clauses: list[Clause]) -> list[Clause]:
    """A row on every tensor ("传入的计算输入的shape不一致时", "如果传入参数类型为aclTensor，数据类型
    不同") says nothing of the tensors the page sets apart: for shapes, those a row pins to one
    element ("lr、beta1的shape大小不为1时"); for dtypes, those whose table lists no dtype of the
    first tensor's (an INT64 batchSizes beside float inputs). Read over them, valid cases drew lr
    with var's shape, batchSizes as a float, which the kernel refuses. Such a clause leaves them
    out (gone with fewer than two tensors left)."""
    pinned = {t for c in clauses if c.get("_numel", ((), 0))[1] == 1 for t in c["_numel"][0]}
    out = []
    for c in clauses:
        if c["kind"] in ("same_shape", "same_dtype") and c.get("_evidence") \
                and all(e.limits.get("scope") == "all" for e in c["_evidence"]):
            apart = pinned if c["kind"] == "same_shape" else _other_dtypes(ctx, c["params"])
            c["params"] = [p for p in c["params"] if p not in apart]
            if len(c["params"]) < 2:
                continue
        out.append(c)
    return out


def _other_dtypes(ctx: Context, names: list[str]) -> set[str]:
    """The tensors whose rows list dtypes, none of them one the first tensor's row lists."""
    def listed(name: str) -> set[str]:
        row = ctx.rows.get(name)
        return set() if row is None else {*row.dtypes, *(d for ds in row.product_dtypes.values() for d in ds)}
    first = listed(names[0]) if names else set()
    return {n for n in names[1:] if first and listed(n) and not listed(n) & first}
