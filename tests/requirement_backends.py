"""Backends of the toy global pooling operator (tests/fixtures/requirement_pages), for
tests/test_draft_requirement_items.py: one right in its own way (numpy's max over the planes with
keepdims gives out's rank) and wrong ones leaving one listed item's check out."""
from __future__ import annotations

import numpy as np
from norm_backends import ignoring

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def _shape(value) -> tuple[int, ...]:
    return value.array.shape if hasattr(value, "array") else value.shape


class NumpyPeak(OracleBackend):
    """Right: refuses an out whose rank is not that of numpy's keepdims max over self's planes
    (both given, self of 3 to 6 dimensions: the rows before), and defers to the oracle elsewhere."""

    name = "numpy-peak"

    def call(self, api, args, product=None):
        x, out = args.get("self"), args.get("out")
        if x is not None and out is not None and 3 <= len(_shape(x)) <= 6:
            planes = np.zeros(_shape(x), dtype=np.int8).max(axis=tuple(range(2, len(_shape(x)))),
                                                            keepdims=True)
            if planes.ndim != len(_shape(out)):
                return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class SameRankUnchecked(ignoring(OracleBackend)):
    """Wrong: an out of another rank is taken (flattened into the planes' maxima)."""

    name = "same-rank-unchecked"
    row = "3) self与out维度数相同"


class SameFormatUnchecked(ignoring(OracleBackend)):
    """Wrong: an out in another format than self's is taken (its format label ignored)."""

    name = "same-format-unchecked"
    row = "1) self与out的数据格式相同"
