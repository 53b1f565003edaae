"""Error rows tying one dimension of a tensor to another's ("batch1的最后一维和batch2的倒数第二维不相等",
"self最后两个维度不相等", "x最后一维不等于gradY最后一维的2倍"), to a multiple ("x的最后一维不是2的倍数") or
to a size ("spatialShape的最后一轴不是2"): an ``expr`` clause, and the draws that keep it in valid cases
and break it alone.

The clause reads ``target.shape[at] == times * source.shape[from]`` (or ``% 2 == 0``, ``== n``), guarded by
the ranks (a tensor without that dimension is another clause's business: its rank limit). The
target's shape class (the tensors a same_shape clause ties to it) is drawn from its old draw
with that dimension set to the value (``base[:-2] + [a[-1]] + base[-1:]``, ``[2 * base[-1]]``,
``[n]``); the break draws it one more. A tie whose draws cannot be written so (the target not
drawn as a shape of its own, its source in its own shape class, a rank range that may lack the
dimension, a size on a draw an earlier tie read) is left for review.
The phrasings: dim_phrasings.DIM_TIE.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.matmul_ties import matrices
from conformance.draft.shape_draws import Shapes


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One coded expr clause per row whose tensors are required plain tensors of the page."""
    out = []
    for e in evidence:
        tie = _tie(e.limits)
        tensors = {tie[0], tie[2]}
        if not all(t in ctx.tensors and ctx.params[t]["kind"] == "tensor"
                   and not ctx.params[t].get("optional") for t in tensors) or not expressible(*tensors):
            continue
        if "matmul" in e.limits and not matrices(ctx, tensors):
            continue
        requires = [cid for cid, params in null_ids.items() if set(params) & tensors]
        out.append({"id": ctx.new_id("DIM"), "source": source([e.sentence]), "kind": "expr",
                    "requires": requires, "all": [_text(tie, e.limits)], "on_violation": e.status,
                    "_evidence": [e], "_dim_tie": (tie, _rule(e.limits))})
    return out


def _tie(limits: dict[str, Any]) -> tuple[str, int, str, int, int]:
    """(target, at, source, from, times); an even or fixed dimension is tied to itself, times 1."""
    if "even" in limits or "fixed" in limits or "most" in limits:
        tensor, at = (limits.get("even") or limits.get("fixed") or limits["most"])[:2]
        return tensor, at, tensor, at, 1
    return limits["tie"]


def _rule(limits: dict[str, Any]) -> tuple[str, int]:
    """("even", 2), ("fixed", n), ("most", n) or ("tie", 1): what the dimension is held to."""
    for rule in ("fixed", "most"):
        if rule in limits:
            return rule, limits[rule][2]
    return ("even", 2) if "even" in limits else ("tie", 1)


def _text(tie: tuple[str, int, str, int, int], limits: dict[str, Any]) -> str:
    target, at, src, at_src, times = tie
    guard = f"{target}.rank < {max(-at, -at_src)}" if target == src else \
        f"{target}.rank < {-at} or {src}.rank < {-at_src}"
    if "even" in limits:
        return f"{guard} or {target}.shape[{at}] % 2 == 0"
    if "fixed" in limits:
        return f"{guard} or {target}.shape[{at}] == {limits['fixed'][2]}"
    if "most" in limits:
        return f"{guard} or {target}.shape[{at}] <= {limits['most'][2]}"
    value = f"{times} * {src}.shape[{at_src}]" if times != 1 else f"{src}.shape[{at_src}]"
    return f"{guard} or {target}.shape[{at}] == {value}"


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> None:
    """Each tie's draws (``draws`` and ``args`` gain them) and ``break``; a tie that cannot be drawn
    is removed and its row reviewed."""
    for c in list(clauses_):
        if "_dim_tie" not in c:
            continue
        (target, at, src, at_src, times), (rule, size) = c["_dim_tie"]
        if rule == "most":  # (valid draws stay far below: only the break, on the target's own draw)
            c["break"] = _past(s, draws, args, target, at, size)
            if c["break"] is None:
                clauses_.remove(c)
                review(Sentence(c["source"]["quote"], where(target)), "dimension tie")
            continue
        drawn = _draw(s, draws, args, target, src, at, at_src)
        if drawn is not None and rule == "fixed" and _read(draws, drawn[0]):
            drawn = None  # (a tie drawn before reads the target's old draw: it would not see the size)
        if drawn is None:
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(target)), "dimension tie")
            continue
        base, from_ = drawn
        value = f"2 * {base}[{at}]" if rule == "even" else str(size) if rule == "fixed" \
            else f"{times} * {from_}[{at_src}]" if times != 1 else f"{from_}[{at_src}]"
        name = next(n for n in (f"{target}_tied_shape", *(f"{target}_tied_shape_{i}" for i in range(2, 99)))
                    if n not in draws)
        draws[name] = {"expr": _set(base, at, value)}
        s.ranges[name] = s.ranges[base]  # (a later tie on the target draws from this one)
        for t in s.members(target):
            args[t] = name
        c["break"] = {name: {"expr": _set(base, at, str(size + 1) if rule == "fixed" else f"{value} + 1")}}


def _draw(s: Shapes, draws: dict[str, Any], args: dict[str, Any], target: str, src: str,
          at: int, at_src: int) -> tuple[str, str] | None:
    """(the target's draw, the source's draw) when the tie can be drawn, else None."""
    base, from_ = args.get(target), args.get(src)
    if not isinstance(base, str) or not isinstance(from_, str) or base not in draws or from_ not in draws:
        return None
    members = s.members(target)
    if any(args.get(t) != base for t in members) or (src != target and src in members):
        return None  # (the class drawn apart, or the source tied to the target's shape)
    if not ("shape" in draws[base] or base.startswith(f"{target}_tied_shape")):
        return None  # (a broadcast operand or a derived shape: its value is not free)
    return (base, from_) if _low(s, base) >= -at and _low(s, from_) >= -at_src else None


def _past(s: Shapes, draws: dict[str, Any], args: dict[str, Any], target: str, at: int,
          most: int) -> dict[str, Any] | None:
    """The break of a limit on one dimension: the target at its least rank, that dimension one past
    the limit and the others 1 (few elements); None where the target is not a shape draw of its own
    whose dims stay below the limit, or its least rank lacks the dimension."""
    base = args.get(target)
    shape = draws.get(base, {}).get("shape", {}) if isinstance(base, str) else {}
    low = shape.get("rank", [None])[0]
    if not shape or any(args.get(t) != base for t in s.members(target)) or not isinstance(low, int) \
            or low < -at or shape["dims"][1] > most:
        return None
    dims = [1] * low
    dims[at] = most + 1
    return {base: {"expr": str(dims)}}


def _read(draws: dict[str, Any], draw: str) -> bool:
    """Whether another draw's expression reads ``draw``."""
    word = re.compile(rf"\b{re.escape(draw)}\b")
    return any(word.search(str(d)) for n, d in draws.items() if n != draw)


def _low(s: Shapes, draw: str) -> int:
    """The least rank a draw gives (0 when unknown)."""
    return s.ranges.get(draw, (0, 0))[0]


def _set(base: str, at: int, value: str) -> str:
    """``base`` with its element ``at`` (negative) replaced by ``value``, as an expression."""
    after = f" + {base}[{at + 1}:]" if at < -1 else ""
    return f"{base}[:{at}] + [{value}]{after}"
