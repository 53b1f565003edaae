"""torch_npu (the Ascend PyTorch plugin) behind the adapter protocol: the torch backend on an NPU.

The mapping is torch_backend.py's, unchanged: the same aten ops with the same arguments, run on
``npu:N``. Inputs are copied from the host views to the device and results copied back into the
output views, so the guard checks see only what lands in the outputs. The product line is not
assumed: it comes from the device's SoC name, looked up in the spec vocabulary (the one list of
SoC names), so a run on an Ascend910B3 is judged as atlas-a2.

torch_npu is optional and imported only when the backend is constructed; without it, or without
a visible NPU, construction raises ``UsageError`` and ``conformance run --backend torch_npu``
exits 2 with that one line.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import torch

from conformance.backends.protocol import CallResult
from conformance.backends.torch_backend import OPERATORS, dispatch
from conformance.errors import UsageError
from conformance.spec.loader import read_shipped_specs
from conformance.spec.vocabulary import Vocabulary

MODULE = "torch_npu"


def _first_line(exc: BaseException) -> str:
    # Import failures of native stacks carry multi-line messages; the CLI promises one line.
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def import_torch_npu() -> ModuleType:
    """The torch_npu module; ``UsageError`` (one line) when it is absent or cannot be imported."""
    try:
        return importlib.import_module(MODULE)
    except ModuleNotFoundError as exc:
        if exc.name == MODULE:
            raise UsageError("torch_npu is not installed (the Ascend PyTorch plugin; "
                             "see https://gitee.com/ascend/pytorch)") from None
        raise UsageError(f"torch_npu cannot be imported: {_first_line(exc)}") from None
    except Exception as exc:  # noqa: BLE001 - missing CANN libraries, torch version mismatch, ...
        raise UsageError(f"torch_npu cannot be imported: {_first_line(exc)}") from None


def npu_index(npu: Any, index: int | None = None) -> int:
    """The device index to run on (default: torch_npu's current device); ``UsageError`` when there
    is no NPU, or not that one. ``npu`` is ``torch_npu.npu``."""
    try:
        count = int(npu.device_count()) if npu.is_available() else 0
    except Exception as exc:  # noqa: BLE001 - a driver that cannot be queried means no usable device
        raise UsageError(f"no NPU device: {_first_line(exc)}") from None
    if count < 1:
        raise UsageError("no NPU device (torch_npu is installed, but torch_npu.npu.is_available() is False)")
    chosen = int(npu.current_device()) if index is None else int(index)
    if not 0 <= chosen < count:
        raise UsageError(f"no NPU device npu:{chosen} ({count} visible)")
    return chosen


def product_of_soc(soc: str, vocabulary: Vocabulary | None = None) -> str:
    """The product id of an Ascend SoC name (Ascend910B3 -> atlas-a2); ``UsageError`` when the
    vocabulary does not list it. No prefix guessing: Ascend910 is training, Ascend910B is A2."""
    vocab = vocabulary or read_shipped_specs().vocabulary
    product = vocab.product(soc)
    if product is None:
        raise UsageError(f"NPU SoC {soc!r} is not listed under any product line in "
                         "specs/vocabulary.yaml (products: " + ", ".join(vocab.products) + ")")
    return product


class TorchNpuBackend:
    """The torch mapping on one NPU; ``product`` is the device's product line."""

    name = "torch_npu"
    product: str | None = None

    def __init__(self, index: int | None = None) -> None:
        module = import_torch_npu()
        chosen = npu_index(module.npu, index)
        if hasattr(module.npu, "set_device"):
            module.npu.set_device(chosen)  # bind this process to that device, not the default 0
        self.device: str = f"npu:{chosen}"
        self.soc: str | None = str(module.npu.get_device_name(chosen))
        self.product = product_of_soc(self.soc)
        self.version = f"torch_npu {getattr(module, '__version__', 'unknown')}, torch {torch.__version__}"

    @classmethod
    def _on_device(cls, device: str, product: str | None = None) -> TorchNpuBackend:
        """Test seam: the same backend on any torch device (tests use "cpu"), without torch_npu.

        Not for runs: nothing checks that ``device`` exists or that ``product`` is its SoC's.
        """
        backend = cls.__new__(cls)
        backend.device, backend.soc, backend.product = device, None, product
        backend.version = f"torch {torch.__version__} on {device}"
        return backend

    def supports(self, api: str) -> bool:
        return api in OPERATORS  # the torch backend's table: one mapping for both

    def call(self, api: str, args: dict[str, Any]) -> CallResult:
        return dispatch(self.name, api, args, self.device)
