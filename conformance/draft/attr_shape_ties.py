"""Error rows giving a tensor's whole shape as int attributes or numbers (Eye's "out的shape不为(n，m)",
Randperm's "out的shape不为n", Histc's "out的size不等于bins", Equal's "out的shape不是[1]"; the
phrasing: attr_shape_phrasings.py): an ``expr`` clause ``t.shape == [n, m]`` (after ``t.rank != 2
or n < 0 or …``: another rank is the rank rows', a negative attribute its sign row's), the tensor
drawn as those values (``max(n, 0)``) and broken with its last dimension one more. Until read, the
tensor was drawn apart from the attributes: nearly every valid case was one a kernel refuses. A
tensor tied to others by a shape row, drawn by another tie, or whose rank the values cannot have,
and an attribute not drawn on its own, leave the row for review.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, reading, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.numel_ties import fresh
from conformance.draft.shape_draws import Shapes, drop_unused

KIND = "attr_shape"


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per row on a plain tensor whose named dimensions are required int attributes."""
    out = []
    for e in evidence:
        t, dims = e.limits["attr_shape"]
        attrs = [d for d in dims if isinstance(d, str)]
        if ctx.params.get(t, {}).get("kind") != "tensor" or not expressible(t, *attrs) or any(
                ctx.params.get(a, {}).get("kind") != "int" or ctx.params[a].get("optional") for a in attrs) \
                or _noted_otherwise(ctx, t, dims):
            continue
        # (another rank, a negative attribute: the rank's and the sign's rows judge those)
        negative = f"{t}.rank != {len(dims)} or " + "".join(f"{a} < 0 or " for a in dict.fromkeys(attrs))
        requires = [cid for cid, params in null_ids.items() if set(params) & {t, *attrs}]
        ctx.used.add(e.sentence)
        out.append({"id": ctx.new_id("SHAPE"), "source": source([e.sentence]), "kind": "expr",
                    "requires": requires, "all": [ctx.if_given(t, f"{negative}{t}.shape == {_list(dims)}")],
                    "on_violation": e.status, "_evidence": [e], "_attr_shape": (t, dims)})
    return out


def _list(dims: tuple[Any, ...], bump: bool = False, drawn: bool = False) -> str:
    """The dims as a list expression (attributes as ``max(a, 0)`` where ``drawn``; the last one
    more with ``bump``)."""
    items = [f"max({d}, 0)" if drawn and isinstance(d, str) else str(d) for d in dims]
    items[-1] += " + 1" if bump else ""
    return "[" + ", ".join(items) + "]"


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """Each tensor's draw from its row and the clause's break; the tensors now drawn from the rows
    (no longer guesses)."""
    tied = set()
    for c in [c for c in clauses_ if "_attr_shape" in c]:
        t, dims = c["_attr_shape"]
        old = args.get(t)
        low, high = s.ranges.get(old, (0, 8)) if isinstance(old, str) else (0, 8)
        fits = isinstance(old, str) and "shape" in draws.get(old, {}) and s.members(t) == [t] \
            and low <= len(dims) <= high and t not in tied \
            and all(args.get(d) == d and d in draws for d in dims if isinstance(d, str))
        if not fits:
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(t)), reading(c))
            continue
        if draws[old]["shape"].get("empty", "none") == "none":
            _at_least_one(draws, [d for d in dims if isinstance(d, str)])
        name = fresh(draws, f"{t}_attr_shape")
        draws[name], s.ranges[name] = {"expr": _list(dims, drawn=True)}, (len(dims), len(dims))
        args[t] = name
        c["break"] = {name: {"expr": _list(dims, bump=True, drawn=True)}}
        drop_unused(draws, args, clauses_, old)
        tied.add(t)
    return tied


def _at_least_one(draws: dict[str, Any], attrs: list[str]) -> None:
    """A tensor drawn with no empty dimension keeps none drawn from its attributes: their integer
    draws start at 1 (a 0 drew an empty tensor the page refuses, as a valid case)."""
    for a in attrs:
        low, high = draws[a].get("integers", (None, None))
        if isinstance(low, int) and low < 1:
            draws[a]["integers"] = [1, max(high, 1) if isinstance(high, int) else high]


_NAMED = r"[A-Za-z_][A-Za-z0-9_]*|\d+"
_NOTED = (re.compile(rf"第[一1]维(?:的)?长度(?:与|和|为)\s*({_NAMED})"),
          re.compile(rf"第[二2]维(?:的)?长度(?:与|和|为)\s*((?:{_NAMED})(?:\s*[+\-*/]\s*(?:{_NAMED}))*)"))


def _noted_otherwise(ctx: Context, t: str, dims: tuple[Any, ...]) -> bool:
    """Whether t's usage notes give a dimension the row also gives another value ("第二维长度为
    1+specNum" beside a row's "第二维长度不为1": AdvanceStepV2's page, whose own cases follow the
    note): the page contradicts itself, a person decides."""
    row = ctx.rows.get(t)
    for s in row.usage if row is not None else ():
        for k, pattern in enumerate(_NOTED[:len(dims)]):
            m = pattern.search(s.text)
            if m and re.sub(r"\s", "", m[1]) != str(dims[k]):
                return True
    return False
