"""Error rows about a tensor's channel axis (the phrasings: channel_phrasings.py): tensors with as
many elements as x's channel axis ("mean、invstd的shape与input的channel轴不一致"), and x's channel
axis not 0 ("input的channel轴size为0"), as ``expr`` clauses.

Which dimension the channel axis is comes from the page, never from the operator's name: x's
formats, when every one of them puts C at one index (NC, NCL, NCHW, NCDHW: 1; NHWC, NDHWC: the
last), or its row saying so ("第2维固定为channel轴": counted from 1, which the page must leave no
doubt of: its layouts agree, or x's least rank has no dimension 2 counted from 0). An ND format
with no such sentence, or layouts disagreeing (NCHW beside NHWC: a dataFormat attribute decides),
names no dimension: the row stays for review.

- tie: ``x.rank <= c or t.numel == x.shape[c]`` per tensor t (its elements: the 1-D tensors these
  rows name hold one per channel), drawn as ``[x_shape[c]]``, broken by the first tensor one
  element longer; a tensor not drawn as one dimension of its own is left for review;
- a dimension of each ("mean或invstd在第二维上的size与input的channel轴不一致"): ``t.shape[k - 1] ==
  x.shape[c]``, read from 1 only for tensors of exactly k dimensions (no dimension k from 0);
- zero: ``x.rank <= c or x.shape[c] > 0``, broken by that dimension 0 (empty_dims.zero_at); valid
  cases then draw no empty dimension but the first.

``body`` is the tie as the body of a conditional sentence ("当weightG为true时，gradWeight的size与
input的channel轴不一致"): the expressions, for conditions.py.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.draft.channel_phrasings import stated_ordinal
from conformance.draft.context import Clause, Context, Evidence, expressible, reading, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.shape_draws import Shapes

_LAYOUT = set("NCDHWL")


def channel_axis(ctx: Context, x: str) -> int | None:
    """The index of x's channel axis (negative: from the end), None when the page leaves it open."""
    row = ctx.rows.get(x)
    if row is None:
        return None
    layouts = [f for f in row.formats if set(f) <= _LAYOUT and f.count("C") == 1]
    fronts = {f.index("C") for f in layouts}
    backs = {f.index("C") - len(f) for f in layouts}
    said = [k for s in (row.description, *row.usage) if (k := stated_ordinal(s.text)) is not None]
    if said:
        k = said[0]
        least = row.rank[0] if row.rank else None
        sure = fronts == {k - 1} or (not layouts and least is not None and least <= k)
        return k - 1 if sure and len(set(said)) == 1 else None
    if not row.formats or len(layouts) != len(row.formats):
        return None  # (an ND format, or none: the page does not say where C is)
    return fronts.pop() if len(fronts) == 1 else backs.pop() if len(backs) == 1 else None


def _tie_lines(ctx: Context, targets: tuple[str, ...], x: str, c: int, k: int) -> list[str] | None:
    """Each target's expression (None: the row names no plain tensors, or x has no channel axis);
    ``k`` > 1: the targets' dimension k (counted from 1) is the channel count."""
    names = [*targets, x]
    if not all(ctx.params.get(n, {}).get("kind") == "tensor" for n in names) or not expressible(*names) \
            or x in targets or ctx.params[x].get("optional"):
        return None
    guard = f"{x}.rank < {c + 1}" if c >= 0 else f"{x}.rank < {-c}"
    # (a null tensor is the not_null rows' business: a conditional null row's break draws one)
    if k > 1:
        return [f"not present({t}) or {guard} or {t}.rank < {k} or {t}.shape[{k - 1}] == {x}.shape[{c}]"
                for t in targets]
    return [f"not present({t}) or {guard} or {t}.numel == {x}.shape[{c}]" for t in targets]


