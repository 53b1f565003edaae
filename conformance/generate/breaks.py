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
from conformance.generate import dtype_relations, list_dtypes
from conformance.spec.clause_checks import DTYPE_RELATIONS
from conformance.spec.model import Constraint, OperatorSpec
from conformance.spec.values import Scalar, TensorList, dtypes_of, scalar_value, with_dtype
from conformance.spec.vocabulary import Vocabulary

Args = dict[str, Any]


def _set(args: Args, **changes: Any) -> Args:
    out = dict(args)
    out.update(changes)
    return out


def _tensors(c: Constraint, args: Args) -> list[str]:
    """The clause's parameters given as a tensor or a tensor list."""
    return [p for p in c.params if isinstance(args.get(p), (TensorMeta, TensorList))]


def _dtyped(args: Args, names: Any) -> list[str]:
    return [p for p in names if isinstance(args.get(p), (TensorMeta, TensorList, Scalar))]


def _on_last(value: Any, change: Callable[[TensorMeta], TensorMeta]) -> Any:
    """``change`` applied to a tensor, or to the last element of a tensor list (one element that
    breaks a clause on every element is the case a kernel checking only the first one misses)."""
    if isinstance(value, TensorList):
        return TensorList((*value[:-1], change(value[-1]))) if value else value
    return change(value)


def _last(value: Any) -> Any:
    """A tensor, or the last element of a tensor list (None for an empty list)."""
    if isinstance(value, TensorList):
        return value[-1] if value else None
    return value


def _lists(names: list[str], args: Args, least: int = 1) -> list[str]:
    return [p for p in names if isinstance(args[p], TensorList) and len(args[p]) >= least]


