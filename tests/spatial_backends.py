"""Backends of the toy unpooling aclnnToyUnpool (tests/fixtures/spatial_pages), for
tests/test_draft_spatial_ties.py: one right in its own way (numpy decides: the plane of outputSize
must hold self's H*W elements, and out is that plane reshaped under self's leading dimensions) and
two wrong ones; and of its backward aclnnToyUnpoolBackward (gradY is that forward's out), one
right and one wrong."""
from __future__ import annotations

import numpy as np
from norm_backends import ignoring

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def _shape(value) -> tuple[int, ...]:
    return value.array.shape if hasattr(value, "array") else value.shape


def unpool_refused(args) -> bool:
    """Whether numpy cannot lay self's spatial elements into a plane of outputSize (too small), or
    out is not the plane's shape under self's leading dimensions."""
    x, size = _shape(args["self"]), tuple(args["outputSize"])
    lead = x[:-2]
    plane = np.broadcast_to(np.zeros((), dtype=bool), (*lead, int(np.prod(size))))  # (a view)
    if plane.shape[-1] < int(np.prod(x[-2:])):
        return True
    try:
        return plane.reshape(*lead, *size).shape != _shape(args["out"])
    except ValueError:
        return True


class NumpyUnpool(OracleBackend):
    """Right: refuses what numpy's plane refuses (given two sizes and self of 3 or 4 dimensions,
    the rows before these), and defers to the oracle elsewhere."""

    name = "numpy-unpool"

    def call(self, api, args, product=None):
        judged = all(args.get(n) is not None for n in ("self", "outputSize", "out")) \
            and len(args["outputSize"]) == 2 and 3 <= len(_shape(args["self"])) <= 4 \
            and len(_shape(args["out"])) == len(_shape(args["self"]))
        if judged and unpool_refused(args):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class NumpyUnpoolBackward(OracleBackend):
    """Right: refuses a gradY that is not the forward's out as NumpyUnpool's plane gives it (x for
    self; given two sizes and x and gradY of one rank, 3 or 4, the rows before these), and defers
    to the oracle elsewhere."""

    name = "numpy-unpool-backward"

    def call(self, api, args, product=None):
        judged = all(args.get(n) is not None for n in ("x", "outputSize", "gradY")) \
            and len(args["outputSize"]) == 2 and 3 <= len(_shape(args["x"])) <= 4 \
            and len(_shape(args["gradY"])) == len(_shape(args["x"]))
        forward = {"self": args.get("x"), "outputSize": args.get("outputSize"), "out": args.get("gradY")}
        if judged and unpool_refused(forward):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class AtRankUnchecked(ignoring(NumpyUnpoolBackward)):
    """Wrong: never compares a 4-d gradY's N and C with x's."""

    name = "at-rank-unchecked"
    row = "在x为4维时，gradY与x在N和C维度上的size不相同"


class SmallPlaneAccepted(ignoring(NumpyUnpool)):
    """Wrong: a plane smaller than self's H*W goes through."""

    name = "small-plane-accepted"
    row = "outputSize的2个元素乘积小于self在H、W维度上的size乘积"


class LeadingUnchecked(ignoring(NumpyUnpool)):
    """Wrong: never compares out's N and C with self's."""

    name = "leading-unchecked"
    row = "out在N和C维度上的size与self不完全相同"
