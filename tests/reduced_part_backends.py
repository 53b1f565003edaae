"""Backends of the toy median aclnnToyMidDim (tests/fixtures/reduced_part_pages), for
tests/test_draft_reduced_parts.py: one right in its own way (numpy decides: ``np.median`` over dim
with ``keepdims`` gives both outputs' shape; a 0-d x gives 0-d outputs) and wrong ones leaving one
row's check out."""
from __future__ import annotations

import numpy as np
from norm_backends import ignoring

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def _shape(value) -> tuple[int, ...]:
    return value.array.shape if hasattr(value, "array") else value.shape


def mid_refused(args) -> bool:
    """Whether an output is not numpy's median's shape."""
    x = np.zeros(_shape(args["x"]))
    want = np.median(x, axis=args["dim"], keepdims=bool(args["keepDim"])).shape if x.ndim else ()
    return any(_shape(args[n]) != want for n in ("midOut", "posOut"))


class NumpyMid(OracleBackend):
    """Right: refuses what numpy's median refuses (given a dim within x's rank: the row before
    these), and defers to the oracle elsewhere."""

    name = "numpy-mid"

    def call(self, api, args, product=None):
        given = all(args.get(n) is not None for n in ("x", "midOut", "posOut"))
        rank = len(_shape(args["x"])) if given else 0
        if given and -max(rank, 1) <= args["dim"] < max(rank, 1) and mid_refused(args):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class KeptDimUnchecked(ignoring(NumpyMid)):
    """Wrong: a kept dim of another size than 1 goes through."""

    name = "kept-dim-unchecked"
    row = "keepDim为true时，midOut或posOut的shape在dim上的size不为1"


class DroppedShapeUnchecked(ignoring(NumpyMid)):
    """Wrong: compares a dropped output's rank only."""

    name = "dropped-shape-unchecked"
    row = "keepDim为false时，midOut或posOut的shape与x除dim外的shape不一致"
