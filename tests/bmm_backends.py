"""Backends of the toy batched products (tests/fixtures/bmm_pages), for tests/test_draft_bmm_ties.py:
for each, one right in its own way (numpy decides) and wrong ones leaving one row's check out.

- aclnnToyBatchAdd: numpy's ``matmul`` of lhs and rhs, broadcast with acc (``broadcast_shapes``),
  gives out's shape; a product and an acc not both empty or both not (the page's row);
- aclnnInplaceToySumAdd: the batches' products summed (``zip(..., strict=True)``: one batch count)
  and added into selfRef in place (``np.add(..., out=selfRef)``: the sum must fit into it).
"""
from __future__ import annotations

import numpy as np
from norm_backends import ignoring

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002


def _zeros(value) -> np.ndarray:
    return np.zeros(value.array.shape if hasattr(value, "array") else value.shape)


def batch_add_refused(args) -> bool:
    """Whether numpy's product, broadcast with acc, fails or is not out's shape, or only one of
    acc and the product is empty."""
    x = _zeros(args["acc"])
    try:
        p = np.matmul(_zeros(args["lhs"]), _zeros(args["rhs"]))
        shape = np.broadcast_shapes(x.shape, p.shape)
    except ValueError:
        return True
    return shape != _zeros(args["out"]).shape or (x.size == 0) != (p.size == 0)


def sum_add_refused(args) -> bool:
    """Whether the batches' products, summed, do not add into selfRef in place."""
    x = _zeros(args["selfRef"])
    try:
        batches = zip(_zeros(args["batch1"]), _zeros(args["batch2"]), strict=True)
        np.add(x, sum((a @ b for a, b in batches), 0), out=x)
    except ValueError:
        return True
    return False


class _Numpy(OracleBackend):
    """Right: refuses what ``refused`` does (given 3-d operands: the rank rows), and defers to the
    oracle elsewhere."""

    refused = staticmethod(batch_add_refused)
    names = ("acc", "lhs", "rhs", "out")

    def call(self, api, args, product=None):
        given = all(args.get(n) is not None for n in self.names)
        if given and all(_zeros(args[n]).ndim == 3 for n in self.names[1:3]) and self.refused(args):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class NumpyBatchAdd(_Numpy):
    name = "numpy-batch-add"


class NumpySumAdd(_Numpy):
    name = "numpy-sum-add"
    refused = staticmethod(sum_add_refused)
    names = ("selfRef", "batch1", "batch2")


class AccUnchecked(ignoring(NumpyBatchAdd)):
    """Wrong: broadcasts acc as far as it goes, never refusing it."""

    name = "acc-unchecked"
    row = "acc不能与lhs@rhs做broadcast"


class EmptyUnchecked(ignoring(NumpyBatchAdd)):
    """Wrong: an empty product beside a non-empty acc gives an empty out."""

    name = "empty-unchecked"
    row = "acc和lhs@rhs必须同时为空tensor或同时不为空tensor"


class BatchUnchecked(ignoring(NumpySumAdd)):
    """Wrong: sums over the shorter batch."""

    name = "batch-unchecked"
    row = "batch1和batch2的第1维度不一致"


class FitUnchecked(ignoring(NumpySumAdd)):
    """Wrong: writes a sum that does not fit into selfRef as far as selfRef goes."""

    name = "fit-unchecked"
    row = "selfRef不能和batch1@batch2做broadcast操作"
