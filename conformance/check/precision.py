"""Judge a backend's output against the golden model's bound (DESIGN.md, "Precision standards")."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import ml_dtypes
import numpy as np

from conformance.check.bounds import acc_finfo, bounds, ulp_at
from reference.golden import Golden

#: The precision standards a run may enforce: ``strict`` (the DESIGN bound per element) or
#: ``cann`` (CANN's single-benchmark MERE/MARE thresholds decide; the bound's figures are still
#: reported).
STANDARDS = ("strict", "cann")

#: CANN "single benchmark" threshold T per output dtype name (MERE < T, MARE < 10·T).
CANN_T = {"float16": 2.0**-10, "bfloat16": 2.0**-7, "float32": 2.0**-13,
          "float64": 2.0**-30, "complex64": 2.0**-13, "complex128": 2.0**-30}


@dataclass(frozen=True)
class NumericsVerdict:
    ok: bool
    judged: int
    max_abs_error: float
    max_rel_error: float
    max_ulp: float
    worst_index: tuple[int, ...] | None
    worst_actual: complex | float | None
    worst_expected: complex | float | None
    worst_bound: float | None
    worst_ratio: float
    mere: float
    mare: float
    cann_ok: bool
    message: str
    output: str = "out"  # the output parameter's name (gradInput, out, ...)
    failed: int = 0  # elements out of bound
    first_failed: tuple[int, ...] | None = None  # the first and last of them, in C order
    last_failed: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {key: _json_safe(value) for key, value in asdict(self).items()}


def _json_safe(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, complex):
        return [_json_safe(value.real), _json_safe(value.imag)]
    if isinstance(value, (tuple, list)):
        return [_json_safe(v) for v in value]
    value = float(value)
    if math.isnan(value):
        return "nan"
    return ("inf" if value > 0 else "-inf") if math.isinf(value) else value


def _component_ok(a: np.ndarray, g: np.ndarray, bound: np.ndarray, fmax: float) -> np.ndarray:
    """NaN meets NaN, inf the same inf, finite within the bound; near/over the overflow threshold
    the same-signed inf is accepted too."""
    with np.errstate(invalid="ignore"):
        near_max = np.abs(g) + bound >= fmax
        finite_ok = np.isfinite(g) & ((np.abs(a - g) <= bound) | (near_max & (a == np.sign(g) * np.inf)))
    return np.where(np.isnan(g), np.isnan(a), np.where(np.isinf(g), a == g, finite_ok))


def _companion_ok(a: np.ndarray, g: np.ndarray, other: np.ndarray, bound: np.ndarray,
                  fmax: float) -> np.ndarray:
    """One component of a complex element. Beside a NaN/inf companion the bound (built from
    |golden| and Σ|terms|, both NaN there) says nothing about this part: it must only be finite."""
    judged = _component_ok(a, g, bound, fmax)
    return np.where(np.isfinite(g) & ~np.isfinite(other), np.isfinite(a), judged)


def _elementwise(a: np.ndarray, g: np.ndarray, bound: np.ndarray, fmax: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(ok, err) per element; err is 0 for an accepted special value, inf for a rejected one."""
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(a - g)
    if np.iscomplexobj(g):
        comp_ok = _companion_ok(a.real, g.real, g.imag, bound, fmax) & \
            _companion_ok(a.imag, g.imag, g.real, bound, fmax)
        special = ~np.isfinite(g) | (np.maximum(np.abs(g.real), np.abs(g.imag)) + bound >= fmax)
        ok = np.where(special, comp_ok, err <= bound)
    else:
        special = ~np.isfinite(g) | (np.abs(g) + bound >= fmax)
        if not special.any():  # the common case, in two passes: finite goldens, far from overflow
            return err <= bound, np.where(np.isnan(err), np.inf, err)  # a NaN actual: not ok
        ok = _component_ok(a, g, bound, fmax)
    err = np.where(special & ok, 0.0, np.where(np.isnan(err) | (~ok & np.isinf(err)), np.inf, err))
    return ok, err


def _cann(a: np.ndarray, g: np.ndarray, judged: np.ndarray, out: np.dtype) -> tuple[float, float, bool]:
    """CANN's MERE and MARE over the elements whose golden is finite: a NaN or inf where a finite
    value was expected is an infinite relative error (it fails, it is not left out)."""
    expected = judged & np.isfinite(g)
    # every element expected (the usual case): the same values in the same (C) order, uncopied
    a, g = (a.ravel(), g.ravel()) if expected.all() else (a[expected], g[expected])
    with np.errstate(invalid="ignore", over="ignore"):
        rel = np.where(np.isfinite(a), np.abs(a - g) / (np.abs(g) + 1e-7), np.inf)
    if rel.size == 0:
        return 0.0, 0.0, True
    mere, mare = float(rel.mean()), float(rel.max())
    t = CANN_T.get(np.dtype(out).name, 2.0**-13)
    return mere, mare, mere < t and mare < 10 * t


