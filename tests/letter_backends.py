"""Backends of the toy group normalization aclnnToyGroupNorm (tests/fixtures/letter_pages), for
tests/test_draft_letter_ties.py: one right in its own way (numpy's reshapes into (N, C, rest) and
(N, group, rest) decide what it refuses, not the spec's expressions) and two wrong ones."""
from __future__ import annotations

import numpy as np
from norm_backends import ignoring

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def _shape(value) -> tuple[int, ...]:
    """A tensor's shape, or a drawn one's (the test module asks of drawn cases too)."""
    return value.array.shape if hasattr(value, "array") else value.shape


def grouping_refused(args) -> bool:
    """Whether numpy cannot see x as (N, C, HxW) and C channels as group groups, or the statistics
    and the scale do not have the shapes numpy's per-group mean and per-channel scale have."""
    x = np.broadcast_to(np.zeros((), dtype=bool), _shape(args["x"]))  # (a view: no memory)
    n, c, rest, group = args["N"], args["C"], args["HxW"], args["group"]
    try:
        if x.reshape(n, c, -1).shape != (n, c, rest) or x.shape[:2] != (n, c):
            return True
        per_group = np.zeros(c, dtype=bool).reshape(group, -1)  # (ValueError: C not in groups)
    except ValueError:
        return True
    stats = np.zeros((n, per_group.shape[0]), dtype=bool).shape
    scale = args.get("scaleOptional")
    return any(_shape(args[o]) != stats for o in ("avgOut", "spreadOut")) \
        or scale is not None and np.prod(_shape(scale)) != c


class NumpyGroupNorm(OracleBackend):
    """Right: refuses what numpy's grouping refuses, and defers to the oracle elsewhere."""

    name = "numpy-group-norm"

    def call(self, api, args, product=None):
        if args.get("x") is not None and all(args.get(o) is not None for o in ("avgOut", "spreadOut")) \
                and args["group"] > 0 and grouping_refused(args):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class UnevenGroupsAccepted(ignoring(NumpyGroupNorm)):
    """Wrong: C channels that do not split into group groups go through."""

    name = "uneven-groups-accepted"
    row = "C无法被group整除，或C/group大于4000"


class StatsShapeUnchecked(ignoring(NumpyGroupNorm)):
    """Wrong: never compares avgOut's and spreadOut's shapes with (N, group)."""

    name = "stats-shape-unchecked"
    row = "avgOut和spreadOut的shape不是(N, group)"
