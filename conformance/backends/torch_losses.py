"""The torch mappings of the loss operators (aclnnKlDiv, aclnnMseLossBackward,
aclnnSmoothL1LossBackward), as a vendor would write them: aten where an aten op exists.

Like torch_backend.py the mappings only translate (arguments to torch, the result into the output
view); they add no validation torch lacks, so where torch differs from the pages a run says so.
"""
from __future__ import annotations

import warnings
from typing import Any

import torch

from conformance.backends.protocol import CallResult
from conformance.backends.torch_common import (
    INVALID,
    NULLPTR,
    REDUCTIONS,
    to_torch,
    torch_call,
    write_output,
)

KL_DIV = "aclnnKlDiv"
MSE_BACKWARD = "aclnnMseLossBackward"
SMOOTH_L1_BACKWARD = "aclnnSmoothL1LossBackward"


def _tensors(args: dict[str, Any], names: tuple[str, ...]) -> list[Any] | None:
    """The named tensor arguments, or None when one is a null pointer."""
    values = [args.get(k) for k in names]
    return None if any(v is None for v in values) else values


def _promoted(device: torch.device | str | None, *arrays: Any) -> list[torch.Tensor]:
    """The inputs in their promoted dtype: the pages let listed dtypes mix (promotion rules)."""
    tensors = [to_torch(a, device) for a in arrays]
    dtype = tensors[0].dtype
    for t in tensors[1:]:
        dtype = torch.promote_types(dtype, t.dtype)
    return [t.to(dtype) for t in tensors]


def kl_div(args: dict[str, Any], device: torch.device | str | None = None) -> CallResult:
    tensors = _tensors(args, ("self", "target", "out"))
    if tensors is None:
        return NULLPTR
    self_, target, out = tensors
    reduction = REDUCTIONS.get(args["reduction"])
    if reduction is None:
        return INVALID  # F.kl_div takes strings; an unknown int has no string to map to

    def run() -> None:
        s, t = _promoted(device, self_.array, target.array)
        with warnings.catch_warnings():  # torch warns that "mean" is not "batchmean": by design
            warnings.simplefilter("ignore", UserWarning)
            loss = torch.nn.functional.kl_div(s, t, reduction=reduction, log_target=bool(args["logTarget"]))
        if loss.dim() == 0 and out.array.size == 1:
            loss = loss.reshape(out.array.shape)  # torch's 0-d sum is the page's out of shape (1,)
        write_output(out.array, loss)

    return torch_call(run)


def mse_loss_backward(args: dict[str, Any], device: torch.device | str | None = None) -> CallResult:
    tensors = _tensors(args, ("gradOutput", "self", "target", "out"))
    if tensors is None:
        return NULLPTR
    grad, self_, target, out = tensors

    def run() -> None:
        g, s, t = (to_torch(a.array, device) for a in (grad, self_, target))
        with warnings.catch_warnings():  # torch resizes its output to the broadcast shape, warning
            warnings.simplefilter("ignore", UserWarning)
            value = torch.ops.aten.mse_loss_backward(g, s, t, int(args["reduction"]))
        write_output(out.array, value)

    return torch_call(run)


def smooth_l1_loss_backward(args: dict[str, Any], device: torch.device | str | None = None) -> CallResult:
    tensors = _tensors(args, ("gradOut", "self", "target", "gradInput"))
    if tensors is None:
        return NULLPTR
    grad, self_, target, grad_input = tensors

    def run() -> None:
        g, s, t = _promoted(device, grad.array, self_.array, target.array)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            value = torch.ops.aten.smooth_l1_loss_backward(g, s, t, int(args["reduction"]),
                                                            float(args["beta"]))
        write_output(grad_input.array, value)

    return torch_call(run)


#: The aten mapping of each loss api (torch_backend.OPERATORS registers them).
LOSS_OPERATORS = {KL_DIV: kl_div, MSE_BACKWARD: mse_loss_backward,
                  SMOOTH_L1_BACKWARD: smooth_l1_loss_backward}
