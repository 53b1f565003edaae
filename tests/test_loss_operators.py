"""The loss operators end to end: the reference is conformant on every product line each page lists,
a planted bug per operator (tests/mutants_losses.py) is caught with the right clause and kind, and
the torch mapping's differences from the pages are pinned."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import conformance
from conformance.generate.dry_run import load_specs

KL_DIV, MSE, SMOOTH_L1 = "aclnnKlDiv", "aclnnMseLossBackward", "aclnnSmoothL1LossBackward"
LOSSES = (KL_DIV, MSE, SMOOTH_L1)
MUTANTS = Path(__file__).with_name("mutants_losses.py")
FAST_PRODUCT = "atlas-a2"  # one product per operator in the developer's loop; the others are slow


def _product_params() -> list:
    """One product per operator (every listed product, at fewer examples: test_every_operator.py)."""
    return [pytest.param(api, FAST_PRODUCT, id=f"{api[5:]}-{FAST_PRODUCT}") for api in LOSSES]


def _pairs(report: dict) -> set[tuple[str, str]]:
    return {(f["clause"], f["kind"]) for f in report["findings"]}


def test_products_and_unsupported_lines_are_the_pages():
    specs = load_specs()
    everywhere = ["atlas-training", "atlas-inference", "atlas-a2", "atlas-a3", "ascend-950"]
    expected = {
        KL_DIV: (everywhere, ["atlas-200i-500-a2"]),
        MSE: (everywhere[1:], ["atlas-training", "atlas-200i-500-a2"]),
        SMOOTH_L1: (everywhere, ["atlas-200i-500-a2"]),
    }
    for api, (products, unsupported) in expected.items():
        spec = specs.operator(api)
        assert list(spec.products) == products
        assert sorted(spec.unsupported) == sorted(unsupported)
    assert specs.operator(KL_DIV).dtypes_for("atlas-training", "self") == ["FLOAT", "FLOAT16"]
    assert specs.operator(KL_DIV).dtypes_for("ascend-950", "self") == ["FLOAT", "FLOAT16", "BFLOAT16"]


@pytest.mark.slow  # a quick run each (the developer loop stays under a minute)
@pytest.mark.parametrize("api,product", _product_params())
def test_reference_is_conformant(api, product, tmp_path):
    report = conformance.run_suite("reference", ops=[api], profile="quick", products=[product],
                                   report_dir=tmp_path)
    assert not report["errors"], report["errors"]
    assert report["outcome"] == "conformant", sorted(_pairs(report))
    judged = {(r["clause"], r["kind"]) for r in report["results"] if r["outcome"] == "pass"}
    prefix = {KL_DIV: "KLF", MSE: "MSE", SMOOTH_L1: "SL1"}[api]
    assert {(f"{prefix}-VALUES", "numerics"), (f"{prefix}-NONCONTIGUOUS", "numerics"),
            (f"{prefix}-DETERMINISTIC", "determinism"), (f"{prefix}-NULL", "status")} <= judged


MUTANT_CASES = [
    pytest.param("KlDivMeanBySelfNumel", KL_DIV, {("KLF-VALUES", "numerics")},
                 {("KLF-NONCONTIGUOUS", "numerics")}, id="kl-div-mean"),
    pytest.param("MseMeanByBroadcastNumel", MSE, {("MSE-VALUES", "numerics")},
                 {("MSE-NONCONTIGUOUS", "numerics")}, id="mse-mean"),
    pytest.param("SmoothL1IgnoresBeta", SMOOTH_L1, {("SL1-VALUES", "numerics")},
                 {("SL1-NONCONTIGUOUS", "numerics")}, id="smooth-l1-beta"),
]


@pytest.mark.slow  # a quick run each (the developer loop stays under a minute)
@pytest.mark.parametrize("mutant,api,expected,also", MUTANT_CASES)
def test_planted_bug_is_caught(mutant, api, expected, also, tmp_path):
    report = conformance.run_suite(f"{MUTANTS}:{mutant}", ops=[api], profile="quick",
                                   products=[FAST_PRODUCT], isolate=False, report_dir=tmp_path)
    assert report["outcome"] == "nonconformant", f"{mutant} passed the quick profile"
    assert not report["errors"], report["errors"]
    found = _pairs(report)
    assert found & expected, f"{mutant}: findings {sorted(found)}, but should include {sorted(expected)}"
    assert found <= expected | also, f"{mutant}: unexpected findings {sorted(found - expected - also)}"


#: What the torch mapping (torch 2.13.0 CPU, quick profile, seed 0, atlas-a2) is found to break.
TORCH_FINDINGS = {
    # (target 0 without logTarget, where torch gives 0 and the page NaN, is drawn by the zeros regime;
    # in a quick run on a contiguous case: KLF-VALUES)
    KL_DIV: {("KLF-DTYPE", "status"), ("KLF-RANK", "status"), ("KLF-VALUES", "numerics")},
    MSE: {("MSE-DTYPE", "status"), ("MSE-DTYPE-SAME", "status"), ("MSE-RANK", "status"),
          ("MSE-REDUCTION", "status")},  # (its numerics differ only where out is wider than the inputs:
    # torch keeps the inputs' rounding, as the page documents: precision.compute: inputs)
    SMOOTH_L1: {("SL1-DTYPE", "status"), ("SL1-DTYPE", "crash"), ("SL1-RANK", "status"),
                ("SL1-REDUCTION", "status"), ("SL1-VALUES", "numerics"), ("SL1-NONCONTIGUOUS", "numerics")},
}


@pytest.mark.slow
@pytest.mark.parametrize("api", LOSSES)
def test_torch_findings(api, tmp_path):
    pytest.importorskip("torch")
    report = conformance.run_suite("torch", ops=[api], profile="quick", products=[FAST_PRODUCT],
                                   report_dir=tmp_path)
    assert not report["errors"], report["errors"]
    assert _pairs(report) == TORCH_FINDINGS[api]


def _call(backend, api: str, **args):
    """One call of ``backend`` on float32 arrays (output last, NaN-filled); returns the output."""
    from conformance.cases.tensor import Tensor
    tensors = {k: Tensor(np.asarray(v, np.float32)) if isinstance(v, (list, np.ndarray)) else v
               for k, v in args.items()}
    out_name = list(args)[-1]
    tensors[out_name].array[...] = np.nan
    assert backend.call(api, tensors).status == 0
    return tensors[out_name].array


def test_torch_differs_from_the_pages_on_special_points():
    """Two torch deviations the quick run may not draw: SmoothL1's slope at self == target with
    beta 0 (the page's sign(0) = 0; torch -1), and KL's loss at target 0 (the page's NaN; torch's
    xlogy gives 0)."""
    pytest.importorskip("torch")
    from conformance.backends.reference import ReferenceBackend
    from conformance.backends.torch_backend import TorchBackend
    sl1 = dict(gradOut=[1.0, 1.0], self=[0.0, 2.0], target=[0.0, 1.0], reduction=0, beta=0.0,
               gradInput=[0.0, 0.0])
    assert _call(ReferenceBackend(), SMOOTH_L1, **sl1).tolist() == [0.0, 1.0]
    assert _call(TorchBackend(), SMOOTH_L1, **sl1).tolist() == [-1.0, 1.0]
    kl = {"self": [0.5], "target": [0.0], "reduction": 0, "logTarget": False, "out": [0.0]}
    assert np.isnan(_call(ReferenceBackend(), KL_DIV, **kl)).all()
    assert _call(TorchBackend(), KL_DIV, **kl).tolist() == [0.0]


@pytest.mark.parametrize("self_dtype,out_dtype,owner", [
    ("FLOAT16", "FLOAT", "MSE-DTYPE-OUT"), ("BFLOAT16", "BFLOAT16", "MSE-DTYPE"),
    ("FLOAT", "FLOAT", "MSE-PHASE")])
def test_a_rejected_valid_mse_case_is_blamed_on_the_promise_it_breaks(self_dtype, out_dtype, owner):
    from conformance.cases.tensor import TensorMeta
    spec = load_specs().operator(MSE)
    names = {"gradOutput": TensorMeta((2, 3), self_dtype), "self": TensorMeta((3,), self_dtype),
             "target": TensorMeta((2, 1), self_dtype), "reduction": 1, "out": TensorMeta((2, 3), out_dtype)}
    assert spec.owner("status", names) == owner
