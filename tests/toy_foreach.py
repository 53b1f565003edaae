"""The golden model of the invented list operator of tests/fixtures/list_pack (aclnnToyForeachAxpy)
and backends with one planted bug each (tests/test_list_kinds.py).

Its spec names this module as ``toy_foreach:axpy``: tests/ is on the import path under pytest.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from conformance.backends.protocol import CallResult
from conformance.backends.reference import ReferenceBackend
from conformance.cases.case import Case
from conformance.cases.oracle import arg_metas
from conformance.spec.values import TensorList, element_name
from reference.golden import Golden, without_bounds

SPEC_DIR = __file__.rsplit("/", 1)[0] + "/fixtures/list_pack"
API = "aclnnToyForeachAxpy"


def _array(value: Any) -> np.ndarray:
    return np.asarray(getattr(value, "array", value))


def axpy(args: dict[str, Any], bounds: bool = True) -> dict[str, Golden]:
    """``out[i] = x[i] + alpha * y[i]`` in float64 (floored where rounding is 'floor'), by flat name."""
    alpha = float(args["alpha"].value)
    out: dict[str, Golden] = {}
    for i, (x, y) in enumerate(zip(args["x"], args["y"])):
        a, b = _array(x).astype(np.float64), _array(y).astype(np.float64)
        value = a + alpha * b
        if args["rounding"] == "floor":
            value = np.floor(value)
        name = element_name("out", i)
        out[name] = Golden(value, np.abs(a) + np.abs(alpha * b), np.full((), 2, np.int64)) if bounds \
            else without_bounds(value)
    return out


class ChecksFirstElementDtype(ReferenceBackend):
    """Planted bug: the dtype checks read only x[0] (a later element of x in another dtype is
    accepted and computed)."""

    name = "mutant-first-element-dtype"

    def refusal(self, api: str, args: dict[str, Any], product: str | None = None) -> CallResult | None:
        x = args.get("x")
        if isinstance(x, TensorList) and len(x) > 1 and x[0] is not None:
            metas = arg_metas(Case(api, product, dict(args)), self.specs)
            first = metas["x"][0].dtype
            args = {**metas, "x": metas["x"].map(lambda e: e if e is None else replace(e, dtype=first))}
        return super().refusal(api, args, product)


class WritesFirstOutputOnly(ReferenceBackend):
    """Planted bug: computes out[0] and leaves the later outputs of the list unwritten."""

    name = "mutant-first-output-only"

    def call(self, api: str, args: dict[str, Any], product: str | None = None) -> CallResult:
        out = args.get("out")
        if not isinstance(out, TensorList) or len(out) < 2:
            return super().call(api, args, product)
        keep = [np.array(t.storage, copy=True) for t in out[1:]]
        result = super().call(api, args, product)
        for t, saved in zip(out[1:], keep):
            t.storage[...] = saved
        return result
