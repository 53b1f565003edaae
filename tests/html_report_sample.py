"""The sample report the HTML tests render (a run of both seed operators with findings,
observations, not-applicable cells and an item error), and its module-scoped fixtures ``report``
and ``html``: a test module imports them by name (pytest finds fixtures in a module's namespace)."""
from __future__ import annotations

from collections import Counter

import pytest

from conformance.check.results import Finding, ItemRecord
from conformance.report.document import build_report
from conformance.report.html import render_html
from conformance.run.config import resolve

KL = "aclnnKlDivBackward"
RP = "aclnnReplicationPad3dBackward"
A2 = "atlas-a2"
INF = "atlas-inference"
BACKEND = {"spec": "my_npu.py:Npu", "name": "my-npu", "version": "7.0.1", "product": None}
PAD_MESSAGE = ("returned 0 (success), but should be 161002 (ACLNN_ERR_PARAM_INVALID) because RP-PAD-LIMIT: "
               f"padding[0]=4 must be < self.shape[-1]=2 [{RP}(gradOutput=FLOAT[1,1,2,2,7], "
               "self=FLOAT[1,1,2,2,2], padding=[4,1,0,0,0,0], gradInput=FLOAT[1,1,2,2,2])]")
VALUES_MESSAGE = (f"gradInput[0, 0, 1, 0]=0.5, but should be 0.25 (|error| 0.25 > bound 0.0625, 4.0x) "
                  f"[{RP}(gradOutput=FLOAT16[1,3,4,1], self=FLOAT16[1,2,3,1], padding=[0,0,1,0,1,0], "
                  "gradInput=FLOAT16[1,2,3,1])]")
VERDICT = {"ok": False, "judged": 6, "max_abs_error": 0.25, "max_rel_error": 1.0, "max_ulp": 2048.0,
           "worst_index": [0, 0, 1, 0], "worst_actual": 0.5, "worst_expected": 0.25, "worst_bound": 0.0625,
           "worst_ratio": 4.0, "mere": 0.0123, "mare": 1.0, "cann_ok": False, "message": VALUES_MESSAGE}
ERROR = "TypeError: backend 'my-npu' returned None (NoneType)"


def _finding(clause, kind, message, item, **details):
    path = f"reports/cases/{item.replace('/', '_')}_{clause}_{kind}_0-0.yaml"
    return Finding(item.split("/")[0], item.split("/")[1], clause, kind, message, item=item, case_file=path,
                   replay=f"conformance replay {path} --backend {BACKEND['spec']}", details=details)


def _record(item, cases, checks, *, observations=None, numerics=None, findings=(), error=None):
    api, product, subject, family = item.split("/")
    record = ItemRecord(item, api, product, subject, family, cases=cases, seconds=0.1, error=error)
    record.checks = Counter(checks)
    record.observations = Counter(observations or {})
    record.numerics = Counter(numerics or {})
    record.findings = list(findings)
    return record


def records() -> list[ItemRecord]:
    """RP-PAD-LIMIT and RP-VALUES fail on atlas-a2, RP-NONCONTIGUOUS and KL-REDUCTION are
    unspecified, one KL item errors; RP is not applicable on atlas-inference (from the specs)."""
    boundary = f"{RP}/{A2}/boundary/all"
    pad_case = {"gradOutput": "FLOAT[1,1,2,2,7]", "self": "FLOAT[1,1,2,2,2]", "padding": [4, 1, 0, 0, 0, 0],
                "gradInput": "FLOAT[1,1,2,2,2]"}
    numerics = f"{RP}/{A2}/FLOAT16/numerics"
    values_case = {"gradOutput": "FLOAT16[1,3,4,1]", "self": "FLOAT16[1,2,3,1]",
                   "padding": [0, 0, 1, 0, 1, 0], "gradInput": "FLOAT16[1,2,3,1]"}
    return [
        _record(boundary, 12, {("RP-NULL", "status", "pass"): 4, ("RP-PAD-LIMIT", "status", "fail"): 3,
                               ("RP-PAD-LIMIT", "status", "pass"): 2,
                               ("RP-VALUES", "inputs-unchanged", "pass"): 6},
                findings=[_finding("RP-PAD-LIMIT", "status", PAD_MESSAGE, boundary, case=pad_case,
                                   origin="breaks RP-PAD-LIMIT (max)", status=0)]),
        _record(numerics, 22, {("RP-VALUES", "numerics", "pass"): 20, ("RP-VALUES", "numerics", "fail"): 2},
                numerics={("FLOAT16", -25): 5, ("FLOAT16", -3): 15, ("FLOAT16", 1): 2},
                findings=[_finding("RP-VALUES", "numerics", VALUES_MESSAGE, numerics, case=values_case,
                                   origin="valid FLOAT16", numerics=VERDICT)]),
        _record(f"{RP}/{A2}/FLOAT/status", 10, {("RP-PHASE", "status", "pass"): 10}),
        _record(f"{RP}/{A2}/RP-NONCONTIGUOUS/status", 7, {("RP-NONCONTIGUOUS", "unspecified", "observed"): 7},
                observations={("RP-NONCONTIGUOUS", "accepted, differs from the reference"): 3,
                              ("RP-NONCONTIGUOUS", "accepted, matches the reference"): 4}),
        _record(f"{KL}/{A2}/KL-NULL/status", 33, {("KL-NULL", "status", "pass"): 33}),
        _record(f"{KL}/{A2}/FLOAT/numerics", 25, {("KL-VALUES", "numerics", "pass"): 25},
                numerics={("FLOAT", -25): 10, ("FLOAT", -20): 15}),
        _record(f"{KL}/{INF}/FLOAT/numerics", 25, {("KL-VALUES", "numerics", "pass"): 25},
                numerics={("FLOAT", -22): 25}),
        _record(f"{KL}/{INF}/KL-REDUCTION/status", 9, {("KL-REDUCTION", "unspecified", "observed"): 9},
                observations={("KL-REDUCTION", "rejected with 161002 (ACLNN_ERR_PARAM_INVALID)"): 9}),
        _record(f"{KL}/{INF}/FLOAT16/determinism", 0, {}, error=ERROR),
    ]


def sample_report(specs):
    """A report with findings, observations, not-applicable cells and an item error."""
    cfg, backend = resolve(specs, "reference", [A2, INF], [KL, RP], profile="quick", seed=7)
    meta = {**cfg.meta(specs, backend), "backend": BACKEND}  # the real clauses, dtypes, not-applicable
    return build_report(meta, records(), 83.4)


@pytest.fixture(scope="module")
def report(specs):
    return sample_report(specs)


@pytest.fixture(scope="module")
def html(report):
    return render_html(report)
