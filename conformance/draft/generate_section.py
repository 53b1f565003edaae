"""The ``generate`` section of a drafted spec: shapes that follow from its clauses.

Tensors tied by same_shape share one shape draw (its rank range from the table and the rank_in
clauses); a broadcasting group is drawn as a ``full`` shape with ``sub_broadcast`` members and
its result as their ``broadcast`` (as specs/aclnnMseLossBackward.yaml does); enumerated int
attributes are ``sampled``, bools sampled from [true, false], floats from a few small values.
What the clauses do not pin (a tensor related to no other, an int without values, an int array)
gets a best guess and a review clause saying so. Clause breaks the relation builders asked for
(``_break``) are resolved to these draw names here; the shape draws themselves: shape_draws.py.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from conformance.draft import (
    attr_shape_ties,
    axis_limits,
    bit_masks,
    bmm_ties,
    channel_ties,
    conditional_breaks,
    count_ties,
    dim_ties,
    distinct_clauses,
    empty_breaks,
    empty_dims,
    forward_shapes,
    index_draws,
    insert_ties,
    kernel_pads,
    letter_ties,
    list_counts,
    list_kinds,
    list_sizes,
    matmul_ties,
    norm_ties,
    numel_ties,
    order_clauses,
    outer_ties,
    pads,
    rank_ties,
    reduced_outputs,
    reduced_parts,
    reduction_shapes,
    shape_formulas,
    spatial_ties,
    value_rows,
)
from conformance.draft.context import Clause, Context, expressible, reading
from conformance.draft.facts import Review, Sentence
from conformance.draft.shape_draws import Shapes, draw_shapes

VIEWS = ["strided", "transposed", "offset", "stride0"]
FLOATS = [0.0, 0.5, 1.0]  # a float attribute's values when the page gives none

# the tied shapes' and attributes' draws, in this order (a later one reads an earlier one's draws)
_TIES = (matmul_ties, bmm_ties, outer_ties, norm_ties, channel_ties, numel_ties, letter_ties,
         spatial_ties, index_draws, count_ties, insert_ties, attr_shape_ties, bit_masks, shape_formulas,
         axis_limits)


def _draw(param: str) -> str:
    """An attribute's draw: named after it, unless the name is a Python keyword (``from``)."""
    return param if expressible(param) else f"{param}_value"


def _dim_bound(s: Shapes, clauses: list[Clause], name: str) -> str | None:
    """max(rank, 1) of the tensor whose dimension attribute ``name`` is, over its draw."""
    tensor = next((c["_dim"][1] for c in clauses if c.get("_dim", ("",))[0] == name), None)
    return f"max(len({s.of[tensor]}), 1)" if tensor in s.of else None


def _attribute(ctx: Context, s: Shapes, name: str, clauses: list[Clause]) -> tuple[dict[str, Any], bool]:
    """(the draw, guessed) of a non-tensor parameter."""
    kind = ctx.params[name]["kind"]
    values = next((c.get("_draw", c["values"]) for c in clauses
                   if c["kind"] == "value_in" and name in c["params"]), None)
    text = list_kinds.attribute(kind, name, ctx.rows.get(name), values)
    if text is not None:
        return text
    kind = "float" if kind == "scalar" else kind  # a host scalar's value: drawn as a float's
    bound = _dim_bound(s, clauses, name)
    if bound is not None:  # a dimension of a tensor: any valid one
        return ({"integers": [f"-{bound}", f"{bound} - 1"]} if kind == "int"
                else {"below": f"[{bound}]"}), False
    if kind == "int" and values:
        return {"sampled": sorted(values)}, False
    if kind == "bool":  # (a value_in clause: the one value its row allows)
        return {"sampled": list(values) if values else [True, False]}, False
    positive = next((c["_sign"][1] for c in clauses if c.get("_sign", ("",))[0] == name), None)
    inside = next((c["_interval"][1:] for c in clauses if c.get("_interval", ("",))[0] == name), None)
    fixed = next((c["_fixed"][1] for c in clauses if c.get("_fixed", ("",))[0] == name), None)
    if kind == "float" and fixed is not None:  # the one value its row allows
        return {"sampled": [fixed]}, False
    if kind == "float" and inside:  # inside the interval, never on a bound (the page may exclude it)
        low, high = inside
        return {"sampled": [low + (high - low) * k / 4 for k in (1, 2, 3)]}, False
    if kind == "float":
        return {"sampled": [v for v in FLOATS if v > 0] if positive else list(FLOATS)}, False
    if kind == "int":
        return {"integers": [1, 2] if positive else [0, 1]}, True
    exact = next((c["length"] for c in clauses if c["kind"] == "length" and name in c["params"]), None)
    if kind == "bool_array":  # every element true (an outputMask asking for every output)
        return {"expr": f"[True] * {exact or 1}"}, exact is None
    size = exact or next((max(c["_lengths"][1]) for c in clauses
                          if name in c.get("_lengths", ((), ()))[0]), 1)
    return {"expr": f"[1] * {size}" if size != 1 else "[1]"}, True


