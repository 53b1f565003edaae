"""The DESIGN error bound per element (DESIGN.md, "Precision standards"): how far a result
rounded in the output dtype (and the dtype it is computed in) may lie from the golden value, and
the ulp and accumulation dtype behind it.

Apart from precision.py, which compares an output against these bounds and words the verdict:
the bound is arithmetic on the golden alone, the same whatever the backend returned.
"""
from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from reference.golden import Golden


def _real_dtype(dtype: np.dtype) -> np.dtype:
    dtype = np.dtype(dtype)
    return np.dtype({"complex64": np.float32, "complex128": np.float64}.get(dtype.name, dtype))


def bound_dtype(out: np.dtype, inputs: list[np.dtype]) -> np.dtype:
    """The dtype whose rounding bounds a kernel that computes in its inputs' promoted dtype and
    casts to ``out``: the coarser of ``out`` and the finest floating input (complex by its parts;
    a FLOAT16 and BFLOAT16 mix promotes to FLOAT, so taking the finest of them is more lenient)."""
    floats = [np.dtype(d) for d in inputs if np.dtype(d).kind in "fcV"]
    if not floats:
        return np.dtype(out)
    finest = min(floats, key=lambda d: float(ml_dtypes.finfo(_real_dtype(d)).eps))
    return max([np.dtype(out), finest], key=lambda d: float(ml_dtypes.finfo(_real_dtype(d)).eps))


def acc_finfo(out: np.dtype) -> Any:
    return np.finfo(np.float64 if _real_dtype(out) == np.float64 else np.float32)


def ulp_at(magnitude: np.ndarray, out: np.dtype) -> np.ndarray:
    """The out dtype's ulp at ``magnitude`` (never below the smallest subnormal), in float64:
    numpy's spacing in that dtype (a quarter of the time of log2 and exp2 at 16 Mi elements)."""
    real = _real_dtype(out)
    fi = ml_dtypes.finfo(real)
    top = float(np.nextafter(real.type(fi.max), real.type(0)))  # its spacing is finite
    spacing = np.spacing(np.minimum(magnitude, top).astype(real, copy=False)).astype(np.float64, copy=False)
    return np.maximum(spacing, float(fi.smallest_subnormal))


def _bound(golden: Golden, shape: tuple[int, ...], out: np.dtype, c: float, safety: float,
           extra_terms: int) -> np.ndarray:
    fo = ml_dtypes.finfo(out)
    u_acc = float(acc_finfo(out).eps) / 2
    # in place on one full-size buffer: at 16 Mi elements every temporary costs ~100 ms
    with np.errstate(invalid="ignore", over="ignore"):
        bound = np.add(golden.count, extra_terms, dtype=np.float64)
        bound *= safety * c * u_acc
        bound = np.asarray(np.multiply(bound, golden.abs_sum, dtype=np.float64))  # (0-d: a scalar)
        bound = np.broadcast_to(bound, shape).copy() if bound.shape != shape else bound
        bound[np.isnan(bound)] = 0.0  # a NaN term: the element is judged exactly
        magnitude = np.asarray(np.abs(np.asarray(golden.value), dtype=np.float64))
        magnitude[~np.isfinite(magnitude)] = 0.0  # NaN/inf goldens are judged exactly
        magnitude *= safety * float(fo.eps) / 2
        bound += magnitude
        bound += safety * float(fo.tiny)
    return bound


def bounds(golden: Golden, shape: tuple[int, ...], dtypes: tuple[np.dtype, ...], c: float, safety: float,
            extra_terms: int) -> np.ndarray:
    """The bound of a result rounded in each of ``dtypes`` in turn (computed in one, cast to the
    next): the sum of their bounds."""
    bound = _bound(golden, shape, dtypes[0], c, safety, extra_terms)
    for dtype in dtypes[1:]:
        bound += _bound(golden, shape, dtype, c, safety, extra_terms)
    return bound
