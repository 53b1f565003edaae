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


def _run(backend: str, api: str, product: str, tmp_path: Path) -> dict:
    return conformance.run_suite(backend, ops=[api], profile="quick", products=[product], isolate=False,
                                 report_dir=tmp_path)


@pytest.mark.parametrize("product", BCE_PRODUCTS)
def test_the_reference_is_conformant(product, tmp_path):
    report = _run("reference", BCE, product, tmp_path)
    assert (report["outcome"], report["findings"], report["errors"]) == ("conformant", [], [])
    assert report["stats"]["cases"] > 800
    observed = {o["clause"] for o in report["observations"]}
    assert {"BCE-SELF-DOMAIN", "BCE-TARGET-DOMAIN", "BCE-EMPTY"} <= observed


def test_bce_is_not_applicable_on_200i_500_a2(specs):
    spec = specs.operator(BCE)
    assert "atlas-200i-500-a2" in spec.unsupported and "atlas-200i-500-a2" not in spec.products


@pytest.mark.parametrize(("mutant", "api", "expected", "also"), [
    ("BceIgnoresWeight", BCE, {("numerics", "BCE-VALUES")}, {("numerics", "BCE-NONCONTIGUOUS")}),
    # (an absent weight with a broadcast or mixed dtypes is those promises' case)
    ("BceRejectsAbsentWeight", BCE, {("status", "BCE-WEIGHT-OPTIONAL")},
     {("status", "BCE-BCAST-GRAD"), ("status", "BCE-BCAST-TARGET"), ("status", "BCE-DTYPE")}),
])
def test_planted_bug_is_caught(mutant, api, expected, also, tmp_path):
    report = _run(f"{MUTANTS}:{mutant}", api, "atlas-a2", tmp_path)
    found = {(f["kind"], f["clause"]) for f in report["findings"]}
    assert report["outcome"] == "nonconformant" and not report["errors"]
    assert found & expected, f"{mutant}: {sorted(found)}"
    assert found <= expected | also, f"{mutant}: unexpected {sorted(found - expected - also)}"
