"""Mutant backends that break a memory or determinism promise (the values ones: mutants.py):
the reference backend with exactly one documented promise broken, run by tests/test_mutants.py."""
from __future__ import annotations

import itertools

import numpy as np
from mutants import _Mutant

from conformance.backends.protocol import PHASE_EXECUTE, CallResult


# -- memory ------------------------------------------------------------------------------------
class WritesOutputOnError(_Mutant):
    """RP-VALUES / KL-VALUES (output-untouched-on-error): zero-fills the outputs, then rejects."""

    name = "mutant-writes-output-on-error"

    def call(self, api, args):
        result = super().call(api, args)
        if result.status != 0:
            for name in self.specs.operator(api).params_of("tensor", "output"):
                if args[name] is not None:
                    args[name].array[...] = 0
        return result


class ClobbersGradOutput(_Mutant):
    """RP-VALUES / KL-VALUES (inputs-unchanged): uses gradOutput as scratch after computing and
    leaves it zeroed."""

    name = "mutant-clobbers-grad-output"

    def call(self, api, args):
        result = super().call(api, args)
        if result.status == 0 and args["gradOutput"] is not None:
            args["gradOutput"].array[...] = 0
        return result


class WritesPastView(_Mutant):
    """RP-VALUES / KL-VALUES (out-of-bounds-write): stores one element past the end of the output
    view (a vector tail written in full)."""

    name = "mutant-writes-past-view"

    def call(self, api, args):
        result = super().call(api, args)
        if result.status == 0:
            for name in self.specs.operator(api).params_of("tensor", "output"):
                out = args[name]
                end = out.offset + sum((d - 1) * s for d, s in zip(out.shape, out.element_strides)) + 1
                if out.array.size and end < out.storage.size:
                    out.storage[end] = 0
        return result


# -- determinism -------------------------------------------------------------------------------
class AlternatingRounding(_Mutant):
    """RP-DETERMINISTIC / KL-DETERMINISTIC: every other call rounds the float64 result toward zero
    instead of to nearest (as if two kernels with different accumulation orders alternated). Both
    are within the precision bound; the bits of two identical calls differ."""

    name = "mutant-alternating-rounding"

    def __init__(self) -> None:
        super().__init__()
        self.calls = itertools.count()

    def call(self, api, args):
        if next(self.calls) % 2 == 0 or not self.valid(api, args):
            return super().call(api, args)
        for name, value in self.golden(api, args).items():
            out = args[name].array
            if out.dtype.kind == "c":
                out.real[...] = _toward_zero(value.real, out.real.dtype)
                out.imag[...] = _toward_zero(value.imag, out.imag.dtype)
            else:
                out[...] = _toward_zero(value.real, out.dtype)
        return CallResult(0, PHASE_EXECUTE)


def _toward_zero(exact: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``exact`` (float64) rounded to ``dtype`` toward zero (round-to-nearest where that overflows)."""
    with np.errstate(all="ignore"):
        nearest = exact.astype(dtype)
        up = nearest.astype(np.float64)
        away = np.isfinite(up) & (np.abs(up) > np.abs(exact))
        return np.where(away, np.nextafter(nearest, np.zeros_like(nearest)), nearest)
