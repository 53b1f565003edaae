"""Reports never say more than was judged: waived findings are not shown as failures (nor as
passes), expired and stale waivers are shown where people read, a run stopped by -x says so and
lists what did not run, and junit's counts match its elements."""
from __future__ import annotations

import datetime as dt
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import KL, RP, command
from test_waivers import TODAY, findings_report, waiver

from conformance.report.files import junit_xml
from conformance.report.html import render_html
from conformance.report.merge import merge_reports
from conformance.report.summary import summary_markdown
from conformance.report.waivers import apply_waivers

MUTANTS = Path(__file__).with_name("mutants.py")


@pytest.fixture
def waivers_report():
    return findings_report()


def states(html: str) -> list[str]:
    return re.findall(r'data-state="([^"]+)"', html)


def every_clause_waived(report):
    clauses = sorted({f["clause"] for f in report["findings"]})
    ws = [waiver(c, reason=f"known {c}", link="https://example.com/7") for c in clauses]
    return apply_waivers(report, ws, TODAY)


def test_a_fully_waived_run_shows_no_fail_state(waivers_report):
    before = render_html(waivers_report)
    assert "fail" in states(before)  # the same report, unwaived, shows its failures
    report = every_clause_waived(waivers_report)
    assert report["outcome"] == "conformant"
    html = render_html(report)
    assert "fail" not in states(html) and "waived" in states(html)
    assert not re.findall(r'<article class="failure fail"', html)
    waived = re.findall(r'<article class="failure waived" id="([^"]+)"', html)
    assert waived == [f"waived-{KL}-KL-PHASE", f"waived-{KL}-KL-VALUES", f"waived-{RP}-RP-DTYPE-SAME",
                      f"waived-{RP}-RP-PHASE"]
    assert html.count("Waived</strong> until 2027-01-31: known RP-PHASE") == 2  # atlas-a2 and atlas-a3
    assert '<a href="https://example.com/7">' in html
    # the items of the dtype tables say waived too
    assert {i["outcome"] for i in report["items"]} == {"waived"}


def test_waived_findings_in_the_summary_are_apart_from_failures(waivers_report):
    report = apply_waivers(waivers_report, [waiver("RP-PHASE", reason="fixed in 8.1")], TODAY)
    text = summary_markdown(report)
    failing, waived = text.split("### Waived findings", 1)
    assert "RP-PHASE" not in failing.split("### Findings", 1)[1]
    assert waived.count("| RP-PHASE | status | fixed in 8.1 | 2027-01-31 |") == 2


def test_expired_and_stale_waivers_are_shown_in_html_and_summary(waivers_report):
    ws = [waiver("KL-PHASE", expires=dt.date(2026, 1, 1), reason="old excuse"),
          waiver("KL-NULL", reason="nothing matches me")]
    report = apply_waivers(waivers_report, ws, TODAY)
    text = summary_markdown(report)
    assert "### Expired waivers" in text and "- `KL-PHASE`: old excuse — expires 2026-01-01" in text
    assert "### Stale waivers" in text and "- `KL-NULL`: nothing matches me" in text
    html = render_html(report)
    expired = html.split('data-waivers="expired"', 1)[1].split("</ul>", 1)[0]
    stale = html.split('data-waivers="stale"', 1)[1].split("</ul>", 1)[0]
    assert "KL-PHASE" in expired and "old excuse" in expired and "2026-01-01" in expired
    assert "KL-NULL" in stale and "nothing matches me" in stale
    assert "fail" in states(html)  # the expired waiver's finding fails again


def test_junit_counts_match_its_elements(waivers_report):
    report = apply_waivers(waivers_report, [waiver("RP-PHASE")], TODAY)
    suite = ET.fromstring(junit_xml(report))[0]
    cases = suite.findall("testcase")
    count = {tag: sum(c.find(tag) is not None for c in cases) for tag in ("failure", "error", "skipped")}
    assert count["skipped"] == 2  # the two waived RP-PHASE rows (there is no not-applicable row)
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped")) == (
        str(len(cases)), str(count["failure"]), str(count["error"]), "2")


