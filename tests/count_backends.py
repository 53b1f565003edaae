"""Backends of the toy operators counting along a dimension (tests/fixtures/count_pages), for
tests/test_draft_count_ties.py: for each, one right in its own way (numpy decides) and wrong ones
leaving one row's check out.

- aclnnToyDraw: numpy's ``Generator.choice`` without replacement refuses a sample larger than the
  row, and the sampled indices of each row, stacked, give the output's shape;
- aclnnToyLargest: numpy's ``split`` of the sorted row at k gives a first part of k elements
  only where k is within the row.
"""
from __future__ import annotations

import numpy as np
from norm_backends import ignoring

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def _shape(value) -> tuple[int, ...]:
    return value.array.shape if hasattr(value, "array") else value.shape


def draw_refused(args) -> bool:
    """Whether numpy cannot draw numsamples of each of self's rows (without replacement: no more
    than the row holds), or out is not the rows' draws stacked."""
    x, n = _shape(args["self"]), args["numsamples"]
    rows = np.zeros(x).reshape(-1, x[-1]) if x[-1] else np.zeros((max(int(np.prod(x[:-1])), 1), 0))
    rng = np.random.default_rng(0)
    try:
        drawn = np.stack([rng.choice(len(r), size=n, replace=bool(args["replacement"])) for r in rows])
    except ValueError:
        return True
    return drawn.reshape(*x[:-1], n).shape != _shape(args["out"])


def largest_refused(args) -> bool:
    """Whether numpy's split of self's sorted dim at k gives a first part of other than k."""
    x, k, dim = np.zeros(_shape(args["self"])), args["k"], args["dim"]
    first = np.split(np.sort(x, axis=dim), [k], axis=dim)[0]
    return first.shape[dim] != k


class NumpyDraw(OracleBackend):
    """Right: refuses what numpy's draws refuse (given self and out of one rank, 1 or 2, and a
    positive count: the rows before these), and defers to the oracle elsewhere."""

    name = "numpy-draw"

    def call(self, api, args, product=None):
        given = args.get("self") is not None and args.get("out") is not None
        judged = given and len(_shape(args["self"])) in (1, 2) \
            and len(_shape(args["out"])) == len(_shape(args["self"])) and args["numsamples"] > 0
        if judged and draw_refused(args):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class NumpyLargest(OracleBackend):
    """Right: refuses what numpy's split refuses (given a dim within self's rank: the row before
    it), and defers to the oracle elsewhere."""

    name = "numpy-largest"

    def call(self, api, args, product=None):
        rank = len(_shape(args["self"])) if args.get("self") is not None else 0
        if rank and -rank <= args["dim"] < rank and largest_refused(args):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class PastTheRowAccepted(ignoring(NumpyDraw)):
    """Wrong: draws more than a row holds without replacement (repeating indices)."""

    name = "past-the-row-accepted"
    row = "replacement为false且numsamples的值大于self最后一维度的大小"


class FirstDimUnchecked(ignoring(NumpyDraw)):
    """Wrong: never compares out's first dimension with self's."""

    name = "first-dim-unchecked"
    row = "当self为2维张量时，out的第一个维度需与self的第一个维度的size相等"


class NegativeKAccepted(ignoring(NumpyLargest)):
    """Wrong: a negative k (or one past the row) returns nothing."""

    name = "negative-k-accepted"
    row = "k小于0或者k大于self在dim维度上的size大小 / 取值范围是[0, self.size(dim)]。"  # (the note too)
