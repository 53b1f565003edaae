"""Rows comparing an attribute with a tensor's rank: an int array's length ("参数repeats的参数个数小于
输入tensor的维度", "input的维度小于normalizedShape的维度") or an int's value ("axis的值大于self的维度数量"):
an ``expr`` clause, and the attribute's draws keeping it in valid cases and breaking it alone.

Only an attribute drawn as a guess can be drawn against the rank: an int array drawn as ones (its
length set from the tensor's draw; a length clause of its own fixes it, so that row is reviewed),
an int drawn from whole numbers that hold at every rank drawn. Two tensors' ranks compared
("mask的shape维度大于selfRef") are left for review: their draws are not free of each other.
The phrasing: dim_phrasings.RANK_COMPARE.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.shape_draws import Shapes

KIND = "rank_compare"
_HOLDS = {"小于": ">=", "大于": "<=", "超过": "<=", "小于等于": ">", "大于等于": "<"}  # what a valid call has
_FLIP = {">=": "<=", "<=": ">=", ">": "<", "<": ">"}


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    out = []
    for e in evidence:
        read = _sides(ctx, e.limits)
        if read is None:
            continue
        attr, tensor, op, measure, text = read
        requires = [cid for cid, params in null_ids.items() if {attr, tensor} & set(params)]
        out.append({"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr",
                    "requires": requires, "all": [text], "on_violation": e.status, "_evidence": [e],
                    "_rank_tie": (attr, tensor, op, measure),
                    **({"_reads_lists": True} if measure == "count" else {})})  # (list_kinds.mixes_lists)
    return out


def _sides(ctx: Context, limits: dict[str, Any]) -> tuple[str, str, str, str, str] | None:
    """(attribute, tensor, the relation attribute-to-rank, length | value, the clause's text as the
    row reads) when one side is a required attribute and the other a required tensor."""
    left, right, measure, op = limits["left"], limits["right"], limits["measure"], _HOLDS[limits["op"]]
    if right == "输入tensor":  # the page's one input tensor
        inputs = [t for t in ctx.of_kind("tensor") if ctx.params[t]["role"] == "input"]
        if len(inputs) != 1:
            return None
        right = inputs[0]
    kind = {n: ctx.params.get(n, {}).get("kind") for n in (left, right)}
    if any(ctx.params.get(n, {}).get("optional") for n in (left, right)) or not expressible(left, right):
        return None
    if kind[left] == "tensor" and kind[right] == "int_array" and measure == "rank":
        return right, left, _FLIP[op], "length", f"{left}.rank {op} len({right})"
    if kind[right] == "tensor" and kind[left] == "int_array" and measure in ("rank", "length"):
        return left, right, op, "length", f"len({left}) {op} {right}.rank"
    if kind[right] == "tensor" and kind[left] == "tensor_list" and measure == "count":
        return left, right, op, "count", f"len({left}) {op} {right}.rank"
    if kind[right] == "tensor" and kind[left] == "int" and measure == "value":
        return left, right, op, "value", f"{left} {op} {right}.rank"
    return None


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, draw_of: Callable[[str], str], where: Callable[[str], Any]) -> None:
    """Each clause's attribute draw and break; one that cannot be drawn goes for review."""
    for c in [c for c in clauses_ if "_rank_tie" in c]:
        attr, tensor, op, measure = c["_rank_tie"]
        base, name = args.get(tensor), draw_of(attr)
        drawn = None
        if isinstance(base, str) and base in s.ranges and not any(
                d["kind"] == "length" and attr in d["params"] for d in clauses_):
            low, _ = s.ranges[base]
            if measure == "count":  # (a list: its own count draw)
                name, drawn = _count(draws, args, attr, base, op, low)
            else:
                drawn = (_length(draws.get(name, {}), base, op, low) if measure == "length"
                         else _value(draws.get(name, {}), base, op, low))
        step = None if drawn is None else {name: drawn[1]}
        if drawn is None and measure == "length" and isinstance(base, str):
            step = _trailing(draws, name, base, op)
            drawn = None if step is None else (draws[name], step)
            c["requires"] += [] if step is None else _length_rows(clauses_, attr)
        if drawn is None:
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(attr)), "rank comparison")
            continue
        draws[name], c["break"] = drawn[0], step


