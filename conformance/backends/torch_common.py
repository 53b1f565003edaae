"""What every torch mapping shares: tensors to torch and back, torch's errors as aclnn status codes.

Every torch exception is reported as ACLNN_ERR_PARAM_INVALID from phase 1, since aclnn validates
parameters in aclnnXxxGetWorkspaceSize.
"""
from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import torch

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult

NULLPTR = CallResult(161001, PHASE_WORKSPACE)   # ACLNN_ERR_PARAM_NULLPTR
INVALID = CallResult(161002, PHASE_WORKSPACE)   # ACLNN_ERR_PARAM_INVALID
SUCCESS = CallResult(0, PHASE_EXECUTE)
TORCH_ERRORS = (RuntimeError, ValueError, TypeError, IndexError, NotImplementedError)
BF16 = np.dtype(ml_dtypes.bfloat16)
REDUCTIONS = {0: "none", 1: "mean", 2: "sum", 3: "batchmean"}


class ShapeMismatch(Exception):
    """torch's result does not fit the output view (torch never saw the output)."""


def to_torch(array: np.ndarray, device: torch.device | str | None = None) -> torch.Tensor:
    """A torch tensor over ``array`` (shared memory where torch can describe the view), copied to
    ``device`` when one is given (None: stay on the host, no copy)."""
    host = _host_tensor(array)
    return host if device is None else host.to(device)


def _host_tensor(array: np.ndarray) -> torch.Tensor:
    if array.dtype == BF16:
        # torch.from_numpy does not know ml_dtypes.bfloat16; the bits are the same as torch's.
        # Reinterpreted on the host: a device may not support the uint16 carrier.
        return _host_tensor(array.view(np.uint16)).view(torch.bfloat16)
    if not array.flags.writeable:
        array = array.copy()  # from_numpy warns on read-only memory; torch never writes inputs
    try:
        return torch.from_numpy(array)
    except ValueError:  # negative strides: torch cannot view them, so copy
        return torch.from_numpy(np.ascontiguousarray(array))


def write_output(out: np.ndarray, value: torch.Tensor) -> None:
    """Write ``value`` into the output view in place, cast to the view's dtype."""
    if tuple(value.shape) != out.shape:
        raise ShapeMismatch(f"result {tuple(value.shape)}, output {out.shape}")
    value = value.detach().cpu()  # a device result is copied back to the host (no-op on CPU)
    if out.dtype.kind != "c" and value.is_complex():
        value = value.real  # a real output keeps the real part, as the reference does
    if out.dtype == BF16:
        bits = value.to(torch.bfloat16).view(torch.int16).numpy()
        out[...] = bits.view(BF16)
        return
    if value.dtype == torch.bfloat16:
        value = value.float()  # numpy has no bfloat16; float32 holds it exactly
    out[...] = value.numpy().astype(out.dtype)


def torch_call(fn: Any, *args: Any) -> CallResult:
    """Run ``fn``; torch's exceptions and unfit results become parameter errors from phase 1."""
    try:
        fn(*args)
    except ShapeMismatch:
        # torch accepted a call whose result does not fit the output (it never checks gradInput /
        # out); aclnn would refuse that shape in GetWorkspaceSize, so this is phase 1, not 2.
        return INVALID
    except TORCH_ERRORS:
        return INVALID
    return SUCCESS


def loss_gradient(grad: torch.Tensor, loss: torch.Tensor) -> torch.Tensor:
    """The gradient autograd needs: gradOutput broadcast to the loss (none) or as a 0-d (scalars)."""
    if loss.dim() > 0:
        return torch.broadcast_to(grad, loss.shape)
    if grad.numel() != 1:
        # aclnn takes a gradOutput of B's shape for every reduction; autograd needs a scalar.
        raise ValueError(f"gradOutput {tuple(grad.shape)} for a 0-d loss")
    return grad.reshape(())
