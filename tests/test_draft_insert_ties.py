"""Rows on an output that is its input with one dimension inserted (insert_ties.py: OneHot's out,
self with numClasses inserted at axis) and on the attributes saying where and how big. Until read,
axis and numClasses were drawn as guesses and out as self: no valid case was one a kernel
accepts. On an invented page in the vendor's layout (tests/fixtures/insert_pages), drafted here,
and against a backend right in its own way (numpy's identity rows) and wrong ones."""
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
from insert_backends import FarAxisAccepted, RankUnchecked, ShapeUnchecked, encode_refused

from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser, SeededChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "insert_pages"
BACKENDS = Path(__file__).with_name("insert_backends.py")
API = "aclnnToyEncode"
NAMES = ("self", "out", "axis", "numClasses", "numAxes", "depth")

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
specs = drafted_specs_fixture()


@pytest.mark.parametrize(("text", "tie"), [
    ("out的shape与在self的shape在axis轴插入numClasses后的shape不一致",
     ("insert", "out", "self", "axis", "numClasses")),
    ("out的维度不比self的维度多1维", ("more", "out", "self")),
    ("axis的值小于-1", ("least", "axis", -1)),
    ("numAxes的取值小于-1", ("least", "numAxes", -1)),
    ("self为空Tensor，且numClasses小于等于0", ("empty sign", "self", "numClasses", True, True)),
    ("self不为空Tensor，且numClasses小于0", ("empty sign", "self", "numClasses", False, False)),
])
def test_the_vendor_phrasings(text, tie):
    found = match(text, NAMES)
    assert (found.pattern, found.limits["insert"]) == ("inserted dimension", tie)


@pytest.mark.parametrize("text", ["axis的值小于0", "out的维度不比out的维度多1维", "axis的值小于-1或大于3"])
def test_near_misses_are_not_read_as_inserts(text):
    found = match(text, NAMES)
    assert found is None or found.pattern != "inserted dimension"


def test_every_row_is_checkable_and_out_is_self_with_depth_inserted(drafted):
    assert_rows_checkable(drafted, 7)
    spec = drafted_spec(drafted, API)
    draws = spec["generate"]["draws"]
    assert draws["axis"] == {"integers": [-1, "len(self_shape)"]}
    assert draws["depth"] == {"integers": [0, 4]}
    assert draws["out_inserted_shape"] == {"expr": "(self_shape + [max(depth, 0)] if axis == -1 else "
                                                   "self_shape[:axis] + [max(depth, 0)] + self_shape[axis:])"}
    assert spec["generate"]["args"]["out"] == "out_inserted_shape"
    clauses = by_quote(spec)
    assert clauses["self为空Tensor，且depth小于等于0"]["all"] == ["self.numel != 0 or depth > 0"]
    assert clauses["self不为空Tensor，且depth小于0"]["all"] == ["self.numel == 0 or depth >= 0"]
    assert clauses["axis的取值小于-1"]["all"] == ["axis >= -1"]
    more = clauses["out的维度数不比self的维度数多1维"]
    assert more["all"] == ["out.rank == self.rank + 1"]
    ranks = {c["id"] for c in spec["constraints"] if c["kind"] == "rank_in"}
    assert ranks and ranks <= set(more["requires"])  # (a rank break draws every tensor at one rank)
    assert not any("Drafted guess" in c["source"]["quote"] for c in spec["constraints"])


def test_valid_cases_are_numpys_and_each_break_breaks_its_row_alone(specs):
    spec = specs.operator(API)
    for seed in range(40):
        case = build_case(spec, specs.vocabulary, "atlas-a2", "INT64", SeededChooser(seed))
        assert not encode_refused(case.args)
        assert explain(case, specs).expected == "success"
    mine = [c for c in spec.constraints if "INSERT" in c.id or c.kind == "expr"]
    assert len(mine) == 6
    for c in mine:
        for mode in ("min", "max"):
            cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "INT64", FixedChooser(mode), c.id)
            assert cases and all(breaks_only(explain(k, specs), c.id) for k in cases), (c.id, mode)
    for c in (c for c in spec.constraints if c.kind == "rank_in" and c.on_violation != "unspecified"):
        cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "INT64", FixedChooser("min"), c.id)
        assert any(breaks_only(explain(k, specs), c.id) for k in cases), c.id


@pytest.mark.parametrize("backend", ["oracle", "NumpyEncode"])
def test_backends_encoding_right_pass(drafted, specs, backend, tmp_path):
    name = backend if backend == "oracle" else f"{BACKENDS}:{backend}"
    report = oracle_quick(drafted, API, tmp_path, name, max_examples=8)
    for c in specs.operator(API).constraints:
        if "INSERT" in c.id:
            assert_clean_pass(report, c.id, 8)


@pytest.mark.parametrize("backend", [ShapeUnchecked, RankUnchecked, FarAxisAccepted])
def test_a_backend_with_the_bug_planted_is_caught_on_its_row_alone(drafted, specs, backend, tmp_path):
    report = oracle_quick(drafted, API, tmp_path, f"{BACKENDS}:{backend.__name__}", max_examples=8)
    cid = next(c.id for c in specs.operator(API).constraints if c.source.quote == backend.row)
    assert_caught_alone(report, cid)
