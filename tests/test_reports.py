"""report.json built from hand-made item records (report_records.py), against the schema and
docs/report-format.md, and the files written for it; one quick run end to end. junit.xml and
summary.md: test_reports_junit_summary.py."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from report_records import (
    A2,
    CLAUSE_NULL,
    CLAUSE_VALUES,
    ERROR,
    KL,
    MATCHES,
    NA_REASON,
    NUMERICS_MESSAGE,
    REJECTED,
    RP,
    load_schema,
    meta,
    records,
    validate,
)

import conformance
from conformance.check.results import KINDS, ItemRecord
from conformance.report.document import build_report
from conformance.report.files import summary_markdown, write_reports
from conformance.run.config import resolve


@pytest.fixture(scope="module")
def schema():
    return load_schema()


@pytest.fixture
def report():
    return build_report(meta(), records(), 2.5)


def test_the_hand_made_meta_has_the_keys_a_run_records(specs):
    cfg, backend = resolve(specs, ops=[KL, RP], profile="quick")
    assert set(cfg.meta(specs, backend)) == set(meta())


def test_header_and_outcome(report, schema):
    assert report["schema_version"] == "1.6" and report["outcome"] == "nonconformant"
    assert report["backend"] == meta()["backend"] and report["products"] == ["atlas-a2", "atlas-inference"]
    assert (report["profile"], report["seed"], report["max_examples"]) == ("quick", 7, 25)
    assert report["spec"] == {"version": "1.0.0", "digest": "d6ffad9ef93c0653"}
    assert report["tool"] == {"name": "aclnn-conformance", "version": conformance.__version__}
    optional = {"waivers", "journal_damage"}  # only with --waivers, only from a damaged journal
    assert list(report) == [k for k in schema["properties"] if k not in optional]  # in schema order
    validate(report, schema)


def test_results_rows(report):
    rows = [(r["api"], r["product"], r["clause"], r["kind"], r["cases"], r["failed"], r["observed"],
             r["outcome"]) for r in report["results"]]
    assert rows == [
        (KL, A2, "KL-NULL", "status", 25, 0, 0, "pass"),
        (KL, A2, "KL-REDUCTION", "unspecified", 10, 0, 10, "unspecified"),
        (KL, A2, "KL-VALUES", "inputs-unchanged", 5, 1, 0, "fail"),  # counted from its finding
        (KL, A2, "KL-VALUES", "numerics", 27, 3, 0, "fail"),
        (RP, "atlas-inference", "*", "*", 0, 0, 0, "not-applicable"),
    ]
    assert report["results"][-1]["reason"] == NA_REASON
    assert all("reason" not in r for r in report["results"][:-1])


def test_stats(report):
    stats = report["stats"]
    assert {k: v for k, v in stats.items() if k != "per_kind"} == {
        "cases": 67, "seconds": 2.5, "cases_per_second": 26.8, "items": 6, "items_failed": 3,
        "items_incomplete": 0, "items_not_run": 0, "items_insufficient": 0,
        "findings": 2}
    assert list(stats["per_kind"]) == list(KINDS)
    assert stats["per_kind"]["numerics"] == {"checks": 27, "failed": 3}
    assert stats["per_kind"]["status"] == {"checks": 25, "failed": 0}
    assert stats["per_kind"]["unspecified"] == {"checks": 10, "failed": 0}
    assert stats["per_kind"]["inputs-unchanged"] == {"checks": 5, "failed": 0}  # failing tallies only
    assert stats["per_kind"]["crash"] == {"checks": 0, "failed": 0}


def test_findings_observations_errors_items(report):
    assert [(f["clause"], f["kind"], f["item"]) for f in report["findings"]] == [
        ("KL-VALUES", "numerics", f"{KL}/{A2}/FLOAT/numerics"),
        ("KL-VALUES", "inputs-unchanged", f"{KL}/{A2}/FLOAT/memory")]
    first = report["findings"][0]
    assert first["message"] == NUMERICS_MESSAGE and first["replay"].startswith("conformance replay reports/")
    assert first["details"]["numerics"]["mere"] == "nan" and first["details"]["origin"] == "valid FLOAT"
    assert report["observations"] == [
        {"api": KL, "product": A2, "clause": "KL-REDUCTION", "behaviour": MATCHES, "cases": 4},
        {"api": KL, "product": A2, "clause": "KL-REDUCTION", "behaviour": REJECTED, "cases": 6}]
    assert report["errors"] == [{"item": f"{RP}/{A2}/FLOAT16/memory", "error": ERROR}]
    assert [(i["item"].split("/", 2)[2], i["outcome"], i["cases"], i["seconds"], i["error"])
            for i in report["items"]] == [
        ("boundary/all", "pass", 4, 0.5, None), ("FLOAT/numerics", "fail", 23, 0.5, None),
        ("KL-NULL/status", "pass", 25, 0.25, None),
        ("KL-REDUCTION/status", "pass", 10, 0.25, None), ("FLOAT/memory", "fail", 5, 0.5, None),
        ("FLOAT16/memory", "error", 0, 0.0, ERROR)]


def test_numerics_histogram_clauses_and_dtypes(report):
    assert report["numerics"] == [  # merged over items, bins as strings in increasing order
        {"api": KL, "dtype": "FLOAT", "bins": {"-25": 2, "-20": 20, "3": 3}},
        {"api": KL, "dtype": "FLOAT16", "bins": {"-12": 2}}]
    assert list(report["numerics"][0]["bins"]) == ["-25", "-20", "3"]
    assert report["clauses"] == {KL: [CLAUSE_NULL, CLAUSE_VALUES], RP: []}
    assert report["dtypes"][KL]["atlas-inference"] == ["FLOAT", "FLOAT16"]
    assert report["dtypes"][RP]["atlas-inference"] == []


def test_real_clauses_and_dtypes_validate(specs, schema):
    cfg, backend = resolve(specs, products=["atlas-a2", "atlas-inference"])
    run_meta = json.loads(json.dumps(cfg.meta(specs, backend)))
    report = build_report(run_meta, records(), 2.5)
    validate(report, schema)
    ids = [c["id"] for c in report["clauses"][KL]]
    assert "KL-NULL" in ids and "KL-VALUES" in ids and len(ids) == len(set(ids))
    assert report["dtypes"][RP]["atlas-inference"] == [] and report["dtypes"][KL][A2]




def test_a_clean_run_is_conformant_everywhere(schema, tmp_path):
    clean = [r for r in records() if r.outcome == "pass"]
    report = build_report(meta(not_applicable=[]), clean, 1.0)
    assert report["outcome"] == "conformant" and report["stats"]["items_failed"] == 0
    assert [(r["clause"], r["outcome"]) for r in report["results"]] == [
        ("KL-NULL", "pass"), ("KL-REDUCTION", "unspecified"), ("KL-VALUES", "pass")]
    validate(report, schema)
    paths = write_reports(tmp_path, report)
    assert json.loads(paths["json"].read_text()) == json.loads(json.dumps(report))
    suite = ET.parse(paths["junit"]).getroot()[0]
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped")) == (
        "3", "0", "0", "0")
    text = paths["summary"].read_text()
    assert text.startswith("## aclnn conformance: ✅ conformant") and "### Findings" not in text


def test_an_interrupted_run_is_incomplete_not_conformant(schema, tmp_path):
    from conformance.report.html import render_html

    clean = [r for r in records() if r.outcome == "pass"]
    cut = ItemRecord(f"{KL}/{A2}/FLOAT/memory", KL, A2, "FLOAT", "memory", cases=4, complete=False)
    planned = {r.item for r in clean} | {cut.item, f"{KL}/{A2}/FLOAT16/memory"}
    report = build_report(meta(not_applicable=[]), clean + [cut], 1.0, planned)
    validate(report, schema)
    assert report["outcome"] == "incomplete" and report["stats"]["items_incomplete"] == 1
    assert report["stats"]["items_not_run"] == 1
    assert report["stats"]["items"] == len(clean) + 2 and report["stats"]["items_failed"] == 0
    unfinished = {i["item"]: (i["outcome"], i["cases"]) for i in report["items"]
                  if i["outcome"] in ("incomplete", "not-run")}
    assert unfinished == {cut.item: ("incomplete", 4), f"{KL}/{A2}/FLOAT16/memory": ("not-run", 0)}
    assert summary_markdown(report).startswith(
        f"## aclnn conformance: ⏸ incomplete (1 of {len(clean) + 2} items did not run; 1 items did not "
        "finish: `conformance run --resume`)")
    # what was judged of KL on atlas-a2 is no pass while two of its items did not finish
    assert {r["outcome"] for r in report["results"] if (r["api"], r["product"]) == (KL, A2)} == {"incomplete"}
    assert 'data-outcome="incomplete"' in render_html(report)
    failing = [r for r in records() if r.outcome == "fail"][:1]
    assert build_report(meta(), failing + [cut], 1.0, planned)["outcome"] == "nonconformant"


@pytest.mark.parametrize("path,value", [
    ((), {"extra": 1}),
    (("outcome",), "error"),
    (("stats", "per_kind", "teleport"), {"checks": 0, "failed": 0}),
    (("results", 4, "reason"), None),
    (("results", 0, "reason"), "why"),
    (("results", 0, "kind"), "speed"),
    (("findings", 0, "details", "numerics", "mere"), "NaN"),
    (("items", 4, "error"), None),
    (("items", 0, "error"), "boom"),
    (("observations", 0, "cases"), 0),
])
def test_the_schema_rejects(report, schema, path, value):
    doc = json.loads(json.dumps(report))
    target = doc
    for key in path[:-1]:
        target = target[key]
    if not path:
        doc.update(value)
    elif value is None:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(doc)


def test_the_format_document_names_every_schema_key(schema):
    text = (Path(__file__).parents[1] / "docs" / "report-format.md").read_text()
    named = set(re.findall(r"`([A-Za-z_][\w-]*)`", text))

    def keys(node):
        if isinstance(node, dict):
            yield from node.get("properties", {})
            for value in node.values():
                yield from keys(value)
        elif isinstance(node, list):
            for value in node:
                yield from keys(value)

    assert set(keys(schema)) - named == set()


def test_a_quick_run_writes_a_valid_conformant_report(schema, tmp_path):
    report = conformance.run_suite("reference", profile="quick", ops=[KL], max_examples=5,
                                   report_dir=tmp_path)
    jsonschema.Draft202012Validator(schema).validate(report)
    assert report["outcome"] == "conformant" and report["findings"] == [] and report["errors"] == []
    assert report["apis"] == [KL] and report["products"] == [A2] and report["max_examples"] == 5
    assert report["stats"]["cases"] == sum(i["cases"] for i in report["items"]) > 0
    assert {r["outcome"] for r in report["results"]} == {"pass", "unspecified"}
    suite = ET.parse(tmp_path / "junit.xml").getroot()[0]
    assert len(suite.findall("testcase")) == len(report["results"]) == int(suite.get("tests"))
    assert suite.get("failures") == "0" and suite.find("testcase/failure") is None
    assert (tmp_path / "summary.md").read_text().startswith("## aclnn conformance: ✅ conformant")
