"""Two runs into one report dir: the second is refused with one line naming the dir and the first
run's pid, and changes nothing (it once cleared the first run's journal/ and cases/ silently)."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import KL

from conformance.cli.main import main
from conformance.errors import UsageError
from conformance.run.lock import LOCK_FILE, ReportDirLock
from conformance.run.selection import WRITTEN

QUICK = ["run", "--profile", "quick", "--op", KL, "-k", "KL-NULL", "-q"]
HOLD = """
import sys
from conformance.run.lock import ReportDirLock
ReportDirLock(sys.argv[1]).acquire()
print("held", flush=True)
sys.stdin.read()  # until the test closes our stdin
"""


def _files(root: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def held(tmp_path):
    """A report dir with an earlier run's reports, locked by another process: (dir, its pid)."""
    out = tmp_path / "reports"
    assert main([*QUICK, "--report-dir", str(out)]) == 0
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        yield out, holder.pid
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)


@pytest.mark.slow
def test_a_second_conformance_run_is_refused_and_touches_nothing(held):
    out, pid = held
    before = _files(out)
    done = subprocess.run([sys.executable, "-m", "conformance.cli.main", *QUICK, "--report-dir", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"conformance: error: --report-dir {out}: another conformance run "
                                   f"(pid {pid}) is writing there; wait for it to end or give another "
                                   "directory (nothing was changed)")
    assert _files(out) == before  # journal/, cases, reports and the lock file as they were


@pytest.mark.slow
def test_a_bare_pytest_run_is_refused_too(held):
    out, pid = held
    before = _files(out)
    done = subprocess.run([sys.executable, "-m", "pytest", "--pyargs", "conformance.suite",
                           "--conformance-profile", "quick", "--conformance-report-dir", str(out)],
                          capture_output=True, text=True, timeout=600, cwd=out.parent)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR
    assert f"another conformance run (pid {pid}) is writing there" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert _files(out) == before


def test_the_lock_is_released_when_the_holder_ends_however_it_ends(tmp_path):
    out = tmp_path / "r"
    killed = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert killed.stdout.readline().strip() == "held"
    killed.kill()  # no cleanup of its own: the kernel drops the lock
    killed.wait(timeout=60)
    killed.stdin.close()
    with ReportDirLock(out):
        assert (out / LOCK_FILE).read_text() == f"{os.getpid()}\n"
    assert (out / LOCK_FILE).read_text() == ""  # released: no pid of a run that is over


def test_a_run_that_pytest_leaves_by_an_exception_releases_the_lock(tmp_path, monkeypatch):
    import pytest as real_pytest

    def interrupted(argv):
        raise KeyboardInterrupt

    monkeypatch.setattr(real_pytest, "main", interrupted)
    assert main([*QUICK, "--report-dir", str(tmp_path / "r")]) == 130  # "conformance: interrupted"
    ReportDirLock(tmp_path / "r").acquire()  # free again


def test_a_bare_pytest_run_releases_its_lock_also_on_a_usage_error(tmp_path, monkeypatch):
    out = tmp_path / "r"
    assert main([*QUICK, "--report-dir", str(out)]) == 0
    monkeypatch.chdir(tmp_path)
    rc = pytest.main(["--pyargs", "conformance.suite", "-p", "no:cacheprovider", "--conformance-resume",
                      "--conformance-profile", "thorough", "--conformance-report-dir", str(out)])
    assert rc == pytest.ExitCode.USAGE_ERROR  # resumed with other options: refused after the lock
    ReportDirLock(out).acquire()


def test_within_one_process_a_second_lock_is_refused(tmp_path):
    first = ReportDirLock(tmp_path)
    first.acquire()
    with pytest.raises(UsageError, match=rf"--report-dir {tmp_path}: another conformance run "
                                         rf"\(pid {os.getpid()}\)"):
        ReportDirLock(tmp_path).acquire()
    first.release()
    ReportDirLock(tmp_path).acquire()


def test_a_run_never_lists_the_lock_file_as_its_own_to_clear():
    assert LOCK_FILE not in WRITTEN


@pytest.mark.slow
def test_two_real_runs_one_refused_and_the_first_finishes_whole(tmp_path):
    """A run against a slow backend holds the dir; a second `conformance run` there is exit 2
    naming the first's pid, and the first run's reports are whole (nothing of it was cleared)."""
    adapter = tmp_path / "slow.py"
    adapter.write_text("import time\nfrom conformance.backends.reference import ReferenceBackend\n\n\n"
                       "class Slow(ReferenceBackend):\n    def call(self, *a, **k):\n"
                       "        time.sleep(0.05)\n        return super().call(*a, **k)\n")
    out = tmp_path / "same"
    cli = [sys.executable, "-m", "conformance.cli.main", "run", "--profile", "quick", "--op", KL,
           "--no-isolate", "-q", "--report-dir", str(out)]
    first = subprocess.Popen([*cli, "--backend", f"{adapter}:Slow", "-k", "FLOAT16 and not large"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    journal = out / "journal"
    while not any(journal.glob("*.jsonl")) and first.poll() is None:  # until it runs items
        time.sleep(0.05)
    second = subprocess.run(cli, capture_output=True, text=True, timeout=600)
    stdout, stderr = first.communicate(timeout=600)
    assert first.returncode == 0, stderr
    assert second.returncode == 2
    assert f"another conformance run (pid {first.pid}) is writing there" in second.stderr
    assert "8 items" in stdout  # every item of the first run is in its report
