"""Automatic ways to break a clause of each predicate kind, from the clause's own data.

``variants`` lists every deterministic way to make a valid case violate the clause (the boundary
phase runs them all; Hypothesis picks one). Only ``expr`` clauses need a ``break`` entry in the
spec, because an expression says nothing about how to violate it.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from conformance.cases.layouts import with_layout
from conformance.cases.tensor import TensorMeta
from conformance.generate import dtype_relations
from conformance.spec.clause_checks import DTYPE_RELATIONS
from conformance.spec.model import Constraint, OperatorSpec
from conformance.spec.vocabulary import Vocabulary

Args = dict[str, Any]


def _set(args: Args, **changes: Any) -> Args:
    out = dict(args)
    out.update(changes)
    return out


def _tensors(c: Constraint, args: Args) -> list[str]:
    return [p for p in c.params if isinstance(args.get(p), TensorMeta)]


def _not_null(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    return [_set(args, **{p: None}) for p in c.params if args.get(p) is not None]


def _dtype_in(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    """Each unlisted dtype on the clause's tensors and those same_dtype clauses tie to them (an
    out tied to self by a clause of its own), so only this clause breaks."""
    allowed = c.options["per_product"].get(ctx.product, [])
    named = _tensors(c, args)
    tied = {p for g in ctx.spec.dtype_groups() if set(g) & set(named) for p in g}
    names = [p for p in args if p in tied and isinstance(args[p], TensorMeta)]
    return [_set(args, **{p: replace(args[p], dtype=d) for p in names})
            for d in ctx.vocab.dtypes if d not in allowed]


def _same_dtype(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    """Another dtype for each later tensor: one its own list admits, or (a tensor with no list of
    its own, such as an out 'of self's dtype') one the first tensor's list admits."""
    names = _tensors(c, args)
    out = []
    for p in names[1:]:
        listed = ctx.spec.dtypes_for(ctx.product, p) or ctx.spec.dtypes_for(ctx.product, names[0])
        others = [d for d in listed if d != args[p].dtype]
        out += [_set(args, **{p: replace(args[p], dtype=d)}) for d in others[:1]]
    return out


def _format_in(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    bad = [f for f in ctx.vocab.formats if f not in c.options["formats"]][:1]
    return [_set(args, **{p: replace(args[p], format=f)}) for p in _tensors(c, args) for f in bad]


def _reshaped(meta: TensorMeta, shape: tuple[int, ...]) -> TensorMeta:
    return replace(meta, shape=shape, strides=None)


def _rank_in(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    opts, names = c.options, _tensors(c, args)
    ranks = opts.get("ranks", [])
    low = min([*ranks, *([opts["min"]] if "min" in opts else [])], default=None)
    high = max([*ranks, *([opts["max"]] if "max" in opts else [])], default=None)
    out = []
    if low is not None and low > 0:
        out.append({p: _reshaped(args[p], args[p].shape[args[p].rank - (low - 1):]) for p in names})
    if high is not None:
        out.append({p: _reshaped(args[p], (1,) * (high + 1 - args[p].rank) + args[p].shape)
                    for p in names})
    if opts.get("same") and len(names) > 1:
        first = names[0]  # the first, so no same_shape clause between later ones breaks too
        out.append({first: _reshaped(args[first], (1,) + args[first].shape)})
    return [_set(args, **change) for change in out]


def _same_shape(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    names = _tensors(c, args)
    out = []
    for p in names[1:]:
        shape = args[p].shape
        if shape:
            out.append(_set(args, **{p: _reshaped(args[p], shape[:-1] + (shape[-1] + 1,))}))
    return out


def _length(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    out = []
    for p in c.params:
        value = args.get(p)
        if value is not None:
            out.append(_set(args, **{p: tuple(value) + (0,)}))
            if value:
                out.append(_set(args, **{p: tuple(value)[:-1]}))
    return out


def _broadcastable(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    """Make the last tensor's dim clash with a non-1 dim of the first (aligned from the right)."""
    names = _tensors(c, args)
    if len(names) < 2:
        return []
    first, last = args[names[0]].shape, args[names[-1]].shape
    for back in range(1, min(len(first), len(last)) + 1):
        d = first[-back]
        if d != 1:
            shape = list(last)
            shape[-back] = d + 2 if d == 0 else d + 1
            return [_set(args, **{names[-1]: _reshaped(args[names[-1]], tuple(shape))})]
    return []


def _value_in(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    allowed = [v for v in c.options["values"] if isinstance(v, int)]
    bad = [max(allowed) + 1, min(allowed) - 1] if allowed else []
    return [_set(args, **{p: v}) for p in c.params for v in bad]


def _contiguous(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    out = []
    for p in _tensors(c, args):
        meta = with_layout(args[p], "strided")
        if not meta.contiguous:
            out.append(_set(args, **{p: meta}))
    return out


def _data_in(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    """Some elements outside the parameter's domain (materialize puts them there)."""
    return [_set(args, **{p: replace(args[p], outside=True)}) for p in _tensors(c, args)
            if args[p].numel > 0]


class _Context:
    def __init__(self, spec: OperatorSpec, vocab: Vocabulary, product: str) -> None:
        self.spec, self.vocab, self.product = spec, vocab, product


_VARIANTS: dict[str, Callable[[Constraint, Args, _Context], list[Args]]] = {
    "not_null": _not_null, "dtype_in": _dtype_in, "same_dtype": _same_dtype, "format_in": _format_in,
    "rank_in": _rank_in, "same_shape": _same_shape, "length": _length,
    "broadcastable": _broadcastable, "value_in": _value_in, "contiguous": _contiguous,
    "data_in": _data_in,
    **{kind: lambda c, args, ctx: dtype_relations.variants(c, args, ctx.spec, ctx.product)
       for kind in DTYPE_RELATIONS},
}

AUTOMATIC = frozenset(_VARIANTS)


def variants(c: Constraint, args: Args, spec: OperatorSpec, vocab: Vocabulary, product: str) -> list[Args]:
    """Every automatic way to break ``c`` starting from the valid ``args`` (may be empty)."""
    return _VARIANTS[c.kind](c, args, _Context(spec, vocab, product))
