"""The padding gradients of reference/pad_backward.py end to end: the reference is conformant on
every product line each page lists, the suite catches one planted bug per operator with the right
clause and kind, and the torch mapping computes what the reference does, refuses the calls on which
torch would index outside memory, and differs from the pages where torch does.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from requirements import import_or_skip

import conformance
from conformance.backends.protocol import CallResult
from conformance.backends.reference import ReferenceBackend
from conformance.cases.tensor import Tensor
from conformance.generate.dry_run import shipped_specs

RP1D = "aclnnReplicationPad1dBackward"
RP2D = "aclnnReplicationPad2dBackward"
RF3D = "aclnnReflectionPad3dBackward"
CP2D = "aclnnCircularPad2dBackward"
MUTANTS = Path(__file__).with_name("mutants_pads.py")
INVALID, OK = CallResult(161002, 1), CallResult(0, 2)
PRODUCTS = {
    RP1D: ["atlas-training", "atlas-inference", "atlas-a2", "atlas-a3", "ascend-950"],
    RP2D: ["atlas-training", "atlas-inference", "atlas-a2", "atlas-a3", "ascend-950"],
    RF3D: ["atlas-training", "atlas-inference", "atlas-a2", "atlas-a3", "ascend-950"],
    CP2D: ["atlas-a2", "atlas-a3", "ascend-950"],
}


@pytest.mark.parametrize("api", PRODUCTS)
def test_specs_list_the_pages_product_lines(api):
    spec = shipped_specs().operator(api)
    assert list(spec.products) == PRODUCTS[api]
    vocab = list(shipped_specs().vocabulary.products)
    assert sorted([*spec.products, *spec.unsupported]) == sorted(vocab)  # every line is either
    assert all(c.source.quote for c in spec.constraints)


@pytest.mark.slow
@pytest.mark.parametrize("api", PRODUCTS)
def test_reference_is_conformant_on_a2(api, tmp_path):
    """(Every listed product, at fewer examples: tests/test_every_operator.py.)"""
    report = conformance.run_suite("reference", profile="quick", ops=[api], products=["atlas-a2"],
                                   report_dir=tmp_path)
    assert not report["errors"], report["errors"]
    assert report["findings"] == []
    assert report["outcome"] == "conformant"
    judged = {r["product"] for r in report["results"] if r["outcome"] == "pass"}
    assert judged == {"atlas-a2"}


@pytest.mark.slow
@pytest.mark.parametrize("mutant,api,expected,also", [
    ("DropsRightPadding", RP1D, {("numerics", "RP1D-VALUES")}, {("numerics", "RP1D-NONCONTIGUOUS")}),
    ("UncheckedBf16Padding", RP2D, {("status", "RP2D-PAD-BF16")}, set()),
    ("ReflectsOffByOne", RF3D, {("numerics", "RF3D-VALUES")}, {("numerics", "RF3D-NONCONTIGUOUS")}),
    ("WrapsByNMinusOne", CP2D, {("numerics", "CP2D-VALUES")}, {("numerics", "CP2D-NONCONTIGUOUS")}),
])
def test_planted_bug_is_caught(mutant, api, expected, also, tmp_path):
    report = conformance.run_suite(f"{MUTANTS}:{mutant}", profile="quick", ops=[api], isolate=False,
                                   report_dir=tmp_path)
    found = {(f["kind"], f["clause"]) for f in report["findings"]}
    assert report["outcome"] == "nonconformant", f"{mutant} passed the quick profile, but should fail"
    assert not report["errors"], report["errors"]
    assert found & expected, f"{mutant}: findings {sorted(found)}, but should include {sorted(expected)}"
    assert found <= expected | also, f"{mutant}: unexpected findings {sorted(found - expected - also)}"


# -- the torch mapping ---------------------------------------------------------------------------
def _args(grad: np.ndarray, self_shape: tuple[int, ...], padding) -> dict:
    return {"gradOutput": Tensor(grad), "self": Tensor(np.zeros(self_shape, grad.dtype)),
            "padding": tuple(padding), "gradInput": Tensor(np.full(self_shape, np.nan, grad.dtype))}


@pytest.fixture(scope="module")
def torch_backend():
    import_or_skip("torch")
    from conformance.backends.torch_backend import TorchBackend
    return TorchBackend()


@pytest.mark.parametrize("api,grad_shape,self_shape,padding", [
    (RP1D, (2, 3, 9), (2, 3, 5), (1, 3)),
    (RP2D, (2, 8, 9), (2, 4, 5), (1, 3, 2, 2)),
    (RF3D, (1, 2, 6, 8, 9), (1, 2, 4, 4, 5), (1, 3, 2, 2, 1, 1)),
    (CP2D, (2, 1, 8, 9), (2, 1, 4, 5), (1, 3, 2, 2)),
    (RP2D, (2, 3, 4), (2, 5, 6), (-1, -1, -1, -1)),  # negative padding crops in both
])
def test_torch_computes_what_the_reference_does(torch_backend, api, grad_shape, self_shape, padding):
    grad = np.random.default_rng(3).standard_normal(grad_shape).astype(np.float32)
    ours, theirs = _args(grad, self_shape, padding), _args(grad, self_shape, padding)
    assert torch_backend.call(api, ours) == OK
    assert ReferenceBackend(product="atlas-a2").call(api, theirs) == OK
    np.testing.assert_allclose(ours["gradInput"].array, theirs["gradInput"].array, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("api,grad_shape,self_shape,padding", [
    # reflection by 2 of a 2-wide dim: torch's backward writes past its gradInput (heap corruption)
    (RF3D, (1, 1, 6, 6, 6), (1, 1, 2, 2, 2), (2, 2, 2, 2, 2, 2)),
    # a gradOutput of fewer N·C planes than self: torch takes N·C from self and reads past gradOutput
    (RP1D, (1, 3, 5), (2, 3, 3), (1, 1)),
    (RP2D, (1, 2, 5, 5), (2, 2, 3, 3), (1, 1, 1, 1)),
    # a padded dim of 0: replication reads "position -1"
    (RP1D, (1, 2), (1, 0), (1, 1)),
])
def test_torch_mapping_refuses_out_of_bounds_calls(torch_backend, api, grad_shape, self_shape, padding):
    assert torch_backend.call(api, _args(np.ones(grad_shape, np.float32), self_shape, padding)) == INVALID


def test_torch_accepts_what_it_can_index_safely(torch_backend):
    """More N·C planes in gradOutput than in self is read in bounds: torch computes, and the suite
    reports RP2D-SHAPE-OUT (the adapter adds no check torch lacks)."""
    args = _args(np.ones((3, 2, 5, 5), np.float32), (2, 2, 3, 3), (1, 1, 1, 1))
    assert torch_backend.call(RP2D, args) == OK
    assert args["gradInput"].array[0, 0].tolist() == [[4, 2, 4], [2, 1, 2], [4, 2, 4]]


@pytest.mark.slow
@pytest.mark.parametrize("api,expected", [
    (RP1D, {("status", "RP1D-DTYPE-SAME"), ("status", "RP1D-EMPTY"), ("numerics", "RP1D-VALUES")}),
    (RP2D, {("status", "RP2D-PAD-LIMIT"), ("status", "RP2D-PAD-BF16"), ("numerics", "RP2D-VALUES")}),
    (RF3D, {("status", "RF3D-RANK"), ("status", "RF3D-EMPTY"), ("numerics", "RF3D-VALUES")}),
    (CP2D, {("status", "CP2D-PAD-LIMIT"), ("status", "CP2D-DTYPE"), ("numerics", "CP2D-VALUES")}),
])
def test_torch_differs_from_the_pages(torch_backend, api, expected, tmp_path):
    report = conformance.run_suite("torch", profile="quick", ops=[api], products=["atlas-a2"],
                                   report_dir=tmp_path)
    found = {(f["kind"], f["clause"]) for f in report["findings"]}
    assert expected <= found, f"torch on {api}: {sorted(found)}"
    assert not any(kind in ("crash", "timeout") for kind, _ in found)
    low = {f["details"]["case"]["gradOutput"].split("[")[0] for f in report["findings"]
           if f["kind"] == "numerics"}
    assert low <= {"FLOAT16", "BFLOAT16"}, f"numerics findings outside the low-precision dtypes: {low}"
