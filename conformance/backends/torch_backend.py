"""PyTorch (CPU) behind the adapter protocol: both APIs mapped onto torch the way a vendor would.

The adapter only translates: arguments to torch, torch's answer back into the output views. It adds
no validation torch lacks (the point is to report where torch differs from the aclnn documents),
with one exception: it refuses calls on which torch would read outside gradOutput's memory.
Every torch exception is reported as ACLNN_ERR_PARAM_INVALID from phase 1, since aclnn validates
parameters in aclnnXxxGetWorkspaceSize.
"""
from __future__ import annotations

import warnings
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
PAD = "aclnnReplicationPad3dBackward"
KL = "aclnnKlDivBackward"


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


def pad_reads_outside(grad_shape: tuple[int, ...], self_shape: tuple[int, ...]) -> bool:
    """True where torch could index outside gradOutput: it trusts gradOutput's rank and leading dims
    (the last three it checks against self and padding itself, negative padding included)."""
    return len(grad_shape) != len(self_shape) or grad_shape[:-3] != self_shape[:-3]


def replication_pad3d_backward(args: dict[str, Any], device: torch.device | str | None = None) -> CallResult:
    grad, self_, padding, grad_input = (args.get(k) for k in ("gradOutput", "self", "padding", "gradInput"))
    if grad is None or self_ is None or padding is None or grad_input is None:
        return NULLPTR
    if pad_reads_outside(grad.array.shape, self_.array.shape):
        return INVALID  # refuse before torch can read out of bounds

    def run() -> None:
        result = torch.ops.aten.replication_pad3d_backward(
            to_torch(grad.array, device), to_torch(self_.array, device), list(padding))
        write_output(grad_input.array, result)

    return torch_call(run)


def loss_gradient(grad: torch.Tensor, loss: torch.Tensor) -> torch.Tensor:
    """The gradient autograd needs: gradOutput broadcast to the loss (none) or as a 0-d (scalars)."""
    if loss.dim() > 0:
        return torch.broadcast_to(grad, loss.shape)
    if grad.numel() != 1:
        # aclnn takes a gradOutput of B's shape for every reduction; autograd needs a scalar.
        raise ValueError(f"gradOutput {tuple(grad.shape)} for a 0-d loss")
    return grad.reshape(())


def kl_div_backward(args: dict[str, Any], device: torch.device | str | None = None) -> CallResult:
    names = ("gradOutput", "self", "target", "out")
    grad, self_, target, out = (args.get(k) for k in names)
    if grad is None or self_ is None or target is None or out is None:
        return NULLPTR
    reduction = REDUCTIONS.get(args["reduction"])
    if reduction is None:
        return INVALID  # torch.ops.aten.kl_div would silently treat 3 (or any int) as its own enum

    def run() -> None:
        s = to_torch(self_.array, device).clone().requires_grad_(True)
        # aclnn allows mixed input dtypes; a vendor computes in self's dtype, so convert to it.
        t = to_torch(target.array, device).to(s.dtype)
        g = to_torch(grad.array, device).to(s.dtype)
        with warnings.catch_warnings():  # torch warns that "mean" is not "batchmean": by design
            warnings.simplefilter("ignore", UserWarning)
            loss = torch.nn.functional.kl_div(s, t, reduction=reduction, log_target=bool(args["logTarget"]))
        loss.backward(gradient=loss_gradient(g, loss))
        value = s.grad if s.grad is not None else torch.zeros_like(s)  # empty: nothing flowed back
        write_output(out.array, value)

    return torch_call(run)


class TorchBackend:
    name = "torch"
    version = torch.__version__
    product: str | None = None

    def call(self, api: str, args: dict[str, Any]) -> CallResult:
        return dispatch(self.name, api, args)


#: The aten mapping of each api, shared by the torch and torch_npu backends.
OPERATORS = {PAD: replication_pad3d_backward, KL: kl_div_backward}


def dispatch(backend: str, api: str, args: dict[str, Any], device: str | None = None) -> CallResult:
    """Call ``api``'s aten mapping (on ``device``, when given)."""
    run = OPERATORS.get(api)
    if run is None:
        raise ValueError(f"{backend} backend: unknown api {api!r} (known: {', '.join(OPERATORS)})")
    return run(args, device)