Draws = tuple[dict[str, Any], dict[str, Any]]


def _length(draw: dict[str, Any], base: str, op: str, low: int) -> Draws | None:
    """(the valid draw, the break) of an int array of ones whose length ``op`` the rank (a break
    that cannot shorten it at rank 0 is no case: the run draws the break again)."""
    guess = draw.get("expr", "")
    if not (guess == "[1]" or guess.startswith("[1] * ")) or (op == "<" and low < 1):
        return None  # (values of its own; or no valid shorter array at rank 0)
    n = f"len({base})"
    valid = {">=": f"[1] * {n}", "<=": f"[1] * {n}", ">": f"[1] * ({n} + 1)", "<": f"[1] * ({n} - 1)"}[op]
    broken = {">=": f"[1] * ({n} - 1)", ">": f"[1] * {n}", "<=": f"[1] * ({n} + 1)", "<": f"[1] * {n}"}[op]
    return {"expr": valid}, {"expr": broken}


def _trailing(draws: dict[str, Any], name: str, base: str, op: str) -> dict[str, Any] | None:
    """The break of an int array drawn as the tensor's last dimensions (norm_ties.py: LayerNorm's
    normalizedShape) where it may be at most the rank long (its valid draw kept): the array one
    longer than the rank, ``[1] + x``, and so every tensor drawn equal to it (its weight), which
    keeps the ties saying they match the array."""
    draw = draws.get(name, {})
    trailing = re.fullmatch(rf"{base}\[len\({base}\) - \w+:\]", str(draw.get("expr", "")))
    if trailing is None or op != "<=":
        return None
    return {n: {"expr": f"[1] + {base}"} for n, d in draws.items() if d == draw}


def _length_rows(clauses_: list[Clause], array: str) -> list[str]:
    """The clauses bounding the array's length ("normalizedShape的元素个数超过8"): an array longer
    than they allow says nothing of the rank (at rank 8, one past their limit is past the rank
    too; the comparison required, that case breaks the length row alone)."""
    bound = re.compile(rf"len\({re.escape(array)}\) (>=|<=|>|<|==) \d+")
    return [c["id"] for c in clauses_ if c.get("kind") == "length" and array in c.get("params", [])
            or any(bound.fullmatch(text) for text in c.get("all", []))]


def _value(draw: dict[str, Any], base: str, op: str, low: int) -> Draws | None:
    """(the valid draw, the break) of an int at most (below) the rank: its whole numbers kept
    when they hold at the lowest rank drawn, or a draw up to the rank already."""
    lo_hi = draw.get("integers")
    n = f"len({base})"
    if not isinstance(lo_hi, list) or op not in ("<=", "<") or not isinstance(lo_hi[0], int):
        return None
    # (whole numbers holding at the lowest rank, or the rank itself: insert_ties.py's axis)
    if lo_hi[1] != {"<=": n, "<": f"{n} - 1"}[op] and (
            not isinstance(lo_hi[1], int) or lo_hi[1] > (low if op == "<=" else low - 1)):
        return None
    return draw, {"integers": [f"{n} + 1", f"{n} + 2"] if op == "<=" else [n, f"{n} + 1"]}


def _count(draws: dict[str, Any], args: dict[str, Any], attr: str, base: str, op: str,
           low: int) -> tuple[str, Draws | None]:
    """(the list's own count draw, (its valid draw, the break)) for a list of at most (fewer than)
    rank tensors: the common count capped by the rank, never below one."""
    own = f"{attr}_count"
    m = re.fullmatch(r"\[(\w+)\] \* (\w+)", str(args.get(attr, "")))
    if m is None or own in draws or op not in ("<=", "<") or low < (1 if op == "<=" else 2):
        return own, None
    args[attr] = f"[{m[1]}] * {own}"
    most, past = (f"len({base})", f"len({base}) + 1") if op == "<=" else (f"len({base}) - 1", f"len({base})")
    return own, ({"expr": f"min({m[2]}, {most})"}, {"expr": past})
