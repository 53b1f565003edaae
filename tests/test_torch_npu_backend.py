"""The torch_npu backend without an NPU: its mapping on CPU (through the ``_on_device`` test seam),
the SoC -> product mapping, and the clean usage errors when torch_npu or a device is missing.

A fake ``torch_npu`` module in ``sys.modules`` stands in for the plugin where the import and
device detection are under test; no test runs a kernel on an NPU.
"""
from __future__ import annotations

import sys
import types

import pytest
from requirements import import_or_skip  # noqa: E402

torch = import_or_skip("torch")

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

from conformance.backends.protocol import CallResult  # noqa: E402
from conformance.backends.torch_npu_backend import (  # noqa: E402
    TorchNpuBackend,
    import_torch_npu,
    npu_index,
    product_of_soc,
)
from conformance.cases.tensor import Tensor  # noqa: E402
from conformance.cli.main import main  # noqa: E402
from conformance.errors import UsageError  # noqa: E402

RP = "aclnnReplicationPad3dBackward"
KL = "aclnnKlDivBackward"
OK, NULLPTR = CallResult(0, 2), CallResult(161001, 1)
BF16 = np.dtype(ml_dtypes.bfloat16)


@pytest.fixture
def cpu_backend() -> TorchNpuBackend:
    return TorchNpuBackend._on_device("cpu", product="atlas-a2")


def fake_torch_npu(*, available: bool = True, count: int = 2, current: int = 0,
                   soc: str = "Ascend910B3") -> types.ModuleType:
    """A stand-in for the plugin: only what the backend asks of ``torch_npu.npu``."""
    module = types.ModuleType("torch_npu")
    module.__version__ = "0.0.fake"
    module.bound = []  # the devices set_device was called with
    module.npu = types.SimpleNamespace(
        is_available=lambda: available, device_count=lambda: count if available else 0,
        current_device=lambda: current, set_device=module.bound.append,
        get_device_name=lambda index: soc)
    return module


@pytest.fixture
def no_torch_npu(monkeypatch):
    # None in sys.modules makes ``import torch_npu`` fail even where the plugin is installed.
    monkeypatch.setitem(sys.modules, "torch_npu", None)


# The mapping, on CPU tensors

def test_kl_worked_example(cpu_backend):
    x = np.array([[2, 3], [5, 8]], np.float32)
    args = {"gradOutput": Tensor(x), "self": Tensor(x.copy()), "target": Tensor(x.copy()),
            "reduction": 0, "logTarget": False, "out": Tensor(np.full((2, 2), np.nan, np.float32))}
    assert cpu_backend.call(KL, args) == OK
    np.testing.assert_array_equal(args["out"].array, [[-4, -9], [-25, -64]])


def pad_args(dtype=np.float32, grad_input: Tensor | None = None) -> dict:
    shape = (1, 1, 2, 2, 2)
    return {"gradOutput": Tensor(np.ones((1, 1, 4, 4, 4), dtype)), "self": Tensor(np.zeros(shape, dtype)),
            "padding": (1,) * 6, "gradInput": grad_input or Tensor(np.full(shape, np.nan, dtype))}


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16, np.float64])
def test_pad_worked_example(cpu_backend, dtype):
    args = pad_args(dtype)
    assert cpu_backend.call(RP, args) == OK
    assert args["gradInput"].array.dtype == dtype
    np.testing.assert_array_equal(args["gradInput"].array.astype(np.float32), np.full((1, 1, 2, 2, 2), 8))


def test_pad_result_lands_in_strided_output_view(cpu_backend):
    storage = np.full(40, np.nan, np.float32)
    view = storage[3:3 + 16:2].reshape(1, 1, 2, 2, 2)  # every other element, after an offset
    assert not view.flags.c_contiguous
    args = pad_args(grad_input=Tensor(view, storage))
    assert cpu_backend.call(RP, args) == OK
    np.testing.assert_array_equal(view, np.full((1, 1, 2, 2, 2), 8, np.float32))
    untouched = np.ones(40, bool)
    untouched[3:3 + 16:2] = False
    assert np.isnan(storage[untouched]).all()


def test_kl_transposed_inputs_into_strided_output(cpu_backend):
    rng = np.random.default_rng(3)
    self_, target, grad = (rng.uniform(-2, 2, (3, 4)).astype(np.float32).T for _ in range(3))
    storage = np.full(32, np.nan, np.float32)
    out = np.lib.stride_tricks.as_strided(storage[1:], shape=(4, 3), strides=(24, 8))
    args = {"gradOutput": Tensor(grad), "self": Tensor(self_), "target": Tensor(target),
            "reduction": 0, "logTarget": True, "out": Tensor(out, storage)}
    assert cpu_backend.call(KL, args) == OK
    np.testing.assert_allclose(out, -np.exp(target) * grad, rtol=1e-6)
    assert np.isnan(storage[0]) and np.isnan(storage[2])  # between the view's elements


