"""The spec-side CLI: explain, specs, lint; exit codes and messages."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cli as run

from conformance.spec.loader import specs_dir

ROOT = Path(__file__).resolve().parent.parent




def test_explain_worked_example_json(capsys):
    code, out, _ = run(capsys, "explain", str(ROOT / "examples/kl_worked_example.yaml"), "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["expected"], data["status"], data["violations"]) == ("success", [0], [])


def test_explain_pad_limit_text_and_soc_alias(capsys):
    code, out, _ = run(capsys, "explain", str(ROOT / "examples/pad_limit.yaml"))
    assert code == 0
    assert "on atlas-training" in out and "161002 (ACLNN_ERR_PARAM_INVALID)" in out
    assert "RP-PAD-LIMIT: padding[1]=4 must be < self.shape[-1]=4" in out


def test_explain_product_override_not_applicable(capsys):
    code, out, _ = run(capsys, "explain", str(ROOT / "examples/pad_limit.yaml"), "--product", "Ascend310P",
                       "--json")
    assert code == 0 and json.loads(out)["expected"] == "not-applicable"


def test_explain_json_error_shape(capsys):
    code, out, _ = run(capsys, "explain", str(ROOT / "examples/pad_null_self.yaml"), "--json")
    data = json.loads(out)
    assert set(data) >= {"api", "product", "expected", "status", "violations"}
    assert data["status"] == [161001]
    assert data["violations"][0]["clause"] == "RP-NULL"
    assert data["violations"][0]["source"]["doc"] == "upstream"


@pytest.mark.parametrize("dtype", ["float16", "ACL_FLOAT16", "fp16", "Float16"])
def test_dtype_spellings(tmp_path, capsys, dtype):
    case = tmp_path / "c.yaml"
    case.write_text(f"""api: aclnnKlDivBackward
product: atlas-training
args:
  gradOutput: {{shape: [2], dtype: {dtype}}}
  self: {{shape: [2], dtype: {dtype}}}
  target: {{shape: [2], dtype: {dtype}}}
  reduction: 1
  logTarget: true
  out: {{shape: [2], dtype: {dtype}}}
""", encoding="utf-8")
    code, out, _ = run(capsys, "explain", str(case), "--json")
    assert code == 0 and json.loads(out)["expected"] == "success"


@pytest.mark.parametrize("body,needle,line", [
    ("api: aclnnNope\nproduct: atlas-a2\nargs: {}\n", "unknown api 'aclnnNope'", 1),
    ("api: aclnnKlDivBackward\nproduct: atlas-x\nargs: {}\n", "unknown product 'atlas-x'", 2),
    ("api: aclnnKlDivBackward\nproduct: atlas-a2\nargs:\n  self: {shape: [2], dtype: INT99}\n",
     "unknown dtype 'INT99'", 4),
    ("api: aclnnKlDivBackward\nproduct: atlas-a2\nargs:\n  slf: null\n", "has no parameter 'slf'", 4),
    ("api: aclnnKlDivBackward\nproduct: atlas-a2\nargs:\n  self: null\n", "missing argument(s)", 3),
    ("api: [\n", "YAML syntax error", 2),
])
def test_bad_case_files(tmp_path, capsys, body, needle, line):
    case = tmp_path / "bad.yaml"
    case.write_text(body, encoding="utf-8")
    code, out, err = run(capsys, "explain", str(case))
    assert code == 2 and out == ""
    assert needle in err and f"bad.yaml:{line}" in err
    assert "Traceback" not in err


def test_missing_case_file(capsys):
    code, _, err = run(capsys, "explain", "/nonexistent/case.yaml")
    assert code == 2 and "cannot read file" in err


def test_bad_command_line(capsys):
    code, _, err = run(capsys, "explain")
    assert code == 2 and "conformance: error:" in err
    code, _, err = run(capsys, "specs", "--api", "aclnnNope")
    assert code == 2 and "--api aclnnNope: unknown operator" in err


def test_specs_lists_every_clause(capsys):
    code, out, _ = run(capsys, "specs")
    assert code == 0
    for cid in ("RP-NULL", "RP-PAD-LIMIT", "RP-EMPTY", "RP-LARGE", "KL-BCAST-GRAD", "KL-RANK", "KL-VALUES"):
        assert cid in out
    assert "Ascend910_93" in out
    assert "reduction (int attr: 0 none, 1 mean, 2 sum, 3 batchmean)" in out  # the spec's named values
    assert "document seed: seeds/004_a0e138b25b8839ed.txt" in out


def test_lint_shipped_and_bad(tmp_path, capsys):
    code, out, _ = run(capsys, "lint")
    assert code == 0 and out.count("ok ") == len(list(specs_dir().glob("*.yaml")))  # specs and vocabulary
    bad = tmp_path / "aclnnBad.yaml"
    bad.write_text("api: aclnnBad\n", encoding="utf-8")
    code, out, _ = run(capsys, "lint", str(bad))
    assert code == 2 and "FAIL" in out and "is required but missing" in out


@pytest.mark.slow
def test_console_entry_point_runs_from_any_directory(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "conformance", "specs", "--api", "aclnnKlDivBackward"],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and "KL-DTYPE-OUT" in proc.stdout