def _not_null(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    return [_set(args, **{p: None}) for p in c.params if args.get(p) is not None]


def _dtype_in(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    """Each unlisted dtype on the clause's tensors and those same_dtype clauses tie to them (an
    out tied to self by a clause of its own), so only this clause breaks."""
    allowed = c.options["per_product"].get(ctx.product, [])
    named = _dtyped(args, c.params)
    tied = {p for g in ctx.spec.dtype_groups() if set(g) & set(named) for p in g}
    names = _dtyped(args, [p for p in args if p in tied])
    bad = [d for d in ctx.vocab.dtypes if d not in allowed]
    out = [_set(args, **{p: with_dtype(args[p], d) for p in names}) for d in bad]
    # and one element of a list alone (which may break a same_dtype clause on it as well)
    return out + [_set(args, **{p: _on_last(args[p], lambda e, d=d: replace(e, dtype=d))})
                  for p in _lists(named, args, 2) for d in bad[:1]]


def _same_dtype(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    """Another dtype for each later tensor: one its own list admits, or (a tensor with no list of
    its own, such as an out 'of self's dtype') one the first tensor's list admits. Within each
    list (``lists: each``): the last elements of the lists (list_dtypes.py)."""
    if c.list_tie == "each":
        return list_dtypes.within_each(c, args, ctx.spec, ctx.product)
    names = _dtyped(args, c.params)
    out = []
    for p in names:
        listed = ctx.spec.dtypes_for(ctx.product, p) or ctx.spec.dtypes_for(ctx.product, names[0])
        others = [d for d in listed if d not in dtypes_of(args[p])]
        if p != names[0]:
            out += [_set(args, **{p: with_dtype(args[p], d)}) for d in others[:1]]
        if isinstance(args[p], TensorList) and len(args[p]) >= 2:  # one element of a list
            out += [_set(args, **{p: _on_last(args[p], lambda e, d=d: replace(e, dtype=d))})
                    for d in others[:1]]
    return out


def _format_in(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    """An unlisted format on each of the clause's tensors, and on those same_format clauses tie
    to it (one the tied tensors' own format_in lists allow where there is one), so only this
    clause breaks."""
    out: list[Args] = []
    bad = [f for f in ctx.vocab.formats if f not in c.options["formats"]]
    for p in [p for p in _tensors(c, args) if _last(args[p]) is not None]:
        group = _format_tied(ctx.spec, p, args)
        fits = [f for f in bad if all(f in (_allowed_formats(ctx.spec, q) or {f})
                                      for q in group if q not in c.params)]
        for f in (fits or bad)[:1]:
            change = {q: _on_last(args[q], lambda e, f=f: replace(e, format=f)) for q in group}
            if (new := _set(args, **change)) not in out:
                out.append(new)
    return out


def _allowed_formats(spec: OperatorSpec, name: str) -> set[str] | None:
    """The formats every unconditional format_in clause naming ``name`` lists (None: no clause)."""
    listed = [set(k.options["formats"]) for k in spec.constraints
              if k.kind == "format_in" and name in k.params and k.only_if is None]
    return set.intersection(*listed) if listed else None


def _format_tied(spec: OperatorSpec, name: str, args: Args) -> list[str]:
    """``name`` and the present tensors same_format clauses tie to it (transitively)."""
    tied, grew = {name}, True
    while grew:
        clauses = [k for k in spec.constraints if k.kind == "same_format" and tied & set(k.params)]
        new = {q for k in clauses for q in k.params if _last(args.get(q)) is not None} - tied
        tied |= new
        grew = bool(new)
    return [q for q in args if q in tied]


def _same_format(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    """One tensor in another format that its own format_in clauses all allow, so only this clause
    breaks; a tensor no format_in clause lists formats for is left alone (its formats unknown)."""
    names = [p for p in _tensors(c, args) if _last(args[p]) is not None]
    if len(names) < 2 and not _lists(names, args, 2):
        return []
    out = []
    for p in names:
        others = sorted((_allowed_formats(ctx.spec, p) or set()) - {_last(args[p]).format})
        out += [_set(args, **{p: _on_last(args[p], lambda e, f=f: replace(e, format=f))})
                for f in others[:1] if f in ctx.vocab.formats]
    return out


def _reshaped(meta: TensorMeta, shape: tuple[int, ...]) -> TensorMeta:
    return replace(meta, shape=shape, strides=None)


def _rank_in(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    opts, names = c.options, [p for p in _tensors(c, args) if _last(args[p]) is not None]
    ranks = opts.get("ranks", [])
    low = min([*ranks, *([opts["min"]] if "min" in opts else [])], default=None)
    high = max([*ranks, *([opts["max"]] if "max" in opts else [])], default=None)
    out = []
    if low is not None and low > 0:
        out.append({p: _on_last(args[p], lambda t: _reshaped(t, t.shape[t.rank - (low - 1):]))
                    for p in names})
    if high is not None:
        out.append({p: _on_last(args[p], lambda t: _reshaped(t, (1,) * (high + 1 - t.rank) + t.shape))
                    for p in names})
    if opts.get("same") and len(names) > 1:
        first = names[0]  # the first, so no same_shape clause between later ones breaks too
        out.append({first: _on_last(args[first], lambda t: _reshaped(t, (1,) + t.shape))})
    return [_set(args, **change) for change in out]


def _same_shape(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    names = _tensors(c, args)
    out = []
    for p in names[1:]:
        last = _last(args[p])
        if isinstance(last, TensorMeta) and last.shape:  # lists: the last elements, by position
            wider = last.shape[:-1] + (last.shape[-1] + 1,)
            # and a 1 in front: the trailing dimensions another tie may hold stay (LayerNorm's)
            out += [_set(args, **{p: _on_last(args[p], lambda t, w=w: _reshaped(t, w))})
                    for w in (wider, (1, *last.shape))]
    # lists of different lengths (the same shapes, position by position, as far as they go)
    out += [_set(args, **{p: TensorList(args[p][:-1])}) for p in _lists(names[1:], args, 2)]
    return out


def _length(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    out = []
    for p in c.params:
        value = args.get(p)
        if isinstance(value, TensorList):
            out += _list_lengths(c, value, _position_tied(ctx.spec, p, args), args)
        elif value is not None:
            grown = (True,) if ctx.spec.params[p].kind == "bool_array" else (0,)
            out.append(_set(args, **{p: tuple(value) + grown}))
            if value:
                out.append(_set(args, **{p: tuple(value)[:-1]}))
    return out


def _list_lengths(c: Constraint, value: TensorList, tied: list[str], args: Args) -> list[Args]:
    """A tensor list one element past its count limits (copies of its last element), and so
    every list matched to it position by position (``tied``), so only this clause breaks."""
    opts = c.options
    high = opts.get("length", opts.get("max"))
    low = opts.get("length", opts.get("min"))
    out = []
    if high is not None and value:
        grow = high + 1 - len(value)
        out.append(_set(args, **{q: TensorList((*args[q], *[args[q][-1]] * grow)) for q in tied
                                 if args[q]}))
    if low:
        out.append(_set(args, **{q: TensorList(args[q][:low - 1]) for q in tied}))
    return out


def _position_tied(spec: OperatorSpec, name: str, args: Args) -> list[str]:
    """``name`` and the tensor lists a same_shape or broadcastable clause matches to it position
    by position (transitively)."""
    tied, grew = {name}, True
    while grew:
        grew = False
        for c in spec.constraints:
            if c.kind in ("same_shape", "broadcastable") and tied & set(c.params):
                new = {q for q in c.params if isinstance(args.get(q), TensorList)} - tied
                tied |= new
                grew = grew or bool(new)
    return [q for q in args if q in tied]


def _broadcastable(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    """Make the last tensor's dim clash with a non-1 dim of the first (aligned from the right)."""
    names = _tensors(c, args)
    if len(names) < 2 or _lists(names, args, 0):  # (lists: no automatic break yet)
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
    listed = c.options["values"]
    allowed = [v for v in listed if isinstance(v, int)]
    bad: list[Any] = [max(allowed) + 1, min(allowed) - 1] if allowed else []
    if listed and all(isinstance(v, bool) for v in listed):  # a flag: the other one (never 2 or 0)
        bad = [b for b in (True, False) if b not in listed]
    if any(isinstance(v, str) for v in listed):  # a string attribute: a name the list lacks
        bad = [name for name in ("undocumented", "undocumented_value") if name not in listed][:1]
    return [_set(args, **{p: Scalar(scalar_value(v, args[p].dtype), args[p].dtype)
                          if isinstance(args.get(p), Scalar) else v})
            for p in c.params for v in bad]


def _contiguous(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    out = []
    for p in _tensors(c, args):
        last = _last(args[p])
        meta = with_layout(last, "strided") if isinstance(last, TensorMeta) else None
        if meta is not None and not meta.contiguous:
            out.append(_set(args, **{p: _on_last(args[p], lambda t, m=meta: m)}))
    return out


def _data_in(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    """Some elements outside the parameter's domain (materialize puts them there)."""
    return [_set(args, **{p: replace(args[p], outside=True)}) for p in _tensors(c, args)
            if args[p].numel > 0]


def _product_in(c: Constraint, args: Args, ctx: _Context) -> list[Args]:
    """The valid arguments themselves, on a line the documents mark unsupported: the product
    breaks the clause (build.py draws them as on the line standing in for it)."""
    platform = ctx.spec.platform_clause(ctx.own_product)
    return [args] if platform is not None and platform.id == c.id else []


class _Context:
    def __init__(self, spec: OperatorSpec, vocab: Vocabulary, product: str) -> None:
        self.spec, self.vocab = spec, vocab
        self.product, self.own_product = spec.stand_in(product), product


_VARIANTS: dict[str, Callable[[Constraint, Args, _Context], list[Args]]] = {
    "not_null": _not_null, "dtype_in": _dtype_in, "same_dtype": _same_dtype, "format_in": _format_in,
    "same_format": _same_format,
    "rank_in": _rank_in, "same_shape": _same_shape, "length": _length,
    "broadcastable": _broadcastable, "value_in": _value_in, "contiguous": _contiguous,
    "data_in": _data_in, "product_in": _product_in,
    **{kind: lambda c, args, ctx: dtype_relations.variants(c, args, ctx.spec, ctx.product)
       for kind in DTYPE_RELATIONS},
}

AUTOMATIC = frozenset(_VARIANTS)


def variants(c: Constraint, args: Args, spec: OperatorSpec, vocab: Vocabulary, product: str) -> list[Args]:
    """Every automatic way to break ``c`` starting from the valid ``args`` (may be empty)."""
    return _VARIANTS[c.kind](c, args, _Context(spec, vocab, product))
