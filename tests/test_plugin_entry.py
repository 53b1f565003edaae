"""The pytest plugin is a ``pytest11`` entry point: the README's bare ``pytest --pyargs
conformance.suite`` command works as written (it once failed with "unrecognized arguments" unless
``-p conformance.run.pytest_plugin`` was added), and every other pytest session on the machine,
which now loads the plugin too, is left alone."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

README = Path(__file__).parent.parent / "README.md"
CONFORMANCE = Path(__file__).parent.parent / "conformance"
UNRELATED = "def test_unrelated():\n    assert 1 + 1 == 2\n"


def _pytest(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def readme_plugin_command() -> list[str]:
    """The command the README gives for the plugin, word for word."""
    found = re.search(r"The same run is a pytest plugin: `([^`]+)`", README.read_text())
    assert found, "README: the plugin paragraph is gone"
    words = shlex.split(found.group(1))
    assert words[0] == "pytest", words
    return words[1:]


@pytest.mark.slow
def test_the_readme_plugin_command_runs_and_writes_what_it_promises(tmp_path):
    args = readme_plugin_command()
    done = _pytest(args, tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    reports = tmp_path / args[args.index("--conformance-report-dir") + 1]
    assert sorted(p.name for p in reports.iterdir() if p.is_file()) == [
        ".conformance-lock", ".conformance-report", "junit.xml", "report.html", "report.json", "summary.md"]
    report = json.loads((reports / "report.json").read_text())
    assert report["outcome"] == "conformant" and report["backend"]["spec"] == "reference"
    assert report["stats"]["items"] == 4 and report["stats"]["cases"] > 0  # "the four KL-DTYPE items"
    cases = ET.parse(tmp_path / "out.xml").getroot().iter("testcase")
    names = sorted(c.get("name") for c in cases)
    assert len(names) == 4 and all("KL-DTYPE" in n for n in names), names
    assert "conformance: conformant" in done.stdout


@pytest.mark.slow
def test_an_unrelated_session_passes_and_the_plugin_does_nothing(tmp_path):
    (tmp_path / "test_mine.py").write_text(UNRELATED)
    # also named with -p (as the README once said to) and given a conformance option, under xdist
    for extra in ([], ["-p", "conformance.run.pytest_plugin", "--conformance-profile", "quick", "-n", "2"]):
        done = _pytest(["-q", "-p", "no:cacheprovider", "test_mine.py", *extra], tmp_path)
        assert done.returncode == 0 and "1 passed" in done.stdout, (extra, done.stdout, done.stderr)
        assert "conformance:" not in done.stdout, extra  # no run summary: no run
        assert sorted(p.name for p in tmp_path.iterdir()) == ["test_mine.py"], extra  # no reports/


@pytest.mark.slow
def test_the_plugin_adds_its_options_everywhere(tmp_path):
    done = _pytest(["--help"], tmp_path)
    assert done.returncode == 0 and "--conformance-backend" in done.stdout


@pytest.mark.slow
def test_a_session_that_collects_the_suite_without_naming_it_skips_its_items(tmp_path):
    done = _pytest(["-q", "-rs", "-p", "no:cacheprovider", str(CONFORMANCE)], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout and "not a conformance run: use conformance run" in done.stdout
    assert list(tmp_path.iterdir()) == []
