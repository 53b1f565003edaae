"""The adapter example of the README loads and computes the KL worked example."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from conformance.backends.loading import load_backend
from conformance.tensor import Tensor

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
