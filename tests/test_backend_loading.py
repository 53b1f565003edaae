"""The adapter protocol: loading backends by name, module:attr and file.py:attr; the reference backend."""
from __future__ import annotations

import numpy as np
import pytest

from conformance.backends.loading import load_backend
from conformance.backends.protocol import AdapterError, CallResult, normalize_result
from conformance.backends.reference import ReferenceBackend
from conformance.cases.tensor import Tensor
from conformance.errors import UsageError

ADAPTER = '''
class Echo:
    name = "echo"
    def call(self, api, args):
        return 0
broken = object()
'''


def test_registered_name():
    assert isinstance(load_backend("reference"), ReferenceBackend)


def test_module_attr_and_file(tmp_path):
    assert isinstance(load_backend("conformance.backends.reference:ReferenceBackend"), ReferenceBackend)
    path = tmp_path / "adapter.py"
    path.write_text(ADAPTER, encoding="utf-8")
    assert load_backend(f"{path}:Echo").name == "echo"


@pytest.mark.parametrize("spec,needle", [
    ("nosuch", "not a registered backend"), ("nosuch_module_xyz:Thing", "cannot import nosuch_module_xyz"),
    ("conformance.backends.reference:Missing", "has no attribute 'Missing'"),
    ("/nonexistent/a.py:X", "does not exist")])
def test_bad_backend_specs(spec, needle):
    with pytest.raises(UsageError, match=needle) as info:
        load_backend(spec)
    assert info.value.exit_code == 2


def test_object_without_call(tmp_path):
    path = tmp_path / "adapter.py"
    path.write_text(ADAPTER, encoding="utf-8")
    with pytest.raises(UsageError, match="has no call"):
        load_backend(f"{path}:broken")


def test_normalize_result():
    assert normalize_result(161002, "x") == CallResult(161002)
    with pytest.raises(AdapterError, match="returned '0' \\(str\\); call\\(\\) must return an int"):
        normalize_result("0", "x")
    with pytest.raises(AdapterError):
        normalize_result(True, "x")


def test_reference_backend_worked_examples():
    backend = ReferenceBackend(product="atlas-a2")
    out = Tensor(np.full((1, 1, 2, 2, 2), np.nan, np.float32))
    args = {"gradOutput": Tensor(np.ones((1, 1, 4, 4, 4), np.float32)),
            "self": Tensor(np.zeros((1, 1, 2, 2, 2), np.float32)), "padding": (1,) * 6, "gradInput": out}
    assert backend.call("aclnnReplicationPad3dBackward", args) == CallResult(0, 2)
    assert np.array_equal(out.array, np.full((1, 1, 2, 2, 2), 8, np.float32))
    data = np.array([[2, 3], [5, 8]], np.float32)
    kl_out = Tensor(np.full((2, 2), np.nan, np.float32))
    args = {"gradOutput": Tensor(data), "self": Tensor(data), "target": Tensor(data), "reduction": 0,
            "logTarget": False, "out": kl_out}
    assert backend.call("aclnnKlDivBackward", args).status == 0
    assert kl_out.array.tolist() == [[-4, -9], [-25, -64]]


def test_reference_backend_rejects_in_phase_one_and_leaves_output():
    backend = ReferenceBackend(product="atlas-training")
    out = Tensor(np.full((1, 1, 2, 2, 2), 7, np.float16))
    args = {"gradOutput": Tensor(np.ones((1, 1, 4, 4, 4), np.float16)), "self": None, "padding": (1,) * 6,
            "gradInput": out}
    assert backend.call("aclnnReplicationPad3dBackward", args) == CallResult(161001, 1)
    assert (out.array == 7).all()


def test_reference_backend_rejects_undocumented_reduction():
    backend = ReferenceBackend(product="atlas-a3")
    a = np.ones((2, 2), np.float32)
    args = {"gradOutput": Tensor(a), "self": Tensor(a), "target": Tensor(a), "reduction": 4,
            "logTarget": False, "out": Tensor(a.copy())}
    assert backend.call("aclnnKlDivBackward", args) == CallResult(161002, 1)