def _exact(a: np.ndarray, rescaled: Golden, shape: tuple[int, ...], dtypes: tuple[np.dtype, ...],
           bound_args: tuple[float, float, int], acc_max: float, out_max: float
           ) -> tuple[np.ndarray, ...] | None:
    """(redo, ok, error, exact value, bound) for the elements whose terms are finite but whose Σ|terms|
    overflows the accumulation dtype, judged against the exact sum in the rescaled space: the
    exact value within the bound; an inf a partial sum can reach (Σ|terms| past the range); a
    NaN where partial sums can reach both infs; the same-signed inf past the output's range.
    None when there is no such element (an inf term makes Σ|terms| infinite, not overflowed)."""
    g_s = np.broadcast_to(rescaled.value, shape).astype(a.dtype)
    abs_s = np.broadcast_to(rescaled.abs_sum, shape).astype(np.float64)
    redo = np.isfinite(abs_s) & (abs_s > acc_max * SCALE) & np.isfinite(g_s)
    if np.iscomplexobj(g_s):
        redo = np.zeros(shape, bool)  # complex sums never overflow in the shipped cases: strict IEEE
    if not redo.any():
        return None  # (the usual answer: the rest is five full-size passes, at millions of elements)
    bound_s = bounds(rescaled, shape, dtypes, *bound_args)
    with np.errstate(invalid="ignore", over="ignore"):
        a_s = a * SCALE
        finite_ok = np.isfinite(a_s) & (np.abs(a_s - g_s) <= bound_s)
        past_out = (np.abs(g_s) + bound_s >= out_max * SCALE) & (a_s == np.sign(g_s) * np.inf)
        overflow_ok = np.isinf(a_s) & (abs_s >= acc_max * SCALE)
        nan_ok = np.isnan(a_s) & (abs_s >= 2 * acc_max * SCALE)
        ok = finite_ok | past_out | overflow_ok | nan_ok
        err = np.where(ok, 0.0, np.nan_to_num(np.abs(a_s - g_s) / SCALE, nan=np.inf))
        exact = g_s / SCALE  # what the report shows (inf when it is past float64's range)
    return redo, ok, err, exact, bound_s / SCALE


