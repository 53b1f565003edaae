"""Glu's rows: "out的shape不等于self根据dim拆分后的shape" (and GluBackward's "(*1,M,*2)其中M = N /2") read
as out being self halved along dim, every other dimension alike, and "…在dim对应维度上不能被2整除"
as that dimension even. Until read, out was drawn with self's shape: a guess every valid case broke.
On an invented page in the vendor's layout (tests/fixtures/gate_pages), drafted here, and against a
backend right in its own way (numpy's split) and two wrong ones."""
from __future__ import annotations

from pathlib import Path

import pytest
from gate_backends import numpy_halves
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

from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.cases.tensor import TensorMeta
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import SeededChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "gate_pages"
PAGE = PAGES / "docs" / "aclnnToyGate.md"
BACKENDS = Path(__file__).with_name("gate_backends.py")
API, EVEN, HALF, RANGE = "aclnnToyGate", "TG-NUMEL", "TG-NUMEL-2", "TG-EXPR"
HALF_ROW = "out的shape不等于self沿dim拆分后的shape。"
EVEN_ROW = "dim不在指定的取值范围内或self在dim对应维度上的大小不能被2整除。"
NAMES = ("self", "x", "dim", "out", "gradOut")

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)


specs = drafted_specs_fixture()


@pytest.mark.parametrize(("text", "limits"), [
    ("入参self根据指定的dim所对应的维度不能整除2", {"even": ("self", "dim")}),
    ("x在dim对应维度上不能被2整除", {"even": ("x", "dim")}),
    ("dim不在指定的取值范围内或x在dim对应维度上不能被2整除", {"documented": True, "even": ("x", "dim")}),
    ("out的shape不等于self根据dim拆分后的shape", {"half": (("out",), "self", "dim"), "match": "shape"}),
    (HALF_ROW, {"half": (("out",), "self", "dim"), "match": "shape"}),
    ("gradOut的shape不满足(*1,M,*2)其中M = N /2，N为self根据dim指定的该维度上的数值",
     {"half": (("gradOut",), "self", "dim"), "match": "shape"}),
])
def test_the_phrasings(text, limits):
    assert match(text, NAMES).limits == limits


def test_another_attributes_range_beside_the_even_dimension_is_not_that_row():
    found = match("gradOut不在指定的取值范围内或x在dim对应维度上不能被2整除", NAMES)
    assert found is None or found.pattern != "dimension range or even"


def test_out_is_drawn_as_self_halved_and_self_even(drafted):
    spec = drafted_spec(drafted, API)
    gen = spec["generate"]
    assert gen["args"] == {"self": "self_doubled_shape", "dim": "dim", "out": "self_half_shape"}
    assert gen["draws"]["self_half_shape"] == {"expr": "self_shape"}
    by_id = {c["id"]: c for c in spec["constraints"]}
    guard = "self.rank == 0 or dim < -self.rank or dim >= self.rank"
    assert by_id[EVEN]["all"] == [f"{guard} or self.shape[dim % self.rank] % 2 == 0"]
    # (an odd self is the even row's: the half row says nothing of it)
    assert by_id[HALF]["all"][0].startswith(f"{guard} or self.shape[dim % self.rank] % 2 != 0 or out.rank")
    assert [by_id[i]["on_violation"] for i in (EVEN, HALF, RANGE)] == ["ACLNN_ERR_PARAM_INVALID"] * 3
    assert list(by_id[EVEN]["break"]) == ["self_doubled_shape"]
    assert list(by_id[HALF]["break"]) == ["self_half_shape"]
    assert_rows_checkable(drafted, 4)


def test_valid_cases_are_numpys_halves_and_each_break_breaks_its_row_alone(specs):
    spec, vocab = specs.operator(API), specs.vocabulary
    for seed in range(40):
        case = build_case(spec, vocab, "atlas-a2", "FLOAT", SeededChooser(seed))
        self, out, dim = case.args["self"], case.args["out"], case.args["dim"]
        assert out.shape == numpy_halves(self.shape, dim), seed
        assert explain(case, specs).expected == "success", seed
        odd = broken_cases(spec, vocab, "atlas-a2", "FLOAT", SeededChooser(seed), EVEN)
        assert odd and all(numpy_halves(c.args["self"].shape, c.args["dim"]) is None for c in odd), seed
        uneven = broken_cases(spec, vocab, "atlas-a2", "FLOAT", SeededChooser(seed), HALF)
        assert uneven, seed
        for c in uneven:
            half = numpy_halves(c.args["self"].shape, c.args["dim"])
            assert half is not None and c.args["out"].shape != half, seed
        assert all(breaks_only(explain(c, specs), clause) for clause, cases in ((EVEN, odd), (HALF, uneven))
                   for c in cases), seed