def generate_section(ctx: Context, clauses: list[Clause], review: Review) -> dict[str, Any]:
    """The section, and each clause's ``_break`` resolved (a coded clause whose break cannot be
    drawn becomes a review clause)."""
    where = partial(_where, ctx)  # (where a parameter's row is, for the review clauses)
    list_kinds.tidy(ctx.params, clauses, review, where)
    list_kinds.require_pointers(ctx.params, clauses)
    list_kinds.scalar_guesses(ctx.params, clauses, review, where)
    s = draw_shapes(ctx, clauses)
    list_sizes.draws(ctx, s, clauses, review)
    draws = dict(s.draws)
    guessed_attrs = []
    for name in ctx.params:
        if name not in ctx.tensors:
            draws[_draw(name)], guessed = _attribute(ctx, s, name, clauses)
            if guessed:
                guessed_attrs.append(name)
    ordered = order_clauses.draws(ctx, draws, clauses, _draw, review)
    guessed_attrs = [name for name in guessed_attrs if name not in ordered]
    count = list_kinds.count_draw(ctx.params)
    if ctx.of_kind("tensor_list"):
        draws[count] = {"integers": list(list_kinds.COUNT)}
    args = {name: (s.of[name] if p["kind"] == "tensor" else list_kinds.list_arg(s.of[name], count)
                   if p["kind"] == "tensor_list" else _draw(name)) for name, p in ctx.params.items()}
    _element_breaks(ctx, draws, clauses, review)
    value_rows.length_breaks(draws, clauses, _draw, review)
    kernel_pads.resolve(draws, clauses, _draw, review, where)
    forward_shapes.resolve(ctx, s.forward, draws, _draw, review, _where)
    _numel_breaks(ctx, s, clauses, review)
    empty_breaks.split_by_draw(ctx, clauses, lambda name: _break_draw(s, "zero_dim", name))
    _resolve_breaks(ctx, s, clauses, review)
    dim_ties.resolve(s, draws, args, clauses, review, where)
    tied: set[str] = set()
    for ties in _TIES:
        tied |= ties.resolve(s, draws, args, clauses, review, where)
    tied |= reduction_shapes.resolve(s, draws, args, clauses, review, _draw, where)
    reduced_parts.resolve(draws, args, clauses, review, where)
    s.guessed = [t for t in s.guessed if t not in tied]
    padded = pads.resolve(s, draws, args, clauses, review, _draw, where)
    guessed_attrs = [name for name in guessed_attrs if name not in tied and name not in padded]
    rank_ties.resolve(s, draws, args, clauses, review, _draw, where)
    list_counts.resolve(ctx, s, draws, args, clauses, review, where)
    empty_dims.zero_at(s.of, s.draws, clauses, review)
    pads.spare_padded_dims(s, clauses)
    distinct_clauses.axis_breaks(s.of, clauses, _draw)
    s.guessed = [t for t in s.guessed if t not in reduced_outputs.resolve(s, draws, args, clauses, review,
                                                                          _draw, where)]
    conditional_breaks.resolve(ctx, s, draws, args, clauses, review, _draw, where)
    _drop_dangling_requires(clauses)
    _review_guesses(ctx, s.guessed, guessed_attrs, review)
    _review_held(ctx, s.held, review)
    _review_dtype_selectors(ctx, draws, review)
    section: dict[str, Any] = {"draws": draws, "args": args}
    if any(r.noncontiguous for r in ctx.facts.params if r.name in ctx.tensors):
        section["views"] = list(VIEWS)
    return section


def _resolve_breaks(ctx: Context, s: Shapes, clauses: list[Clause], review: Review) -> None:
    for c in list(clauses):
        if "_break" not in c:
            continue
        mode, param = c["_break"]
        draw = _break_draw(s, mode, param) if mode != "dim_above" else None
        if mode == "dim_above":  # a dimension past the last one
            bound = _dim_bound(s, clauses, param)
            # an int dimension is valid in [-bound, bound - 1]: broken on both sides
            is_int = ctx.params[param]["kind"] == "int"
            c["break"] = ({param: {"outside": [f"-{bound}", f"{bound} - 1"]}} if is_int
                          else {param: {"mode": "above"}})
        elif draw is not None:
            c["break"] = {draw: {"mode": mode}}
        elif str(c.get("on_violation", "")).startswith("ACLNN_"):  # a code needs a break
            clauses.remove(c)
            review(Sentence(c["source"]["quote"], _where(ctx, param)), reading(c))


