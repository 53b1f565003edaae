"""Rows tying an int attribute that counts along one dimension (count_ties.py: Topk's and
Kthvalue's k, Multinomial's numsamples) to that dimension and to an output. Until read, the count
was drawn as 0 or 1 and the output apart from the input, so most valid cases were ones a kernel
refuses. On invented pages in the vendor's layout (tests/fixtures/count_pages), drafted here, and
against backends right in their own way (numpy's draws, numpy's split) and wrong ones."""
from __future__ import annotations

from pathlib import Path

import pytest
from count_backends import draw_refused, largest_refused
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

from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser, SeededChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "count_pages"
BACKENDS = Path(__file__).with_name("count_backends.py")
DRAW, LARGEST = "aclnnToyDraw", "aclnnToyLargest"
BOUND = "replacement为false且numsamples的值大于self最后一维度的大小"
LAST = "out的最后一个维度与numsamples的值不一致"
FIRST = "当self为2维张量时，out的第一个维度需与self的第一个维度的size相等"
K_BOUND = "k小于0或者k大于self在dim维度上的size大小"
NAMES = ("self", "out", "k", "dim", "numsamples", "replacement")

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
specs = drafted_specs_fixture()


@pytest.mark.parametrize(("text", "tie"), [
    ("k小于0或者k大于输入self在dim维度上的size大小", ("bound", "k", "self", "dim", None, None, True)),
    ("replacement为false且numsamples大于self最后一个维度的大小",
     ("bound", "numsamples", "self", None, "replacement", False, False)),
    (BOUND, ("bound", "numsamples", "self", None, "replacement", False, False)),
    ("out的最后一个维度要与numsamples的大小保持一致", ("last", "out", "numsamples")),
    (LAST, ("last", "out", "numsamples")),
    ("当self为2维Tensor时，out的第一个维度要与self第一个维度的大小相等", ("first", "out", "self", 2)),
])
def test_the_vendor_phrasings(text, tie):
    found = match(text, NAMES)
    assert (found.pattern, found.limits["count"]) == ("count along a dimension", tie)


@pytest.mark.parametrize("text", [
    "self最后一个维度的大小不能超过2^24",  # (a limit on the dimension alone, not a count)
    "k小于0或者n大于self在dim维度上的size大小",  # (two names: not one count's two sides)
])
def test_near_misses_are_not_read_as_counts(text):
    found = match(text, NAMES)
    assert found is None or found.pattern != "count along a dimension"


def test_every_row_is_checkable_and_out_is_self_with_the_count_last(drafted):
    assert_rows_checkable(drafted, 10)
    draw = drafted_spec(drafted, DRAW)
    draws = draw["generate"]["draws"]
    assert draws["numsamples"] == {"integers": [1, "min((self_shape[-1] if len(self_shape) else 1), 64)"]}
    assert draws["out_count_shape"] == {
        "expr": "(self_shape[:-1] + [max(numsamples, 0)] if len(self_shape) else [])"}
    assert "out_shape" not in draw["generate"]["args"].values()
    clauses = by_quote(draw)
    assert clauses[BOUND]["all"] == ["replacement or ((not (self.rank > 0) or numsamples <= self.shape[-1]))"]
    assert clauses[LAST]["all"] == ["out.rank == 0 or numsamples < 0 or out.shape[-1] == numsamples"]
    assert clauses[FIRST]["all"] == ["self.rank != 2 or out.rank == 0 or out.shape[0] == self.shape[0]"]
    assert not any("Drafted guess" in c["source"]["quote"] for c in draw["constraints"])
    largest = drafted_spec(drafted, LARGEST)
    k = next(c for c in largest["constraints"] if c["source"]["quote"].startswith(K_BOUND))
    assert k["source"]["quote"] == f"{K_BOUND} / 取值范围是[0, self.size(dim)]。"  # (the note said it too)
    # (a dim past the rank is the dim row's to judge)
    assert k["all"] == ["k >= 0 and (not (-self.rank <= dim < self.rank) or k <= self.shape[dim])"]