def test_null_is_reported_before_any_device_copy(cpu_backend):
    args = pad_args()
    args["self"] = None
    assert cpu_backend.call(RP, args) == NULLPTR
    assert np.isnan(args["gradInput"].array).all()


def test_unknown_api_is_a_programming_error(cpu_backend):
    with pytest.raises(ValueError, match="unknown api"):
        cpu_backend.call("aclnnAdd", {})


def test_calls_run_on_the_backend_device(cpu_backend, monkeypatch):
    """Every input handed to aten is on ``backend.device`` (the NPU in a real run)."""
    seen = []
    real = torch.ops.aten.replication_pad3d_backward

    def spy(grad, self_, padding):
        seen.extend([grad.device, self_.device])
        return real(grad, self_, padding)

    monkeypatch.setattr(torch.ops.aten, "replication_pad3d_backward", spy)
    assert cpu_backend.call(RP, pad_args()) == OK
    assert seen == [torch.device("cpu")] * 2


# SoC name -> product line (specs/vocabulary.yaml)

@pytest.mark.parametrize("soc, product", [("Ascend910B3", "atlas-a2"), ("Ascend910", "atlas-training"),
                                          ("Ascend910_9391", "atlas-a3"), ("Ascend310P3", "atlas-inference"),
                                          ("ascend910b4", "atlas-a2")])
def test_soc_maps_to_product(soc, product):
    assert product_of_soc(soc) == product


@pytest.mark.parametrize("soc", ["Ascend999", "Ascend910B9", ""])
def test_unknown_soc_is_usage_error(soc):
    with pytest.raises(UsageError, match="not listed under any product line"):
        product_of_soc(soc)


# Import and device detection (a fake torch_npu)

def test_fake_npu_gives_device_and_product(monkeypatch):
    fake = fake_torch_npu(current=1, soc="Ascend910B3")
    monkeypatch.setitem(sys.modules, "torch_npu", fake)
    backend = TorchNpuBackend()
    assert (backend.device, backend.soc, backend.product) == ("npu:1", "Ascend910B3", "atlas-a2")
    assert fake.bound == [1]
    assert "0.0.fake" in backend.version


def test_explicit_index_and_training_soc(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch_npu", fake_torch_npu(soc="Ascend910"))
    backend = TorchNpuBackend(index=1)
    assert (backend.device, backend.product) == ("npu:1", "atlas-training")


def test_index_out_of_range_is_usage_error():
    with pytest.raises(UsageError, match=r"no NPU device npu:2 \(2 visible\)"):
        npu_index(fake_torch_npu().npu, 2)


def test_no_device_is_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch_npu", fake_torch_npu(available=False))
    with pytest.raises(UsageError, match="no NPU device"):
        TorchNpuBackend()


def test_driver_error_is_no_device(monkeypatch):
    fake = fake_torch_npu()

    def broken() -> bool:
        raise RuntimeError("drvGetDevNum failed\nmore detail")

    fake.npu.is_available = broken
    monkeypatch.setitem(sys.modules, "torch_npu", fake)
    with pytest.raises(UsageError, match="no NPU device: RuntimeError: drvGetDevNum failed$"):
        TorchNpuBackend()


def test_unknown_soc_on_device_is_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch_npu", fake_torch_npu(soc="Ascend999"))
    with pytest.raises(UsageError, match="'Ascend999'"):
        TorchNpuBackend()


def test_missing_torch_npu_is_usage_error(no_torch_npu):
    with pytest.raises(UsageError, match="^torch_npu is not installed"):
        TorchNpuBackend()


def test_broken_install_is_one_line_usage_error(monkeypatch, tmp_path):
    # A plugin that is present but fails to load (e.g. CANN's shared libraries are missing).
    (tmp_path / "torch_npu.py").write_text("raise OSError('libascendcl.so: cannot open\\nshared object')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "torch_npu", raising=False)
    with pytest.raises(UsageError) as err:
        import_torch_npu()
    assert str(err.value) == "torch_npu cannot be imported: OSError: libascendcl.so: cannot open"


@pytest.mark.slow
def test_cli_run_exits_2_with_one_line(no_torch_npu, tmp_path, capsys):
    assert main(["run", "--backend", "torch_npu", "--report-dir", str(tmp_path), "-q"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "torch_npu is not installed" in lines[0]
    assert "Traceback" not in captured.err + captured.out
