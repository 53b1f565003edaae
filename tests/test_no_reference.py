"""A spec without a reference function runs: everything but numerics is judged, every numerics check
is "no reference" (never a pass, never a failure, and never a conformant verdict), the report says
so per operator; ``--golden torch`` judges such an operator by the torch backend's mapping."""
from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from importlib.resources import files
from pathlib import Path

import jsonschema
import numpy as np
import pytest

import conformance
from conformance.backends.reference import ReferenceBackend
from conformance.check.goldens import check_golden
from conformance.check.judge import Judge
from conformance.cli.main import main
from conformance.errors import UsageError
from conformance.generate.dry_run import load_operator
from conformance.generate.strategies import boundary_cases
from conformance.spec.loader import SPECS_ENV, read_specs, specs_dir
from conformance.spec.model import SpecSet

HERE = Path(__file__).parent
PACK = HERE / "fixtures" / "draft_pack"
DRAFT = "aclnnDraftSquareBackward"
ORACLE = "oracle"  # the built-in backend answering with the documents' status codes
MSE = "aclnnMseLossBackward"
A2 = "atlas-a2"


pytestmark = pytest.mark.usefixtures("no_packs_left")


@pytest.fixture(scope="module")
def draft_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("draft")
    report = conformance.run_suite(ORACLE, specs=[PACK], ops=[DRAFT], products=[A2, "atlas-350-card"],
                                   profile="quick", max_examples=5, isolate=False, report_dir=out)
    os.environ.pop(SPECS_ENV, None)
    return out, report


def test_numerics_are_no_reference_and_the_rest_is_judged(draft_run):
    _, report = draft_run
    rows = {(r["product"], r["clause"], r["kind"]): r for r in report["results"]}
    numerics = [r for r in report["results"] if r["kind"] == "numerics"]
    assert {r["product"] for r in numerics} == {A2, "atlas-350-card"}
    assert all(r["outcome"] == "no-reference" and r["no_reference"] == r["cases"] > 0 for r in numerics)
    assert {r["outcome"] for r in report["results"] if r["kind"] != "numerics"} == {"pass"}
    for kind in ("status", "determinism", "inputs-unchanged", "output-untouched-on-error",
                 "out-of-bounds-write"):
        assert any(k == kind and r["cases"] > 0 for (_, _, k), r in rows.items()), kind
    items = Counter((i["item"].split("/")[3], i["outcome"]) for i in report["items"])
    assert items[("numerics", "no-reference")] == 3 and not items[("numerics", "pass")]  # 2 dtypes + 1
    assert report["findings"] == [] and report["errors"] == []
    checks = sum(r["cases"] for r in numerics)
    assert report["stats"]["per_kind"]["numerics"] == {"checks": checks, "failed": 0}


def test_the_verdict_is_never_conformant_and_says_why(draft_run):
    out, report = draft_run
    assert report["outcome"] == "incomplete" and report["golden"] is None
    summary = (out / "summary.md").read_text()
    assert summary.startswith("## aclnn conformance: ⏸ incomplete (numerics of 1 operator(s) not judged, "
                              f"no reference: {DRAFT})")
    junit = ET.parse(out / "junit.xml").getroot()[0]
    skipped = [c.find("skipped").get("message") for c in junit.findall("testcase")
               if c.get("name") == "DSB-VALUES:numerics"]
    assert len(skipped) == 2 and all(m.startswith("no reference: ") for m in skipped)


