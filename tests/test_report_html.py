"""The HTML report (conformance/report/html.py, conformance/cli/report.py): the cells of the compliance
matrix and the dtype tables, the failing clauses, the numerics charts. Escaping and no network:
test_report_html_safety.py; the CLI and headless Chromium: test_report_html_cli.py."""
from __future__ import annotations

import re

from html_page import Page, case_table, fragment, text
from html_report_sample import (  # noqa: F401 - fixtures html, report
    A2,
    ERROR,
    INF,
    KL,
    PAD_MESSAGE,
    RP,
    html,
    records,
    report,
)

from conformance.report.document import build_report
from conformance.report.html import render_html
from conformance.run.config import resolve


def expected_matrix(report) -> dict[tuple[str, str, str], tuple[str, int, int]]:
    """The matrix computed from the report's results rows, independently of the renderer."""
    na = {(r["api"], r["product"]) for r in report["results"] if r["outcome"] == "not-applicable"}
    tally: dict[tuple[str, str, str], list[int]] = {}
    for r in report["results"]:
        if r["outcome"] != "not-applicable":
            t = tally.setdefault((r["api"], r["clause"], r["product"]), [0, 0, 0])
            t[0], t[1], t[2] = t[0] + r["cases"], t[1] + r["failed"], t[2] + r["observed"]
    out = {}
    for api, clauses in report["clauses"].items():
        for clause in clauses:
            for product in report["products"]:
                key = (api, clause["id"], product)
                if (api, product) in na:
                    out[key] = ("not-applicable", 0, 0)
                elif key not in tally:
                    out[key] = ("not-run", 0, 0)
                else:
                    cases, failed, observed = tally[key]
                    out[key] = ("fail" if failed else "unspecified" if observed else "pass", cases, failed)
    return out


# -- the matrix --------------------------------------------------------------------------------
def test_matrix_cells(html, report):
    cells = Page(html).matrix()
    assert cells[(RP, "RP-PAD-LIMIT", A2)] == ("fail", 5, 3)
    assert cells[(RP, "RP-VALUES", A2)] == ("fail", 28, 2)  # inputs-unchanged 6 + numerics 22
    assert cells[(RP, "RP-NULL", A2)] == ("pass", 4, 0)
    assert cells[(RP, "RP-NONCONTIGUOUS", A2)] == ("unspecified", 7, 0)
    assert cells[(KL, "KL-REDUCTION", INF)] == ("unspecified", 9, 0)
    assert cells[(KL, "KL-REDUCTION", A2)] == ("not-run", 0, 0)
    assert cells[(KL, "KL-VALUES", INF)] == ("pass", 25, 0)
    rp_inference = {k: v for k, v in cells.items() if k[0] == RP and k[2] == INF}
    assert rp_inference and set(rp_inference.values()) == {("not-applicable", 0, 0)}
    assert cells == expected_matrix(report)


def test_matrix_rows_are_the_clauses_in_spec_order(html, specs):
    matrix = fragment(html, '<table id="compliance-matrix">', "</table>")
    rows = [(a["data-api"], a["data-clause"]) for tag, a in Page(matrix).tags
            if tag == "tr" and "data-clause" in a]
    assert rows == [(api, c.id) for api in (KL, RP) for c in specs.operator(api).constraints]
    quote = next(c.source.quote for c in specs.operator(RP).constraints if c.id == "RP-PAD-LIMIT")
    row = fragment(html, 'data-clause="RP-PAD-LIMIT">', "</tr>")
    assert quote in text(row)
    headers = [a.get("data-product") for tag, a in Page(html).tags if tag == "th" and "data-product" in a]
    assert headers == [A2, INF]
    assert 'href="#fail-aclnnReplicationPad3dBackward-RP-PAD-LIMIT"' in row


def test_not_applicable_reason_is_shown(html, report):
    reason = next(r["reason"] for r in report["results"] if r["outcome"] == "not-applicable")
    assert f"Not applicable on {INF}: {reason}" in Page(html).all_text()


def test_dtype_tables(html):
    page = Page(html)
    rp, kl = page.dtypes(RP), page.dtypes(KL)
    assert rp[("FLOAT16", A2)] == ("fail", 22)
    assert rp[("FLOAT", A2)] == ("pass", 10)
    assert rp[("DOUBLE", A2)] == ("not-run", 0)
    assert {v for (d, p), v in rp.items() if p == INF} == {("not-applicable", 0)}
    assert kl[("FLOAT", A2)] == ("pass", 25)
    assert kl[("FLOAT16", INF)] == ("error", 0)
    assert kl[("BFLOAT16", INF)] == ("not-documented", 0)  # BFLOAT16 is A2/A3 only
    assert kl[("BFLOAT16", A2)] == ("not-run", 0)
    assert [d for (d, p) in kl if p == A2] == ["FLOAT", "FLOAT16", "BFLOAT16"]


