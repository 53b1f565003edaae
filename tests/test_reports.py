"""report.json, junit.xml and summary.md built from hand-made item records, against the schema and
docs/report-format.md; and one quick run end to end."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest

import conformance
from conformance.check.results import KINDS, Finding, ItemRecord
from conformance.report.document import build_report
from conformance.report.files import junit_xml, summary_markdown, write_reports
from conformance.run.config import resolve

KL = "aclnnKlDivBackward"
RP = "aclnnReplicationPad3dBackward"
A2 = "atlas-a2"
NA_REASON = "Atlas inference series products: not supported."
NUMERICS_MESSAGE = ("out[0]=0.8389, but should be -0.0805 (|error| 0.919 > bound 4.8e-08, 1.9e7x) "
                    f"[{KL}(gradOutput=FLOAT[1], self=FLOAT[1], target=FLOAT[1], reduction=0, "
                    "logTarget=False, out=FLOAT[1])]")
CHANGED_MESSAGE = ("self changed by the call, but inputs should be left byte-identical "
                   f"[{KL}(gradOutput=FLOAT[2], self=FLOAT[2], target=FLOAT[2], reduction=1, "
                   "logTarget=True, out=FLOAT[2])]")
REJECTED = "rejected with 161002 (ACLNN_ERR_PARAM_INVALID)"
MATCHES = "accepted, matches the reference"
CLAUSE_NULL = {"id": "KL-NULL", "kind": "not_null", "outcome": "error", "doc": "upstream",
               "quote": "161001 ACLNN_ERR_PARAM_NULLPTR: The passed gradOutput is a null pointer.",
               "checks": []}
CLAUSE_VALUES = {"id": "KL-VALUES", "kind": "behavior", "outcome": "behavior", "doc": "contract",
                 "quote": "out holds the gradient.", "checks": ["numerics", "inputs-unchanged"]}
REVIEW = {"id": "RP-R-1", "doc": "upstream", "quote": "A sentence no pattern reads.",
          "where": "约束说明 (line 57)", "closest": "value_in"}
ERROR = "TypeError: backend 'mine' returned None (NoneType); call() must return an int status or a CallResult"


@pytest.fixture(scope="module")
def schema():
    doc = json.loads(files("conformance").joinpath("schema/report.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(doc)
    return doc


def validate(report, schema):
    """Validate the report as it is written to disk (JSON has no tuples)."""
    jsonschema.Draft202012Validator(schema).validate(json.loads(json.dumps(report)))


def meta(**override):
    data = {"backend": {"spec": "my_adapter.py:Mine", "name": "mine", "version": "2.1", "product": None},
            "products": ["atlas-a2", "atlas-inference"], "apis": [KL, RP], "profile": "quick", "seed": 7,
            "max_examples": 25, "report_dir": "reports",
            "spec": {"version": "1.0.0", "digest": "d6ffad9ef93c0653"},
            "tool": {"name": "aclnn-conformance", "version": conformance.__version__},
            "started": "2026-12-02T17:08:32+00:00",
            "not_applicable": [[RP, "atlas-inference", NA_REASON]], "shard": None, "waivers": None,
            "isolate": False, "case_timeout": 10, "precision": "strict", "not_implemented": [],
            "clauses": {KL: [CLAUSE_NULL, CLAUSE_VALUES], RP: []}, "golden": None,
            "operators": {KL: {"doc_version": {"revision": "7d9ef913eae9b804a7a664dac289c0c9512d34c3",
                                               "date": "2025-12-30"},
                               "reference": "reference:kl_div_backward", "review": []},
                          RP: {"doc_version": None, "reference": None,
                               "review": [REVIEW, {**REVIEW, "id": "RP-R-2"}]}},
            "dtypes": {KL: {A2: ["FLOAT", "FLOAT16", "BFLOAT16"], "atlas-inference": ["FLOAT", "FLOAT16"]},
                       RP: {A2: ["FLOAT16", "FLOAT"], "atlas-inference": []}}}
    data.update(override)
    return data


def _finding(clause, kind, message, item, **details):
    path = f"reports/cases/{item.replace('/', '_')}_{clause}_{kind}_0-0.yaml"
    return Finding(KL, A2, clause, kind, message, item=item, case_file=path,
                   replay=f"conformance replay {path} --backend my_adapter.py:Mine",
                   details={"case": {"gradOutput": "FLOAT[1]", "self": "FLOAT[1]"}, "origin": "valid FLOAT",
                            **details})


def records():
    boundary = ItemRecord(f"{KL}/{A2}/boundary/all", KL, A2, "boundary", "all", cases=4, seconds=0.5)
    boundary.checks = Counter({("KL-VALUES", "numerics", "pass"): 4})
    boundary.numerics = Counter({("FLOAT", -20): 2, ("FLOAT16", -12): 2})
    numerics = ItemRecord(f"{KL}/{A2}/FLOAT/numerics", KL, A2, "FLOAT", "numerics", cases=23, seconds=0.5)
    numerics.checks = Counter({("KL-VALUES", "numerics", "pass"): 20, ("KL-VALUES", "numerics", "fail"): 3})
    numerics.numerics = Counter({("FLOAT", -25): 2, ("FLOAT", -20): 18, ("FLOAT", 3): 3})
    numerics.findings = [_finding("KL-VALUES", "numerics", NUMERICS_MESSAGE, numerics.item, numerics={
        "ok": False, "judged": 1, "max_abs_error": 0.919, "max_rel_error": 11.4, "max_ulp": 1.2e8,
        "worst_index": [0], "worst_actual": 0.8389, "worst_expected": -0.0805, "worst_bound": 4.8e-08,
        "worst_ratio": 1.9e7, "mere": "nan", "mare": "inf", "cann_ok": False, "message": "out[0]=0.8389"})]
    null = ItemRecord(f"{KL}/{A2}/KL-NULL/status", KL, A2, "KL-NULL", "status", cases=25, seconds=0.25)
    null.checks = Counter({("KL-NULL", "status", "pass"): 25})
    reduction = ItemRecord(f"{KL}/{A2}/KL-REDUCTION/status", KL, A2, "KL-REDUCTION", "status", cases=10,
                           seconds=0.25)
    reduction.checks = Counter({("KL-REDUCTION", "unspecified", "observed"): 10})
    reduction.observations = Counter({("KL-REDUCTION", REJECTED): 6, ("KL-REDUCTION", MATCHES): 4})
    # a failure seen only while Hypothesis shrank: the finding, but no failing tally
    memory = ItemRecord(f"{KL}/{A2}/FLOAT/memory", KL, A2, "FLOAT", "memory", cases=5, seconds=0.5)
    memory.checks = Counter({("KL-VALUES", "inputs-unchanged", "pass"): 5})
    memory.findings = [_finding("KL-VALUES", "inputs-unchanged", CHANGED_MESSAGE, memory.item)]
    broken = ItemRecord(f"{RP}/{A2}/FLOAT16/memory", RP, A2, "FLOAT16", "memory", error=ERROR)
    return [boundary, numerics, null, reduction, memory, broken]


@pytest.fixture
def report():
    return build_report(meta(), records(), 2.5)


def test_the_hand_made_meta_has_the_keys_a_run_records(specs):
    cfg, backend = resolve(specs, ops=[KL, RP], profile="quick")
    assert set(cfg.meta(specs, backend)) == set(meta())


def test_header_and_outcome(report, schema):
    assert report["schema_version"] == "1.5" and report["outcome"] == "nonconformant"
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


def _suite(report):
    root = ET.fromstring(junit_xml(report))
    assert root.tag == "testsuites" and len(root) == 1
    return root[0]


def test_junit_one_testcase_per_row_and_per_error(report):
    suite = _suite(report)
    assert suite.get("name") == "conformance[mine]" and suite.get("time") == "2.5"
    assert (suite.get("failures"), suite.get("errors"), suite.get("skipped")) == ("2", "1", "1")
    cases = suite.findall("testcase")
    assert [(c.get("classname"), c.get("name")) for c in cases] == [
        (f"{KL}.{A2}", "KL-NULL:status"), (f"{KL}.{A2}", "KL-REDUCTION:unspecified"),
        (f"{KL}.{A2}", "KL-VALUES:inputs-unchanged"), (f"{KL}.{A2}", "KL-VALUES:numerics"),
        (f"{RP}.atlas-inference", "*:*"), ("conformance", f"{RP}/{A2}/FLOAT16/memory")]
    assert [[child.tag for child in c] for c in cases] == [
        [], ["system-out"], ["failure"], ["failure"], ["skipped"], ["error"]]
    numerics = cases[3].find("failure")
    assert numerics.get("message") == NUMERICS_MESSAGE
    assert numerics.text == f"{NUMERICS_MESSAGE}\n  replay: {report['findings'][0]['replay']}"
    assert cases[1].find("system-out").text == (f"unspecified: {MATCHES} (4 cases)\n"
                                                f"unspecified: {REJECTED} (6 cases)")
    assert cases[4].find("skipped").get("message") == NA_REASON
    assert cases[5].find("error").get("message") == ERROR and cases[5].find("error").text == ERROR


def test_junit_tests_attribute_counts_every_testcase(report):
    suite = _suite(report)
    assert int(suite.get("tests")) == len(suite.findall("testcase"))


def test_junit_failure_message_is_cut_and_a_row_without_finding_says_how_many(report):
    long = dict(report["findings"][0], message="x" * 900)
    doc = dict(report, findings=[long])
    cases = _suite(doc).findall("testcase")
    assert cases[3].find("failure").get("message") == "x" * 500
    assert cases[2].find("failure").get("message") == "1 failing case(s)"
    assert not cases[2].find("failure").text  # an empty element parses as None


def _table(text, header):
    lines = text.splitlines()
    start = lines.index(header) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def test_summary(report):
    text = summary_markdown(report)
    assert text.startswith("## aclnn conformance: ❌ nonconformant\n")
    assert ("Backend `mine` · profile `quick` · precision `strict` · seed `7` · 67 cases in 2.5 s "
            "(26.8 cases/s) · spec 1.0.0 (d6ffad9ef93c0653)") in text
    # result rows per outcome; the errored RP item on atlas-a2 has no row, so no line here
    header = ("| operator | product | pass | fail | waived | incomplete | insufficient evidence | "
              "no reference | unspecified | not applicable / not run | items not run |")
    assert _table(text, header) == [
        [KL, A2, "1", "2", "0", "0", "0", "0", "1", "", ""],
        [RP, "atlas-inference", "0", "0", "0", "0", "0", "0", "0", "not applicable", ""]]
    # per operator: the document version its spec encodes, what judged numerics, review clauses
    assert _table(text, "| operator | documents | numerics judged by | clauses needing review |") == [
        [KL, "revision 7d9ef913eae9 (2025-12-30)", "reference:kl_div_backward", "0"],
        [RP, "not named", "no reference", "2"]]
    findings = _table(text, "| operator | product | clause | kind | message |")
    assert [row[:4] for row in findings] == [[KL, A2, "KL-VALUES", "numerics"],
                                             [KL, A2, "KL-VALUES", "inputs-unchanged"]]
    assert findings[0][4] == NUMERICS_MESSAGE.replace("|", "\\|")
    block = text.split("Replay:\n\n```\n", 1)[1].split("\n```", 1)[0]
    assert block.splitlines() == [f["replay"] for f in report["findings"]]
    assert f"**Error** in `{RP}/{A2}/FLOAT16/memory`: {ERROR}" in text


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
