"""A serial run and a ``-n 2`` run with the same seed report the same findings and results."""
from __future__ import annotations

import json
from pathlib import Path

import conformance

MUTANT = f"{Path(__file__).with_name('mutants.py')}:SwappedLeftRight"


def _essence(report):
    findings = sorted(json.dumps({k: v for k, v in f.items() if k not in ("case_file", "replay")},
                                 sort_keys=True) for f in report["findings"])
    rows = [(r["api"], r["product"], r["clause"], r["kind"], r["cases"], r["failed"], r["outcome"])
            for r in report["results"]]
    return findings, rows, report["stats"]["cases"]


def test_serial_and_parallel_runs_agree(tmp_path):
    kw = dict(profile="quick", ops=["aclnnReplicationPad3dBackward"], max_examples=5, seed=3, isolate=False)
    serial = conformance.run_suite(MUTANT, report_dir=tmp_path / "serial", **kw)
    parallel = conformance.run_suite(MUTANT, report_dir=tmp_path / "parallel", workers="2", **kw)
    assert serial["outcome"] == parallel["outcome"] == "nonconformant"
    assert serial["findings"] and _essence(serial) == _essence(parallel)
