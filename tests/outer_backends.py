"""Backends of the toy outer-product operator aclnnToyOuter (tests/fixtures/outer_pages), for
tests/test_draft_outer_ties.py: one right in its own way (numpy's outer product and broadcast_to
decide the shapes, not the spec's expressions) and two wrong ones."""
from __future__ import annotations

import numpy as np

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def outer_shape(vec1: tuple[int, ...], vec2: tuple[int, ...]) -> tuple[int, ...]:
    """numpy's outer product's shape (it flattens its operands: only 1-d ones are asked here)."""
    return np.multiply.outer(np.zeros(vec1, dtype=bool), np.zeros(vec2, dtype=bool)).shape


def expands(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    try:
        np.broadcast_to(np.broadcast_to(np.zeros((), dtype=bool), shape), target)
    except ValueError:
        return False
    return True


def _judged(args) -> bool:
    """All four given, the vectors 1-d and self 2-d at most (the rank row's, judged before)."""
    names = ("self", "vec1", "vec2", "out")
    return all(args.get(n) is not None for n in names) and args["vec1"].array.ndim == 1 \
        and args["vec2"].array.ndim == 1 and args["self"].array.ndim <= 2


class NumpyOuter(OracleBackend):
    """Right: refuses a self numpy cannot broadcast to the outer product, or an out not its shape."""

    name = "numpy-outer"

    def call(self, api, args, product=None):
        if _judged(args):
            full = outer_shape(args["vec1"].array.shape, args["vec2"].array.shape)
            if not expands(args["self"].array.shape, full) or args["out"].array.shape != full:
                return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class SameLengthOnly(NumpyOuter):
    """Wrong: refuses vectors of different lengths (an elementwise kernel's check)."""

    name = "same-length-only"

    def call(self, api, args, product=None):
        if _judged(args) and args["vec1"].array.shape != args["vec2"].array.shape:
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class SelfUnchecked(OracleBackend):
    """Wrong: never checks that self broadcasts to the outer product; writes the product alone."""

    name = "self-unchecked"

    def call(self, api, args, product=None):
        result = super().call(api, args, product)
        if result.status == PARAM_INVALID and _judged(args):
            full = outer_shape(args["vec1"].array.shape, args["vec2"].array.shape)
            if args["out"].array.shape == full and not expands(args["self"].array.shape, full):
                args["out"].array[...] = 0
                return CallResult(0, PHASE_EXECUTE)
        return result