def test_the_oracle_at_2_to_the_24_elements(specs):
    def verdict(self, dim, out):
        e = explain(Case(API, "atlas-a2", {"self": TensorMeta(self, "FLOAT"), "dim": dim,
                                            "out": TensorMeta(out, "FLOAT")}), specs)
        return e.expected, {v.clause for v in e.violations}

    assert verdict((256, 256, 256), 1, (256, 128, 256)) == ("success", set())
    assert verdict((256, 256, 256), -1, (256, 256, 128)) == ("success", set())
    assert verdict((256, 256, 256), 1, (256, 129, 256)) == ("error", {HALF})
    assert verdict((256, 256, 256), 1, (256, 256, 128)) == ("error", {HALF})  # (another dim halved)
    assert verdict((256, 255, 256), 1, (256, 127, 256)) == ("error", {EVEN})
    assert verdict((256, 256, 256), 3, (256, 128, 256)) == ("error", {RANGE})  # (dim out of range)
    # a 0-d out: the clause never reads out.shape[0], and neither does the message saying why
    e = explain(Case(API, "atlas-a2", {"self": TensorMeta((256, 256, 256), "FLOAT"), "dim": 0,
                                        "out": TensorMeta((), "FLOAT")}), specs)
    assert [v.clause for v in e.violations] == [HALF] and "out.rank=0" in e.violations[0].message


def _with_row(old: str, new: str):
    page = PAGE.read_text(encoding="utf-8")
    assert f"<td>{old}</td>" in page
    return draft_text(page.replace(f"<td>{old}</td>", f"<td>{new}</td>"), "toy: aclnnToyGate.md")


def test_glu_backwards_formula_row_is_the_same_clause(drafted):
    spec = drafted_spec(drafted, API)
    d = _with_row(HALF_ROW, "out的shape不满足(*1,M,*2)其中M = N /2，N为self根据dim指定的该维度上的数值。")
    clause = next(c for c in d.spec["constraints"] if c["id"] == HALF)
    assert clause["all"] == next(c for c in spec["constraints"] if c["id"] == HALF)["all"]
    assert all(o.checkable for o in d.draft.outcomes)


def test_the_even_row_alone_doubles_self_itself():
    d = _with_row(HALF_ROW, "self或out的维度大于8。")
    args, draws = d.spec["generate"]["args"], d.spec["generate"]["draws"]
    assert args["self"] == "self_doubled_shape" and "self_half_shape" not in draws
    even = next(c for c in d.spec["constraints"] if c["id"] == EVEN)
    assert even["all"] == ["self.rank == 0 or dim < -self.rank or dim >= self.rank or "
                           "self.shape[dim % self.rank] % 2 == 0"]
    assert all(o.checkable for o in d.draft.outcomes)


def test_without_the_even_row_the_half_says_nothing_of_parity():
    d = _with_row(EVEN_ROW, "dim不在指定的取值范围内。")
    half = next(c for c in d.spec["constraints"] if c["id"].startswith("TG-NUMEL"))
    assert "% 2" not in half["all"][0]


_run = quick_runner(API, max_examples=8)


@pytest.mark.parametrize("backend", ["oracle", f"{BACKENDS}:NumpyGate"])
def test_backends_halving_right_pass(drafted, backend, tmp_path):
    report = _run(drafted, backend, tmp_path)
    assert_clean_pass(report, EVEN, 8)
    assert_clean_pass(report, HALF, 8)


@pytest.mark.parametrize(("backend", "clause"), [("OddSplitAccepted", EVEN), ("HalfUnchecked", HALF)])
def test_a_backend_with_the_bug_planted_is_caught_on_that_row_alone(drafted, tmp_path, backend, clause):
    report = _run(drafted, f"{BACKENDS}:{backend}", tmp_path)
    assert_caught_alone(report, clause)
    assert report["findings"][0]["message"].startswith(
        f"returned 0 (success), but should be 161002 (ACLNN_ERR_PARAM_INVALID) because {clause}")