def test_a_merge_unwaives_items_again(waivers_report):
    report = every_clause_waived(waivers_report)
    merged = merge_reports([report])
    assert {i["outcome"] for i in merged["items"]} == {"fail"} and merged["outcome"] == "nonconformant"


@pytest.fixture(scope="module")
def stopped_run(tmp_path_factory):
    """A quick run of both operators stopped by -x at its first failing item (an empty KL case
    rejected): most items never ran."""
    out = tmp_path_factory.mktemp("stopped")
    rc = command("run", "--backend", f"{MUTANTS}:RejectsEmpty", "--profile", "quick", "-x", "-q",
                 "--product", "atlas-a2", "--op", KL, "--op", RP, "--report-dir", str(out))
    assert rc == 1
    return out, json.loads((out / "report.json").read_text())


def test_a_stopped_run_says_so_and_lists_what_did_not_run(stopped_run):
    out, report = stopped_run
    assert report["stopped"] == "stopping after 1 failures (-x)"
    stats = report["stats"]
    assert stats["items_not_run"] >= 60 and stats["items_not_run"] + 1 == stats["items"]
    assert report["outcome"] == "nonconformant"
    head = (out / "summary.md").read_text().splitlines()[0]
    assert head == ("## aclnn conformance: ❌ nonconformant (stopped early: stopping after 1 failures (-x); "
                    f"{stats['items_not_run']} of {stats['items']} items did not run: "
                    "`conformance run --resume`)")
    not_run = (out / "summary.md").read_text().split("### Not run", 1)[1]
    assert f"- {RP} on atlas-a2: " in not_run
    assert "FLOAT16 (determinism, large, memory, numerics, status)" in not_run
    html = (out / "report.html").read_text()
    assert 'id="not-run"' in html and "stopping after 1 failures (-x)" in html


def test_a_stopped_run_shows_no_clause_as_pass(stopped_run):
    out, report = stopped_run
    # only the boundary item of KL ran: what it judged is no pass while the other items did not run
    assert {r["outcome"] for r in report["results"]} == {"fail", "incomplete"}
    html = (out / "report.html").read_text()
    cells = set(states(html.split('id="compliance-matrix"', 1)[1].split("</table>", 1)[0]))
    assert "pass" not in cells and {"fail", "incomplete", "not-run"} <= cells
    # the operator that never ran is in the summary's table, with its items not run
    rp_row = [line for line in (out / "summary.md").read_text().splitlines()
              if line.startswith(f"| {RP} | atlas-a2 |")]
    rp_items = [i for i in report["items"] if i["item"].startswith(f"{RP}/")]
    assert rp_items and {i["outcome"] for i in rp_items} == {"not-run"}
    # no rows, items
    assert rp_row == [f"| {RP} | atlas-a2 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |  | {len(rp_items)} |"]
    junit = ET.parse(out / "junit.xml").getroot()[0]
    assert int(junit.get("skipped")) == sum(c.find("skipped") is not None for c in junit.findall("testcase"))


def test_a_damaged_journal_is_reported_as_damaged(tmp_path):
    out = tmp_path / "r"
    assert command("run", "--op", KL, "--profile", "quick", "--product", "atlas-a2", "-q", "-k", "KL-NULL",
                   "--report-dir", str(out)) == 0
    assert json.loads((out / "report.json").read_text())["outcome"] == "conformant"
    [main] = (out / "journal").glob("*.jsonl")  # main.jsonl, or the xdist worker's name
    lines = main.read_text().splitlines(keepends=True)
    main.write_text("\x00garbage{\n" + "".join(lines[1:]))  # the first line (the plan) is lost
    assert command("report", str(out)) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["outcome"] == "incomplete"
    assert report["journal_damage"] == {"lines": [{"file": main.name, "line": 1, "reason": report[
        "journal_damage"]["lines"][0]["reason"]}], "kept": len(lines) - 1}
    assert report["journal_damage"]["lines"][0]["reason"].startswith("not JSON")
    note = (f"the journal is damaged: 1 line(s) could not be read ({main.name}:1); "
            f"{len(lines) - 1} lines were kept")
    assert note in (out / "summary.md").read_text().splitlines()[0]
    assert note in (out / "report.html").read_text()
    # a torn last line is what a kill leaves, not damage
    main.write_text("".join(lines) + '{"t": "case", "ite')
    assert command("report", str(out)) == 0
    assert "journal_damage" not in json.loads((out / "report.json").read_text())
    # a line of a known kind whose content cannot be read is damage too, never a crash
    main.write_text("".join(lines) + '{"t": "item", "record": {"item": 3}}\n')
    assert command("report", str(out)) == 0
    damage = json.loads((out / "report.json").read_text())["journal_damage"]
    assert damage["lines"][0]["line"] == len(lines) + 1


