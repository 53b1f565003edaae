"""A backend that knows only what the documents say: the oracle's status code for every call, and
zeros in the outputs of an accepted one. What a drafted spec (no reference) can be run against."""
from __future__ import annotations

from typing import Any

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult
from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.spec.loader import read_shipped_specs


class OracleBackend:
    name = "oracle"
    version = "spec"
    product: str | None = None

    def __init__(self) -> None:
        self.specs = read_shipped_specs()

    def call(self, api: str, args: dict[str, Any]) -> CallResult:
        spec = self.specs.operator(api)
        e = explain(Case(spec.api, self.product or spec.products[0], dict(args)), self.specs)
        codes = self.specs.vocabulary.status_codes
        if e.expected == "not-applicable":
            return CallResult(codes["ACLNN_ERR_RUNTIME_ERROR"], PHASE_WORKSPACE)
        if e.expected == "error":
            return CallResult(e.violations[0].status or 0, PHASE_WORKSPACE)
        for name in spec.params_of("tensor", "output"):
            if args.get(name) is not None:
                args[name].array[...] = 0
        return CallResult(0, PHASE_EXECUTE)
