"""Backends of the toy operator whose updates' shape a formula gives (tests/fixtures/formula_pages),
for tests/test_draft_shape_formulas.py: one right in its own way (numpy's fancy indexing of varRef
by indices gives the slices updates must fill) and one wrong, taking any updates.
"""
from __future__ import annotations

import numpy as np
from norm_backends import ignoring

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def _shape(value) -> tuple[int, ...]:
    return value.array.shape if hasattr(value, "array") else value.shape


def slices_shape(var: tuple[int, ...], indices: tuple[int, ...]) -> tuple[int, ...]:
    """The shape numpy's ``var[indices]`` has: the slices of var's first dimension indices picks."""
    return np.zeros(var, dtype=np.int8)[np.zeros(indices, dtype=np.intp)].shape


def updates_refused(args) -> bool:
    return _shape(args["updates"]) != slices_shape(_shape(args["varRef"]), _shape(args["indices"]))


class NumpyScatter(OracleBackend):
    """Right: refuses updates not of numpy's slices' shape (every tensor given, varRef not 0-d),
    and defers to the oracle elsewhere."""

    name = "numpy-scatter"

    def call(self, api, args, product=None):
        given = all(args.get(n) is not None for n in ("varRef", "indices", "updates"))
        if given and _shape(args["varRef"]) and updates_refused(args):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class UpdatesShapeUnchecked(ignoring(NumpyScatter)):
    """Wrong: updates of any shape are taken (read as flat values)."""

    name = "updates-shape-unchecked"
    row = ("updates的shape不满足shape约束条件 / 需要满足shape约束: updates.shape = indices.shape + "
           "varRef.shape[1:]")
