"""The size axis: cases that span many tiles, drawn from each spec's ``large`` section, where real
kernels break (the last partial tile, a reduction split over cores, a write one past the end)."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from helpers import KL, RP

import conformance
from conformance.cases.tensor import TensorMeta
from conformance.generate.strategies import large_corners
from conformance.run.plan import plan
from conformance.run.profiles import PROFILES

MUTANTS = Path(__file__).with_name("large_mutants.py")
KI = 1024


def _largest(drawn) -> int:
    return max(math.prod(v.shape) for v in drawn.case.args.values() if isinstance(v, TensorMeta))


def test_every_operator_product_and_dtype_reaches_past_1_mi_in_ci(specs):
    ci = PROFILES["ci"]
    for item in plan(specs, list(specs.operators), list(specs.vocabulary.products)):
        if item.family != "large":
            continue
        corners = large_corners(specs, item.api, item.product, item.subject, ci.size_max, ("ordinary",))
        assert corners, item.id
        assert KI * KI <= _largest(corners[0]) <= ci.size_max, (item.id, _largest(corners[0]))
    assert PROFILES["thorough"].size_max == 16 * KI * KI and PROFILES["quick"].size_max < KI * KI


@pytest.mark.slow
@pytest.mark.parametrize("mutant, api, kind, clause", [
    ("DropsLastPartialTile", RP, "numerics", "RP-VALUES"),
    ("NondeterministicWhenLarge", RP, "determinism", "RP-DETERMINISTIC"),
    ("WritesPastLargeOutput", KL, "out-of-bounds-write", "KL-VALUES"),
])
def test_a_bug_only_large_tensors_show_is_caught_by_the_ci_profile(tmp_path, mutant, api, kind, clause):
    report = conformance.run_suite(f"{MUTANTS}:{mutant}", profile="ci", products=["atlas-a2"], ops=[api],
                                   isolate=False, report_dir=tmp_path, keyword="large")
    found = {(f["kind"], f["clause"]) for f in report["findings"]}
    assert report["outcome"] == "nonconformant" and found == {(kind, clause)}, found
    for f in report["findings"]:
        sizes = [math.prod(int(d) for d in v.split("[")[1].split("]")[0].split(",") if d)
                 for v in f["details"]["case"].values() if isinstance(v, str) and "[" in v]
        assert max(sizes) > 64 * KI  # only a large case shows it
        if kind == "numerics":
            n = f["details"]["numerics"]
            assert n["failed"] >= 1 and n["first_failed"] is not None and "judged elements out of bound" \
                in f["message"] and len(f["message"]) < 1500


@pytest.mark.slow
def test_small_items_do_not_see_the_large_only_bugs(tmp_path):
    report = conformance.run_suite(f"{MUTANTS}:DropsLastPartialTile", profile="quick", ops=[RP],
                                   isolate=False, report_dir=tmp_path, keyword="not large")
    assert report["outcome"] == "conformant"  # the size axis is what finds it
