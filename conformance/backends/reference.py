"""The numpy golden model behind the adapter protocol, enforcing the documented status codes.

A documented violation returns the code of the first broken clause (in spec order) from phase 1,
leaving outputs untouched. Where the documents promise nothing it makes a choice and says so:
an undocumented attribute value is rejected with ACLNN_ERR_PARAM_INVALID; anything else
(negative padding, strided views, other formats, 0-d tensors) is computed by the reference.
"""
from __future__ import annotations

from typing import Any

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult
from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.spec.loader import read_shipped_specs
from conformance.spec.model import WRITTEN, SpecSet
from conformance.spec.reference_loader import reference_function
from conformance.spec.values import flat_arg, flat_tensors


class ReferenceBackend:
    name = "reference"
    version = "spec"
    product: str | None = None

    def __init__(self, specs: SpecSet | None = None, product: str | None = None) -> None:
        self.specs = specs or read_shipped_specs()
        if product is not None:  # else keep a subclass's declared product (None: told by the run)
            self.product = product

    @property
    def missing_operators(self) -> dict[str, str]:
        """The operators whose spec names no reference function (a drafted spec, say): reported
        not run, with the reason (backends/loading.py)."""
        return {api: f"{api} names no reference function, so the reference backend cannot compute it"
                for api, spec in self.specs.operators.items() if spec.reference is None}

    def call(self, api: str, args: dict[str, Any], product: str | None = None) -> CallResult:
        spec = self.specs.operator(api)
        refusal = self.refusal(api, args, product)
        if refusal is not None:
            return refusal
        goldens = reference_function(spec)(args, bounds=False)
        for name, golden in goldens.items():  # (an output list's elements by flat name: out[1])
            out = flat_arg(args, name).array
            value = golden.value if out.dtype.kind == "c" else golden.value.real
            out[...] = value.astype(out.dtype)
        return CallResult(0, PHASE_EXECUTE)

    def refusal(self, api: str, args: dict[str, Any], product: str | None = None) -> CallResult | None:
        """The phase-1 status the documents give this call, or None where it is to be computed."""
        spec = self.specs.operator(api)
        product = product or self.product or spec.products[-1]
        expectation = explain(Case(spec.api, product, dict(args)), self.specs)
        codes = self.specs.vocabulary.status_codes
        if expectation.expected == "not-applicable":
            return CallResult(codes["ACLNN_ERR_RUNTIME_ERROR"], PHASE_WORKSPACE)
        if expectation.expected == "error":
            return CallResult(expectation.violations[0].status or 0, PHASE_WORKSPACE)
        if any(spec.constraint(v.clause).kind == "value_in" for v in expectation.unspecified):
            return CallResult(codes["ACLNN_ERR_PARAM_INVALID"], PHASE_WORKSPACE)
        return None


class OracleBackend(ReferenceBackend):
    """The documents and nothing else: each call gets the status the oracle expects, as the
    reference gives it, and an accepted call writes zeros into its outputs (no numbers computed).
    What a spec without a reference function (a draft) runs against to see that it runs; its
    numerics are never right, so judge it with a golden or read them as "no reference"."""

    name = "oracle"
    missing_operators: dict[str, str] = {}  # it answers every operator, reference or not

    def call(self, api: str, args: dict[str, Any], product: str | None = None) -> CallResult:
        refusal = self.refusal(api, args, product)
        if refusal is not None:
            return refusal
        outputs = self.specs.operator(api).tensor_params(WRITTEN)
        for _, name, tensor in flat_tensors(args):
            if name in outputs:
                tensor.array[...] = 0
        return CallResult(0, PHASE_EXECUTE)
