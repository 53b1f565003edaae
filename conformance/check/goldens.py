"""What judges an operator's numerics: the spec's reference function; for an operator whose spec
names none, the golden a run was given (``--golden torch``: the torch backend's mapping of the
operator, run in float64); else nothing, and its numerics checks are ``no-reference``.

A torch golden gives the precision bound what a reference gives it, estimated: the value in
float64, Σ|terms| as the larger of |value| and the same call on the inputs' absolute values, and
the number of terms per element as the fan-in (the largest input's elements per output element).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import ml_dtypes
import numpy as np

from conformance.errors import UsageError
from conformance.spec.model import READ, WRITTEN, OperatorSpec
from conformance.spec.reference_loader import reference_function
from reference.golden import Golden, without_bounds

#: The goldens ``--golden`` may name (used only for operators whose spec has no reference).
GOLDENS = ("torch",)
_BF16 = np.dtype(ml_dtypes.bfloat16)

GoldenFn = Callable[..., dict[str, Golden]]


class GoldenUnavailable(Exception):
    """The golden cannot compute this case (torch rejected it): its numerics are not judged."""


def check_golden(golden: str | None) -> None:
    """``UsageError`` (exit 2, one line) for an unknown golden or one that cannot load."""
    if golden is None:
        return
    if golden not in GOLDENS:
        raise UsageError(f"--golden {golden}: unknown (goldens: {', '.join(GOLDENS)})")
    try:
        import torch  # noqa: F401
    except ImportError:
        raise UsageError("--golden torch: torch is not installed (pip install torch)") from None


def golden_for(spec: OperatorSpec, golden: str | None) -> GoldenFn | None:
    """``fn(args, bounds=...) -> {output: Golden}`` judging ``spec``'s numerics, or None."""
    if spec.reference is not None:
        return reference_function(spec)
    if golden == "torch" and torch_maps(spec.api):
        return lambda args, bounds=True: torch_golden(spec, args, bounds)
    return None


def golden_name(spec: OperatorSpec, golden: str | None) -> str | None:
    """Which reference judges ``spec``'s numerics, as reports say it; None: no reference."""
    if spec.reference is not None:
        return spec.reference
    return "torch (golden)" if golden == "torch" and torch_maps(spec.api) else None


def torch_maps(api: str) -> bool:
    """Whether the torch backend maps ``api`` (its ``OPERATORS`` table)."""
    try:
        from conformance.backends.torch_backend import OPERATORS
    except ImportError:
        return False
    return api in OPERATORS


def torch_golden(spec: OperatorSpec, args: dict[str, Any], bounds: bool = True) -> dict[str, Golden]:
    """The torch mapping's results as goldens (the module docstring says how they are bounded)."""
    value = _torch_call(spec, args, absolute=False)
    if not bounds:
        return {name: without_bounds(v) for name, v in value.items()}
    magnitude = _torch_call(spec, args, absolute=True)
    count = np.int64(_fan_in(spec, args))
    return {name: Golden(v, np.maximum(np.abs(v), np.abs(magnitude[name])).astype(np.float64),
                        np.full((), count)) for name, v in value.items()}


def _torch_call(spec: OperatorSpec, args: dict[str, Any], absolute: bool) -> dict[str, np.ndarray]:
    """The torch mapping on float64 (complex128) copies of the floating inputs, into float64
    outputs; ``absolute``: on the inputs' absolute values."""
    from conformance.backends.torch_backend import OPERATORS

    outputs = set(spec.params_of("tensor", "output"))
    call: dict[str, Any] = {}
    for name, value in args.items():
        array = _array(value)
        if array is None:
            call[name] = value
            continue
        wide = _wide(array, name in outputs)
        if absolute and name not in outputs and wide.dtype.kind in "fc":
            wide = np.abs(wide).astype(wide.dtype)
        call[name] = SimpleNamespace(array=wide)
    result = OPERATORS[spec.api](call, None)
    status = getattr(result, "status", result)
    if status != 0:
        raise GoldenUnavailable(f"torch rejected the case (status {status})")
    return {name: call[name].array for name in outputs if call.get(name) is not None}


def _array(value: Any) -> np.ndarray | None:
    """The array of a tensor argument (a ``Tensor``, or a bare array: ``rescaled`` passes one)."""
    array = value if isinstance(value, np.ndarray) else getattr(value, "array", None)
    return None if array is None else np.asarray(array)


def _wide(array: np.ndarray, output: bool) -> np.ndarray:
    """A float64 (complex128) copy of a floating array; an output starts zeroed."""
    if array.dtype.kind == "c":
        wide = array.astype(np.complex128)
    elif array.dtype.kind == "f" or array.dtype == _BF16:
        wide = array.astype(np.float64)
    else:
        return np.zeros_like(array) if output else array.copy()
    return np.zeros_like(wide) if output else wide


def _fan_in(spec: OperatorSpec, args: dict[str, Any]) -> int:
    """Input elements per output element (at least 1): the terms a reduction may sum into one."""
    sizes = {name: array.size for name in spec.params_of("tensor")
             if (array := _array(args.get(name))) is not None}
    inputs = [n for name, n in sizes.items() if spec.params[name].role in READ]
    outputs = [n for name, n in sizes.items() if spec.params[name].role in WRITTEN]
    return max(1, math.ceil(max(inputs, default=1) / max(min(outputs, default=1), 1)))
