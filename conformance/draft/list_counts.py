"""Tensor-list counts: "x1、x2的Tensor数量不一致" (lists of one count) and "scalars的元素个数与x1的Tensor
数量不一致" (a tensor of as many elements as the list has tensors): an ``expr`` clause, and the draws
breaking it alone.

Valid cases draw every list with one count already (list_kinds.COUNT); a list's own count draw
(equal to it) lets a break give that list one more. A relation over lists (same_shape,
broadcastable) also refuses lists of different lengths (spec/predicates.py): it requires the count
clause, so a count row's case is judged by that row alone (the page checks counts first). A tensor
counted so is drawn as [count], unless other clauses tie its shape (then the row is reviewed).
The phrasings: phrasings.LIST_COUNT.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.draft import list_kinds
from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.shape_draws import Shapes, drop_unused

KIND = "list_count"


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    out = []
    for e in evidence:
        lists, counted = e.limits["lists"], e.limits.get("elements")
        names = (*lists, *([counted] if counted else []))
        if not all(_required(ctx, n, "tensor_list") for n in lists) or not expressible(*names):
            continue
        if counted is not None and not _required(ctx, counted, "tensor"):
            continue
        if counted is None and len(lists) < 2:
            continue
        text = ([f"{counted}.numel == len({lists[0]})"] if counted
                else [f"len({lists[0]}) == len({other})" for other in lists[1:]])
        out.append({"id": ctx.new_id("COUNT"), "source": source([e.sentence]), "kind": "expr",
                    "requires": [cid for cid, params in null_ids.items() if set(params) & set(names)],
                    "all": text, "on_violation": e.status, "_evidence": [e], "_reads_lists": True,
                    "_list_count": (lists, counted)})
    return out


def _required(ctx: Context, name: str, kind: str) -> bool:
    p = ctx.params.get(name, {})
    return p.get("kind") == kind and not p.get("optional")


def require_counts(built: list[Clause]) -> None:
    """A relation over two of a count clause's lists requires it (their lengths are its row's)."""
    for c in [c for c in built if "_list_count" in c and c["_list_count"][1] is None]:
        lists = set(c["_list_count"][0])
        for d in built:
            if d["kind"] in ("same_shape", "broadcastable") and len(set(d["params"]) & lists) > 1:
                d["requires"] = [*d.get("requires", []), c["id"]]


def resolve(ctx: Context, s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> None:
    """Each count clause's draws and break; one that cannot be drawn goes for review."""
    count = list_kinds.count_draw(ctx.params)
    for c in [c for c in clauses_ if "_list_count" in c]:
        lists, counted = c["_list_count"]
        drawn = _tensor(s, draws, args, counted, count) if counted else _list(draws, args, lists[-1], count)
        if drawn is None:
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(counted or lists[-1])), "tensor list count")
            continue
        c["break"] = drawn


def _list(draws: dict[str, Any], args: dict[str, Any], name: str, count: str) -> dict[str, Any] | None:
    """The list's own count draw (equal to ``count``), broken one more."""
    own, arg = f"{name}_count", args.get(name)
    if isinstance(arg, str) and arg.endswith(f"* {own}"):  # (another count row drew it already)
        return {own: {"expr": f"{count} + 1"}}
    if not isinstance(arg, str) or not arg.endswith(f"* {count}") or own in draws:
        return None
    draws[own] = {"expr": count}
    args[name] = arg[: -len(count)] + own
    return {own: {"expr": f"{count} + 1"}}


def _tensor(s: Shapes, draws: dict[str, Any], args: dict[str, Any], t: str,
            count: str) -> dict[str, Any] | None:
    """The tensor drawn as [count] (it was a guess, tied to no other, and may be 1-D), broken one
    more."""
    low, high, allowed, unknown = s.ranks([t])
    name = f"{t}_count_shape"
    if (s.members(t) != [t] or t not in s.guessed or name in draws
            or not (unknown or low <= 1 <= high and (allowed is None or 1 in allowed))):
        return None
    draws[name], old = {"expr": f"[{count}]"}, args.get(t)
    args[t] = name
    s.guessed.remove(t)
    drop_unused(draws, args, [], old)
    return {name: {"expr": f"[{count} + 1]"}}
