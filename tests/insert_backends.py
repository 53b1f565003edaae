"""Backends of the toy encoder aclnnToyEncode (tests/fixtures/insert_pages), for
tests/test_draft_insert_ties.py: one right in its own way (numpy decides: self compared with
``arange(depth)`` along a new last axis, that axis moved into place, gives out's shape) and wrong
ones leaving one row's check out."""
from __future__ import annotations

import numpy as np
from norm_backends import ignoring

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def _shape(value) -> tuple[int, ...]:
    return value.array.shape if hasattr(value, "array") else value.shape


def encode_refused(args) -> bool:
    """Whether numpy's encoding (``self[..., None] == arange(depth)``, its last axis moved to
    axis) fails or differs from out's shape."""
    x, depth, axis = np.zeros(_shape(args["self"]), dtype=np.int64), args["depth"], args["axis"]
    try:
        encoded = x[..., None] == np.arange(depth)
        return np.moveaxis(encoded, -1, axis).shape != _shape(args["out"])
    except (ValueError, np.exceptions.AxisError):
        return True


class NumpyEncode(OracleBackend):
    """Right: refuses what numpy's encoding refuses (given a non-empty self, a depth of 0 or more
    and an axis from -1 to self's rank: the rows before these), and defers to the oracle
    elsewhere."""

    name = "numpy-encode"

    def call(self, api, args, product=None):
        given = args.get("self") is not None and args.get("out") is not None
        judged = given and 0 not in _shape(args["self"]) and args["depth"] >= 0 \
            and -1 <= args["axis"] <= len(_shape(args["self"]))
        if judged and encode_refused(args):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class ShapeUnchecked(ignoring(NumpyEncode)):
    """Wrong: writes the encoding into any out of the right rank."""

    name = "shape-unchecked"
    row = ("out的shape与在self的shape在axis维插入depth后的shape不相同 / 输出的维度比self的维度多1维，"
           "输出的shape与在self的shape在axis维插入depth后的shape相同。")


class RankUnchecked(ignoring(NumpyEncode)):
    """Wrong: an out of self's rank is filled as if flattened."""

    name = "rank-unchecked"
    row = "out的维度数不比self的维度数多1维"


class FarAxisAccepted(ignoring(NumpyEncode)):
    """Wrong: an axis below -1 counts from the end."""

    name = "far-axis-accepted"
    row = "axis的取值小于-1"
