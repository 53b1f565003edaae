"""Backends of the toy operator ranging each dimension of x (tests/fixtures/axis_pages), for
tests/test_draft_axis_limits.py: one right in its own way (slicing a zero-copy view of the largest
x the page allows: numpy clips a slice past the end, so a dimension out of range comes back
another size; w mixing x's second axis by numpy's matmul, which must give x's shape back) and
wrong ones: about x's second dimension, and taking a w of any first dimension.
"""
from __future__ import annotations

import numpy as np

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002
LARGEST = (4096, 64, 64)


def _shape(value) -> tuple[int, ...]:
    return value.array.shape if hasattr(value, "array") else value.shape


def x_refused(shape: tuple[int, ...]) -> bool:
    """Whether the largest x, sliced to ``shape`` (a 3-D x), is not ``shape`` (or is empty)."""
    largest = np.broadcast_to(np.int8(0), LARGEST)  # (no memory: one element, strides 0)
    got = largest[tuple(slice(0, n) for n in shape)].shape
    return got != tuple(shape) or 0 in got


def w_refused(w: tuple[int, ...], x: tuple[int, ...]) -> bool:
    """Whether numpy's matmul of w over x's second axis fails or changes x's shape (matmul, not
    einsum: einsum broadcasts a contracted dimension of 1)."""
    try:
        mixed = np.matmul(np.zeros(w, np.int8), np.zeros(x, np.int8))
    except ValueError:
        return True
    return mixed.shape != tuple(x)


class NumpyTile(OracleBackend):
    """Right: refuses a 3-D x numpy's slices do not give back, or a 2-D w numpy's matmul does not
    mix it with, and defers to the oracle elsewhere."""

    name = "numpy-tile"

    def call(self, api, args, product=None):
        x, w = args.get("x"), args.get("w")
        if x is not None and len(_shape(x)) == 3 and x_refused(_shape(x)):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        if x is not None and w is not None and len(_shape(x)) == 3 and len(_shape(w)) == 2 \
                and w_refused(_shape(w), _shape(x)):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class AnyFirstDimension(NumpyTile):
    """Wrong: a w whose second dimension fits is taken whatever its first (rows past x's are
    dropped)."""

    name = "any-first-dimension"

    def call(self, api, args, product=None):
        x, w = args.get("x"), args.get("w")
        if x is not None and w is not None and len(_shape(x)) == 3 and len(_shape(w)) == 2 \
                and not x_refused(_shape(x)) and _shape(w)[1] == _shape(x)[1] \
                and w_refused(_shape(w), _shape(x)):
            args["out"].array[...] = 0
            return CallResult(0, PHASE_EXECUTE)
        return super().call(api, args, product)


class SecondAxisUnchecked(NumpyTile):
    """Wrong: a second dimension past 64 is taken (the kernel tiles it as if it were 64)."""

    name = "second-axis-unchecked"

    def call(self, api, args, product=None):
        x = args.get("x")
        if x is not None and len(_shape(x)) == 3 and _shape(x)[1] > 64 and not x_refused(
                (_shape(x)[0], 64, _shape(x)[2])):
            for name in ("out",):
                args[name].array[...] = 0
            return CallResult(0, PHASE_EXECUTE)
        return super().call(api, args, product)
