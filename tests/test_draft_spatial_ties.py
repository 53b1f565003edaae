"""Rows tying tensors' spatial dimensions to an int array (spatial_ties.py: the MaxUnpool family's
outputSize). Until read, outputSize was drawn as ones and out with self's shape, so nearly every
valid case was one a kernel refuses. On an invented page in the vendor's layout (tests/fixtures/
spatial_pages), drafted here, and against a backend right in its own way (numpy's plane) and two
wrong ones."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import (
    assert_caught_alone,
    assert_clean_pass,
    assert_rows_checkable,
    by_quote,
    draft_text,
    drafted_pack_fixture,
    drafted_spec,
    drafted_specs_fixture,
    oracle_quick,
    quick_runner,
)
from spatial_backends import unpool_refused

from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser, SeededChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "spatial_pages"
BACKENDS = Path(__file__).with_name("spatial_backends.py")
API = "aclnnToyUnpool"
BACKWARD = "aclnnToyUnpoolBackward"
AT_3 = "当x为3维时，x与gradY在C维度上的size不同"
AT_4 = "在x为4维时，gradY与x在N和C维度上的size不相同"
PLANE = "outputSize的2个元素乘积小于self在H、W维度上的size乘积"
LEADING = "out在N和C维度上的size与self不完全相同"
NAMES = ("self", "out", "outRef", "gradOutput", "outputSize")

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
specs = drafted_specs_fixture()


@pytest.mark.parametrize(("text", "tie"), [
    ("outputSize的两个元素乘积值小于self在H和W维度上的size乘积值", ("product", "outputSize", "self", 2)),
    ("outputSize的乘积小于self的H轴与W轴的乘积", ("product", "outputSize", "self", 2)),
    ("outputSize的三个元素乘积值小于self在D、H和W维度上的size乘积值", ("product", "outputSize", "self", 3)),
    ("out在H、W维度上的size大小与outputSize中的两个元素值不相等", ("trailing", "out", "outputSize", 2)),
    ("outRef在D、H、W维度上的size大小与outputSize中的三个元素值不相等",
     ("trailing", "outRef", "outputSize", 3)),
    ("gradOutput的shape最后两维的size与outputSize的元素不一致", ("trailing", "gradOutput", "outputSize", 2)),
    ("out在N、C维度上的size大小与self未完全相同", ("leading", "out", "self", None)),
    ("当self为4维时，self与gradOutput在N，C维度上的size不一致",
     ("at rank", "gradOutput", "self", None, 4, ("N", "C"))),
    ("在self为5维时，gradOutput与self在C或N维度上的size大小不一致",
     ("at rank", "gradOutput", "self", None, 5, ("C", "N"))),
])
def test_the_vendor_phrasings(text, tie):
    found = match(text, NAMES)
    assert (found.pattern, found.limits["spatial"]) == ("spatial sizes", tie)


def test_every_row_is_checkable_and_out_is_self_over_the_plane(drafted):
    assert_rows_checkable(drafted, 14)  # (7 of each page)
    spec = drafted_spec(drafted, API)
    draws = spec["generate"]["draws"]
    assert draws["outputSize"] == {"expr": "self_shape[len(self_shape) - 2:]"}
    assert draws["out_spatial_shape"] == {"expr": "self_shape[:len(self_shape) - 2] + outputSize"}
    clauses = by_quote(spec)
    assert clauses[PLANE]["all"] == [
        "len(outputSize) != 2 or self.rank < 2 or prod(outputSize) >= prod(self.shape[self.rank - 2:])"]
    assert clauses[LEADING]["all"] == [
        "out.rank != self.rank or out.rank < 2 or out.shape[:out.rank - 2] == self.shape[:self.rank - 2]"]
    assert not any("Drafted guess" in c["source"]["quote"] for c in spec["constraints"])


def test_valid_cases_are_numpys_planes_and_each_break_breaks_its_row_alone(specs):
    spec = specs.operator(API)
    for seed in range(40):
        case = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", SeededChooser(seed))
        assert not unpool_refused(case.args)
        assert explain(case, specs).expected == "success"
    for c in (c for c in spec.constraints if "SPATIAL" in c.id or c.kind == "rank_in"):
        for mode in ("min", "max"):
            cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser(mode), c.id)
            assert any(breaks_only(explain(k, specs), c.id) for k in cases), (c.id, mode)


_run = quick_runner(API, max_examples=8)


@pytest.mark.parametrize("backend", ["oracle", f"{BACKENDS}:NumpyUnpool"])
def test_backends_unpooling_right_pass(drafted, specs, backend, tmp_path):
    report = _run(drafted, backend, tmp_path)
    for c in specs.operator(API).constraints:
        if "SPATIAL" in c.id:
            assert_clean_pass(report, c.id, 8)


@pytest.mark.parametrize(("backend", "row"), [("SmallPlaneAccepted", PLANE), ("LeadingUnchecked", LEADING)])
def test_a_backend_with_the_bug_planted_is_caught_on_its_row_alone(drafted, specs, backend, row, tmp_path):
    report = _run(drafted, f"{BACKENDS}:{backend}", tmp_path)
    cid = next(c.id for c in specs.operator(API).constraints if c.source.quote == row)
    assert_caught_alone(report, cid)


def test_two_rows_saying_one_thing_are_one_clause():
    """MaxUnpool2d's page says the plane's size twice, in two wordings: two clauses would each be
    broken only with the other, so neither could be tested; one clause quotes both."""
    page = (PAGES / "docs" / f"{API}.md").read_text(encoding="utf-8")
    again = "outputSize的乘积小于self的H轴与W轴的乘积"
    added = f"<td>{PLANE}。</td>\n    </tr>\n    <tr>\n      <td>{again}。</td>"
    text = page.replace(f"<td>{PLANE}。</td>", added)
    text = text.replace('rowspan="6"', 'rowspan="7"')
    d = draft_text(text, f"toy: {API}.md")
    assert all(o.checkable for o in d.draft.outcomes)
    plane = [c for c in d.spec["constraints"] if "prod(outputSize)" in " ".join(c.get("all", []))]
    assert len(plane) == 1 and plane[0]["source"]["quote"] == f"{PLANE} / {again}"


def test_leading_rows_at_one_rank_tie_grad_y_to_x_and_name_the_letters_dimensions(drafted, specs):
    """MaxUnpool2dBackward's rows tie gradOutput's leading dimensions to self's at each rank of self
    (C alone at 3 dimensions, N and C at 4); with them its trailing row has an x to draw from."""
    spec = drafted_spec(drafted, BACKWARD)
    draws = spec["generate"]["draws"]
    assert draws["gradY_spatial_shape"] == {"expr": "x_shape[:len(x_shape) - 2] + outputSize"}
    assert "gradY_shape" not in draws  # (the guess no argument reads any more)
    clauses = by_quote(spec)
    assert clauses[AT_3]["all"] == ["x.rank != 3 or gradY.rank != 3 or (gradY.shape[0] == x.shape[0])"]
    assert clauses[AT_4]["all"] == [
        "x.rank != 4 or gradY.rank != 4 or (gradY.shape[0] == x.shape[0] and gradY.shape[1] == x.shape[1])"]
    assert clauses[AT_4]["break"]["x_shape"]["shape"]["rank"] == [4, 4]
    ops = specs.operator(BACKWARD)
    for seed in range(40):
        case = build_case(ops, specs.vocabulary, "atlas-a2", "FLOAT", SeededChooser(seed))
        forward = {"self": case.args["x"], "outputSize": case.args["outputSize"], "out": case.args["gradY"]}
        assert not unpool_refused(forward) and explain(case, specs).expected == "success"
    for c in (c for c in ops.constraints if "SPATIAL" in c.id):
        for mode in ("min", "max"):
            cases = broken_cases(ops, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser(mode), c.id)
            assert cases and all(breaks_only(explain(k, specs), c.id) for k in cases), (c.id, mode)


def test_a_letter_the_layout_at_that_rank_lacks_is_for_a_person():
    """MaxUnpool3dBackward's "在self为4维时，gradOutput与self在N维度上…": a 4-d self of a 3-d
    unpooling is C, D, H, W, without N."""
    page = (PAGES / "docs" / f"{BACKWARD}.md").read_text(encoding="utf-8")
    d = draft_text(page.replace(AT_3, "当x为3维时，x与gradY在N维度上的size不同"), f"toy: {BACKWARD}.md")
    unread = [o.sentence.text for o in d.draft.outcomes if not o.checkable]
    assert unread == ["当x为3维时，x与gradY在N维度上的size不同"]


@pytest.mark.parametrize(("backend", "caught"), [("NumpyUnpoolBackward", None), ("AtRankUnchecked", AT_4)])
def test_the_backward_against_a_right_backend_and_one_with_the_bug_planted(drafted, specs, backend, caught,
                                                                           tmp_path):
    report = oracle_quick(drafted, BACKWARD, tmp_path, f"{BACKENDS}:{backend}", max_examples=8)
    ids = {c.source.quote: c.id for c in specs.operator(BACKWARD).constraints}
    if caught is None:
        for quote in (AT_3, AT_4):
            assert_clean_pass(report, ids[quote], 8)
    else:
        assert_caught_alone(report, ids[caught])