@pytest.mark.parametrize(("api", "refused"), [(DRAW, draw_refused), (LARGEST, largest_refused)])
def test_valid_cases_are_numpys_and_each_break_breaks_its_row_alone(specs, api, refused):
    spec = specs.operator(api)
    for seed in range(40):
        case = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", SeededChooser(seed))
        assert not refused(case.args)
        assert explain(case, specs).expected == "success"
    counts = [c for c in spec.constraints if "COUNT" in c.id]
    assert len(counts) == (3 if api == DRAW else 1)
    for c in counts:
        for mode in ("min", "max"):
            cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser(mode), c.id)
            assert cases and all(breaks_only(explain(k, specs), c.id) for k in cases), (c.id, mode)
            assert all(refused(k.args) for k in cases), (c.id, mode)  # (numpy refuses each)
    for c in (c for c in spec.constraints if c.kind == "rank_in" and c.on_violation != "unspecified"):
        cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser("min"), c.id)
        assert any(breaks_only(explain(k, specs), c.id) for k in cases), c.id  # (still broken alone)


def test_both_sides_of_a_signed_bound_are_broken(specs):
    spec = specs.operator(LARGEST)
    cid = next(c.id for c in spec.constraints if "COUNT" in c.id)
    ks = {(k.args["k"] < 0) for seed in range(30)
          for k in broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", SeededChooser(seed), cid)}
    assert ks == {True, False}


@pytest.mark.parametrize(("api", "backend"), [(DRAW, "oracle"), (DRAW, "NumpyDraw"), (LARGEST, "oracle"),
                                              (LARGEST, "NumpyLargest")])
def test_backends_counting_right_pass(drafted, specs, api, backend, tmp_path):
    name = backend if backend == "oracle" else f"{BACKENDS}:{backend}"
    report = oracle_quick(drafted, api, tmp_path, name, max_examples=8)
    for c in specs.operator(api).constraints:
        if "COUNT" in c.id:
            assert_clean_pass(report, c.id, 8)


@pytest.mark.parametrize(("api", "backend", "row"), [
    (DRAW, "PastTheRowAccepted", BOUND), (DRAW, "FirstDimUnchecked", FIRST),
    (LARGEST, "NegativeKAccepted", K_BOUND)])
def test_a_backend_with_the_bug_planted_is_caught_on_its_row_alone(drafted, specs, api, backend, row,
                                                                   tmp_path):
    report = oracle_quick(drafted, api, tmp_path, f"{BACKENDS}:{backend}", max_examples=8)
    cid = next(c.id for c in specs.operator(api).constraints if c.source.quote.startswith(row))
    assert_caught_alone(report, cid)


def test_a_flag_the_notes_allow_one_value_of_is_drawn_so(drafted):
    """Topk's "sorted": "注意：当前该参数仅支持取True". A case with the other value is one the page
    does not promise: drawing it valid would make a kernel refusing it a false finding."""
    spec = drafted_spec(drafted, LARGEST)
    assert spec["generate"]["draws"]["ordered"] == {"sampled": [True]}
    (clause,) = [c for c in spec["constraints"] if c.get("params") == ["ordered"]]
    assert (clause["kind"], clause["values"], clause["on_violation"]) == ("value_in", [True], "unspecified")
    assert clause["source"]["quote"] == "目前只支持取true。"


@pytest.mark.parametrize(("note", "values"), [
    ("当前版本仅支持false，表示x2的输入shape意义不变", [False]),
    ("是否使用锁机制保护更新操作，默认为False。仅支持 False。", [False]),
    ("当输入self的数据类型为COMPLEX64、COMPLEX128时，只支持配置为False。", None),  # (under a condition)
    ("支持true和false。", None),
])
def test_the_one_value_notes_of_flags(note, values):
    from conformance.draft.value_rows import only_flag

    assert only_flag(note) == values