def body(ctx: Context, e: Evidence) -> tuple[list[str], dict[str, Any]] | None:
    """(the expressions, {"channel": (targets, x, c, k)}) of a tie read as a conditional's body."""
    if "tie" not in e.limits:
        return None
    targets, x = e.limits["tie"]
    c, k = channel_axis(ctx, x) if x in ctx.params else None, e.limits.get("at", 1)
    lines = _tie_lines(ctx, targets, x, c, k) if c is not None else None
    return (lines, {"channel": (targets, x, c, k)}) if lines else None


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    out = []
    for e in evidence:
        x = e.limits["tie"][1] if "tie" in e.limits else e.limits["zero"]
        c = channel_axis(ctx, x) if x in ctx.params else None
        if c is None:
            continue
        made = body(ctx, e) if "tie" in e.limits else _zero(ctx, x, c)
        if made is None:
            continue
        lines, info = made
        tie = info.pop("channel", None)
        names = {x, *(tie[0] if tie else ())}
        ranks = {k: v for k, v in e.limits.items() if k in ("min", "max", "ranks")}
        if ranks:  # ("weight维度不为1维，或者shape不等于input C轴的长度": the rank of the tied ones)
            out.append({"id": ctx.new_id("RANK"), "source": source([e.sentence]), "kind": "rank_in",
                        "params": list(tie[0]), **ranks, "on_violation": e.status, "_evidence": [e]})
        out.append({"id": ctx.new_id("CHANNEL"), "source": source([e.sentence]), "kind": "expr",
                    "requires": [cid for cid, params in null_ids.items() if set(params) & names],
                    "all": lines, "on_violation": e.status, "_evidence": [e], **info,
                    **({"_channel": tie} if tie else {})})
    return out


def _zero(ctx: Context, x: str, c: int) -> tuple[list[str], dict[str, Any]] | None:
    if c < 0 or ctx.params.get(x, {}).get("kind") != "tensor" or ctx.params[x].get("optional") \
            or not expressible(x):
        return None  # (a zero dim is put at an index counted from the front)
    return [f"{x}.rank < {c + 1} or {x}.shape[{c}] > 0"], {"_break": ("zero_dim", x),
                                                          "_zero_at": (x, "at", c), "_channel_zero": x}


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """Each tie's draws (``draws`` and ``args`` gain them) and break; the tensors now drawn from
    the rows. A tie that cannot be drawn is removed and its row reviewed; x's empty draws keep
    the channel axis (the zero rows' valid cases)."""
    tied: set[str] = set()
    for c in list(clauses_):
        if "_channel_zero" in c:
            shape = draws.get(args.get(c["_channel_zero"], ""), {}).get("shape", {})
            if shape.get("empty") == "any":
                shape["empty"] = "first"
        conditional = c.get("_conditional", {})
        tie = c.get("_channel") or conditional.get("channel")
        if tie is None:
            continue
        targets, x, axis, k = tie
        drawn = _draw(s, draws, args, tie)
        if drawn is None:
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(targets[0])), reading(c))
            continue
        names, step = drawn
        if conditional:  # (conditional_breaks.py adds the condition made true)
            conditional["steps"] = step
        else:
            c["break"] = step
        tied |= set(names)
    return tied


def _draw(s: Shapes, draws: dict[str, Any], args: dict[str, Any],
          tie: tuple[tuple[str, ...], str, int, int]) -> tuple[list[str], dict[str, Any]] | None:
    """(the tensors drawn as ``[x_shape[c]]`` (each target's class its own draw; with k > 1 the
    target's own draw with dimension k set so), the break: the first one channel more), or None
    when the targets do not have exactly k dimensions (k counted from 0 would then be one too:
    which is meant is unsure)."""
    targets, x, axis, k = tie
    base = args.get(x)
    if not isinstance(base, str) or base not in draws or s.ranges.get(base, (0, 0))[0] < (
            axis + 1 if axis >= 0 else -axis):
        return None
    classes = [s.members(t) for t in targets]
    if any(x in m or s.ranges.get(args.get(m[0]), (0, 0)) != (k, k) or any(args.get(o) != args.get(m[0])
                                                                             for o in m) for m in classes):
        return None  # (a target drawn with x, or not as one dimension of its own)
    if len({s.rep(t) for t in targets}) != len(targets):
        return None
    step: dict[str, Any] = {}
    for t, members in zip(targets, classes):
        name = next(n for n in (f"{t}_channel_shape", *(f"{t}_channel_shape_{i}" for i in range(2, 99)))
                    if n not in draws)
        own = args[t]
        draws[name] = {"expr": _at(own, k, f"{base}[{axis}]")}
        step = step or {name: {"expr": _at(own, k, f"{base}[{axis}] + 1")}}
        s.ranges[name] = (k, k)
        for m in members:
            args[m] = name
    return [m for members in classes for m in members], step


def _at(own: str, k: int, value: str) -> str:
    """A shape of ``own``'s draw with dimension k (from 1) set to ``value`` (k = 1: one dimension)."""
    return f"[{value}]" if k == 1 else f"{own}[:{k - 1}] + [{value}] + {own}[{k}:]"
