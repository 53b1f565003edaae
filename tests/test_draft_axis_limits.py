"""Rows giving each dimension of a tensor a range, counted from the front (axis_limits.py):
FlatQuant's "x的第一维度超出范围[1, 262144]，或者第二维度超出[1, 256]，或者第三维度超出[1, 256]". Read
only where the tensor has exactly as many dimensions as the largest ordinal named (the pages count
from 0 on some pages and from 1 on others; a third dimension of a 3-D tensor settles it). On
invented pages in the vendor's layout (tests/fixtures/axis_pages), drafted here, and against a
backend right in its own way (numpy's clipped slices) and one wrong about one dimension."""
from __future__ import annotations

from pathlib import Path

import pytest
from axis_backends import w_refused, x_refused
from helpers import (
    assert_caught_alone,
    assert_clean_pass,
    drafted_pack_fixture,
    drafted_spec,
    drafted_specs_fixture,
    oracle_quick,
)

from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases
from conformance.generate.choosers import FixedChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "axis_pages"
BACKENDS = Path(__file__).with_name("axis_backends.py")
FIXED, LOOSE = "aclnnToyTileSum", "aclnnToyTileSumLoose"
ROW = "x的第一维度超出范围[1, 4096]，或者第二维度超出[1, 64]，或者第三维度超出[1, 64]"
TIES = "w的维度不为2，或者第一维度和第二维度与x的第二维度不一致"

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
specs = drafted_specs_fixture()


def test_the_phrasing_gives_each_dimension_its_range():
    found = match("x的第一维度超出范围[1, 262144]，或者第二维度超出[1, 256]，或者第三维度超出[1, 256]",
                  ("x",))
    assert found.pattern == "dimensions' ranges"
    assert [own for _, own in found.limits["parts"]] == [
        {"axis": (1, 1, 262144), "rank": 3}, {"axis": (2, 1, 256), "rank": 3},
        {"axis": (3, 1, 256), "rank": 3}]


def test_a_tensor_of_exactly_that_rank_gets_one_clause_per_dimension(drafted):
    spec = drafted_spec(drafted, FIXED)
    axes = [c for c in spec["constraints"] if c["source"]["quote"] == ROW]
    assert [c["all"] for c in axes] == [["x.rank != 3 or 1 <= x.shape[0] <= 4096"],
                                        ["x.rank != 3 or 1 <= x.shape[1] <= 64"],
                                        ["x.rank != 3 or 1 <= x.shape[2] <= 64"]]
    assert [c["break"] for c in axes] == [{"x_shape": {"expr": "[4097, 1, 1]"}},
                                          {"x_shape": {"expr": "[1, 65, 1]"}},
                                          {"x_shape": {"expr": "[1, 1, 65]"}}]


def test_a_tensor_of_several_ranks_leaves_the_count_open_and_the_row_for_review(drafted):
    """x of 2 to 4 dimensions: is "第三维度" index 2, or index 3 of a 4-D x? And so "x的第二维度" in
    the ties row: nothing else on that page settles how it counts."""
    spec = drafted_spec(drafted, LOOSE)
    kinds = {c["source"]["quote"]: c["kind"] for c in spec["constraints"]}
    assert kinds[ROW] == "review"
    assert {c["kind"] for c in spec["constraints"] if c["source"]["quote"] == TIES} == {"rank_in", "review"}


def test_ties_read_where_the_page_counts_from_one(drafted):
    """w of 2 dimensions ("第二维度" of it can only count from 1) and x's "第二维度", which the page's
    range row on the 3-D x ("第三维度") shows counts from 1 too: w is [x.shape[1], x.shape[1]]."""
    spec = drafted_spec(drafted, FIXED)
    assert spec["generate"]["draws"]["w_axis_shape"] == {"expr": "[x_shape[1], x_shape[1]]"}
    tied = [c for c in spec["constraints"] if c["source"]["quote"] == TIES]
    assert [(c["kind"], c.get("ranks"), c.get("all")) for c in tied] == [
        ("rank_in", [2], None),
        ("expr", None, ["w.rank != 2 or x.rank < 2 or w.shape[0] == x.shape[1]"]),
        ("expr", None, ["w.rank != 2 or x.rank < 2 or w.shape[1] == x.shape[1]"])]


def test_each_break_breaks_its_dimension_alone_and_numpy_refuses_it(specs):
    spec = specs.operator(FIXED)
    axes = [c for c in spec.constraints if "AXIS" in c.id]
    assert len(axes) == 5
    for c in axes:
        cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser("min"), c.id)
        assert cases and all(breaks_only(explain(k, specs), c.id) for k in cases), c.id
        assert all(x_refused(k.args["x"].shape) or w_refused(k.args["w"].shape, k.args["x"].shape)
                   for k in cases), c.id


def test_numpys_slices_agree_with_the_ranges_at_the_edges():
    assert [x_refused(s) for s in ((4096, 64, 64), (4097, 1, 1), (1, 65, 1), (1, 1, 0), (2, 3, 4))] == \
        [False, True, True, True, False]


def test_backends(drafted, tmp_path):
    spec = drafted_spec(drafted, FIXED)
    (cid,) = [c["id"] for c in spec["constraints"] if "x.shape[1] <= 64" in str(c.get("all"))]
    report = oracle_quick(drafted, FIXED, tmp_path / "right", f"{BACKENDS}:NumpyTile", max_examples=6)
    assert_clean_pass(report, cid, 6)
    report = oracle_quick(drafted, FIXED, tmp_path / "wrong", f"{BACKENDS}:SecondAxisUnchecked",
                          max_examples=6)
    assert_caught_alone(report, cid)
    (first,) = [c["id"] for c in spec["constraints"] if "w.shape[0] == x.shape[1]" in str(c.get("all"))]
    report = oracle_quick(drafted, FIXED, tmp_path / "first", f"{BACKENDS}:AnyFirstDimension",
                          max_examples=6)
    assert_caught_alone(report, first)
