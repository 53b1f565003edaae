"""PyTorch (CPU) behind the adapter protocol: every API mapped onto torch the way a vendor would.

The adapter only translates: arguments to torch, torch's answer back into the output views
(``torch_common``). It adds no validation torch lacks (the point is to report where torch differs
from the aclnn documents), with one exception: it refuses calls on which torch would read outside
gradOutput's memory.
"""
from __future__ import annotations

import warnings
from typing import Any

import torch

from conformance.backends.protocol import CallResult
from conformance.backends.torch_bce_nll import BCE_NLL_OPERATORS
from conformance.backends.torch_common import (
    INVALID,
    NULLPTR,
    REDUCTIONS,
    loss_gradient,
    to_torch,
    torch_call,
    write_output,
)
from conformance.backends.torch_losses import LOSS_OPERATORS
from conformance.backends.torch_pads import PAD_OPERATORS

PAD = "aclnnReplicationPad3dBackward"
KL = "aclnnKlDivBackward"


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

    def supports(self, api: str) -> bool:
        return api in OPERATORS

    def call(self, api: str, args: dict[str, Any]) -> CallResult:
        return dispatch(self.name, api, args)


#: The aten mapping of each api, shared by the torch and torch_npu backends.
OPERATORS = {PAD: replication_pad3d_backward, KL: kl_div_backward, **LOSS_OPERATORS, **PAD_OPERATORS,
             **BCE_NLL_OPERATORS}


def dispatch(backend: str, api: str, args: dict[str, Any], device: str | None = None) -> CallResult:
    """Call ``api``'s aten mapping (on ``device``, when given)."""
    run = OPERATORS.get(api)
    if run is None:
        raise ValueError(f"{backend} backend: unknown api {api!r} (known: {', '.join(OPERATORS)})")
    return run(args, device)
