"""junit.xml and summary.md built from hand-made item records."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from report_records import (
    A2,
    ERROR,
    KL,
    MATCHES,
    NA_REASON,
    NUMERICS_MESSAGE,
    REJECTED,
    RP,
    meta,
    records,
)

from conformance.report.document import build_report
from conformance.report.files import junit_xml, summary_markdown


@pytest.fixture
def report():
    return build_report(meta(), records(), 2.5)


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
