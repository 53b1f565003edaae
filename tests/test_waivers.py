"""conformance/waivers.py: the waiver file format, its errors, and waiving findings in a report."""
from __future__ import annotations

import datetime as dt
import json
import textwrap
from collections import Counter

import pytest

import conformance
from conformance.check.results import Finding, ItemRecord
from conformance.errors import UsageError
from conformance.report.document import build_report
from conformance.report.waivers import Waiver, apply_waivers, finding_dtypes, load_waivers

KL = "aclnnKlDivBackward"
RP = "aclnnReplicationPad3dBackward"
A2, A3 = "atlas-a2", "atlas-a3"
TODAY = dt.date(2026, 12, 2)


def meta():
    return {"backend": {"spec": "my_adapter.py:Mine", "name": "mine", "version": "2.1", "product": None},
            "products": [A2, A3], "apis": [KL, RP], "profile": "quick", "seed": 7, "max_examples": 25,
            "spec": {"version": "1.0.0", "digest": "d6ffad9ef93c0653"}, "shard": None,
            "tool": {"name": "aclnn-conformance", "version": conformance.__version__},
            "started": "2026-12-02T17:08:32+00:00", "not_applicable": []}


def record(api, product, subject, family, fails, case, *, finding=True):
    """An item whose checks of ``fails`` ((clause, kind) pairs) failed once, each with a finding."""
    item = f"{api}/{product}/{subject}/{family}"
    r = ItemRecord(item, api, product, subject, family, cases=5, seconds=0.1)
    r.checks = Counter({(c, k, "pass"): 4 for c, k in fails} | {(c, k, "fail"): 1 for c, k in fails})
    if finding:
        r.findings = [Finding(api, product, c, k, f"{c} broken [{api}(...)]", item=item,
                              details={"case": case, "origin": f"valid {subject}"}) for c, k in fails]
    return r


@pytest.fixture
def report():
    return findings_report()


def findings_report():
    """Five failing items on two operators and products, each with one finding."""
    fp16 = {"gradOutput": "FLOAT16[2]", "self": "FLOAT16[2]", "target": "FLOAT16[2]", "reduction": 1}
    mixed = {"gradOutput": "FLOAT16[1,1,1,1]", "self": "FLOAT16[1,1,1,1]", "padding": [0, 0, 0, 0, 0, 0],
             "gradInput": "FLOAT[1,1,1,1]/strides(1,1,1,1)+0"}
    empty = {"gradOutput": "DOUBLE[0,1,1,1]", "self": "DOUBLE[0,1,1,1]", "padding": [0] * 6,
             "gradInput": None}
    records = [
        record(KL, A2, "FLOAT16", "numerics", [("KL-VALUES", "numerics")], fp16),
        record(KL, A2, "FLOAT16", "status", [("KL-PHASE", "status")], fp16),
        record(RP, A2, "boundary", "all", [("RP-DTYPE-SAME", "status")], mixed),
        record(RP, A2, "DOUBLE", "status", [("RP-PHASE", "status")], empty),
        record(RP, A3, "DOUBLE", "status", [("RP-PHASE", "status")], empty),
    ]
    return build_report(meta(), records, 1.0)


def waiver(clause, **kw):
    return Waiver(clause, kw.pop("reason", "known"), kw.pop("expires", dt.date(2027, 1, 31)), **kw)


def row(report, api, product, clause, kind):
    return next(r["outcome"] for r in report["results"]
                if (r["api"], r["product"], r["clause"], r["kind"]) == (api, product, clause, kind))


def waived(report):
    return [(f["api"], f["product"], f["clause"]) for f in report["findings"] if "waived" in f]


def test_a_matching_waiver_waives_the_finding_and_its_row(report):
    before = json.dumps(report)
    out = apply_waivers(report, [waiver("KL-VALUES", reason="fp16 rounding", link="https://x/1")], TODAY)
    assert json.dumps(report) == before  # the input is not changed
    assert waived(out) == [(KL, A2, "KL-VALUES")]
    f = next(f for f in out["findings"] if "waived" in f)
    assert f["waived"] == {"reason": "fp16 rounding", "link": "https://x/1", "expires": "2027-01-31"}
    assert row(out, KL, A2, "KL-VALUES", "numerics") == "waived"
    assert row(out, KL, A2, "KL-PHASE", "status") == "fail"
    assert out["outcome"] == "nonconformant"
    assert [(w["clause"], w["findings"]) for w in out["waivers"]["applied"]] == [("KL-VALUES", 1)]
    assert out["waivers"]["expired"] == [] and out["waivers"]["stale"] == []