def _numel_breaks(ctx: Context, s: Shapes, clauses: list[Clause], review: Review) -> None:
    """A numel clause is broken by its first tensor drawn with one element more; one whose
    tensors are not drawn alone (a shape tied to others) is left for review."""
    for c in list(clauses):
        if "_numel" not in c:
            continue
        tensors, n = c["_numel"]
        if all(s.draws.get(s.of.get(t, ""), {}).get("expr") == f"[{n}]" for t in tensors):
            c["break"] = {s.of[tensors[0]]: {"expr": f"[{n + 1}]"}}
        else:
            clauses.remove(c)
            review(Sentence(c["source"]["quote"], _where(ctx, tensors[0])), "length")


def _element_breaks(ctx: Context, draws: dict[str, Any], clauses: list[Clause], review: Review) -> None:
    """An element-sign clause is broken by the array drawn with its last element out of range (its
    length as drawn, so no length clause breaks too; the others valid, so a kernel reading only
    the first element fails it)."""
    for c in list(clauses):
        if "_element_sign" not in c:
            continue
        attr, bad = c["_element_sign"]
        c.pop("_break", None)
        drawn = draws.get(_draw(attr), {}).get("expr", "")
        if drawn.startswith("[1]"):
            size = drawn[len("[1] * "):]
            c["break"] = {_draw(attr): {"expr": f"[1] * ({size} - 1) + [{bad}]" if size else f"[{bad}]"}}
        else:
            clauses.remove(c)
            review(Sentence(c["source"]["quote"], _where(ctx, attr)), "element sign")


def _break_draw(s: Shapes, mode: str, param: str) -> str | None:
    """The draw to break in ``mode`` for ``param``: its own draw when that is of the right op; for
    a zero dim, the Shape it derives from (``full`` for a broadcasting tensor)."""
    draw = s.of.get(param)
    op = next(iter(s.draws.get(draw or "", {})), None)
    if mode == "zero_dim" and op != "shape":
        return s.full
    wanted = {"perturb": "expr", "incompatible": "sub_broadcast", "zero_dim": "shape"}[mode]
    return draw if op == wanted else None


def _drop_dangling_requires(clauses: list[Clause]) -> None:
    """A clause a resolver left out (for review) is no requirement of the others any more: they
    were drafted while it stood (norm_ties' tie required rank_ties' comparison, which could not be
    drawn), and each guards its own evaluation."""
    ids = {c["id"] for c in clauses}
    for c in clauses:
        if "requires" in c and not set(c["requires"]) <= ids:
            c["requires"] = [r for r in c["requires"] if r in ids]


def _where(ctx: Context, param: str):  # noqa: ANN202 - a facts.Where
    row = ctx.rows.get(param)
    return row.where if row is not None else ctx.facts.params[0].where


def _review_dtype_selectors(ctx: Context, draws: dict[str, Any], review: Review) -> None:
    """An int attribute choosing an output's data type ("dstType: 输入范围为{35, 36}，分别对应输出y的
    数据类型…") is drawn over its values whatever dtypes the tensors were drawn in: say so."""
    for name in ctx.of_kind("int"):
        row = ctx.rows.get(name)
        said = " ".join(t.text for t in (row.description, *row.usage)) if row is not None else ""
        if "sampled" in draws.get(_draw(name), {}) and "数据类型" in said:
            review(Sentence(f"Drafted guess: {name} selects a data type; the draft draws each of its "
                            "values whatever dtypes the tensors are drawn in: check the generate "
                            "section", _where(ctx, name)), doc="contract")


def _review_held(ctx: Context, held: list[str], review: Review) -> None:
    if held:
        review(Sentence(f"Drafted guess: the page says only that the outputs {', '.join(held)} broadcast "
                        "with the inputs; the draft draws them in the inputs' broadcast shape (a "
                        "reduction's output has other dims): check the generate section",
                        _where(ctx, held[0])), doc="contract")


def _review_guesses(ctx: Context, tensors: list[str], attrs: list[str], review: Review) -> None:
    if tensors:
        review(Sentence(f"Drafted guess: no clause fixes the shapes of {', '.join(tensors)} (the draft "
                        "draws them like the other tensors or in a default rank range): check the "
                        "generate section", _where(ctx, tensors[0])), doc="contract")
    for name in attrs:
        review(Sentence(f"Drafted guess: the page lists no values for {name}; the draft draws a "
                        "small one: check the generate section", _where(ctx, name)), doc="contract")
