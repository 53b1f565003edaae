"""``precision.compute: inputs``: a kernel that computes in its inputs' dtype and casts to a wider
output, as the page documents, is never a numerics finding; against a bound of the output's dtype
the same results would be."""
from __future__ import annotations

import dataclasses

import ml_dtypes
import numpy as np
import pytest

from conformance.backends.reference import ReferenceBackend
from conformance.cases.case import case_from_dict
from conformance.check.bounds import bound_dtype
from conformance.check.judge import Judge
from conformance.generate.dry_run import shipped_specs
from conformance.generate.strategies import Drawn
from conformance.spec.reference_loader import reference_function

MSE = "aclnnMseLossBackward"
BF16 = np.dtype(ml_dtypes.bfloat16)


class InInputDtype(ReferenceBackend):
    """The reference's values rounded to the inputs' dtype, then cast to out: what the page says."""

    name = "computes-in-inputs"

    def call(self, api, args, product=None):
        status = super().call(api, args, product)
        spec = self.specs.operator(api)
        if getattr(status, "status", status) == 0:
            low = args[spec.params_of("tensor", "input")[0]].array.dtype
            for name, golden in reference_function(spec)(args, bounds=False).items():
                args[name].array[...] = golden.value.astype(low).astype(args[name].array.dtype)
        return status


@pytest.mark.parametrize("out, inputs, want", [
    (np.float32, [np.float16, np.float16], np.float16), (np.float16, [np.float32], np.float16),
    (np.float32, [BF16, np.float32], np.float32), (np.float64, [np.float32], np.float32),
    (np.complex128, [np.complex64], np.complex64), (np.float32, [np.int64], np.float32)])
def test_the_bound_dtype_is_the_coarser_of_out_and_the_finest_input(out, inputs, want):
    assert bound_dtype(np.dtype(out), [np.dtype(d) for d in inputs]) == np.dtype(want)


def _case(specs):
    example = {"api": MSE, "product": "atlas-a2", "args": {
        "gradOutput": {"shape": [64], "dtype": "FLOAT16"}, "self": {"shape": [64], "dtype": "FLOAT16"},
        "target": {"shape": [64], "dtype": "FLOAT16"}, "reduction": 1,
        "out": {"shape": [64], "dtype": "FLOAT"}}}
    return case_from_dict(example, specs)


@pytest.mark.parametrize("compute, findings", [("inputs", 0), ("output", 1)])
def test_computing_in_the_documented_dtype_is_no_finding(compute, findings):
    specs = shipped_specs()
    spec = specs.operator(MSE)
    assert spec.precision.get("compute") == "inputs"  # what the page says (the spec)
    mine = dataclasses.replace(spec, precision={**spec.precision, "compute": compute})
    specs = dataclasses.replace(specs, operators={**specs.operators, MSE: mine})
    verdict = Judge(InInputDtype(specs), specs, "atlas-a2").judge(Drawn(_case(specs), 3, "ordinary"))
    numerics = [f for f in verdict.findings if f.kind == "numerics"]
    assert len(numerics) == findings, [f.message for f in verdict.findings]


def test_a_wider_compute_dtype_never_lowers_the_bound_below_the_outputs():
    """BFLOAT16 inputs of a subnormal regime, a FLOAT16 out: the result underflows to 0 in the out
    dtype, which the out's own bound allows; the compute dtype's bound adds to it (a reference run
    once failed here when the bound was the compute dtype's alone)."""
    specs = shipped_specs()
    case = case_from_dict({"api": "aclnnKlDiv", "product": "atlas-a2", "args": {
        "self": {"shape": [1, 1, 2], "dtype": "BFLOAT16"},
        "target": {"shape": [1, 1, 1, 2], "dtype": "BFLOAT16"},
        "reduction": 0, "logTarget": False, "out": {"shape": [1, 1, 1, 2], "dtype": "FLOAT16"}}}, specs)
    verdict = Judge(ReferenceBackend(specs), specs, "atlas-a2").judge(Drawn(case, 0, "subnormal"))
    assert verdict.findings == []
