"""A row refusing empty tensors ("（self、index）的任意一个维度等于0") over tensors drawn apart: one
clause per shape draw, each broken by a zero dim in its own draw. A single clause over all of them
is broken in its first tensor's draw only, so a kernel checking that tensor alone passed every
case. Tensors sharing a draw stay in one clause (one break empties them all)."""
from __future__ import annotations

from collections.abc import Callable

from conformance.draft.context import Clause, Context


def split_by_draw(ctx: Context, clauses: list[Clause], break_draw: Callable[[str], str | None]) -> None:
    """Each coded empty-tensor clause (``_not_empty``, broken with ``zero_dim``) split per shape
    draw of its required tensors (``break_draw``: the draw a zero dim of a tensor goes into)."""
    for c in list(clauses):
        if "_not_empty" not in c or c.get("_break", ("",))[0] != "zero_dim":
            continue
        required = [n for n in c["_not_empty"] if not ctx.params[n].get("optional")]
        groups: dict[str, list[str]] = {}
        for n in required:
            groups.setdefault(break_draw(n) or "", []).append(n)
        if len(groups) < 2 or "" in groups:
            continue
        at = clauses.index(c)
        parts = dict(zip(c["_not_empty"], c["all"]))
        pieces = []
        for i, names in enumerate(groups.values()):
            own = [n for n in c["_not_empty"] if n in names or (i == 0 and n not in required)]
            pieces.append({**c, "id": c["id"] if i == 0 else ctx.new_id("EMPTY"),
                           "all": [parts[n] for n in own], "_break": ("zero_dim", names[0]),
                           "_not_empty": own})
        clauses[at:at + 1] = pieces
