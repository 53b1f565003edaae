"""The golden model of the invented operator of tests/fixtures/promotion_pack (aclnnToyMixAdd) and
a backend with a planted bug (tests/test_promotion_clauses.py).

Its spec names this module as ``toy_promotion:mix_add``: tests/ is on the import path under pytest.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from conformance.backends.protocol import CallResult
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
