"""The golden models of the invented operators of tests/fixtures/promotion_pack (aclnnToyMixAdd,
aclnnToyScaledMix) and backends with planted bugs (tests/test_promotion_clauses.py,
tests/test_cast_targets.py).

Their specs name this module as ``toy_promotion:mix_add``: tests/ is on the import path under pytest.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import ReferenceBackend
from conformance.cases.case import Case
from conformance.cases.oracle import explain
from reference.golden import Golden, without_bounds

SPEC_DIR = __file__.rsplit("/", 1)[0] + "/fixtures/promotion_pack"
API = "aclnnToyMixAdd"


def mix_add(args: dict[str, Any], bounds: bool = True) -> dict[str, Golden]:
    """``out = self + other`` in float64."""
    a = np.asarray(args["self"].array).astype(np.float64)
    b = np.asarray(args["other"].array).astype(np.float64)
    value = a + b
    if not bounds:
        return {"out": without_bounds(value)}
    return {"out": Golden(value, np.abs(a) + np.abs(b), np.full((), 2, np.int64))}


class CastsAnything(ReferenceBackend):
    """Planted bug: writes the sum into any out dtype, also one the promoted dtype must not be cast
    to (a FLOAT result into a BOOL out), where the documents say 161002."""

    name = "casts-anything"

    def refusal(self, api: str, args: dict[str, Any], product: str | None = None) -> CallResult | None:
        spec = self.specs.operator(api)
        expectation = explain(Case(spec.api, product or spec.products[-1], dict(args)), self.specs)
        if expectation.expected == "error" and all(
                spec.constraint(v.clause).kind == "castable" for v in expectation.violations):
            return None
        return super().refusal(api, args, product)


def scaled_mix(args: dict[str, Any], bounds: bool = True) -> dict[str, Golden]:
    """``out = self + alpha * other`` in float64 (a complex alpha, which only a call wrongly accepted
    has, by its real part)."""
    a = np.asarray(args["self"].array).astype(np.float64)
    b = np.asarray(args["other"].array).astype(np.float64)
    alpha = complex(args["alpha"].value).real
    value = a + alpha * b
    if not bounds:
        return {"out": without_bounds(value)}
    return {"out": Golden(value, np.abs(a) + abs(alpha) * np.abs(b), np.full((), 3, np.int64))}


class CastsAlphaStrictly(ReferenceBackend):
    """Planted bug: refuses an alpha whose dtype is not the promoted dtype itself (161002), also one
    the documents let cast to it (an INT32 alpha with FLOAT inputs)."""

    name = "casts-alpha-strictly"

    def refusal(self, api: str, args: dict[str, Any], product: str | None = None) -> CallResult | None:
        refused = super().refusal(api, args, product)
        vocab = self.specs.vocabulary
        self_, other, alpha = args.get("self"), args.get("other"), args.get("alpha")
        if refused is not None or self_ is None or other is None or alpha is None:
            return refused
        promoted = vocab.dtype_rules.promote(vocab.dtype_of_numpy(self_.array.dtype),
                                             vocab.dtype_of_numpy(other.array.dtype))
        if promoted is not None and alpha.dtype != promoted:
            return CallResult(vocab.status_codes["ACLNN_ERR_PARAM_INVALID"], PHASE_WORKSPACE)
        return None
