"""Backends of the toy gate aclnnToyGate (tests/fixtures/gate_pages), for
tests/test_draft_half_ties.py: one right in its own way (numpy's split decides whether self halves
along dim and what out's shape is, not the spec's expressions) and two wrong ones."""
from __future__ import annotations

import numpy as np

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def numpy_halves(shape: tuple[int, ...], dim: int) -> tuple[int, ...] | None:
    """The shape of each half numpy's split gives (a view: nothing is allocated), or None where
    numpy refuses to split the dimension in two."""
    view = np.broadcast_to(np.zeros((), dtype=bool), shape)
    try:
        return np.split(view, 2, axis=dim)[0].shape
    except ValueError:
        return None


def _judged(args) -> bool:
    """Whether the arguments get as far as the halves: both tensors given, dim within self's."""
    self, out, dim = args.get("self"), args.get("out"), args.get("dim")
    return self is not None and out is not None and -self.array.ndim <= dim < self.array.ndim


class NumpyGate(OracleBackend):
    """Right: refuses a dimension numpy cannot split in two and an out that is not its half."""

    name = "numpy-gate"

    def call(self, api, args, product=None):
        if _judged(args):
            half = numpy_halves(args["self"].array.shape, args["dim"])
            if half is None or args["out"].array.shape != half:
                return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class OddSplitAccepted(NumpyGate):
    """Wrong: an odd dimension is split at its floor half (the last element dropped)."""

    name = "odd-split-accepted"

    def call(self, api, args, product=None):
        if _judged(args):
            shape, dim = args["self"].array.shape, args["dim"] % args["self"].array.ndim
            floor_half = shape[:dim] + (shape[dim] // 2,) + shape[dim + 1:]
            if shape[dim] % 2 and args["out"].array.shape == floor_half:
                args["out"].array[...] = 0
                return CallResult(0, PHASE_EXECUTE)
        return super().call(api, args, product)


class HalfUnchecked(OracleBackend):
    """Wrong: writes what fits and never compares out's shape with the half."""

    name = "half-unchecked"

    def call(self, api, args, product=None):
        result = super().call(api, args, product)
        if result.status == PARAM_INVALID and _judged(args):
            half = numpy_halves(args["self"].array.shape, args["dim"])
            if half is not None and args["out"].array.shape != half:
                args["out"].array[...] = 0
                return CallResult(0, PHASE_EXECUTE)
        return result
