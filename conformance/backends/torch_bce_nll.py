"""The torch mappings of aclnnBinaryCrossEntropyBackward and aclnnNLLLossBackward, as a vendor
would write them: the aten backward ops, with the inputs promoted to one dtype (the BCE page
promotes them) and the result cast into the output view.

Like torch_backend.py the mappings only translate; they add no validation torch lacks, so where
torch differs from the pages a run says so.
"""
from __future__ import annotations

from typing import Any

import torch

from conformance.backends.protocol import CallResult
from conformance.backends.torch_common import NULLPTR, to_torch, torch_call, write_output

Device = torch.device | str | None

BCE_BACKWARD = "aclnnBinaryCrossEntropyBackward"
NLL_BACKWARD = "aclnnNLLLossBackward"


def _promoted(device: Device, *arrays: Any) -> list[torch.Tensor]:
    tensors = [to_torch(a, device) for a in arrays]
    dtype = tensors[0].dtype
    for t in tensors[1:]:
        dtype = torch.promote_types(dtype, t.dtype)
    return [t.to(dtype) for t in tensors]


def binary_cross_entropy_backward(args: dict[str, Any], device: Device = None) -> CallResult:
    names = ("gradOutput", "self", "target", "out")
    grad, self_, target, out = (args.get(k) for k in names)
    if grad is None or self_ is None or target is None or out is None:
        return NULLPTR
    weight = args.get("weightOptional")

    def run() -> None:
        arrays = [grad.array, self_.array, target.array] + ([weight.array] if weight is not None else [])
        g, x, t, *w = _promoted(device, *arrays)
        # aten takes the reduction as its enum (0 none, 1 mean, 2 sum), the page's own numbers
        result = torch.ops.aten.binary_cross_entropy_backward(g, x, t, w[0] if w else None,
                                                              int(args["reduction"]))
        write_output(out.array, result)

    return torch_call(run)


def nll_loss_backward(args: dict[str, Any], device: Device = None) -> CallResult:
    names = ("gradOutput", "self", "target", "weight", "totalWeight", "out")
    tensors = [args.get(k) for k in names]
    if any(t is None for t in tensors):
        return NULLPTR
    grad, self_, target, weight, total, out = tensors

    def run() -> None:
        g, x, w, tw = (to_torch(t.array, device) for t in (grad, self_, weight, total))
        # aten wants int64 class indices; the page also takes INT32 and UINT8: widen those two
        # only (any other dtype goes to torch as it is, and torch says what it thinks of it)
        t = to_torch(target.array, device)
        t = t.long() if t.dtype in (torch.int32, torch.uint8) else t
        result = torch.ops.aten.nll_loss_backward(g, x, t, w, int(args["reduction"]),
                                                  int(args["ignoreIndex"]), tw)
        write_output(out.array, result)

    return torch_call(run)


#: Registered in torch_backend.OPERATORS.
BCE_NLL_OPERATORS = {BCE_BACKWARD: binary_cross_entropy_backward, NLL_BACKWARD: nll_loss_backward}