def test_conformant_when_every_finding_is_waived(report):
    ws = [waiver(c) for c in ("KL-VALUES", "KL-PHASE", "RP-DTYPE-SAME", "RP-PHASE")]
    out = apply_waivers(report, ws, TODAY)
    assert len(waived(out)) == len(out["findings"]) == 5 and out["outcome"] == "conformant"
    assert {r["outcome"] for r in out["results"]} <= {"pass", "waived"}
    errored = apply_waivers({**report, "errors": [{"item": f"{KL}/{A2}/FLOAT/memory", "error": "E: x"}]},
                            ws, TODAY)
    assert errored["outcome"] == "nonconformant"


def test_waivers_keep_an_incomplete_run_incomplete():
    """A killed run rebuilt with waivers: waiving every finding leaves it incomplete, not conformant
    (apply_waivers decides through report/outcome.py like every other report)."""
    done = record(KL, A2, "FLOAT16", "numerics", [("KL-VALUES", "numerics")], {})
    killed = build_report(meta(), [done], 1.0, planned={done.item, f"{KL}/{A2}/FLOAT/numerics"})
    assert killed["outcome"] == "nonconformant"
    out = apply_waivers(killed, [waiver("KL-VALUES")], TODAY)
    assert waived(out) == [(KL, A2, "KL-VALUES")] and out["outcome"] == "incomplete"


def test_an_expired_waiver_waives_nothing(report):
    last_day = waiver("KL-VALUES", expires=TODAY)
    expired = waiver("KL-PHASE", expires=TODAY - dt.timedelta(days=1))
    out = apply_waivers(report, [last_day, expired], TODAY)
    assert waived(out) == [(KL, A2, "KL-VALUES")]  # a waiver still applies on its expires day
    assert row(out, KL, A2, "KL-PHASE", "status") == "fail"
    assert [(w["clause"], w["expires"], w["findings"]) for w in out["waivers"]["expired"]] == [
        ("KL-PHASE", "2026-12-01", 1)]
    assert [w["clause"] for w in out["waivers"]["applied"]] == ["KL-VALUES"]
    assert apply_waivers(report, [last_day], TODAY + dt.timedelta(days=1))["waivers"]["expired"]


def test_a_waiver_matching_nothing_is_stale(report):
    out = apply_waivers(report, [waiver("RP-FORMAT"), waiver("KL-VALUES", kind="status")], TODAY)
    assert waived(out) == []
    assert [(w["clause"], w["kind"], w["findings"]) for w in out["waivers"]["stale"]] == [
        ("RP-FORMAT", None, 0), ("KL-VALUES", "status", 0)]


def test_product_and_kind_filters(report):
    out = apply_waivers(report, [waiver("RP-PHASE", product=A3), waiver("KL-PHASE", kind="status")], TODAY)
    assert waived(out) == [(KL, A2, "KL-PHASE"), (RP, A3, "RP-PHASE")]
    assert row(out, RP, A3, "RP-PHASE", "status") == "waived"
    assert row(out, RP, A2, "RP-PHASE", "status") == "fail"


def test_dtype_filter_uses_the_item_subject_and_the_case(report):
    assert finding_dtypes(report["findings"][2]) == {"boundary", "FLOAT16", "FLOAT"}
    by_subject = apply_waivers(report, [waiver("KL-VALUES", dtype="FLOAT16")], TODAY)
    assert waived(by_subject) == [(KL, A2, "KL-VALUES")]
    by_case = apply_waivers(report, [waiver("RP-DTYPE-SAME", dtype="FLOAT")], TODAY)
    assert waived(by_case) == [(RP, A2, "RP-DTYPE-SAME")]
    other = apply_waivers(report, [waiver("KL-VALUES", dtype="BFLOAT16")], TODAY)
    assert waived(other) == [] and other["waivers"]["stale"]


def test_a_failing_row_without_findings(report):
    report["results"].append({"api": KL, "product": A2, "clause": "KL-EMPTY", "kind": "status", "cases": 3,
                              "failed": 1, "observed": 0, "outcome": "fail"})
    ws = [waiver(c) for c in ("KL-VALUES", "KL-PHASE", "RP-DTYPE-SAME", "RP-PHASE")]
    out = apply_waivers(report, ws, TODAY)
    assert row(out, KL, A2, "KL-EMPTY", "status") == "fail" and out["outcome"] == "nonconformant"
    narrow = apply_waivers(report, ws + [waiver("KL-EMPTY", dtype="FLOAT")], TODAY)
    assert row(narrow, KL, A2, "KL-EMPTY", "status") == "fail"  # its failures' dtypes are unknown
    whole = apply_waivers(report, ws + [waiver("KL-EMPTY")], TODAY)
    assert row(whole, KL, A2, "KL-EMPTY", "status") == "waived" and whole["outcome"] == "conformant"


