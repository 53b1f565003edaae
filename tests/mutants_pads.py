"""Mutant backends of the padding gradients: the reference backend with one planted bug each.

``tests/test_pad_operators.py`` runs the quick profile against each and checks the suite catches it
with the right check kind and clause. Each behaves like ``ReferenceBackend`` except where its
docstring says.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from conformance.backends.protocol import PHASE_EXECUTE, CallResult
from conformance.backends.reference import ReferenceBackend
from conformance.cases.case import Case
from conformance.cases.oracle import Expectation, explain
from conformance.cases.tensor import Tensor
from reference.pad_backward import _pad_backward

RP1D = "aclnnReplicationPad1dBackward"
RP2D = "aclnnReplicationPad2dBackward"
RF3D = "aclnnReflectionPad3dBackward"
CP2D = "aclnnCircularPad2dBackward"


class _PadMutant(ReferenceBackend):
    name = "pad-mutant"

    def expect(self, api: str, args: dict[str, Any]) -> Expectation:
        spec = self.specs.operator(api)
        return explain(Case(spec.api, self.product or spec.products[-1], dict(args)), self.specs)

    def computes(self, api: str, args: dict[str, Any]) -> bool:
        """A valid call with non-negative padding (negative padding stays the reference's)."""
        return self.expect(api, args).expected == "success" and min(args["padding"]) >= 0

    @staticmethod
    def store(args: dict[str, Any], value: np.ndarray) -> CallResult:
        out = args["gradInput"].array
        out[...] = (value if out.dtype.kind == "c" else value.real).astype(out.dtype)
        return CallResult(0, PHASE_EXECUTE)


class DropsRightPadding(_PadMutant):
    """RP1D-VALUES: the gradients of the right padding are never added onto the last element."""

    name = "mutant-drops-right-padding"

    def call(self, api, args):
        if api != RP1D or not self.computes(api, args) or args["padding"][1] == 0:
            return super().call(api, args)
        grad = args["gradOutput"].array.copy()
        grad[..., grad.shape[-1] - args["padding"][1]:] = 0
        copy = Tensor(grad, dtype_name=args["gradOutput"].dtype_name)  # a private, dense copy
        return super().call(api, {**args, "gradOutput": copy})


class UncheckedBf16Padding(_PadMutant):
    """RP2D-PAD-BF16: BFLOAT16 with a padding value above 7 is computed instead of rejected."""

    name = "mutant-unchecked-bf16-padding"

    def call(self, api, args):
        if api == RP2D:
            broken = {v.clause for v in self.expect(api, args).violations}
            if broken == {"RP2D-PAD-BF16"}:
                return self.store(args, _pad_backward(args, 2, _replicate, False)["gradInput"].value)
        return super().call(api, args)


class ReflectsOffByOne(_PadMutant):
    """RF3D-VALUES: reflects about -0.5 and n - 0.5 (repeating the edge, numpy's "symmetric")
    instead of about 0 and n - 1."""

    name = "mutant-reflects-off-by-one"

    def call(self, api, args):
        if api != RF3D or not self.computes(api, args):
            return super().call(api, args)
        return self.store(args, _pad_backward(args, 3, _symmetric, False)["gradInput"].value)


class WrapsByNMinusOne(_PadMutant):
    """CP2D-VALUES: wraps around with period n - 1 instead of n (x + n - 1 left of the input,
    x - n + 1 right of it)."""

    name = "mutant-wraps-by-n-minus-one"

    def call(self, api, args):
        if api != CP2D or not self.computes(api, args):
            return super().call(api, args)
        return self.store(args, _pad_backward(args, 2, _short_wrap, False)["gradInput"].value)


def _replicate(x: np.ndarray, n: int) -> np.ndarray:
    return np.clip(x, 0, n - 1)


def _symmetric(x: np.ndarray, n: int) -> np.ndarray:
    return np.where(x < 0, -x - 1, np.where(x > n - 1, 2 * n - 1 - x, x))


def _short_wrap(x: np.ndarray, n: int) -> np.ndarray:
    return np.where(x < 0, x + n - 1, np.where(x > n - 1, x - n + 1, x))
