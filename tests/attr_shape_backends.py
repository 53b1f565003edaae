"""Backends of the toy grid aclnnToyGrid (tests/fixtures/attr_shape_pages), for
tests/test_draft_attr_shape_ties.py: one right in its own way (numpy decides: ``np.eye(rows, cols)``
is out's shape, ``np.array([rows == cols])`` flags') and one leaving out's check out."""
from __future__ import annotations

import numpy as np
from norm_backends import ignoring

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def _shape(value) -> tuple[int, ...]:
    return value.array.shape if hasattr(value, "array") else value.shape


def grid_refused(args) -> bool:
    """Whether numpy's identity of rows by cols, or its one flag, is not out's (flags') shape."""
    try:
        eye = np.eye(args["rows"], args["cols"])
    except ValueError:
        return True
    flag = np.array([args["rows"] == args["cols"]])
    return eye.shape != _shape(args["out"]) or flag.shape != _shape(args["flags"])


class NumpyGrid(OracleBackend):
    """Right: refuses what numpy refuses (given a 2-d out: the rank row), defers elsewhere."""

    name = "numpy-grid"

    def call(self, api, args, product=None):
        given = args.get("out") is not None and args.get("flags") is not None
        if given and len(_shape(args["out"])) == 2 and grid_refused(args):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class GridUnchecked(ignoring(NumpyGrid)):
    """Wrong: fills out as far as it goes whatever its shape."""

    name = "grid-unchecked"
    row = "out的shape不是(rows，cols)"
