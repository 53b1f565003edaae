"""Backends of the toy operator aclnnToyDenseScale (tests/fixtures/contiguity_pages), whose scale
must be dense, for tests/test_draft_contiguity_rows.py: one right in its own way (it looks at the
numpy view it is given, not at the spec, so the suite's reading of the row is checked against an
independent one) and one wrong."""
from __future__ import annotations

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend
from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.spec.values import flat_tensors

PARAM_INVALID = 161002


def _strided(args, name: str) -> bool:
    tensor = args.get(name)
    return tensor is not None and not tensor.array.flags.c_contiguous


class DenseFirst(OracleBackend):
    """Right: rejects a non-contiguous scale before looking at anything else (a null self too)."""

    name = "dense-first"

    def call(self, api, args, product=None):
        if _strided(args, "scale"):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class StridedScaleAccepted(OracleBackend):
    """Wrong: copes with a strided scale (reads it through its strides) instead of rejecting it:
    a call the documents reject for that alone succeeds."""

    name = "strided-scale-accepted"

    def call(self, api, args, product=None):
        expectation = explain(Case(api, product or self.product, dict(args)), self.specs)
        if {v.clause for v in expectation.violations} == {"TDS-CONTIGUOUS"}:
            for _, name, tensor in flat_tensors(args):
                if name == "out":
                    tensor.array[...] = 0
            return CallResult(0, PHASE_EXECUTE)
        return super().call(api, args, product)
