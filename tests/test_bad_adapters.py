"""Bad adapters: each one gives a finding or a usage error (exit 2) that names the backend and says
what it did; never a traceback."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import KL

from conformance.cli.main import main

ADAPTERS = Path(__file__).with_name("bad_adapters.py")
RUN = ["run", "--profile", "quick", "--op", KL, "--max-examples", "2", "-q"]


def _run(tmp_path, name, *extra):
    rc = main([*RUN, "--backend", f"{ADAPTERS}:{name}", "--report-dir", str(tmp_path), *extra])
    report = json.loads((tmp_path / "report.json").read_text()) if rc in (0, 1) else None
    return rc, report


@pytest.mark.parametrize("name, backend, message", [
    ("ReturnsString", "returns-string", "returned '0' (str); call() must return an int status"),
    ("ReturnsNone", "returns-none", "returned None (NoneType); call() must return an int status"),
    ("RebindsOutputDtype", "rebinds-dtype", "rebound out.array to a float64 array of shape"),
    ("RebindsOutputShape", "rebinds-shape", "rebound out.array to a"),
    ("ReplacesOutput", "replaces-output", "replaced the argument 'out' with ndarray"),
    ("Raises", "raises", "raised RuntimeError: kernel not found for this dtype"),
])
@pytest.mark.slow
def test_protocol_breaks_are_crash_findings_naming_the_backend(tmp_path, name, backend, message):
    rc, report = _run(tmp_path, name, "--no-isolate")
    assert rc == 1 and report["outcome"] == "nonconformant"
    crashes = [f for f in report["findings"] if f["kind"] == "crash"]
    assert crashes and {f["kind"] for f in report["findings"]} == {"crash"}
    assert all(f"backend {backend!r} {message}" in f["message"] for f in crashes), crashes[0]["message"]


@pytest.mark.slow
def test_protocol_breaks_are_found_in_an_isolated_worker_too(tmp_path):
    rc, report = _run(tmp_path, "RebindsOutputDtype", "--isolate")
    assert rc == 1
    messages = {f["message"].split(" [")[0] for f in report["findings"]}
    assert messages and all("'rebinds-dtype' rebound out.array to a float64 array" in m for m in messages)


@pytest.mark.parametrize("name, message", [
    ("NoName", "NoName has no string attribute 'name'"),
    ("NoCall", "NoCall has no call(api, args) method"),
    ("FailsToConstruct", "FailsToConstruct() failed: OSError: libvendor.so: cannot open shared object"),
    ("Missing", "has no attribute 'Missing'"),
])
@pytest.mark.slow
def test_unusable_adapters_are_usage_errors(tmp_path, capsys, name, message):
    rc, _ = _run(tmp_path, name)
    err = capsys.readouterr().err
    assert rc == 2 and message in err and f"--backend {ADAPTERS}:{name}" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_an_adapter_file_that_does_not_import_is_a_usage_error(tmp_path, capsys):
    broken = tmp_path / "broken.py"
    broken.write_text("import vendor_sdk_that_is_not_installed\n")
    rc = main([*RUN, "--backend", f"{broken}:X", "--report-dir", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert rc == 2 and "cannot import" in err and "No module named 'vendor_sdk_that_is_not_installed'" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("isolate", ["--no-isolate", pytest.param("--isolate", marks=pytest.mark.slow)])
def test_a_raising_backend_keeps_its_traceback_in_the_finding_and_the_html(tmp_path, isolate):
    rc, report = _run(tmp_path, "Raises", isolate, "-k", "boundary")
    assert rc == 1
    trace = report["findings"][0]["details"]["traceback"]
    assert trace.startswith("Traceback") and 'raise RuntimeError("kernel not found for this dtype")' in trace
    assert trace.rstrip().endswith("RuntimeError: kernel not found for this dtype")
    html = (tmp_path / "report.html").read_text()
    assert "the backend's traceback" in html and "RuntimeError: kernel not found for this dtype" in html
