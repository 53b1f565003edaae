"""The product_in clause ("调用所在的平台不在本玩具接口支持的范围内" → ACLNN_ERR_RUNTIME_ERROR): a
page's promise that a call on a product line it marks unsupported gets a code. The draft, the
spec's rules, the oracle (the case's own line for this clause, the supported line standing in for
the others), the plan (its items on the unsupported lines only), generation, the meaning a spec
comparison reads, and whole runs against a backend right in its own way and two wrong ones. On an
invented page in the vendor's layout (tests/fixtures/platform_pages), drafted here."""
from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest
import yaml
from helpers import draft_text, drafted_pack_fixture, drafted_spec, drafted_specs_fixture

import conformance
from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.cases.tensor import TensorMeta
from conformance.cli.main import main
from conformance.errors import SpecError
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser
from conformance.generate.strategies import breaks_only
from conformance.run.plan import not_applicable, plan
from conformance.spec import meaning
from conformance.spec.loader import SPECS_ENV, read_operator

PAGES = Path(__file__).parent / "fixtures" / "platform_pages"
PAGE = PAGES / "docs" / "aclnnToyMxScale.md"
BACKENDS = Path(__file__).with_name("platform_backends.py")
API, PLATFORM = "aclnnToyMxScale", "TMS-PLATFORM"
RUNTIME_ERROR, INVALID = 361001, 161002
LINES = ["ascend-950", "atlas-a2", "atlas-training"]  # supported, marked unsupported, not listed

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)


specs = drafted_specs_fixture()


def _meta(shape=(2, 3, 4, 5), dtype="FLOAT") -> TensorMeta:
    return TensorMeta(shape, dtype)


def judged(specs, product: str, **changes) -> tuple[str, set[str], tuple[int, ...]]:
    args = {"self": _meta(), "scale": _meta(), "out": _meta(), **changes}
    e = explain(Case(API, product, args), specs)
    return e.expected, {v.clause for v in e.violations}, e.status


def test_the_draft_reads_the_row_as_a_product_in_clause(drafted):
    spec = drafted_spec(drafted, API)
    clause = next(c for c in spec["constraints"] if c["id"] == PLATFORM)
    assert clause == {"id": PLATFORM, "kind": "product_in", "on_violation": "ACLNN_ERR_RUNTIME_ERROR",
                      "source": {"doc": "upstream", "quote": "调用所在的平台不在本玩具接口支持的范围内",
                                 "where": f"{API}GetWorkspaceSize > 返回值, errors table, row 4 (line 153)"}}
    assert spec["products"] == ["ascend-950"] and list(spec["unsupported"]) == ["atlas-a3", "atlas-a2"]
    stats = json.loads((drafted / "stats.json").read_text(encoding="utf-8"))
    page = next(p for p in stats["pages"] if p["api"] == API)
    assert page["error_rows_checkable"] == page["error_rows"] == 4 and page["reviews"] == 0


def test_a_page_marking_no_line_unsupported_gives_the_row_nothing_to_break():
    text = PAGE.read_text(encoding="utf-8").replace("：不支持", "：支持")
    d = draft_text(text, "toy: aclnnToyMxScale.md")
    assert "product_in" not in [c["kind"] for c in d.spec["constraints"]]
    row = [o for o in d.draft.outcomes if o.pattern == "platform not supported"]
    assert len(row) == 1 and not row[0].checkable and not row[0].reviewed  # (the section says it)


def test_a_row_whose_name_and_code_disagree_promises_neither():
    # (three vendor pages put this row under ACLNN_ERR_PARAM_NULLPTR with the runtime error's code)
    text = PAGE.read_text(encoding="utf-8").replace("<td>ACLNN_ERR_RUNTIME_ERROR</td>",
                                                    "<td>ACLNN_ERR_PARAM_NULLPTR</td>")
    d = draft_text(text, "toy: aclnnToyMxScale.md")
    assert "product_in" not in [c["kind"] for c in d.spec["constraints"]]
    reviews = [c for c in d.spec["constraints"] if c["kind"] == "review"]
    assert [(c["source"]["quote"], c["closest"]) for c in reviews] == [(
        "ACLNN_ERR_PARAM_NULLPTR is 161001, but the row gives 361001 (ACLNN_ERR_RUNTIME_ERROR); which a "
        "call gets is not said: 调用所在的平台不在本玩具接口支持的范围内", "status code")]
    assert [o.checkable for o in d.draft.outcomes] == [True, True, True, False]