def test_header(html):
    head = text(fragment(html, '<header id="summary"', "</header>"))
    for part in ("nonconformant", "my-npu 7.0.1", "atlas-a2, atlas-inference", "Seed 7", "Profile quick",
                 "1 min 23 s", "Cases run 143 in 9 test items", "Findings 2, 1 item error(s)"):
        assert part in head, part
    assert re.search(r"Spec version \S+, digest [0-9a-f]{16}", head)
    assert re.search(r"Started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", head)


# -- failing clauses ---------------------------------------------------------------------------
def test_failing_clauses_show_the_counterexample_and_replay(html, report):
    ids = re.findall(r'<article class="failure fail" id="([^"]+)"', html)
    assert ids == [f"fail-{RP}-RP-PAD-LIMIT", f"fail-{RP}-RP-VALUES"]
    pad = text(fragment(html, f'id="fail-{RP}-RP-PAD-LIMIT"', "</article>"))
    assert PAD_MESSAGE in pad and "breaks RP-PAD-LIMIT (max)" in pad
    assert case_table(fragment(html, f'id="fail-{RP}-RP-PAD-LIMIT"', "</article>")) == {
        "gradOutput": "FLOAT[1,1,2,2,7]", "self": "FLOAT[1,1,2,2,2]", "padding": "[4, 1, 0, 0, 0, 0]",
        "gradInput": "FLOAT[1,1,2,2,2]", "status returned": "0"}
    assert report["findings"][0]["replay"] in pad and "3 of 5 checks failed" in pad


def test_numerics_finding_shows_the_worst_element_and_cann_figures(html, report):
    values = text(fragment(html, f'id="fail-{RP}-RP-VALUES"', "</article>"))
    assert "worst element [0, 0, 1, 0]" in values
    assert "actual vs expected 0.5 vs 0.25" in values
    assert "|error| vs bound 0.25 vs 0.0625 (4× the bound)" in values
    assert "CANN MERE / MARE 0.0123 / 1 — outside the CANN thresholds" in values
    assert "FLOAT16[1,3,4,1]" in values and report["findings"][1]["replay"] in values


# -- numerics, observations, errors ------------------------------------------------------------
def test_numerics_charts(html):
    figures = {(a["data-api"], a["data-dtype"]): a for tag, a in Page(html).tags
               if tag == "figure" and "data-dtype" in a}
    assert set(figures) == {(RP, "FLOAT16"), (KL, "FLOAT")}
    assert (figures[(RP, "FLOAT16")]["data-total"], figures[(RP, "FLOAT16")]["data-over"]) == ("22", "2")
    chart = fragment(html, f'id="numerics-{RP}-FLOAT16"', "</figure>")
    rects = [a for tag, a in Page(chart).tags if tag == "rect" and "data-bin" in a]
    assert {int(a["data-bin"]): int(a["data-cases"]) for a in rects} == {-25: 5, -3: 15, 1: 2}
    classes = {int(a["data-bin"]): a["class"] for a in rects}
    assert classes == {-25: "bar exact", -3: "bar under", 1: "bar over"}
    assert '<line class="bound"' in chart and ">bound</text>" in chart
    assert "<svg" in chart and "</svg>" in chart


def test_observations_and_errors(html):
    rows = [(a["data-api"], a["data-product"], a["data-clause"], a["data-cases"])
            for tag, a in Page(html).tags if tag == "tr" and "data-cases" in a]
    assert rows == [(KL, INF, "KL-REDUCTION", "9"), (RP, A2, "RP-NONCONTIGUOUS", "3"),
                    (RP, A2, "RP-NONCONTIGUOUS", "4")]
    obs = text(fragment(html, '<section id="observations">', "</section>"))
    assert "accepted, differs from the reference" in obs and "rejected with 161002" in obs
    errors = text(fragment(html, '<section id="errors">', "</section>"))
    assert f"{KL}/{INF}/FLOAT16/determinism" in errors and ERROR in errors


def test_conformant_report_renders(specs):
    cfg, backend = resolve(specs, "reference", [A2], [KL, RP], profile="quick")
    ok = build_report(cfg.meta(specs, backend), records()[2:3], 1.0)
    html = render_html(ok)
    assert ok["outcome"] == "conformant" and 'class="verdict conformant"' in html
    assert "No clause failed." in Page(html).all_text()
    assert Page(html).matrix()[(RP, "RP-PHASE", A2)] == ("pass", 10, 0)


# -- CLI ---------------------------------------------------------------------------------------
