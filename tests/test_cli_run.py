"""``conformance run`` and ``conformance replay`` end to end, in-process."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from conformance.cli.main import main
from conformance.generate.dry_run import shipped_specs

WRONG_NULL = '''
from conformance.backends.reference import ReferenceBackend


class WrongNullCode(ReferenceBackend):
    """Answers a null pointer with ACLNN_ERR_PARAM_INVALID instead of ACLNN_ERR_PARAM_NULLPTR."""

    name = "wrong-null"

    def call(self, api, args, product=None):
        if any(v is None for v in args.values()):
            return 161002
        return super().call(api, args, product)
'''


def _run(capsys, *argv):
    rc = main(["run", *argv])
    return rc, capsys.readouterr()


@pytest.mark.slow
def test_reference_is_conformant_on_every_product_in_the_quick_profile(tmp_path, capsys):
    products = ["atlas-training", "atlas-inference", "atlas-a2", "atlas-a3"]
    argv = ["--profile", "quick", "--report-dir", str(tmp_path), "--op", "aclnnKlDivBackward",
            "--op", "aclnnReplicationPad3dBackward"]  # (every operator: tests/test_every_operator.py)
    for p in products:
        argv += ["--product", p]
    rc, out = _run(capsys, *argv)
    assert rc == 0, out.out[-3000:]
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["outcome"] == "conformant" and report["findings"] == [] and report["errors"] == []
    assert report["products"] == products and report["profile"] == "quick"
    assert {(r["api"], r["product"]) for r in report["results"] if r["outcome"] == "not-applicable"} == {
        ("aclnnReplicationPad3dBackward", "atlas-inference")}
    ran = {(r["api"], r["product"]) for r in report["results"] if r["cases"]}
    specs = shipped_specs()
    assert ran == {(api, p) for api in report["apis"] for p in products if p in specs.operator(api).products}
    assert report["stats"]["cases"] > 5000 and report["stats"]["cases_per_second"] > 0
    junit = ET.parse(tmp_path / "junit.xml").getroot()[0]
    assert int(junit.get("tests")) == len(report["results"]) and junit.get("failures") == "0"
    assert "✅ conformant" in (tmp_path / "summary.md").read_text()


@pytest.mark.parametrize("argv,message", [
    (["--backend", "nosuch"], "--backend nosuch: not a registered backend"),
    (["--product", "atlas-z9"], "--product atlas-z9: unknown product 'atlas-z9'"),
    (["--op", "aclnnAdd"], "--op aclnnAdd: unknown operator"),
    (["--max-examples", "0"], "--max-examples 0: must be at least 1"),
    (["-k", "no-such-item", "--profile", "quick"], "no test item was selected"),
])
def test_usage_errors_exit_2(tmp_path, capsys, argv, message):
    rc, out = _run(capsys, *argv, "--report-dir", str(tmp_path))
    assert rc == 2 and message in out.err and "Traceback" not in out.err


@pytest.mark.slow
def test_backend_product_cannot_be_contradicted(tmp_path, capsys):
    path = tmp_path / "b.py"
    path.write_text(WRONG_NULL + "\n\nclass OnTraining(WrongNullCode):\n    product = 'atlas-training'\n")
    rc, out = _run(capsys, "--backend", f"{path}:OnTraining", "--product", "atlas-a2")
    assert rc == 2 and "says it is atlas-training; it cannot be tested as atlas-a2" in out.err


@pytest.mark.slow
def test_finding_is_saved_replayed_and_reproducible(tmp_path, capsys):
    backend = tmp_path / "wrong_null.py"
    backend.write_text(WRONG_NULL)
    spec = f"{backend}:WrongNullCode"
    argv = ["--backend", spec, "--profile", "quick", "--op", "aclnnReplicationPad3dBackward",
            "-k", "RP-NULL", "--seed", "7", "--no-isolate"]
    rc, out = _run(capsys, *argv, "--report-dir", str(tmp_path / "a"))
    assert rc == 1
    report = json.loads((tmp_path / "a" / "report.json").read_text())
    null = [f for f in report["findings"] if f["clause"] == "RP-NULL" and f["kind"] == "status"]
    assert null and all("returned 161002 (ACLNN_ERR_PARAM_INVALID), but should be 161001"
                        in f["message"] for f in null)
    case_file = null[0]["case_file"]
    assert null[0]["replay"] == f"conformance replay {case_file} --backend {spec}"
    assert f"replay: {null[0]['replay']}" in out.out
    assert (tmp_path / "a" / "cases").is_dir() and case_file.endswith(".yaml")
    rc, again = _run(capsys, *argv, "--report-dir", str(tmp_path / "b"))
    second = json.loads((tmp_path / "b" / "report.json").read_text())
    assert [f["message"] for f in second["findings"]] == [f["message"] for f in report["findings"]]

    assert main(["replay", case_file, "--backend", spec]) == 1
    assert capsys.readouterr().out.startswith("STILL FAILING: status RP-NULL: returned 161002")
    assert main(["replay", case_file, "--backend", "reference"]) == 0
    assert capsys.readouterr().out.startswith("FIXED: status RP-NULL no longer fails")


def test_replay_of_a_bad_case_file_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("api: aclnnKlDivBackward\nargs: {self: 3}\n")
    assert main(["replay", str(bad)]) == 2
    assert "bad.yaml" in capsys.readouterr().err


@pytest.mark.slow
def test_waivers_accept_a_known_finding_until_they_expire(tmp_path, capsys):
    backend = tmp_path / "wrong_null.py"
    backend.write_text(WRONG_NULL)
    waivers = tmp_path / "waivers.yaml"
    base = ["--backend", f"{backend}:WrongNullCode", "--profile", "quick", "--op",
            "aclnnReplicationPad3dBackward", "-k", "RP-NULL", "--waivers", str(waivers)]
    waivers.write_text("waivers:\n  - clause: RP-NULL\n    kind: status\n    reason: fixed in 8.1\n"
                       "    expires: 2999-01-01\n  - clause: RP-DTYPE\n    reason: unused\n"
                       "    expires: 2999-01-01\n")
    rc, out = _run(capsys, *base, "--report-dir", str(tmp_path / "a"))
    assert rc == 0, out.out[-2000:]
    assert "WAIVED status RP-NULL" in out.out and "fixed in 8.1 (until 2999-01-01)" in out.out
    assert "STALE WAIVER" in out.out and "RP-DTYPE matched nothing" in out.out
    report = json.loads((tmp_path / "a" / "report.json").read_text())
    assert report["outcome"] == "conformant" and all("waived" in f for f in report["findings"])
    assert [r["outcome"] for r in report["results"] if r["clause"] == "RP-NULL"] == ["waived"]
    assert "| aclnnReplicationPad3dBackward | atlas-a2 |" in (tmp_path / "a" / "summary.md").read_text()

    waivers.write_text(waivers.read_text().replace("2999-01-01", "2020-01-01", 1))
    rc, out = _run(capsys, *base, "--report-dir", str(tmp_path / "b"))
    assert rc == 1 and "EXPIRED WAIVER" in out.out and "FAIL status RP-NULL" in out.out


def test_bad_waiver_file_exits_2_before_the_run(tmp_path, capsys):
    waivers = tmp_path / "w.yaml"
    waivers.write_text("waivers:\n  - clause: RP-NULL\n    expires: 2999-01-01\n")
    rc, out = _run(capsys, "--waivers", str(waivers), "--report-dir", str(tmp_path))
    assert rc == 2 and "w.yaml" in out.err and "reason" in out.err
    assert not (tmp_path / "report.json").exists()
