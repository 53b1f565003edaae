"""Rows saying one part of a reduction's output shape under one value of its keepdim flag
(reduced_parts.py: NanMedianDim's five rows). On an invented page in the vendor's layout
(tests/fixtures/reduced_part_pages), drafted here, and against a backend right in its own way
(numpy's median with keepdims) and wrong ones."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import (
    assert_caught_alone,
    assert_clean_pass,
    assert_rows_checkable,
    by_quote,
    drafted_pack_fixture,
    drafted_spec,
    drafted_specs_fixture,
    oracle_quick,
)
from reduced_part_backends import DroppedShapeUnchecked, KeptDimUnchecked, mid_refused

from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser, SeededChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "reduced_part_pages"
BACKENDS = Path(__file__).with_name("reduced_part_backends.py")
API = "aclnnToyMidDim"
NAMES = ("self", "valuesOut", "indicesOut", "dim", "keepDim")
OUTS = ("valuesOut", "indicesOut")

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
specs = drafted_specs_fixture()


@pytest.mark.parametrize(("text", "part"), [
    ("keepDim为true时，valuesOut或indicesOut的维度与self的维度不一致",
     ("rank", "keepDim", True, OUTS, "self", None)),
    ("keepDim为false时，valuesOut或indicesOut的维度不比self的维度少1",
     ("rank", "keepDim", False, OUTS, "self", None)),
    ("keepDim为true时，valuesOut或indicesOut的shape与self的shape在除dim外的size不一致",
     ("others", "keepDim", True, OUTS, "self", "dim")),
    ("keepDim为true时，valuesOut或indicesOut的shape在dim上的size不为1",
     ("one", "keepDim", True, OUTS, None, "dim")),
    ("keepDim为false时，valuesOut或indicesOut的shape与self除dim外的shape不一致",
     ("others", "keepDim", False, OUTS, "self", "dim")),
])
def test_the_vendor_phrasings(text, part):
    found = match(text, NAMES)
    assert (found.pattern, found.limits["part"]) == ("reduced part", part)


def test_every_row_is_checkable_with_its_guards(drafted):
    assert_rows_checkable(drafted, 7)
    clauses = by_quote(drafted_spec(drafted, API))
    assert clauses["keepDim为true时，midOut或posOut的维度数与x的维度数不一致"]["all"] == [
        "not keepDim or midOut.rank == x.rank", "not keepDim or posOut.rank == x.rank"]
    assert clauses["keepDim为true时，midOut或posOut的shape在dim上的size不为1"]["all"][0] == (
        "not keepDim or x.rank == 0 or midOut.rank != x.rank or not (-x.rank <= dim < x.rank) or "
        "midOut.shape[dim] == 1")
    assert clauses["keepDim为false时，midOut或posOut的shape与x除dim外的shape不一致"]["all"][1] == (
        "keepDim or x.rank == 0 or posOut.rank != x.rank - 1 or not (-x.rank <= dim < x.rank) or "
        "posOut.shape == x.shape[:dim % x.rank] + x.shape[dim % x.rank + 1:]")


def test_valid_cases_are_numpys_and_each_break_breaks_its_row_alone(specs):
    spec = specs.operator(API)
    for seed in range(40):
        case = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", SeededChooser(seed))
        assert not mid_refused(case.args) and explain(case, specs).expected == "success"
    parts = [c for c in spec.constraints if "REDUCED" in c.id]
    assert len(parts) == 5
    for c in parts:
        for ch in [FixedChooser("min"), FixedChooser("max"), *(SeededChooser(seed) for seed in range(8))]:
            cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", ch, c.id)
            assert cases and all(breaks_only(explain(k, specs), c.id) for k in cases), (c.id, ch)
            assert all(mid_refused(k.args) for k in cases), (c.id, ch)  # (numpy's shape differs)


@pytest.mark.parametrize("backend", [None, KeptDimUnchecked, DroppedShapeUnchecked])
def test_a_right_backend_passes_and_ones_with_the_bug_planted_are_caught(drafted, specs, backend, tmp_path):
    name = f"{BACKENDS}:{backend.__name__ if backend else 'NumpyMid'}"
    report = oracle_quick(drafted, API, tmp_path, name, max_examples=8)
    ids = {c.source.quote: c.id for c in specs.operator(API).constraints}
    if backend is None:
        for cid in (cid for cid in ids.values() if "REDUCED" in cid):
            assert_clean_pass(report, cid, 8)
    else:
        assert_caught_alone(report, ids[backend.row])
