"""Hand-made item records and run metadata for the report tests: one of each thing a report
shows (a numerics failure, a memory finding seen while shrinking, an observation, an error, a
not-applicable product, review clauses), and the report schema to validate against."""
from __future__ import annotations

import json
from collections import Counter
from importlib.resources import files

import jsonschema

import conformance
from conformance.check.results import Finding, ItemRecord

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


def load_schema():
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
