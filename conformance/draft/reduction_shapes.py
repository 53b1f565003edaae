"""A reduction's outputs: the input's shape reduced over the dimension attribute, each reduced axis
kept as 1 or dropped as the keepdim flag says ("out shape与实际不匹配", "out的shape不等于由self，dims，
keepDims推导得到的shape", "self与out的shape不满足计算公式中的推导规则").

An operator is read as a reduction when it has one bool attribute named for it (keepDim, keepdim,
keepDims, keep_dims), one dimension attribute (an int or int array a range row ties to one input
tensor: attr_clauses' ``_dim``) and output tensors no same_shape clause ties to that input. Its
outputs are drawn as ``reduced(x_shape, dim, keepDim)`` (spec/expression_functions.py) whether or
not a row says so: drawn with the input's shape, as they were, a kernel refusing them made a false
finding of nearly every valid case (all but those whose reduced dims were kept and already 1). A
vague shape row naming only these outputs (besides the input, the dimension and the flag) becomes an
``expr`` clause ``out.shape == reduced(self.shape, dims, keepDims)`` with the row's code. It
requires the dimension's range and duplicate-axes clauses (an axis out of range has no reduced
shape) and is broken by moving one element of the output's draw. An empty array of axes is not
judged: whether it reduces every axis or none, no page says. Where no row says it, the draw stays a
guess, and a review clause says so.

A row refusing a reduced axis of no elements ("self中需要reduce的维度size为0", "dim指定的轴为空轴") is
``x.rank == 0 or all(x.shape[d % x.rank] > 0 for d in dims)``, broken by x drawn ``[0, 2, …]`` (at its
least rank of one or more) and dims ``[0]``: the outputs' draws follow.

A rank limit on the input is broken by drawing the input anew at the rank past the limit, the
dimension and the outputs following it (the automatic break pads the drawn shape with 1s, leaving
the outputs reduced from the old rank and so breaking their shape clause too).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conformance.draft import rank_redraws
from conformance.draft.context import IN_PLACE, Clause, Context, Evidence, expressible, reading, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.numel_ties import fresh, own
from conformance.draft.shape_draws import Shapes
from conformance.draft.shape_notes import listed

KEY = "_reduced"  # a clause's private key: the outputs it gives the reduced shape
EMPTY = "empty_axis"  # the reading kind of a row refusing an empty reduced axis, and its clause's key
_KEEP = re.compile(r"keep_?dims?", re.IGNORECASE)


@dataclass(frozen=True)
class Reduction:
    input: str
    dim: str
    keep: str
    outputs: tuple[str, ...]

    @property
    def names(self) -> set[str]:
        return {self.input, self.dim, self.keep, *self.outputs}


def find(ctx: Context, clauses: list[Clause]) -> Reduction | None:
    """The page's reduction, or None when it has no keepdim flag, no dimension tied to one input
    tensor, or an output the clauses give the input's shape."""
    keeps = [n for n in ctx.of_kind("bool") if _KEEP.fullmatch(n) and not ctx.params[n].get("optional")]
    ties = {c["_dim"] for c in clauses if "_dim" in c}
    if len(keeps) != 1 or len(ties) != 1:
        return None
    (dim, x), keep = next(iter(ties)), keeps[0]
    outputs = tuple(t for t in ctx.of_kind("tensor")
                    if ctx.params[t]["role"] == "output" and not ctx.params[t].get(IN_PLACE))
    if ctx.params[dim]["kind"] not in ("int", "int_array") or ctx.params.get(x, {}).get("kind") != "tensor" \
            or ctx.params[x]["role"] != "input" or not outputs or not expressible(x, dim, keep, *outputs):
        return None
    same = [c["params"] for c in clauses if c["kind"] == "same_shape"]
    if any(x in params and set(params) & set(outputs) for params in same):
        return None  # (the page gives an output the input's shape: no reduction we can read)
    return Reduction(x, dim, keep, outputs)


def clauses(ctx: Context, vague: list[Evidence], empty: list[Evidence], built: list[Clause],
            null_ids: dict[str, list[str]]) -> list[Clause]:
    """One clause per vague shape row (not settled by the usage notes) on the reduction's outputs,
    and per row refusing an empty reduced axis."""
    r = find(ctx, built)
    if r is None:
        return []
    guards = [c["id"] for c in built
              if c.get("_dim") == (r.dim, r.input) or c.get("_axes", ("",))[0] == r.dim]
    nulls = [cid for cid, params in null_ids.items() if set(params) & r.names]
    out = []
    for named, rows in _rows(r, vague):
        out.append({"id": ctx.new_id("REDUCED"), "source": source([e.sentence for e in rows]),
                    "kind": "expr", "requires": [*nulls, *guards], "all": [_line(ctx, r, o) for o in named],
                    "on_violation": rows[0].status, "_evidence": rows, KEY: named})
    for e in empty:
        if e.params and set(e.params) <= {r.input, r.dim}:
            out.append({"id": ctx.new_id("EMPTY-AXIS"), "source": source([e.sentence]), "kind": "expr",
                        "requires": [*nulls, *guards], "all": [_nonempty(ctx, r)],
                        "on_violation": e.status, "_evidence": [e], EMPTY: True})
    return out


