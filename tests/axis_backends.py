"""Backends of the toy operator ranging each dimension of x (tests/fixtures/axis_pages), for
tests/test_draft_axis_limits.py: one right in its own way (slicing a zero-copy view of the largest
x the page allows: numpy clips a slice past the end, so a dimension out of range comes back
another size) and one wrong about the second dimension only.
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


class NumpyTile(OracleBackend):
    """Right: refuses a 3-D x numpy's slices do not give back, and defers to the oracle elsewhere."""

    name = "numpy-tile"

    def call(self, api, args, product=None):
        x = args.get("x")
        if x is not None and len(_shape(x)) == 3 and x_refused(_shape(x)):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
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