def test_applying_again_replaces_the_waivers(report):
    once = apply_waivers(report, [waiver("KL-VALUES")], TODAY)
    again = apply_waivers(once, [waiver("KL-PHASE")], TODAY)
    assert waived(again) == [(KL, A2, "KL-PHASE")]
    assert row(again, KL, A2, "KL-VALUES", "numerics") == "fail"
    assert apply_waivers(once, [waiver("KL-VALUES")], TODAY) == once


def write(tmp_path, text):
    path = tmp_path / "waivers.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def test_load_waivers(tmp_path, report):
    path = write(tmp_path, """\
        waivers:
          - clause: RP-PHASE
            product: Ascend910B     # a SoC name of atlas-a2
            dtype: fp64             # an alias of DOUBLE
            kind: status
            reason: empty tensors are rejected in phase 1
            link: https://example.com/issues/123
            expires: 2027-03-31
          - clause: KL-VALUES
            reason: "fp16 rounding, CANN 8.1"
            expires: "2026-12-31"
        """)
    first, second = load_waivers(path)
    assert first == Waiver("RP-PHASE", "empty tensors are rejected in phase 1", dt.date(2027, 3, 31), A2,
                           "DOUBLE", "status", "https://example.com/issues/123", str(path), 2)
    assert (second.clause, second.expires, second.product, second.line) == (
        "KL-VALUES", dt.date(2026, 12, 31), None, 9)
    out = apply_waivers(report, [first, second], TODAY)
    assert waived(out) == [(KL, A2, "KL-VALUES"), (RP, A2, "RP-PHASE")]
    assert out["waivers"]["applied"][0]["source"] == f"{path}:2"


@pytest.mark.parametrize("text, where, message", [
    ("waivers:\n  - clause: KL-VALUES\n    expires: 2027-01-01\n",
     ":2: waivers[0]", "'reason' is required but missing"),
    ("waivers:\n  - clause: KL-VALUES\n    reason: r\n    expires: 2027-01-01\n    kind: value\n",
     ":5: waivers[0].kind", "'value' is not one of status, numerics"),
    ("waivers:\n  - clause: KL-VALUES\n    reason: r\n    expires: 31.01.2027\n",
     ":4: waivers[0].expires", "'31.01.2027' is not a date YYYY-MM-DD"),
    ("waivers:\n  - clause: KL-VALUES\n    reason: r\n    expires: '2027-02-30'\n",
     ":4: waivers[0].expires", "'2027-02-30' is not a valid date"),
    ("waivers:\n  - clause: KL-VALUES\n    reason: r\n\n    expires: 2027-02-30\n",
     ":5: expires", "invalid date: day is out of range for month"),
    ("waivers:\n  - clause: kl-values\n    reason: r\n    expires: 2027-01-01\n",
     ":2: waivers[0].clause", "'kl-values' does not match"),
    ("waivers:\n  - clause: KL-VALUES\n    reason: r\n    expires: 2027-01-01\n    product: atlas-a9\n",
     ":5: waivers[0].product", "unknown product 'atlas-a9' (products: atlas-training"),
    ("waivers:\n  - clause: KL-VALUES\n    reason: r\n    expires: 2027-01-01\n    dtype: FLOAT17\n",
     ":5: waivers[0].dtype", "unknown dtype 'FLOAT17'"),
    ("waivers:\n  - clause: KL-VALUES\n    reason: r\n    expires: 2027-01-01\n    until: 2028-01-01\n",
     ":2: waivers[0]", "'until' is not allowed here"),
    ("waiver:\n  - clause: KL-VALUES\n", ":1: (top level)", "'waivers' is required but missing"),
    ("- clause: KL-VALUES\n", ":1", "expected a mapping with a 'waivers' list"),
    ("waivers:\n  - clause: [KL-VALUES\n", ":3", "YAML syntax error"),
])
def test_bad_waiver_files(tmp_path, text, where, message):
    path = write(tmp_path, text)
    with pytest.raises(UsageError) as err:
        load_waivers(path)
    assert str(err.value).startswith(f"{path}{where}: "), str(err.value)
    assert message in str(err.value)


def test_a_missing_waiver_file(tmp_path):
    with pytest.raises(UsageError, match=r"nope\.yaml: cannot read file"):
        load_waivers(tmp_path / "nope.yaml")


def test_the_readme_waiver_example_loads(tmp_path):
    """The waiver format the README documents is the one the loader reads."""
    import re
    import textwrap
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(\s*waivers:.*?)```", readme, re.S).group(1)
    path = tmp_path / "waivers.yaml"
    path.write_text(textwrap.dedent(block))
    [w] = load_waivers(path)
    assert (w.clause, w.product, w.dtype, w.kind, w.precision) == ("RP-EMPTY", "atlas-a2", "FLOAT16",
                                                                   "status", "strict")