def test_the_report_lists_version_reference_and_review_clauses(draft_run):
    out, report = draft_run
    schema = json.loads(files("conformance").joinpath("schema/report.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(report)
    about = report["operators"][DRAFT]
    assert about["reference"] is None
    assert about["doc_version"] == {"revision": "0123456789abcdef0123456789abcdef01234567",
                                    "date": "2026-01-02", "page": f"math/square_grad/docs/{DRAFT}.md"}
    assert about["review"] == [{"id": "DSB-REVIEW-1", "doc": "upstream",
                                "quote": "self中元素的绝对值较大时，计算结果可能溢出。",
                                "where": "约束说明 (line 57)", "closest": "value_in"}]
    assert "DSB-REVIEW-1" not in {c["id"] for c in report["clauses"][DRAFT]}  # never a judged clause
    assert {r["clause"] for r in report["results"]} & {"DSB-REVIEW-1"} == set()
    where = {c["id"]: c.get("where") for c in report["clauses"][DRAFT]}
    assert where["DSB-SAME-SHAPE"] == f"{DRAFT}GetWorkspaceSize, errors table, row 3 (line 42)"
    summary = (out / "summary.md").read_text()
    assert f"| {DRAFT} | revision 0123456789ab (2026-01-02) | no reference | 1 |" in summary.splitlines()
    html = (out / "report.html").read_text()
    review = html.split('<section id="review">', 1)[1].split("</section>", 1)[0]
    assert 'data-clause="DSB-REVIEW-1"' in review and "约束说明 (line 57)" in review and "value_in" in review
    cells = re.findall(r'data-clause="DSB-VALUES"\s+data-state="([a-z-]+)"', html)
    assert cells == ["no-reference", "no-reference"]  # numerics unjudged: the clause is no pass


def test_the_cli_exits_1_for_an_unjudged_run(tmp_path, capsys):
    code = main(["run", "--backend", ORACLE, "--no-isolate", "--specs", str(PACK), "--op", DRAFT,
                 "--profile", "quick", "--max-examples", "3", "-k", "numerics",
                 "--report-dir", str(tmp_path)])
    assert code == 1
    assert f"conformance: incomplete (numerics of 1 operator(s) not judged, no reference: {DRAFT})" in \
        capsys.readouterr().out


def test_the_reference_backend_does_not_implement_an_operator_without_reference():
    backend = ReferenceBackend(specs=read_specs(PACK))
    assert backend.missing_operators == {
        DRAFT: f"{DRAFT} names no reference function, so the reference backend cannot compute it"}


# -- --golden torch ------------------------------------------------------------------------------
#: .ci/run installs torch, so these run in CI; they skip only where torch is absent.
needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")


def _without_reference(specs, api=MSE):
    text = re.sub(r"\nreference: .*\n", "\n", (specs_dir() / f"{api}.yaml").read_text())
    spec = load_operator(Path(f"{api}.yaml"), specs.vocabulary, text=text)
    assert spec.reference is None
    return SpecSet(specs.vocabulary, {spec.api: spec}, specs.version, "test")


class _Off:
    """The reference, with every output 1 % off: what the torch golden must catch."""

    name = "off"

    def __init__(self, specs):
        self.inner = ReferenceBackend(specs=specs, product=A2)

    def call(self, api, args):
        result = self.inner.call(api, args)
        for name in ("out",):
            if args.get(name) is not None:
                args[name].array[...] = args[name].array * np.float32(1.01)
        return result


def _numerics(judge, one):
    outcomes = Counter()
    for drawn in boundary_cases(one, MSE, A2):
        outcomes.update(c.outcome for c in judge.judge(drawn, ("numerics",)).checks if c.kind == "numerics")
    return outcomes


@needs_torch
def test_the_torch_golden_judges_a_spec_without_reference(specs):
    one = _without_reference(specs)
    right = _numerics(Judge(ReferenceBackend(specs=specs, product=A2), one, A2, golden="torch"), one)
    assert right["pass"] > 10 and set(right) == {"pass"}
    off = _numerics(Judge(_Off(specs), one, A2, golden="torch"), one)
    assert off["fail"] > 10
    none = _numerics(Judge(ReferenceBackend(specs=specs, product=A2), one, A2), one)
    assert set(none) == {"no-reference"} and none["no-reference"] == sum(right.values())


def test_golden_torch_without_torch_is_one_line(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now raises ImportError
    with pytest.raises(UsageError, match=r"^--golden torch: torch is not installed \(pip install torch\)$"):
        check_golden("torch")
    assert main(["run", "--golden", "torch", "--op", MSE, "--profile", "quick",
                 "--report-dir", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "conformance: error: --golden torch: torch is not installed (pip install torch)"]
    assert not (tmp_path / "r").exists()


@needs_torch
def test_run_suite_with_golden_torch_says_torch_judged(tmp_path, monkeypatch):
    from conformance.backends import torch_backend

    copy = "aclnnMseLossBackwardDraft"
    pack = tmp_path / "pack"
    pack.mkdir()
    text = re.sub(r"\nreference: .*\n", "\n", (specs_dir() / f"{MSE}.yaml").read_text())
    (pack / f"{copy}.yaml").write_text(text.replace(f"api: {MSE}", f"api: {copy}", 1))
    monkeypatch.setitem(torch_backend.OPERATORS, copy, torch_backend.OPERATORS[MSE])
    report = conformance.run_suite("torch", specs=[pack], ops=[copy], profile="quick", max_examples=4,
                                   isolate=False, golden="torch", keyword="FLOAT/numerics",
                                   report_dir=tmp_path / "r")  # (torch's status findings aside)
    assert report["golden"] == "torch" and report["operators"][copy]["reference"] == "torch (golden)"
    numerics = [r for r in report["results"] if r["kind"] == "numerics"]
    assert numerics and {r["outcome"] for r in numerics} == {"pass"} and report["outcome"] == "conformant"
