"""Data of a tensor with a value domain (a spec's ``data`` section): every element inside it, or,
for a case breaking a ``data_in`` clause, some elements outside.

The case's value regime picks where inside the domain: ``ordinary`` and the others spread values
over it; ``zeros`` and ``subnormal`` put half the elements at (or, for an open domain, next to)
its low end, ``huge`` at its high end. Values are checked after the cast to the tensor's dtype, so
rounding never pushes one across a bound (a FLOAT16 0.9999 is 1.0).
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import ml_dtypes
import numpy as np

from conformance.spec.domains import Domain
from conformance.spec.expressions import ExprError

_LOW_REGIMES = ("zeros", "subnormal")
_HIGH_REGIMES = ("huge",)


def fill_domain(view: np.ndarray, domain: Domain, names: Mapping[str, Any], rng: np.random.Generator,
                regime: str, outside: bool) -> None:
    """Overwrite ``view`` (in place) with values inside ``domain``, or some outside it."""
    if view.size == 0 or view.dtype.kind == "c":
        return  # (a complex tensor breaks a dtype clause; its values have no order to bound)
    try:
        lo, hi = domain.bounds(names)
    except ExprError:
        return  # a bound reads a missing argument: the case breaks another clause
    lo, hi = _integral(domain, lo, hi)
    if lo > hi:
        return  # an empty domain (no class to index): nothing valid to draw
    with np.errstate(all="ignore"):
        view[...] = _inside(domain, lo, hi, view.shape, rng, regime).astype(view.dtype)
        _repair(view, domain, names, lo, hi)
        if outside:
            _put_outside(view, domain, names, lo, hi, rng)


def _integral(domain: Domain, lo: float, hi: float) -> tuple[float, float]:
    """An integer domain's bounds as the whole numbers it admits."""
    if domain.kind != "integers":
        return lo, hi
    lo, hi = float(math.ceil(lo)), float(math.floor(hi))
    return (lo + 1, hi - 1) if domain.open else (lo, hi)


def _inside(domain: Domain, lo: float, hi: float, shape: tuple[int, ...], rng: np.random.Generator,
            regime: str) -> np.ndarray:
    if domain.kind == "integers":
        x = rng.integers(int(lo), int(hi) + 1, size=shape).astype(np.float64)
    else:
        x = _spread(lo, hi, shape, rng)
    edge = lo if regime in _LOW_REGIMES else hi if regime in _HIGH_REGIMES else None
    if edge is not None and math.isfinite(edge):
        x = np.where(rng.random(shape) < 0.5, edge, x)  # _repair moves it inward where open
    return x


def _spread(lo: float, hi: float, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Real values across [lo, hi]; a side without a bound gets an exponential tail."""
    if math.isfinite(lo) and math.isfinite(hi):
        return rng.uniform(lo, hi, size=shape)
    if math.isfinite(lo):
        return lo + rng.exponential(1.0, size=shape)
    if math.isfinite(hi):
        return hi - rng.exponential(1.0, size=shape)
    return rng.standard_normal(shape)


def _repair(view: np.ndarray, domain: Domain, names: Mapping[str, Any], lo: float, hi: float) -> None:
    """Elements the cast (or an open bound) left outside: moved to the nearest value inside."""
    bad = ~domain.inside(view, names)
    if not bad.any():
        return
    x = view.astype(np.float64)
    inward = [_step_in(lo, +1, view.dtype, domain), _step_in(hi, -1, view.dtype, domain)]
    near_low = np.abs(x - lo) <= np.abs(x - hi)
    view[bad & near_low] = inward[0]
    view[bad & ~near_low] = inward[1]
    if not domain.inside(view, names).all():  # a domain narrower than the dtype's spacing
        view[~domain.inside(view, names)] = np.asarray((lo + hi) / 2).astype(view.dtype)


def _step_in(bound: float, direction: int, dtype: np.dtype, domain: Domain) -> Any:
    """``bound`` in ``dtype``, or the next representable value inward when the domain is open."""
    if not math.isfinite(bound):
        return np.asarray(0).astype(dtype)
    value = np.asarray(bound).astype(dtype)
    if not domain.open:
        return value
    if dtype.kind in "iub":
        return np.asarray(bound + direction).astype(dtype)
    info = ml_dtypes.finfo(dtype)  # numpy's finfo does not know bfloat16, nor has it nextafter
    wide = float(value)
    step = max(abs(wide) * float(info.eps) / 2, float(info.smallest_subnormal))
    for size in (step, 2 * step):  # below a power of two the spacing is half the one above it
        moved = np.asarray(wide + direction * size).astype(dtype)
        if float(moved) != wide:
            return moved
    return moved


def _put_outside(view: np.ndarray, domain: Domain, names: Mapping[str, Any], lo: float, hi: float,
                 rng: np.random.Generator) -> None:
    """About one element in eight (at least one) set to a value outside the domain."""
    candidates = _outside_values(domain, lo, hi, view.dtype, names)
    if not candidates:
        return
    flat_index = np.array(rng.random(view.shape) < 0.125)  # (an array even for a 0-d view)
    flat_index[(0,) * view.ndim] = True  # at least one (and the one every stride-0 alias shares)
    picks = np.array(rng.integers(0, len(candidates), size=view.shape))
    values = np.asarray(candidates, dtype=view.dtype)[picks]
    view[flat_index] = values[flat_index]


def _outside_values(domain: Domain, lo: float, hi: float, dtype: np.dtype,
                    names: Mapping[str, Any]) -> list[Any]:
    """Values just past each finite bound (and the bounds of an open domain), as ``dtype`` holds them."""
    raw = []
    if math.isfinite(hi):
        raw.append(hi + max(1.0, abs(hi)))
    if math.isfinite(lo):
        raw.append(lo - max(1.0, abs(lo)))
    if domain.open and domain.kind == "range":
        raw += [lo, hi]
    if not raw:
        raw.append(float("nan"))  # an unbounded domain: only NaN lies outside it
    out = []
    for value in raw:
        if dtype.kind in "iub" and not _fits(value, dtype):
            continue
        cast = np.asarray(value).astype(dtype)
        if not domain.inside(cast.reshape(1), names)[0]:
            out.append(cast)
    return out


def _fits(value: float, dtype: np.dtype) -> bool:
    if dtype.kind == "b":
        return value in (0.0, 1.0)
    info = np.iinfo(dtype)
    return info.min <= value <= info.max
