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

Names = Mapping[str, Any]
Predicate = Callable[[Constraint, Names, str], list[str]]


def _present(c: Constraint, names: Names) -> list[tuple[str, Any]]:
    return [(p, names[p]) for p in c.params if names.get(p) is not None]


def not_null(c: Constraint, names: Names, product: str) -> list[str]:
    return [f"{p} is a null pointer" for p in c.params if names.get(p) is None]


def dtype_in(c: Constraint, names: Names, product: str) -> list[str]:
    allowed = c.options["per_product"].get(product, [])
    return [f"{p}.dtype={t.dtype} is not one of {', '.join(allowed)} on {product}"
            for p, t in _present(c, names) if t.dtype not in allowed]


def _same(c: Constraint, names: Names, attr: str) -> list[str]:
    """Each present parameter's ``attr`` must equal the first present one's."""
    present = _present(c, names)
    if not present:
        return []
    first, ref = present[0]
    show = (lambda v: list(v) if isinstance(v, tuple) else v)  # noqa: E731 - one-line formatter
    return [f"{p}.{attr}={show(getattr(t, attr))} must equal {first}.{attr}={show(getattr(ref, attr))}"
            for p, t in present[1:] if getattr(t, attr) != getattr(ref, attr)]


def same_dtype(c: Constraint, names: Names, product: str) -> list[str]:
    return _same(c, names, "dtype")


def format_in(c: Constraint, names: Names, product: str) -> list[str]:
    allowed = c.options["formats"]
    return [f"{p}.format={t.format} is not one of {', '.join(allowed)}"
            for p, t in _present(c, names) if t.format not in allowed]


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
    return _same(c, names, "shape")


def length(c: Constraint, names: Names, product: str) -> list[str]:
    want = c.options["length"]
    return [f"len({p})={len(v)} must be {want}" for p, v in _present(c, names) if len(v) != want]


def broadcastable(c: Constraint, names: Names, product: str) -> list[str]:
    present = _present(c, names)
    try:
        np.broadcast_shapes(*(t.shape for _, t in present))
    except ValueError:
        shapes = ", ".join(f"{p}.shape={list(t.shape)}" for p, t in present)
        return [f"{shapes} do not broadcast"]
    return []


def value_in(c: Constraint, names: Names, product: str) -> list[str]:
    allowed = c.options["values"]
    return [f"{p}={v!r} is not one of {', '.join(map(str, allowed))}"
            for p, v in _present(c, names) if v not in allowed]


def contiguous(c: Constraint, names: Names, product: str) -> list[str]:
    return [f"{p} is a non-contiguous view (strides={list(t.strides)}, shape={list(t.shape)})"
            for p, t in _present(c, names) if not t.contiguous]


def data_in(c: Constraint, names: Names, product: str) -> list[str]:
    """A tensor whose data lies outside its ``data`` domain: TensorMeta.outside, which generation
    sets and the oracle recomputes from the values wherever a case carries data."""
    return [f"{p} has elements outside its documented domain ({_domain(c, p, names)})"
            for p, t in _present(c, names) if getattr(t, "outside", False) and t.numel > 0]


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
    not_null, dtype_in, same_dtype, format_in, rank_in, same_shape, length, broadcastable, value_in,
    contiguous, data_in, expr, promotable, castable)}