def _nonempty(ctx: Context, r: Reduction) -> str:
    x, d = r.input, r.dim
    if ctx.params[d]["kind"] == "int":
        return ctx.if_given(d, f"{x}.rank == 0 or {x}.shape[{d} % {x}.rank] > 0")
    return ctx.if_given(d, f"{x}.rank == 0 or all({x}.shape[a % {x}.rank] > 0 for a in {d})")


def _rows(r: Reduction, vague: list[Evidence]) -> list[tuple[list[str], list[Evidence]]]:
    """(outputs, the sentences saying their shape) of each clause: a vague row alone; the halves
    of one output under each flag value together, when both are said with one code."""
    out, halves = [], {}  # (halves: output → its sentences under one flag value)
    for e in vague:
        named = [o for o in r.outputs if o in e.params]
        if not named or e.limits.get("scope") == "all" or not set(e.params) <= r.names:
            continue
        if "keep" not in e.limits and listed(e.sentence.text) <= set(e.params):
            out.append((named, [e]))
        elif "keep" in e.limits and e.limits["reduced"] == (named[0], r.input):
            halves.setdefault(named[0], []).append(e)
    for o, rows in halves.items():
        said = {k for e in rows for k in e.limits["keep"]}
        if said == {True, False} and len({e.status for e in rows}) == 1:
            out.append(([o], rows))
    return out


def _line(ctx: Context, r: Reduction, output: str) -> str:
    text = f"{output}.shape == reduced({r.input}.shape, {r.dim}, {r.keep})"
    if ctx.params[r.dim]["kind"] == "int_array":
        text = f"len({r.dim}) == 0 or {text}"
    return ctx.if_given(output, ctx.if_given(r.dim, text))


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, draw_of: Callable[[str], str], where: Callable[[str], Any]) -> set[str]:
    """The outputs drawn reduced and each clause's break; the outputs so drawn (no longer guesses).
    A reduction that cannot be drawn so leaves its clauses for review."""
    mine = [c for c in clauses_ if KEY in c or EMPTY in c]
    shaped = [c for c in mine if KEY in c]
    r = find(s.ctx, clauses_)
    drawn = _draw(s, draws, args, r, draw_of) if r is not None else None
    for c in mine:
        named, empty = c.pop(KEY, None), c.pop(EMPTY, False)
        step = _empty_break(s, args, r, draw_of) if empty and drawn else None
        if drawn is None or empty and step is None:
            clauses_.remove(c)
            for e in c["_evidence"]:
                review(e.sentence, reading(c))
        else:
            c["break"] = step or {args[named[0]]: {"mode": "perturb"}}
    if drawn:
        rank_redraws.redraw_breaks(draws, args[r.input], r.input, clauses_)
    if drawn and not any(c in clauses_ for c in shaped):
        review(Sentence(f"Drafted guess: {', '.join(r.outputs)} drawn as {r.input} reduced over {r.dim} "
                        f"({r.keep}: reduced axes kept as 1), which no row says: check the generate "
                        "section", where(r.outputs[0])), doc="contract")
    return set(drawn or ())


def _empty_break(s: Shapes, args: dict[str, Any], r: Reduction,
                 draw_of: Callable[[str], str]) -> dict[str, Any] | None:
    """x drawn with a first dimension of 0 (then 2s, at its least rank of one or more) and the
    dimension 0: the one reduced axis empty. None where x's rank cannot be one or more."""
    low, high = s.ranges.get(args[r.input], (0, 0))
    rank = max(low, 1)
    if rank > high:
        return None
    shape = "[0" + ", 2" * (rank - 1) + "]"
    dim = "0" if s.ctx.params[r.dim]["kind"] == "int" else "[0]"
    return {args[r.input]: {"expr": shape}, draw_of(r.dim): {"expr": dim}}


def _draw(s: Shapes, draws: dict[str, Any], args: dict[str, Any], r: Reduction,
          draw_of: Callable[[str], str]) -> set[str] | None:
    """Each output class drawn as the input's shape reduced; the outputs, or None."""
    base = args.get(r.input)
    dim, keep = draw_of(r.dim), draw_of(r.keep)
    if not isinstance(base, str) or base not in draws or not own(s, args, r.input) \
            or dim not in draws or keep not in draws:
        return None
    classes = list(dict.fromkeys(s.rep(o) for o in r.outputs))
    if any(m not in r.outputs for c in classes for m in s.members(c)):
        return None  # (an output sharing a shape with an input)
    old = {args[m] for c in classes for m in s.members(c)}
    low, high = s.ranges.get(base, (0, 8))
    for c in classes:
        name = fresh(draws, f"{c}_reduced_shape")
        draws[name] = {"expr": f"reduced({base}, {dim}, {keep})"}
        s.ranges[name] = (max(low - 1, 0), high)
        for m in s.members(c):
            args[m] = name
    for name in old - {base} - set(args.values()):
        if isinstance(name, str) and not any(name in str(d) for d in draws.values()):
            draws.pop(name, None)  # (an output's own draw, now read by nothing)
    return {m for c in classes for m in s.members(c)}
