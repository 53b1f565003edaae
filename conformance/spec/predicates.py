"""One function per constraint kind: given the arguments, the messages of what is violated.

An empty list means the clause holds. Null arguments are judged only by ``not_null``; every other
kind skips them, so one null pointer is reported once, by the clause that documents it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from conformance.spec.expressions import ExprError
from conformance.spec.model import Constraint
from conformance.spec.promotion import castable, promotable
from conformance.spec.values import Scalar, TensorList, element_name

Names = Mapping[str, Any]
Predicate = Callable[[Constraint, Names, str], list[str]]


def _present(c: Constraint, names: Names) -> list[tuple[str, Any]]:
    """The clause's non-null arguments; a tensor list's elements each under ``x[i]`` (a clause
    on a list holds for every element)."""
    out: list[tuple[str, Any]] = []
    for p in c.params:
        value = names.get(p)
        if isinstance(value, TensorList):
            out += [(element_name(p, i), e) for i, e in enumerate(value) if e is not None]
        elif value is not None:
            out.append((p, value))
    return out


def _lists(c: Constraint, names: Names) -> list[tuple[str, TensorList]]:
    return [(p, names[p]) for p in c.params if isinstance(names.get(p), TensorList)]


def _positional(c: Constraint, names: Names, relation: Callable[[list[tuple[str, Any]]], list[str]]
                ) -> list[str] | None:
    """A relation between tensor lists, position by position (lists of one length, then the
    relation among their i-th elements); None where the clause names no list."""
    lists = _lists(c, names)
    if not lists:
        return None
    first, ref = lists[0]
    out = [f"len({p})={len(v)} must equal len({first})={len(ref)}"
           for p, v in lists[1:] if len(v) != len(ref)]
    if out:
        return out
    for i in range(len(ref)):
        out += relation([(element_name(p, i), v[i]) for p, v in lists if v[i] is not None])
    return out


def not_null(c: Constraint, names: Names, product: str) -> list[str]:
    return [f"{p} is a null pointer" for p in c.params if names.get(p) is None]


def dtype_in(c: Constraint, names: Names, product: str) -> list[str]:
    allowed = c.options["per_product"].get(product, [])
    return [f"{p}.dtype={t.dtype} is not one of {', '.join(allowed)} on {product}"
            for p, t in _present(c, names) if t.dtype not in allowed]


def _same(c: Constraint, names: Names, attr: str) -> list[str]:
    """Each present parameter's ``attr`` must equal the first present one's (every element of
    a tensor list: one dtype for all of them)."""
    return _same_among(_present(c, names), attr)


def _same_among(present: list[tuple[str, Any]], attr: str) -> list[str]:
    if not present:
        return []
    first, ref = present[0]
    show = (lambda v: list(v) if isinstance(v, tuple) else v)  # noqa: E731 - one-line formatter
    return [f"{p}.{attr}={show(getattr(t, attr))} must equal {first}.{attr}={show(getattr(ref, attr))}"
            for p, t in present[1:] if getattr(t, attr) != getattr(ref, attr)]


def same_dtype(c: Constraint, names: Names, product: str) -> list[str]:
    """One dtype over every element of every parameter; with ``lists: position`` over the i-th
    elements of the lists (and every tensor or scalar named), with ``lists: each`` within each
    list (lists of different lengths are another clause's matter: positions past a list's end
    are compared without it)."""
    tie, lists = c.list_tie, _lists(c, names)
    if tie == "each":
        return [m for p, v in lists for m in _same_among(_elements(p, v, range(len(v))), "dtype")]
    if tie == "position" and lists:
        out: list[str] = []
        for i in range(max(1, *(len(v) for _, v in lists))):  # (empty lists: the others)
            present = [x for p in c.params for x in (_elements(p, names[p], [i])
                       if isinstance(names.get(p), TensorList) else _present_one(p, names))]
            out += _same_among(present, "dtype")
        return out
    return _same(c, names, "dtype")


def _elements(param: str, value: TensorList, at: Any) -> list[tuple[str, Any]]:
    """The non-null elements of a list at the indices ``at`` (those past its end left out)."""
    return [(element_name(param, i), value[i]) for i in at if i < len(value) and value[i] is not None]


def _present_one(param: str, names: Names) -> list[tuple[str, Any]]:
    return [(param, names[param])] if names.get(param) is not None else []


def format_in(c: Constraint, names: Names, product: str) -> list[str]:
    allowed = c.options["formats"]
    return [f"{p}.format={t.format} is not one of {', '.join(allowed)}"
            for p, t in _present(c, names) if t.format not in allowed]


def same_format(c: Constraint, names: Names, product: str) -> list[str]:
    """One format over every present tensor (every element of a tensor list)."""
    return _same(c, names, "format")


def rank_in(c: Constraint, names: Names, product: str) -> list[str]:
    opts, out = c.options, []
    for p, t in _present(c, names):
        if "ranks" in opts and t.rank not in opts["ranks"]:
            out.append(f"{p}.rank={t.rank} must be one of {', '.join(map(str, opts['ranks']))}")
        if "min" in opts and t.rank < opts["min"]:
            out.append(f"{p}.rank={t.rank} must be >= {opts['min']}")
        if "max" in opts and t.rank > opts["max"]:
            out.append(f"{p}.rank={t.rank} must be <= {opts['max']}")
    present = _present(c, names)
    if opts.get("same") and present and not out:
        first, ref = present[0]
        out += [f"{p}.rank={t.rank} must equal {first}.rank={ref.rank}"
                for p, t in present[1:] if t.rank != ref.rank]
    return out


def same_shape(c: Constraint, names: Names, product: str) -> list[str]:
    """Tensor lists: the same length, and the i-th elements of one shape."""
    by_position = _positional(c, names, lambda present: _same_among(present, "shape"))
    return by_position if by_position is not None else _same(c, names, "shape")


def length(c: Constraint, names: Names, product: str) -> list[str]:
    """An int_array's length, or a tensor list's element count: ``length`` exactly, or within
    ``min`` .. ``max``."""
    opts, out = c.options, []
    for p in c.params:
        value = names.get(p)
        if value is None:
            continue
        n = len(value)
        if "length" in opts and n != opts["length"]:
            out.append(f"len({p})={n} must be {opts['length']}")
        if "min" in opts and n < opts["min"]:
            out.append(f"len({p})={n} must be >= {opts['min']}")
        if "max" in opts and n > opts["max"]:
            out.append(f"len({p})={n} must be <= {opts['max']}")
    return out


def broadcastable(c: Constraint, names: Names, product: str) -> list[str]:
    by_position = _positional(c, names, _broadcast_among)
    return by_position if by_position is not None else _broadcast_among(_present(c, names))


def _broadcast_among(present: list[tuple[str, Any]]) -> list[str]:
    try:
        np.broadcast_shapes(*(t.shape for _, t in present))
    except ValueError:
        shapes = ", ".join(f"{p}.shape={list(t.shape)}" for p, t in present)
        return [f"{shapes} do not broadcast"]
    return []


def value_in(c: Constraint, names: Names, product: str) -> list[str]:
    allowed = c.options["values"]
    return [f"{p}={v!r} is not one of {', '.join(map(str, allowed))}"
            for p, v in _present(c, names) if (v.value if isinstance(v, Scalar) else v) not in allowed]


def contiguous(c: Constraint, names: Names, product: str) -> list[str]:
    return [f"{p} is a non-contiguous view (strides={list(t.strides)}, shape={list(t.shape)})"
            for p, t in _present(c, names) if not t.contiguous]


def data_in(c: Constraint, names: Names, product: str) -> list[str]:
    """A tensor whose data lies outside its ``data`` domain: TensorMeta.outside, which generation
    sets and the oracle recomputes from the values wherever a case carries data."""
    return [f"{p} has elements outside its documented domain ({_domain(c, p, names)})"
            for p, t in _present(c, names) if getattr(t, "outside", False) and t.numel > 0]


def product_in(c: Constraint, names: Names, product: str) -> list[str]:
    """The call is on a product line the documents support (oracle.py gives this predicate the
    case's own product, the others the line standing in for it)."""
    supported = c.options["products"]
    return [] if product in supported else [f"{product} is not among the supported product lines "
                                             f"({', '.join(supported)})"]


def _domain(c: Constraint, param: str, names: Names) -> str:
    try:
        return str(c.options["domains"][param].describe(names))
    except ExprError:  # a bound reads an argument this case breaks
        return "its bounds cannot be evaluated here"


def expr(c: Constraint, names: Names, product: str) -> list[str]:
    """Every false conjunct of ``all``; evaluation stops at the first one that cannot be computed."""
    out: list[str] = []
    for e in c.exprs:
        try:
            holds = bool(e.evaluate(names))
        except ExprError:
            if out:
                break
            raise
        if not holds:
            out.append(e.explain(names))
    return out


PREDICATES: dict[str, Predicate] = {f.__name__: f for f in (
    not_null, dtype_in, same_dtype, format_in, same_format, rank_in, same_shape, length, broadcastable,
    value_in, contiguous, data_in, product_in, expr, promotable, castable)}