def test_the_oracle_judges_the_line_for_this_clause_alone(specs):
    assert judged(specs, "ascend-950") == ("success", set(), ())
    assert judged(specs, "atlas-a2") == ("error", {PLATFORM}, (RUNTIME_ERROR,))
    assert judged(specs, "atlas-a3") == ("error", {PLATFORM}, (RUNTIME_ERROR,))
    # the other clauses judge as on the supported line: a bad shape there is a second violation
    assert judged(specs, "atlas-a2", out=_meta((2, 3, 4, 6))) == (
        "error", {"TMS-SAME-SHAPE", PLATFORM}, (INVALID, RUNTIME_ERROR))
    assert judged(specs, "atlas-a2", self=None)[1] == {"TMS-NULL", PLATFORM}
    huge = _meta((64, 64, 64, 64))  # (2**24 elements: the clause reads no size)
    assert judged(specs, "atlas-a2", self=huge, scale=huge, out=huge) == (
        "error", {PLATFORM}, (RUNTIME_ERROR,))
    # a line the page does not list: nothing is promised there
    assert judged(specs, "atlas-training")[0] == "not-applicable"


def test_the_plan_puts_its_items_on_the_lines_it_rejects(specs):
    items = plan(specs, [API], [*LINES, "atlas-a3"])
    on = {p: {(i.subject, i.family) for i in items if i.product == p} for p in (*LINES, "atlas-a3")}
    assert on["atlas-a2"] == on["atlas-a3"] == {(PLATFORM, "status"), (PLATFORM, "memory")}
    assert on["atlas-training"] == set()
    assert not any(subject == PLATFORM for subject, _ in on["ascend-950"])
    assert ("FLOAT", "numerics") in on["ascend-950"] and ("TMS-SAME-SHAPE", "status") in on["ascend-950"]
    assert [(p, why) for _, p, why in not_applicable(specs, [API], LINES)] == [
        ("atlas-training", "not listed")]


def test_its_cases_are_valid_on_the_supported_line_and_break_it_alone(specs):
    spec, vocab = specs.operator(API), specs.vocabulary
    assert spec.stand_in("atlas-a2") == "ascend-950" and spec.break_lines(spec.constraint(PLATFORM)) == (
        "atlas-a3", "atlas-a2")
    for mode in ("min", "max"):
        case = build_case(spec, vocab, "atlas-a2", "FLOAT16", FixedChooser(mode), PLATFORM)
        assert case.product == "atlas-a2" and case.args["self"].dtype == "FLOAT16"
        assert breaks_only(explain(case, specs), PLATFORM)
        assert explain(Case(API, "ascend-950", case.args), specs).expected == "success"
        assert broken_cases(spec, vocab, "ascend-950", "FLOAT", FixedChooser(mode), PLATFORM) == []


def test_a_spec_comparison_reads_the_code_of_an_unsupported_line(specs):
    facts = meaning.facts(specs.operator(API))
    assert facts["product atlas-a2"].value == ("not supported",)
    assert facts["product atlas-a2"].code == "ACLNN_ERR_RUNTIME_ERROR"
    assert facts["product atlas-a2"].clauses == (PLATFORM,)
    assert PLATFORM not in [c.id for c in meaning.unexpressed(specs.operator(API))]