@pytest.mark.slow
def test_a_run_stopped_by_x_under_xdist_still_reports(tmp_path, capsys):
    """pytest exits 2 when xdist stops at -x: the run's reports are written all the same."""
    out = tmp_path / "r"
    rc = command("run", "--backend", f"{MUTANTS}:RejectsEmpty", "--profile", "quick", "-x", "-q", "-n", "2",
                 "--product", "atlas-a2", "--op", KL, "--report-dir", str(out))
    assert rc == 1
    report = json.loads((out / "report.json").read_text())
    assert report["stopped"].endswith("(-x)") and report["stats"]["items_not_run"] > 0
    said = capsys.readouterr().out.splitlines()[-1]
    assert said.startswith(f"conformance: nonconformant (stopped early: {report['stopped']}; ")


def test_the_page_starts_with_an_operator_by_product_overview(waivers_report):
    html = render_html(waivers_report)
    table = html.split('<table id="operator-overview">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr data-api="([^"]+)"><th scope="row"><a href="#([^"]+)">', table)
    assert rows == [(KL, f"matrix-{KL}"), (RP, f"matrix-{RP}")]
    assert f'id="matrix-{KL}"' in html  # the link lands on the operator's rows of the matrix
    cells = re.findall(r'data-api="([^"]+)" data-product="([^"]+)" data-state="([^"]+)"', table)
    assert (RP, "atlas-a3", "fail") in cells and (KL, "atlas-a2", "fail") in cells
    kl = table.split(f'data-api="{KL}" data-product="atlas-a2"', 1)[1].split("</td>", 1)[0]
    assert "failing: KL-PHASE, KL-VALUES" in kl
    waived = render_html(every_clause_waived(waivers_report))
    assert "fail" not in states(waived.split('id="operator-overview"', 1)[1].split("</table>", 1)[0])


def test_a_summary_of_many_operators_stays_short(waivers_report):
    import copy

    report = copy.deepcopy(waivers_report)
    for i in range(40):  # 40 more passing (operator, product) pairs
        report["results"].append({"api": f"aclnnOp{i:02d}", "product": "atlas-a2", "clause": "X",
                                  "kind": "status", "cases": 3, "failed": 0, "observed": 0,
                                  "outcome": "pass"})
    text = summary_markdown(report)
    rows = [line for line in text.splitlines() if line.startswith("| aclnn")]
    assert len([r for r in rows if "aclnnOp" in r]) == 0  # the passing ones are counted, not listed
    assert "… and 40 more (operator, product) pairs: 40 all pass, 0 not applicable, 0 other" in text
    assert rows[0].startswith(f"| {KL} |") or rows[0].startswith(f"| {RP} |")


def test_the_overview_does_not_call_a_run_operator_not_run_for_one_unreached_clause(waivers_report):
    from conformance.report.html import clause_matrix
    from conformance.report.html_overview import overview

    products = list(waivers_report["products"])
    matrix = clause_matrix(waivers_report, [KL, RP], products)
    matrix[0]["rows"].append({"id": "KL-NEVER", "cells": [
        {"state": "not-run", "cases": 0} for _ in products]})
    cell = overview(matrix, products)[0]["cells"][products.index("atlas-a2")]
    assert cell["state"] == "fail" and cell["unchecked"] == 1
