"""Planted bugs in the BCE and NLL backwards: the reference backend with one promise broken each.

``tests/test_bce_nll_operators.py`` runs the quick profile against each and checks the suite
reports it with the right check kind and clause.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import ReferenceBackend
from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.cases.tensor import Tensor

BCE = "aclnnBinaryCrossEntropyBackward"
NLL = "aclnnNLLLossBackward"
INVALID = 161002  # ACLNN_ERR_PARAM_INVALID


class _Mutant(ReferenceBackend):
    name = "mutant"

    def valid(self, api: str, args: dict[str, Any]) -> bool:
        spec = self.specs.operator(api)
        case = Case(spec.api, self.product or spec.products[-1], dict(args))
        return explain(case, self.specs).expected == "success"


class BceIgnoresWeight(_Mutant):
    """BCE-VALUES: computes as if weightOptional were absent (all ones) even when it is given."""

    name = "mutant-bce-ignores-weight"

    def call(self, api, args):
        if api == BCE and args.get("weightOptional") is not None and self.valid(api, args):
            args = {**args, "weightOptional": None}
        return super().call(api, args)


class BceRejectsAbsentWeight(_Mutant):
    """BCE-WEIGHT-OPTIONAL: treats an absent weightOptional as an invalid argument (161002)."""

    name = "mutant-bce-rejects-absent-weight"

    def call(self, api, args):
        if api == BCE and args.get("weightOptional") is None and self.valid(api, args):
            return CallResult(INVALID, PHASE_WORKSPACE)
        return super().call(api, args)


class NllIgnoresIgnoreIndex(_Mutant):
    """NLL-VALUES: gives ignored targets their gradient too (ignoreIndex never matches)."""

    name = "mutant-nll-ignores-ignore-index"

    def call(self, api, args):
        if api == NLL and self.valid(api, args):
            args = {**args, "ignoreIndex": -(2**40)}
        return super().call(api, args)


class NllMeanByBatch(_Mutant):
    """NLL-VALUES: with reduction 1 (mean) divides by the number of samples, not by totalWeight."""

    name = "mutant-nll-mean-by-batch"

    def call(self, api, args):
        if api != NLL or args.get("reduction") != 1 or not self.valid(api, args):
            return super().call(api, args)
        shape = args["self"].array.shape
        rows = shape[0] if len(shape) == 2 else 1
        total = args["totalWeight"]
        batch = Tensor(np.full(total.array.shape, rows, total.array.dtype), dtype_name=total.dtype_name)
        return super().call(api, {**args, "totalWeight": batch})
