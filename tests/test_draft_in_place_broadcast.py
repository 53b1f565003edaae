"""An in-place operator's broadcast: "shape需要与other满足broadcast关系，且broadcast后的shape需要与
selfRef的shape一致" says other broadcasts into selfRef (``broadcast(selfRef.shape, other.shape) ==
selfRef.shape``). It was read as other holding selfRef's broadcast, and the error row as selfRef
holding other's: valid cases never broadcast, and an other smaller than selfRef was claimed an
error. On an invented page in the vendor's layout (tests/fixtures/inplace_pages), drafted here,
and against a backend right in its own way (numpy's broadcast_to) and two wrong ones."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import (
    assert_caught_alone,
    assert_clean_pass,
    assert_rows_checkable,
    draft_text,
    drafted_pack_fixture,
    drafted_spec,
    drafted_specs_fixture,
    quick_runner,
)
from in_place_broadcast_backends import fits_into

from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.cases.tensor import TensorMeta
from conformance.draft.usage import relations
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import SeededChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "inplace_pages"
BACKENDS = Path(__file__).with_name("in_place_broadcast_backends.py")
API, INTO, BCAST = "aclnnInplaceToyMix", "ITM-EXPR", "ITM-BCAST"
TENSORS = ("selfRef", "other")
INTO_OTHER = ("broadcast_of", ("selfRef", "other"))

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)


specs = drafted_specs_fixture()


@pytest.mark.parametrize(("owner", "note", "said"), [
    ("selfRef", "shape需要与other满足broadcast关系，且broadcast后的shape需要与selfRef的shape一致。",
     [("broadcastable", TENSORS), INTO_OTHER]),
    # (the in-place page's other row names "self", no tensor of its own: the owner's broadcast)
    ("other", "shape需要与self满足broadcast关系，且broadcast后的shape需要与selfRef的shape一致。",
     [INTO_OTHER]),
    ("selfRef", "shape需要与other满足broadcast关系，并且broadcast后的shape需与原shape保持一致。",
     [("broadcastable", TENSORS), INTO_OTHER]),
    ("other", "broadcast后的shape与selfRef的shape一致。", [INTO_OTHER]),  # (a sentence of its own)
])
def test_the_broadcast_after_a_broadcast_relation_is_the_named_tensors(owner, note, said):
    assert relations(note, owner, TENSORS) == said


def test_a_note_naming_the_broadcasts_operands_still_reads_as_before():
    assert relations("shape为selfRef，other的broadcast结果。", "out", (*TENSORS, "out")) == \
        [("broadcast_of", ("out", "selfRef", "other"))]


def test_other_is_drawn_inside_selfref_and_the_row_says_so(drafted):
    spec = drafted_spec(drafted, API)
    gen, by_id = spec["generate"], {c["id"]: c for c in spec["constraints"]}
    assert gen["args"] == {"selfRef": "selfRef_shape", "other": "other_shape"}
    assert (gen["draws"]["selfRef_shape"], gen["draws"]["other_shape"]) == (
        {"expr": "full"}, {"sub_broadcast": "full", "min_rank": 0})
    assert by_id[INTO]["all"] == ["broadcast(selfRef.shape, other.shape) == selfRef.shape"]
    assert by_id[INTO]["requires"] == ["ITM-NULL", BCAST]
    assert by_id[BCAST]["kind"] == "broadcastable"
    assert_rows_checkable(drafted, 4)


def test_valid_cases_fit_numpys_broadcast_and_the_breaks_break_their_row_alone(specs):
    spec, vocab = specs.operator(API), specs.vocabulary
    smaller = alone = 0
    for seed in range(40):
        case = build_case(spec, vocab, "atlas-a2", "FLOAT", SeededChooser(seed))
        self_ref, other = case.args["selfRef"].shape, case.args["other"].shape
        assert fits_into(other, self_ref) and explain(case, specs).expected == "success", seed
        smaller += other != self_ref
        for bad in broken_cases(spec, vocab, "atlas-a2", "FLOAT", SeededChooser(seed), INTO):
            assert not fits_into(bad.args["other"].shape, bad.args["selfRef"].shape), seed
            alone += breaks_only(explain(bad, specs), INTO)
    assert smaller >= 10 and alone >= 5  # (valid cases broadcast; some breaks outgrow selfRef)


def test_the_oracle_at_2_to_the_24_elements(specs):
    def verdict(other):
        args = {"selfRef": TensorMeta((256, 256, 256), "FLOAT"), "other": TensorMeta(other, "FLOAT")}
        e = explain(Case(API, "atlas-a2", args), specs)
        return e.expected, {v.clause for v in e.violations}

    assert verdict((256, 1)) == ("success", set())
    assert verdict((256, 256, 256)) == ("success", set())
    assert verdict((2, 256, 256, 256)) == ("error", {INTO})  # (broadcastable, but larger)
    assert verdict((3, 256)) == ("error", {BCAST})  # (no broadcast: the into row is not judged)


_run = quick_runner(API, max_examples=8)


@pytest.mark.parametrize("backend", ["oracle", f"{BACKENDS}:NumpyInplace"])
def test_backends_broadcasting_in_place_right_pass(drafted, backend, tmp_path):
    report = _run(drafted, backend, tmp_path)
    assert_clean_pass(report, INTO, 8)
    assert_clean_pass(report, BCAST, 8)


def test_a_backend_refusing_to_broadcast_in_place_is_caught_on_valid_cases(drafted, tmp_path):
    report = _run(drafted, f"{BACKENDS}:ExactShapeOnly", tmp_path)
    assert report["outcome"] == "nonconformant"
    assert {f["clause"] for f in report["findings"]} == {"ITM-PHASE"}
    assert all(f["message"].startswith("returned 161002 (ACLNN_ERR_PARAM_INVALID) from phase 1, but "
                                       "should be 0 (success)") for f in report["findings"])


def test_a_backend_accepting_a_larger_other_is_caught_on_the_row(drafted, tmp_path):
    report = _run(drafted, f"{BACKENDS}:OutgrowAccepted", tmp_path)
    assert_caught_alone(report, INTO)


def test_one_row_joining_both_is_the_two_clauses(drafted):
    page = (PAGES / "docs" / f"{API}.md").read_text(encoding="utf-8")
    rows = ("<td>selfRef与other的shape不能broadcast。</td>",
            "<td>selfRef和other做broadcast后的shape与selfRef不同。</td>")
    assert all(r in page for r in rows)
    joined = "selfRef和other的shape无法做broadcast，或selfRef的shape不等于二者broadcast后的shape。"
    page = page.replace(rows[0], f"<td>{joined}</td>").replace(
        f"    <tr>\n      {rows[1]}\n    </tr>\n", "").replace('rowspan="3"', 'rowspan="2"')
    d = draft_text(page, f"toy: {API}.md")
    coded = {c["kind"]: c for c in d.spec["constraints"] if c["source"]["quote"].startswith(joined[:-1])}
    assert coded["broadcastable"]["params"] == list(TENSORS)
    assert coded["expr"]["all"] == ["broadcast(selfRef.shape, other.shape) == selfRef.shape"]
    assert [o.checkable for o in d.draft.outcomes] == [True, True, True]  # (null, dtype, the joined row)
