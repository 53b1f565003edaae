"""Backends of the toy reduction aclnnToyPeak (tests/fixtures/reduction_pages), for
tests/test_draft_reduction_shapes.py: one right in its own way (numpy's own reduction decides the
output's shape, not the spec's ``reduced``, and whether an axis can be reduced) and three wrong
ones."""
from __future__ import annotations

import numpy as np

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def numpy_shape(shape: tuple[int, ...], dims: list[int], keep: bool) -> tuple[int, ...]:
    """The shape numpy gives the reduction (a broadcast view: nothing is allocated)."""
    view = np.broadcast_to(np.zeros((), dtype=bool), shape)
    axes = tuple(dims) if shape else None  # (a 0-d array has no axis to name: it stays 0-d)
    return np.any(view, axis=axes, keepdims=keep).shape


def numpy_refuses(shape: tuple[int, ...], dims: list[int]) -> bool:
    """Whether numpy refuses the maximum over these axes (an axis of no elements has none)."""
    view = np.broadcast_to(np.zeros((), dtype=np.float32), shape)
    try:
        np.max(view, axis=tuple(dims) if shape else None)
    except ValueError:
        return True
    return False


def _judged(args) -> bool:
    """Whether the arguments get as far as the output's shape: all given, the axes in range,
    none twice, at least one."""
    self, dims, out = args.get("self"), args.get("dims"), args.get("out")
    if self is None or dims is None or out is None or len(dims) == 0:
        return False
    n = max(self.array.ndim, 1)
    if any(not -n <= d < n for d in dims):
        return False
    return len({d % n for d in dims}) == len(dims)


class NumpyPeak(OracleBackend):
    """Right: refuses a maximum numpy refuses (over an empty axis) and an out whose shape numpy's
    reduction does not give, before anything else."""

    name = "numpy-peak"

    def call(self, api, args, product=None):
        if _judged(args):
            if numpy_refuses(args["self"].array.shape, list(args["dims"])):
                return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
            want = numpy_shape(args["self"].array.shape, list(args["dims"]), bool(args["keepDims"]))
            if args["out"].array.shape != want:
                return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class KeepDimsIgnored(NumpyPeak):
    """Wrong: always keeps the reduced axes, whatever keepDims says."""

    name = "keepdims-ignored"

    def call(self, api, args, product=None):
        return super().call(api, {**args, "keepDims": True}, product)


class OutShapeUnchecked(OracleBackend):
    """Wrong: writes what fits and never looks at out's shape."""

    name = "out-shape-unchecked"

    def call(self, api, args, product=None):
        out = args.get("out")
        result = super().call(api, args, product)
        if result.status == PARAM_INVALID and out is not None and _judged(args):
            want = numpy_shape(args["self"].array.shape, list(args["dims"]), bool(args["keepDims"]))
            if out.array.shape != want:
                out.array[...] = 0
                return CallResult(0, PHASE_EXECUTE)
        return result


class EmptyAxisAccepted(NumpyPeak):
    """Wrong: a maximum over an axis of no elements is -inf, and the call succeeds."""

    name = "empty-axis-accepted"

    def call(self, api, args, product=None):
        if _judged(args) and numpy_refuses(args["self"].array.shape, list(args["dims"])):
            want = numpy_shape(args["self"].array.shape, list(args["dims"]), bool(args["keepDims"]))
            if args["out"].array.shape == want:
                args["out"].array[...] = -np.inf
                return CallResult(0, PHASE_EXECUTE)
        return super().call(api, args, product)
