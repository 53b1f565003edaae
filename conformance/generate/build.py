"""Build cases from a spec's ``generate`` program: a valid case, or one breaking a named clause
(through the clause's own ``break`` entry or an automatic variant from breaks.py)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from conformance.cases.case import Case
from conformance.cases.layouts import choose_layouts
from conformance.cases.tensor import TensorMeta
from conformance.generate.breaks import AUTOMATIC, variants
from conformance.generate.choosers import FixedChooser
from conformance.generate.dtype_relations import fitting, group_options
from conformance.spec.draws import Chooser
from conformance.spec.model import WRITTEN, OperatorSpec
from conformance.spec.values import (
    Scalar,
    TensorList,
    element_name,
    flat_tensors,
    scalar_dtype,
    scalar_value,
    with_dtype,
)
from conformance.spec.vocabulary import Vocabulary


def can_break(spec: OperatorSpec, clause: str) -> bool:
    return clause in spec.program.breaks or spec.constraint(clause).kind in AUTOMATIC


def build_case(spec: OperatorSpec, vocab: Vocabulary, product: str, dtype: str, ch: Chooser,
               clause: str | None = None, size_max: int = 0,
               steps: tuple[Any, ...] | None = None) -> Case | None:
    """One case (tensor args as TensorMeta). With ``clause``, the case is built to break it;
    None when that is impossible from what was drawn. With ``size_max``, a case of the size axis
    (the spec's ``large`` draws; its largest tensor at most ``size_max`` elements). With ``steps``
    and no clause, a case with those steps of some clause's ``break`` applied (exemptions.py)."""
    program, on = spec.program, spec.stand_in(product)  # (a product_in break: drawn as on ``on``)
    given = program.breaks.get(clause or "", ()) if steps is None else steps
    by_name = {s.name: s for s in given}
    env: dict[str, Any] = {"size_max": size_max} if size_max else {}
    for draw in program.large if size_max else program.draws:
        step = by_name.get(draw.name)
        env[draw.name] = step.apply(draw, env, ch) if step else draw.value(env, ch)
    args = {name: typed_arg(spec.params[name].kind, expr.evaluate(env), dtype)
            for name, expr in program.args.items()}
    for name in _optional(spec, args):
        if ch.boolean("absent"):  # a documented optional argument left out: valid, reference gets None
            args[name] = None
    views = () if size_max else program.views  # size-axis cases are dense: their size is the point
    args.update(_laid_out(spec, args, views, ch))
    if not size_max:  # size-axis cases test the size, in the item's one dtype
        args.update(_mixed_dtypes(spec, on, dtype, args, ch))
    else:  # (but a group that cannot have it, such as integer class indices, gets its first)
        args.update(_mixed_dtypes(spec, on, dtype, args, FixedChooser("min"), only_foreign=True))
    args.update({n: Scalar(scalar_value(v.value, v.dtype), v.dtype) for n, v in args.items()
                 if isinstance(v, Scalar)})  # a scalar's value as its final dtype holds it
    if clause is not None and clause not in program.breaks:
        options = variants(spec.constraint(clause), args, spec, vocab, product)
        if not options:
            return None
        args = ch.choice(options, "variant")
    return Case(spec.api, product, args)


def broken_cases(spec: OperatorSpec, vocab: Vocabulary, product: str, dtype: str, ch: Chooser,
                 clause: str) -> list[Case]:
    """Every case breaking ``clause`` from one draw: the spec's own break, or each automatic
    variant of the valid case (where ``build_case`` would pick one)."""
    if clause in spec.program.breaks:
        case = build_case(spec, vocab, product, dtype, ch, clause)
        return [case] if case is not None else []
    base = build_case(spec, vocab, product, dtype, ch)
    if base is None:
        return []
    options = variants(spec.constraint(clause), base.args, spec, vocab, product)
    return [Case(spec.api, product, args) for args in options]


def typed_arg(kind: str, value: Any, dtype: str) -> Any:
    """An ``args`` value as the argument of a parameter of ``kind``: a tensor's shape becomes a
    TensorMeta, a tensor list's shapes a TensorList, a scalar's number a Scalar (all in
    ``dtype``, until dtypes are drawn), a list a tuple."""
    if value is None:
        return None
    if kind == "tensor":
        return TensorMeta(tuple(int(d) for d in value), dtype)
    if kind == "tensor_list":
        return TensorList(TensorMeta(tuple(int(d) for d in shape), dtype) for shape in value)
    if kind == "scalar":
        return Scalar(value, dtype)
    return tuple(value) if isinstance(value, list) else value


def _laid_out(spec: OperatorSpec, args: dict[str, Any], views: tuple[str, ...],
              ch: Chooser) -> dict[str, Any]:
    """The tensors of ``args`` in the layouts drawn for them (each element of a list its own)."""
    flat = {f: t for f, _, t in flat_tensors(args) if isinstance(t, TensorMeta)}
    outputs = {f for f, n, _ in flat_tensors(args) if spec.params[n].role in WRITTEN}
    laid = choose_layouts(flat, outputs, views, ch)
    out: dict[str, Any] = {}
    for name, value in args.items():
        if isinstance(value, TensorMeta):
            out[name] = laid[name]
        elif isinstance(value, TensorList):
            out[name] = TensorList(laid.get(element_name(name, i), e) for i, e in enumerate(value))
    return out


def _optional(spec: OperatorSpec, args: dict[str, Any]) -> list[str]:
    return [name for name, p in spec.params.items() if p.optional and args.get(name) is not None]


def _mixed_dtypes(spec: OperatorSpec, product: str, dtype: str, args: dict[str, Any],
                  ch: Chooser, only_foreign: bool = False) -> dict[str, Any]:
    """Where the documents let tensors differ in dtype: the item's dtype for the first tensor and
    those its ``same_dtype`` clauses tie to it; for every other tied group a dtype drawn from those
    the product lists for it (the item's first, so a case shrinks to one dtype), unless the
    program's ``dtype_together`` keeps it in the dtype of a group drawn before it."""
    out: dict[str, Any] = {}
    groups = spec.dtype_groups()
    drawn = dict.fromkeys(groups[0] if groups else [], dtype)  # parameter -> its dtype so far
    for group in groups[1:]:
        listed = [d for d in spec.dtypes_for(product, group[0])
                  if all(d in spec.dtypes_for(product, p) for p in group)]
        options = [dtype, *(d for d in listed if d != dtype)] if dtype in listed else listed
        options = fitting(spec, product, {**args, **out}, group, options)  # promotion, casts
        chosen = next((d for d in _together(spec, group, drawn) if d in options), None)
        if chosen is None and (len(options) < 2 and dtype in listed or only_foreign and dtype in listed
                               or not options):
            drawn.update(dict.fromkeys(group, dtype))
            continue
        scalars = all(spec.params[p].kind == "scalar" for p in group)
        if chosen is None:
            options = _most_shared(spec, product, group, groups, drawn, options)
            chosen = scalar_dtype(dtype, options) if scalars else ch.choice(options, f"dtype_{group[0]}")
        drawn.update(dict.fromkeys(group, chosen))
        out.update({p: replace(args[p], dtype=chosen) if isinstance(args[p], Scalar)
                    else with_dtype(args[p], chosen) for p in group if args.get(p) is not None})
    return out


def _together(spec: OperatorSpec, group: list[str], drawn: dict[str, str]) -> list[str]:
    """The dtypes already drawn for the parameters a ``dtype_together`` entry ties to ``group``
    (where the lists share none, the group is drawn as if untied: the entry is a preference)."""
    return [drawn[p] for t in spec.program.together if set(t.params) & set(group)
            for p in t.params if p in drawn]


def _most_shared(spec: OperatorSpec, product: str, group: list[str], groups: list[list[str]],
                 drawn: dict[str, str], options: list[str]) -> list[str]:
    """Of ``options``, those the most groups ``dtype_together`` ties to ``group`` and not drawn
    yet list too (so the first of them drawn leaves the others a dtype to follow)."""
    tied = {p for t in spec.program.together if set(t.params) & set(group) for p in t.params}
    later = [group_options(spec, product, g) for g in groups
             if set(g) & tied and not set(g) & set(group) and g[0] not in drawn]
    if not later:
        return options
    shared = {d: sum(d in listed for listed in later) for d in options}
    return [d for d in options if shared[d] == max(shared.values())]
