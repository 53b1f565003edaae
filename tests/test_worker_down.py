"""A conformance run whose xdist workers die is reported incomplete, naming why: never 'empty'
(the verdict of a shard holding no item), which would say nothing was there to judge."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

_KILLER = '''
import os
def pytest_configure(config):
    if hasattr(config, "workerinput"):  # an xdist worker of this session, not its controller
        os._exit(3)
'''


@pytest.mark.slow
def test_workers_that_die_at_start_make_the_run_incomplete(tmp_path):
    (tmp_path / "killworkers.py").write_text(_KILLER)
    report_dir = tmp_path / "rep"
    # run under xdist itself, this test's own worker variables must not reach the inner session
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--pyargs", "conformance.suite", "-q", "-n", "2",
         "--max-worker-restart", "0", "-p", "killworkers", "--conformance-profile", "quick",
         "--conformance-op", "aclnnKlDivBackward", "--conformance-report-dir", str(report_dir)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    report = json.loads((report_dir / "report.json").read_text())
    assert report["outcome"] == "incomplete", done.stdout[-2000:]
    assert report["stats"]["items"] == 0
    # one line per reason, the workers sorted (xdist may stop before the second one is reported)
    down = r"(2 xdist worker\(s\) went down \(gw0, gw1\)|1 xdist worker\(s\) went down \(gw[01]\)): "
    assert re.match(down, report["stopped"]), report["stopped"]
    assert "conformance: incomplete" in done.stdout


def _document(**extra):
    return {"items": [], "findings": [], "errors": [], "results": [], **extra}


def test_a_stopped_run_that_judged_nothing_is_incomplete_not_empty():
    from conformance.report.outcome import run_outcome
    assert run_outcome(_document()) == "empty"
    assert run_outcome(_document(stopped="2 xdist worker(s) went down (gw0, gw1): boom")) == "incomplete"
    assert run_outcome(_document(stopped="interrupted")) == "incomplete"
