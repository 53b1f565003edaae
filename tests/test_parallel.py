"""A serial run and a ``-n 2`` run with the same seed report the same findings and results."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import conformance

pytestmark = pytest.mark.slow  # end-to-end runs: deselect with -m 'not slow'

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


COUNTED = '''
import os

from conformance.backends.reference import ReferenceBackend


class Counted(ReferenceBackend):
    """Notes the process of every construction: a real CANN library would aclInit each time."""

    def __init__(self):
        super().__init__()
        with open(os.environ["CONFORMANCE_TEST_CONSTRUCTIONS"], "a") as out:
            out.write(f"{os.getpid()}\\n")
'''


@pytest.mark.parametrize("isolate, workers, most", [(True, "2", 3), (False, None, 1)],
                         ids=["isolated-n2", "in-process"])
def test_the_backend_is_constructed_once_per_process(tmp_path, monkeypatch, isolate, workers, most):
    adapter = tmp_path / "counted.py"
    adapter.write_text(COUNTED)
    log = tmp_path / "constructions.txt"
    monkeypatch.setenv("CONFORMANCE_TEST_CONSTRUCTIONS", str(log))
    report = conformance.run_suite(f"{adapter}:Counted", profile="quick", products=["atlas-a2"],
                                   ops=["aclnnKlDivBackward"], max_examples=2, workers=workers,
                                   isolate=isolate, report_dir=tmp_path / "run")
    assert report["outcome"] == "conformant" and report["stats"]["items"] > 2
    pids = log.read_text().split()
    # isolated -n 2: one probe when the run is resolved, then one worker per pytest worker (one
    # product); before the configuration was resolved once, the plugin and each xdist worker probed
    # again (6). In process: the instance loaded to resolve the run serves its product (2 before).
    assert len(pids) == len(set(pids)), f"a process constructed the backend twice: {pids}"
    assert 1 <= len(pids) <= most, pids