def _errors(err: np.ndarray, bound: np.ndarray, g: np.ndarray, judged: np.ndarray, ok: np.ndarray,
            out: np.dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(error/bound, relative error, error in ulps) per element, 0 where not judged; a wrong inf
    (inf/inf) is an infinite ratio. The masks are applied only where they change something: at
    millions of elements every pass counts."""
    everything, mag = bool(judged.all()), np.abs(g)
    finite = np.isfinite(mag)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        ratio = err / bound
        tiny = float(ml_dtypes.finfo(out).tiny)
        rel = err / np.maximum(mag if finite.all() else np.where(finite, mag, 1.0), tiny)
        ulp = err / ulp_at(mag if finite.all() else np.where(finite, mag, 0.0), out)
    if not everything:
        ratio, rel, ulp = (np.where(judged, x, 0.0) for x in (ratio, rel, ulp))
    if not ok.all():
        ratio = np.where(~ok & judged & ~np.isfinite(ratio), np.inf, ratio)
    return ratio, rel, ulp


def _item(x: np.ndarray, index: tuple[int, ...]) -> complex | float:
    value = x[index].item()
    return value if isinstance(value, complex) else float(value)


def _failure(shape_actual: tuple[int, ...], shape_golden: tuple[int, ...], name: str) -> NumericsVerdict:
    message = f"{name}.shape={shape_actual}, but should be {shape_golden}"
    return NumericsVerdict(False, 0, math.nan, math.nan, math.nan, None, None, None, None,
                           0.0, 0.0, 0.0, False, message, name)


#: Where a sum overflows, the terms are rescaled by this power of two (exact) to learn its value.
SCALE = 2.0**-64


def judge(actual: np.ndarray, golden: Golden, out_dtype: np.dtype, *, c: float = 1.0,
          safety: float = 2.0, extra_terms: int = 0, name: str = "out",
          rescaled: Golden | None = None, compute_dtype: np.dtype | None = None) -> NumericsVerdict:
    """Every element of ``actual`` against ``golden`` within the DESIGN bound, plus CANN MERE/MARE.

    ``rescaled``: the same call's golden with every term scaled by ``SCALE`` (the spec's
    ``precision.linear_in``). Where Σ|terms| overflows the accumulation dtype, the result depends
    on the summation order: with it, those elements are judged against the exact sum (any
    order-consistent overflow accepted); without it, they are left unjudged. ``compute_dtype``:
    the dtype the documents say the result is computed in before the cast to ``out_dtype``
    (``bound_dtype``); its rounding adds to the output's."""
    actual, g = np.asarray(actual), np.asarray(golden.value)
    if actual.shape != g.shape:
        return _failure(actual.shape, g.shape, name)
    if not golden.has_bounds:
        raise ValueError("judge needs a Golden computed with bounds=True")
    up = np.complex128 if np.iscomplexobj(g) or np.iscomplexobj(actual) else np.float64
    a, g = actual.astype(up, copy=False), g.astype(up, copy=False)  # (read only: no copies needed)
    fo = ml_dtypes.finfo(out_dtype)
    dtypes = tuple(dict.fromkeys(np.dtype(d) for d in (out_dtype, compute_dtype) if d is not None))
    bound = bounds(golden, g.shape, dtypes, c, safety, extra_terms)
    abs_sum = np.broadcast_to(golden.abs_sum, g.shape)
    acc_max = float(acc_finfo(out_dtype).max)
    ok, err = _elementwise(a, g, bound, float(fo.max))
    finite, over = np.isfinite(g), abs_sum > acc_max
    risky = ~finite | over  # the golden's own sum may depend on its order
    judged = ~(finite & over)
    exact = _exact(a, rescaled, g.shape, dtypes, (c, safety, extra_terms), acc_max, float(fo.max)) \
        if rescaled is not None and risky.any() else None
    if exact is not None:
        redo, ok_x, err_x, g_x, bound_x = exact
        ok, err = np.where(redo, ok_x, ok), np.where(redo, err_x, err)
        g, bound, judged = np.where(redo, g_x, g), np.where(redo, bound_x, bound), judged | redo
    ratio, rel, ulp = _errors(err, bound, g, judged, ok, out_dtype)
    ok, err = ok | ~judged, np.where(judged, err, 0.0)
    mere, mare, cann_ok = _cann(a, g, judged, out_dtype)
    n = int(judged.sum())
    if n == 0:
        return NumericsVerdict(True, 0, 0.0, 0.0, 0.0, None, None, None, None, 0.0, mere, mare, cann_ok, "",
                               name)
    worst = _index(int(np.argmax(ratio)), g.shape)
    bad = np.flatnonzero(~ok)
    verdict = NumericsVerdict(
        not bad.size, n, float(err.max()), float(rel.max()), float(ulp.max()), worst, _item(a, worst),
        _item(g, worst), float(bound[worst]), float(ratio.max()), mere, mare, cann_ok, "", name,
        int(bad.size), _index(int(bad[0]), g.shape) if bad.size else None,
        _index(int(bad[-1]), g.shape) if bad.size else None)
    if verdict.ok:
        return verdict
    return NumericsVerdict(**{**asdict(verdict), "message": _message(verdict)})


def _index(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(i) for i in np.unravel_index(flat, shape))


def cann_message(v: NumericsVerdict, out_dtype: np.dtype, label: str) -> str:
    """Why a verdict fails the CANN single-benchmark standard, with the strict bound's view."""
    t = CANN_T.get(np.dtype(out_dtype).name, 2.0**-13)
    return (f"{v.output}: MERE {v.mere:.3g}, MARE {v.mare:.3g}, but the CANN thresholds for {label} are "
            f"MERE < {t:.3g} and MARE < {10 * t:.3g} (the strict bound: "
            f"{v.message or 'every element within it'})")


def element(name: str, index: tuple[int, ...] | None) -> str:
    """``gradInput[0, 1, 0, 0]`` (a 0-d output: its name alone)."""
    return name if not index else f"{name}[{', '.join(map(str, index))}]"


def _message(v: NumericsVerdict) -> str:
    where = element(v.output, v.worst_index)
    text = (f"{where}={v.worst_actual!r}, but should be {v.worst_expected!r} "
            f"({_why(v)}); {v.failed} of {v.judged} judged elements out of bound")
    if v.failed > 1 and v.first_failed is not None and v.last_failed is not None:
        text += (f", the first {element(v.output, v.first_failed)}, the last "
                 f"{element(v.output, v.last_failed)}")
    return (text + f"; max rel error {v.max_rel_error:.3g}, max ulp {v.max_ulp:.3g}, "
            f"MERE {v.mere:.3g}, MARE {v.mare:.3g}")


def _why(v: NumericsVerdict) -> str:
    """Why the worst element fails, in words: the bound it exceeds, or the IEEE value expected."""
    expected = v.worst_expected
    if isinstance(expected, float) and not math.isfinite(expected):
        return ("NaN is the IEEE result of its terms" if math.isnan(expected) else
                f"{'+' if expected > 0 else '-'}inf is the IEEE result of its terms: one of them is infinite")
    if v.worst_bound is None or not math.isfinite(v.worst_ratio):
        return "a NaN or inf where a finite value is expected"
    return (f"|error| {v.worst_ratio * v.worst_bound:.3g} > bound {v.worst_bound:.3g}, "
            f"{v.worst_ratio:.3g}x the bound")
