"""Backends of the toy in-place operator aclnnInplaceToyMix (tests/fixtures/inplace_pages), for
tests/test_draft_in_place_broadcast.py: one right in its own way (numpy's broadcast_to decides
whether other fits into selfRef, not the spec's expressions) and two wrong ones."""
from __future__ import annotations

import numpy as np

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def fits_into(other: tuple[int, ...], target: tuple[int, ...]) -> bool:
    """Whether numpy broadcasts a tensor of shape ``other`` to ``target`` (a view: no allocation)."""
    try:
        np.broadcast_to(np.broadcast_to(np.zeros((), dtype=bool), other), target)
    except ValueError:
        return False
    return True


def _given(args) -> bool:
    return args.get("selfRef") is not None and args.get("other") is not None


class NumpyInplace(OracleBackend):
    """Right: refuses an other numpy cannot broadcast into selfRef, then adds it in place."""

    name = "numpy-inplace"

    def call(self, api, args, product=None):
        if _given(args) and not fits_into(args["other"].array.shape, args["selfRef"].array.shape):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class ExactShapeOnly(NumpyInplace):
    """Wrong: refuses an other of any shape but selfRef's (no broadcasting in place)."""

    name = "exact-shape-only"

    def call(self, api, args, product=None):
        if _given(args) and args["other"].array.shape != args["selfRef"].array.shape:
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class OutgrowAccepted(OracleBackend):
    """Wrong: an other larger than selfRef (yet broadcastable with it) is accepted, and what fits
    is written."""

    name = "outgrow-accepted"

    def call(self, api, args, product=None):
        if _given(args):
            shapes = (args["other"].array.shape, args["selfRef"].array.shape)
            try:
                np.broadcast_shapes(*shapes)
            except ValueError:
                return super().call(api, args, product)
            if not fits_into(*shapes):
                args["selfRef"].array[...] = 0
                return CallResult(0, PHASE_EXECUTE)
        return super().call(api, args, product)
