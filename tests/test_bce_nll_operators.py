"""aclnnBinaryCrossEntropyBackward (and aclnnNLLLossBackward) end to end: the reference is
conformant on every product line its page lists, each planted bug of tests/mutants_bce_nll.py is
caught with the right kind and clause, and the torch mapping's findings are the known ones."""
from __future__ import annotations

from pathlib import Path

import pytest

import conformance

pytestmark = pytest.mark.slow  # quick-profile runs, 5-10 s each

MUTANTS = Path(__file__).with_name("mutants_bce_nll.py")
BCE = "aclnnBinaryCrossEntropyBackward"
BCE_PRODUCTS = ["atlas-training", "atlas-inference", "atlas-a2", "atlas-a3", "ascend-950"]
NLL = "aclnnNLLLossBackward"
NLL_PRODUCTS = ["atlas-training", "atlas-a2", "atlas-a3", "ascend-950"]


def _run(backend: str, api: str, product: str, tmp_path: Path) -> dict:
    return conformance.run_suite(backend, ops=[api], profile="quick", products=[product], isolate=False,
                                 report_dir=tmp_path)


PROBES = {BCE: {"BCE-SELF-DOMAIN", "BCE-TARGET-DOMAIN", "BCE-EMPTY"},
          NLL: {"NLL-TARGET-RANGE", "NLL-EMPTY", "NLL-DTYPE-OUT"}}


# One product each (every listed product, at fewer examples: tests/test_every_operator.py).
RUNS = [(BCE, "atlas-a2"), (NLL, "atlas-a2")]


@pytest.mark.parametrize(("api", "product"), RUNS)
def test_the_reference_is_conformant(api, product, tmp_path):
    report = _run("reference", api, product, tmp_path)
    assert (report["outcome"], report["findings"], report["errors"]) == ("conformant", [], [])
    assert report["stats"]["cases"] > 800
    assert PROBES[api] <= {o["clause"] for o in report["observations"]}


def test_unsupported_lines(specs):
    assert set(specs.operator(BCE).unsupported) == {"atlas-200i-500-a2"}
    assert set(specs.operator(NLL).unsupported) == {"atlas-200i-500-a2", "atlas-inference"}


@pytest.mark.parametrize(("mutant", "api", "expected", "also"), [
    ("BceIgnoresWeight", BCE, {("numerics", "BCE-VALUES")}, {("numerics", "BCE-NONCONTIGUOUS")}),
    # (an absent weight with a broadcast or mixed dtypes is those promises' case)
    ("BceRejectsAbsentWeight", BCE, {("status", "BCE-WEIGHT-OPTIONAL")},
     {("status", "BCE-BCAST-GRAD"), ("status", "BCE-BCAST-TARGET"), ("status", "BCE-DTYPE")}),
    # (a wrong value on a strided view is owned by the non-contiguous promise: which of the two a
    # run names first depends on the first failing case drawn, so either counts as caught)
    ("NllIgnoresIgnoreIndex", NLL, {("numerics", "NLL-VALUES"), ("numerics", "NLL-NONCONTIGUOUS")},
     set()),
    ("NllMeanByBatch", NLL, {("numerics", "NLL-VALUES")}, {("numerics", "NLL-NONCONTIGUOUS")}),
])
def test_planted_bug_is_caught(mutant, api, expected, also, tmp_path):
    report = _run(f"{MUTANTS}:{mutant}", api, "atlas-a2", tmp_path)
    found = {(f["kind"], f["clause"]) for f in report["findings"]}
    assert report["outcome"] == "nonconformant" and not report["errors"]
    assert found & expected, f"{mutant}: {sorted(found)}"
    assert found <= expected | also, f"{mutant}: unexpected {sorted(found - expected - also)}"


TORCH_FINDINGS = {
    BCE: {("status", "BCE-BCAST-GRAD"), ("status", "BCE-BCAST-TARGET"), ("status", "BCE-DTYPE"),
          ("status", "BCE-RANK"), ("status", "BCE-REDUCTION"), ("status", "BCE-SCALAR"),
          ("numerics", "BCE-VALUES"), ("numerics", "BCE-NONCONTIGUOUS")},
    NLL: {("status", "NLL-DTYPE"), ("status", "NLL-DTYPE-SAME"), ("status", "NLL-REDUCTION"),
          ("status", "NLL-TARGET-SHAPE")},
}
# torch's CPU nll_loss_backward writes out[i, t] for a target t = -1 without a bounds check (heap
# corruption, "free(): invalid next size"): a crash when a drawn NLL-TARGET-RANGE probe hits it
SOMETIMES = {("crash", "NLL-DTYPE")}


@pytest.mark.parametrize("api", [BCE, NLL])
def test_torch_findings(api, tmp_path):
    """What torch 2.13 CPU does differently (quick, atlas-a2, seed 0): the README's list."""
    pytest.importorskip("torch")
    report = conformance.run_suite("torch", ops=[api], profile="quick", products=["atlas-a2"],
                                   report_dir=tmp_path)
    found = {(f["kind"], f["clause"]) for f in report["findings"]}
    assert TORCH_FINDINGS[api] <= found <= TORCH_FINDINGS[api] | SOMETIMES
