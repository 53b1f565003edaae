"""The padding gradients mapped onto torch (CPU) as a vendor would: the aten backward ops where they
exist (replication 1-D and 2-D, reflection 3-D) and autograd through ``F.pad(mode="circular")``.

Like the ReplicationPad3d mapping, the adapter adds no validation torch lacks, except that it
refuses a call on which torch's kernel would index outside memory. torch's CPU padding kernels
(aten/src/ATen/native/cpu/PaddingKernel.cpp) fold N·C into one loop taken from ``self`` (the first
one or two dims), walk the padded dims of gradOutput and add each element at an input position
computed from the padding without a bounds check: a gradOutput whose leading dims hold fewer
elements than self's is read past its end, and a reflection with padding >= the dim writes past
torch's own gradInput (measured: ``free(): invalid next size`` on a 2-wide dim padded by 2).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from conformance.backends.protocol import CallResult
from conformance.backends.torch_common import INVALID, NULLPTR, to_torch, torch_call, write_output

RP1D = "aclnnReplicationPad1dBackward"
RP2D = "aclnnReplicationPad2dBackward"
RF3D = "aclnnReflectionPad3dBackward"
CP2D = "aclnnCircularPad2dBackward"
ARG_NAMES = ("gradOutput", "self", "padding", "gradInput")


def _replication_index(j: np.ndarray, n: int, pad: int) -> np.ndarray:
    """torch's ReplicationPad::index: the input position output position ``j`` reads."""
    offset = max(0, -pad) - max(0, pad)
    return np.where(j < pad, pad, np.where(j < n + pad, j, n + pad - 1)) + offset


def _reflection_index(j: np.ndarray, n: int, pad: int) -> np.ndarray:
    """torch's ReflectionPad::index."""
    offset = max(0, -pad) - max(0, pad)
    return np.where(j < pad, 2 * pad - j, np.where(j < n + pad, j, 2 * (n + pad - 1) - j)) + offset


TorchIndex = Callable[[np.ndarray, int, int], np.ndarray]


def torch_indexes_outside(grad_shape: tuple[int, ...], self_shape: tuple[int, ...],
                          padding: tuple[int, ...], k: int, index: TorchIndex) -> bool:
    """True where torch's kernel would read past gradOutput or write past its gradInput.

    torch takes N·C from self (dims before the padded ones: two in batch mode, rank k + 2, else
    one), the padded dims from gradOutput and self at the same places, and checks only the
    padded dims of gradOutput against self and padding (and the padding length and the ranks,
    which it reports as errors before indexing). ``k``: the number of padded dims."""
    rank = len(self_shape)
    if len(padding) != 2 * k or len(grad_shape) != rank or rank < k + 1:
        return False  # torch raises before it indexes anything
    start = 2 if rank == k + 2 else 1
    planes = math.prod(self_shape[:start])
    if planes * math.prod(grad_shape[start:start + k]) > math.prod(grad_shape):
        return True
    # padding lists the last padded dim first: (left, right) of dim start + k - 1, ...
    for axis in range(k):
        dim = start + k - 1 - axis
        idx = index(np.arange(grad_shape[dim]), self_shape[dim], padding[2 * axis])
        if idx.size and (idx.min() < 0 or idx.max() >= self_shape[dim]):
            return True
    return False


def _aten_backward(op: Callable[..., torch.Tensor], k: int, index: TorchIndex) -> Callable[..., CallResult]:
    """The mapping of an api onto one aten padding backward op."""

    def run_api(args: dict[str, Any], device: torch.device | str | None = None) -> CallResult:
        grad, self_, padding, grad_input = (args.get(name) for name in ARG_NAMES)
        if grad is None or self_ is None or padding is None or grad_input is None:
            return NULLPTR
        if torch_indexes_outside(grad.array.shape, self_.array.shape, tuple(padding), k, index):
            return INVALID  # refuse before torch touches memory it does not own

        def run() -> None:
            result = op(to_torch(grad.array, device), to_torch(self_.array, device), list(padding))
            write_output(grad_input.array, result)

        return torch_call(run)

    return run_api


def circular_pad2d_backward(args: dict[str, Any], device: torch.device | str | None = None) -> CallResult:
    """Autograd through ``F.pad(mode="circular")``: torch has no aten circular backward op.

    Safe without a guard: F.pad checks self and padding, and autograd checks gradOutput's shape
    against the forward output (a mismatch is an error)."""
    grad, self_, padding, grad_input = (args.get(name) for name in ARG_NAMES)
    if grad is None or self_ is None or padding is None or grad_input is None:
        return NULLPTR

    def run() -> None:
        s = to_torch(self_.array, device).detach().clone().requires_grad_(True)
        out = torch.nn.functional.pad(s, list(padding), mode="circular")
        out.backward(gradient=to_torch(grad.array, device))
        write_output(grad_input.array, s.grad if s.grad is not None else torch.zeros_like(s))

    return torch_call(run)


#: The mappings of the padding gradients, merged into torch_backend.OPERATORS.
PAD_OPERATORS = {
    RP1D: _aten_backward(torch.ops.aten.replication_pad1d_backward, 1, _replication_index),
    RP2D: _aten_backward(torch.ops.aten.replication_pad2d_backward, 2, _replication_index),
    RF3D: _aten_backward(torch.ops.aten.reflection_pad3d_backward, 3, _reflection_index),
    CP2D: circular_pad2d_backward,
}
