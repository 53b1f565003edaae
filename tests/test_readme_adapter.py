"""The adapter example of the README loads and computes the KL worked example."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from conformance.backends.loading import load_backend
from conformance.cases.tensor import Tensor

pytestmark = pytest.mark.slow  # end-to-end runs: deselect with -m 'not slow'

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_adapter_runs(tmp_path):
    code = re.search(r"```python\n(# my_adapter.py.*?)```", README.read_text(encoding="utf-8"), re.S).group(1)
    path = tmp_path / "my_adapter.py"
    path.write_text(code, encoding="utf-8")
    backend = load_backend(f"{path}:MyBackend")
    data = np.array([[2, 3], [5, 8]], np.float32)
    out = Tensor(np.full((2, 2), np.nan, np.float32))
    result = backend.call("aclnnKlDivBackward", {"gradOutput": Tensor(data), "self": Tensor(data),
                                                 "target": Tensor(data), "reduction": 0,
                                                 "logTarget": False, "out": out})
    assert (backend.name, result.status, result.phase) == ("my-kernel", 0, 2)
    assert out.array.tolist() == [[-4, -9], [-25, -64]]


def test_readme_adapter_runs_through_the_suite(tmp_path):
    code = re.search(r"```python\n(# my_adapter.py.*?)```", README.read_text(encoding="utf-8"), re.S).group(1)
    path = tmp_path / "my_adapter.py"
    path.write_text(code, encoding="utf-8")
    import conformance

    report = conformance.run_suite(f"{path}:MyBackend", profile="quick", ops=["aclnnKlDivBackward"],
                                   max_examples=10, report_dir=tmp_path / "reports")
    assert report["products"] == ["atlas-a2"] and report["errors"] == []
    # the example handles reduction none only and checks nothing but nulls and shapes:
    assert report["outcome"] == "nonconformant"
    found = {(f["clause"], f["kind"]) for f in report["findings"]}
    assert ("KL-PHASE", "status") in found or ("KL-VALUES", "numerics") in found
    assert ("KL-DTYPE", "status") in found  # DOUBLE is accepted
    passed = {(r["clause"], r["kind"]) for r in report["results"] if r["outcome"] == "pass"}
    assert ("KL-NULL", "status") in passed and ("KL-VALUES", "inputs-unchanged") in passed
