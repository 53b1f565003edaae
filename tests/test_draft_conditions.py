"""Conditional error rows ("当gated为true时，gateOut为空指针"): conformance/draft/conditions.py on
sentences we wrote, and an invented page in the vendor's layout (tests/fixtures/condition_pages)
drafted, linted and run against the oracle."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import by_quote, draft_one

import conformance
from conformance.cli.main import main
from conformance.draft.conditions import read, split

PAGES = Path(__file__).parent / "fixtures" / "condition_pages"
API = "aclnnToyGatedScale"
NAMES = ["x", "biasOptional", "slope", "gated", "mode", "out", "gateOut", "maskOut"]

pytestmark = pytest.mark.usefixtures("no_packs_left")


@pytest.mark.parametrize(("text", "parts"), [
    ("当gated为true时，gateOut为空指针", ("gated为true", "gateOut为空指针")),
    ("gated为false时，slope是负数", ("gated为false", "slope是负数")),
    ("当mode为skip，传入的maskOut是空指针时", ("mode为skip", "传入的maskOut是空指针")),
    ("当gated为true时，maskOut为空指针时", ("gated为true", "maskOut为空指针")),
    ("若biasOptional存在的情况下，out为空指针", ("biasOptional存在", "out为空指针")),
    ("gateOut为空指针", None),  # no condition
    ("当前平台不支持gated", None),  # 当前: no 当…时
])
def test_split(text, parts):
    assert split(text) == parts


def test_read_keeps_the_body_reading_and_the_condition():
    found = read("当gated为true时，gateOut为空指针", NAMES)
    assert found is not None and found.params == ("gateOut",)
    assert (found.limits["condition"], found.limits["body"]) == ("gated为true", "not_null")


@pytest.mark.parametrize("text", [
    "当gated为true时，gateOut和x的数据类型或shape不一致",  # two properties in one body
    "当mode为keep时，gateOut、y的shape不一致",  # y is no parameter: the body says more
    "当mode为keep时，传入gateOut，maskOut为空指针",  # a list or two statements
    "当gated为true时，gateOut的数据类型不在支持的范围之内",  # a dtype list: no expression
    "当gated为true时，gateOut与x的broadcast结果不一致",  # not a kind stated here
])
def test_bodies_not_read_exactly_are_left(text):
    assert read(text, NAMES) is None


@pytest.fixture(scope="module")
def drafted(tmp_path_factory):
    return draft_one(tmp_path_factory.mktemp("drafts"), PAGES, API)


def test_conditional_clauses_and_their_breaks(drafted):
    _, spec = drafted
    by = by_quote(spec)
    gate = by["当gated为true时，gateOut为空指针"]
    assert gate["all"] == ["not (gated) or present(gateOut)"]
    assert gate["on_violation"] == "ACLNN_ERR_PARAM_NULLPTR"
    assert gate["break"] == {"gated": {"sampled": [True]}, "gateOut_own_shape": {"sampled": [None]}}
    mask = by["当mode为skip，传入的maskOut是空指针时"]  # a value the mode row quotes
    assert mask["all"] == ["not (mode == 'skip') or present(maskOut)"]
    assert mask["break"] == {"mode": {"sampled": ["skip"]}, "maskOut_own_shape": {"sampled": [None]}}
    slope = by["gated为false时，slope是负数"]
    assert slope["all"] == ["not (not gated) or slope.value >= 0"]
    assert slope["break"] == {"gated": {"sampled": [False]}, "slope": {"sampled": [-1.0]}}
    bias = by["biasOptional存在输入时，shape与x不相同"]  # the given tensor is the subject
    assert bias["all"] == ["not (present(biasOptional)) or x.shape == biasOptional.shape"]
    assert bias["break"] == {"biasOptional_own_shape": {"mode": "perturb"}}
    draws, args = spec["generate"]["draws"], spec["generate"]["args"]
    assert draws["gateOut_own_shape"] == {"expr": args["out"]} and args["gateOut"] == "gateOut_own_shape"


def test_conditions_not_read_stay_for_review(drafted):
    _, spec = drafted
    reviewed = {c["source"]["quote"] for c in spec["constraints"] if c["kind"] == "review"}
    assert {"当gated为true时，gateOut和x的数据类型或shape不一致",
            "当mode为keep时，gateOut、y的shape不一致"} <= reviewed


def test_a_dtype_condition_and_a_value_condition_on_one_tensor(drafted):
    # (dtype conditions: tests/test_draft_dtype_conditions.py) both clauses draw maskOut null:
    # one reading present(maskOut) does not stop the other drawing it
    _, spec = drafted
    by = by_quote(spec)
    dtype = by["当x的数据类型为FLOAT16时，maskOut是空指针"]
    assert dtype["all"] == ["not (x.dtype == 'FLOAT16') or present(maskOut)"]
    assert dtype["break"] == {"maskOut_own_shape": {"sampled": [None]}}
    assert by["当mode为skip，传入的maskOut是空指针时"]["kind"] == "expr"


@pytest.mark.slow
def test_the_draft_lints_and_its_breaks_are_judged(drafted, tmp_path):
    out, spec = drafted
    assert main(["lint", "--specs", str(out)]) == 0
    report = conformance.run_suite("oracle", specs=[out], ops=[API], products=["atlas-a2"],
                                   profile="quick", max_examples=3, isolate=False,
                                   report_dir=tmp_path / "r")
    assert report["errors"] == [] and report["findings"] == []
    conditional = {c["id"] for c in spec["constraints"] if "时" in c["source"]["quote"]
                   and c["kind"] == "expr"}
    judged = {r["clause"] for r in report["results"] if r["kind"] == "status" and r["outcome"] == "pass"
              and r["cases"] > 0}
    assert len(conditional) == 5 and conditional <= judged


def test_a_required_tensor_another_clause_reads_is_never_drawn_null():
    from types import SimpleNamespace

    from conformance.draft.conditional_breaks import _nullable
    ctx = SimpleNamespace(params={"rstd": {"kind": "tensor"}, "bias": {"kind": "tensor", "optional": True}})
    mine = {"all": ["not (outputRstd) or present(rstd)"]}
    empty = {"all": ["rstd.numel > 0"]}
    behavior = {"kind": "behavior", "when": "not rstd.contiguous"}
    assert not _nullable(ctx, [mine, empty], mine, {"null": "rstd"})  # rstd.numel on null: no
    assert _nullable(ctx, [mine, behavior], mine, {"null": "rstd"})  # a when that fails is silent
    assert _nullable(ctx, [mine, {"all": ["bias.numel > 0"]}], mine, {"null": "bias"})  # optional
    given = {"all": ["not (x.dtype == 'INT32') or present(rstd)"]}  # says what null means
    assert _nullable(ctx, [mine, given], mine, {"null": "rstd"})