@pytest.mark.parametrize(("edit", "message"), [
    (lambda c: {**c, "params": ["self"]}, "should not be valid"),  # (the schema's words)
    (lambda c: c, "a second product_in clause (TMS-PLATFORM-2)"),
])
def test_the_spec_rules_of_the_kind(drafted, vocab_of_pack, edit, message):
    spec = drafted_spec(drafted, API)
    clause = next(c for c in spec["constraints"] if c["id"] == PLATFORM)
    if "second" in message:
        spec["constraints"].append({**clause, "id": "TMS-PLATFORM-2"})
    else:
        spec["constraints"][spec["constraints"].index(clause)] = edit(clause)
    with pytest.raises(SpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_operator(drafted / f"{API}.yaml", vocab_of_pack(drafted), text=yaml.safe_dump(spec))


@pytest.fixture
def vocab_of_pack():
    from conformance.spec.loader import vocabulary_for

    return lambda pack: vocabulary_for((pack,))[0]


def _run(drafted, backend: str, tmp_path) -> dict:
    return conformance.run_suite(f"{BACKENDS}:{backend}", specs=[drafted], ops=[API], products=LINES,
                                 profile="quick", max_examples=5, isolate=False, report_dir=tmp_path)


@pytest.mark.parametrize("backend", ["oracle", "ProductFirst"])
def test_backends_that_reject_the_line_pass(drafted, backend, tmp_path):
    report = (conformance.run_suite("oracle", specs=[drafted], ops=[API], products=LINES, profile="quick",
                                    max_examples=5, isolate=False, report_dir=tmp_path)
              if backend == "oracle" else _run(drafted, backend, tmp_path))
    assert report["findings"] == [] and not report["errors"]
    items = {i["item"]: (i["outcome"], i["cases"]) for i in report["items"] if PLATFORM in i["item"]}
    assert items == {f"{API}/atlas-a2/{PLATFORM}/status": ("pass", 5),
                     f"{API}/atlas-a2/{PLATFORM}/memory": ("pass", 5)}
    on_a2 = {(r["clause"], r["kind"]): (r["cases"], r["outcome"]) for r in report["results"]
             if r["product"] == "atlas-a2"}
    assert on_a2 == {(PLATFORM, "status"): (5, "pass"), ("TMS-VALUES", "inputs-unchanged"): (5, "pass"),
                     ("TMS-VALUES", "output-untouched-on-error"): (5, "pass")}
    assert [(r["product"], r["reason"]) for r in report["results"] if r["outcome"] == "not-applicable"] == [
        ("atlas-training", "not listed")]


@pytest.mark.parametrize(("backend", "returned"), [
    ("ProductBlind", "returned 0 (success)"),
    ("PlatformAsParamInvalid", "returned 161002 (ACLNN_ERR_PARAM_INVALID) from phase 1")])
def test_backends_that_do_not_are_caught_on_that_line_only(drafted, backend, returned, tmp_path):
    report = _run(drafted, backend, tmp_path)
    assert report["outcome"] == "nonconformant" and not report["errors"]
    found = {(f["product"], f["kind"], f["clause"]) for f in report["findings"]}
    assert found == {("atlas-a2", "status", PLATFORM)}  # (the supported line conforms)
    finding = report["findings"][0]
    assert finding["item"] == f"{API}/atlas-a2/{PLATFORM}/status"
    assert finding["message"].startswith(f"{returned}, but should be 361001 (ACLNN_ERR_RUNTIME_ERROR) "
                                         f"because {PLATFORM}: atlas-a2 is not among the supported")
    # its replay command names the drafted pack too, and reproduces the finding with no pack active
    assert finding["replay"].endswith(f" --backend {BACKENDS}:{backend} --specs {drafted}")
    os.environ.pop(SPECS_ENV, None)
    assert main(shlex.split(finding["replay"])[1:]) == 1


def test_the_spec_listing_says_the_lines_are_rejected_not_inapplicable(drafted, capsys):
    assert main(["specs", "--specs", str(drafted), "--api", API]) == 0
    out = capsys.readouterr().out
    assert "  products: ascend-950; rejected (TMS-PLATFORM) on atlas-a3, atlas-a2\n" in out


def test_a_quick_run_without_a_product_runs_a_line_the_operator_supports(drafted, tmp_path):
    from conformance.generate.dry_run import shipped_specs
    from conformance.run.config import _one_product

    report = conformance.run_suite("oracle", specs=[drafted], ops=[API], profile="quick", max_examples=3,
                                   isolate=False, report_dir=tmp_path)
    assert report["products"] == ["ascend-950"] and not report["errors"]  # (not atlas-a2's two items)
    specs = shipped_specs()
    assert _one_product(specs, tuple(specs.operators)) == "atlas-a2"  # the shipped operators' default
