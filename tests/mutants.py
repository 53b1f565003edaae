"""Mutant backends: the reference backend with exactly one documented promise broken.

``tests/test_mutants.py`` runs the quick profile against each and checks the suite catches it with
the right check kind and clause, on a small shrunk counterexample. Every mutant behaves like
``ReferenceBackend`` everywhere except where its docstring says.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult
from conformance.backends.reference import ReferenceBackend
from conformance.cases.case import Case
from conformance.cases.oracle import Expectation, explain
from conformance.cases.tensor import Tensor
from conformance.spec.reference_loader import reference_function

RP = "aclnnReplicationPad3dBackward"
KL = "aclnnKlDivBackward"
INVALID = 161002  # ACLNN_ERR_PARAM_INVALID


class _Mutant(ReferenceBackend):
    """Helpers shared by the mutants (the reference's own checks and golden values)."""

    name = "mutant"

    def expect(self, api: str, args: dict[str, Any]) -> Expectation:
        spec = self.specs.operator(api)
        return explain(Case(spec.api, self.product or spec.products[-1], dict(args)), self.specs)

    def valid(self, api: str, args: dict[str, Any]) -> bool:
        return self.expect(api, args).expected == "success"

    def golden(self, api: str, args: dict[str, Any]) -> dict[str, np.ndarray]:
        """Float64 (complex128) golden values by output name."""
        spec = self.specs.operator(api)
        return {n: g.value for n, g in reference_function(spec)(args, bounds=False).items()}

    @staticmethod
    def cast(value: np.ndarray, out: np.ndarray) -> np.ndarray:
        return (value if out.dtype.kind == "c" else value.real).astype(out.dtype)

    def store(self, args: dict[str, Any], values: dict[str, np.ndarray]) -> CallResult:
        for name, value in values.items():
            out = args[name].array
            out[...] = self.cast(value, out)
        return CallResult(0, PHASE_EXECUTE)


# -- values ------------------------------------------------------------------------------------
class SwappedLeftRight(_Mutant):
    """RP-VALUES: reads padding as (right, left, ...) — the W-axis padding order is swapped."""

    name = "mutant-swapped-left-right"

    def call(self, api, args):
        p = args.get("padding")
        if api == RP and p is not None and len(p) == 6:
            args = {**args, "padding": (p[1], p[0], *p[2:])}
        return super().call(api, args)


class DropsCorner(_Mutant):
    """RP-VALUES: forgets the front-top-left corner slab (the gradOutput elements before the input
    on all three padded axes), so gradInput[..., 0, 0, 0] misses their sum."""

    name = "mutant-drops-corner"

    def call(self, api, args):
        if api != RP or not self.valid(api, args) or min(args["padding"]) < 0:
            return super().call(api, args)
        left, _, top, _, front, _ = args["padding"]
        grad = args["gradOutput"].array.copy()
        grad[..., :front, :top, :left] = 0
        copy = Tensor(grad, dtype_name=args["gradOutput"].dtype_name)  # a private, dense copy
        return super().call(api, {**args, "gradOutput": copy})


class BatchmeanBySelfDim0(_Mutant):
    """KL-VALUES: batchmean divides by self.shape[0] instead of B[0] (B = broadcast(self, target)),
    which differs when target broadcasts self larger (torch's behaviour)."""

    name = "mutant-batchmean-self-dim0"

    def call(self, api, args):
        if api != KL or args["reduction"] != 3 or not self.valid(api, args):
            return super().call(api, args)
        shape = args["self"].array.shape
        summed = self.golden(api, {**args, "reduction": 2})
        return self.store(args, {"out": summed["out"] / (shape[0] if shape else 1)})


class BatchmeanByNumel(_Mutant):
    """KL-VALUES: batchmean divides by numel(B) (as mean does) instead of B[0]."""

    name = "mutant-batchmean-numel"

    def call(self, api, args):
        if api == KL and args["reduction"] == 3:
            args = {**args, "reduction": 1}
        return super().call(api, args)


class IgnoresLogTarget(_Mutant):
    """KL-VALUES: always uses -target * gradOutput, even when logTarget asks for -exp(target)."""

    name = "mutant-ignores-log-target"

    def call(self, api, args):
        if api == KL:
            args = {**args, "logTarget": False}
        return super().call(api, args)


class AccumulatesInOutput(_Mutant):
    """RP-VALUES: reads its output buffer — ``gradInput += value`` instead of ``=``, so the NaN
    sentinel the suite pre-fills leaks into every element."""

    name = "mutant-accumulates-in-output"

    def call(self, api, args):
        if not self.valid(api, args):
            return super().call(api, args)
        for name, value in self.golden(api, args).items():
            out = args[name].array
            out += self.cast(value, out)
        return CallResult(0, PHASE_EXECUTE)


class IgnoresOutputStrides(_Mutant):
    """KL-NONCONTIGUOUS: writes the result densely into out's storage from the view's offset,
    ignoring the view's strides (right only when out is contiguous)."""

    name = "mutant-ignores-output-strides"

    def call(self, api, args):
        if api != KL or not self.valid(api, args):
            return super().call(api, args)
        out = args["out"]
        flat = self.cast(self.golden(api, args)["out"], out.array).ravel()
        out.storage[out.offset:out.offset + flat.size] = flat
        return CallResult(0, PHASE_EXECUTE)


class HalfAccumulation(_Mutant):
    """RP-VALUES: sums FLOAT16/BFLOAT16 padding gradients in the input dtype (axis by axis)
    instead of float32, so large border sums lose precision beyond the documented bound."""

    name = "mutant-half-accumulation"

    def call(self, api, args):
        grad = args["gradOutput"].array if api == RP and args["gradOutput"] is not None else None
        if grad is None or grad.dtype.itemsize != 2 or not self.valid(api, args) or min(args["padding"]) < 0:
            return super().call(api, args)
        x = np.ascontiguousarray(grad)
        for axis, before in zip((-1, -2, -3), args["padding"][::2]):  # left, top, front
            x = _fold_axis(x, axis, before, args["self"].shape[axis])
        args["gradInput"].array[...] = x
        return CallResult(0, PHASE_EXECUTE)


def _fold_axis(x: np.ndarray, axis: int, before: int, n: int) -> np.ndarray:
    """Fold one padded axis back to length ``n``, summing in x's own dtype."""
    x = np.moveaxis(x, axis, -1)
    if n == 1:
        folded = x.sum(axis=-1, keepdims=True, dtype=x.dtype)
    else:
        head = x[..., :before + 1].sum(axis=-1, keepdims=True, dtype=x.dtype)
        tail = x[..., before + n - 1:].sum(axis=-1, keepdims=True, dtype=x.dtype)
        folded = np.concatenate([head, x[..., before + 1:before + n - 1], tail], axis=-1)
    return np.moveaxis(folded, -1, axis)


# -- status codes and phases -------------------------------------------------------------------
class UncheckedPadLimit(_Mutant):
    """RP-PAD-LIMIT: accepts padding >= the dimension it pads and computes the replication."""

    name = "mutant-unchecked-pad-limit"

    def call(self, api, args):
        e = self.expect(api, args)
        if e.expected == "error" and {v.clause for v in e.violations} == {"RP-PAD-LIMIT"}:
            return self.store(args, self.golden(api, args))
        return super().call(api, args)


class Bf16OnTraining(_Mutant):
    """RP-DTYPE / KL-DTYPE: accepts BFLOAT16 on Atlas training products, where the documents list
    only FLOAT16, FLOAT32, DOUBLE, COMPLEX64 and COMPLEX128 (FLOAT and FLOAT16 for KL)."""

    name = "mutant-bf16-on-training"
    product = "atlas-training"

    def __init__(self) -> None:
        super().__init__(product=self.product)

    def call(self, api, args):
        e = self.expect(api, args)
        tensors = [v for v in args.values() if isinstance(v, Tensor)]
        if (e.expected == "error" and {v.clause for v in e.violations} <= {"RP-DTYPE", "KL-DTYPE"}
                and all(t.dtype_name == "BFLOAT16" for t in tensors)):
            return self.store(args, self.golden(api, args))
        return super().call(api, args)


class NullAsInvalid(_Mutant):
    """KL-NULL / RP-NULL: returns 161002 (PARAM_INVALID) for a null pointer instead of 161001."""

    name = "mutant-null-as-invalid"

    def call(self, api, args):
        if any(v is None for v in args.values()):
            return CallResult(INVALID, PHASE_WORKSPACE)
        return super().call(api, args)


class ErrorsFromPhaseTwo(_Mutant):
    """RP-PHASE / KL-PHASE: returns the right code for an invalid call, but from aclnnXxx (phase 2)
    instead of aclnnXxxGetWorkspaceSize."""

    name = "mutant-errors-from-phase-two"

    def call(self, api, args):
        result = super().call(api, args)
        return CallResult(result.status, PHASE_EXECUTE)


class RejectsEmpty(_Mutant):
    """KL-EMPTY / RP-EMPTY: rejects a call with an empty tensor (161002), which the documents
    support (for padding: a self whose only zero dims are the first)."""

    name = "mutant-rejects-empty"

    def call(self, api, args):
        empty = any(isinstance(v, Tensor) and v.array.size == 0 for v in args.values())
        if empty and self.valid(api, args):
            return CallResult(INVALID, PHASE_WORKSPACE)
        return super().call(api, args)


class RejectsBf16(_Mutant):
    """RP-DTYPE / KL-DTYPE: rejects BFLOAT16 (161002) on the products that list it."""

    name = "mutant-rejects-bf16"

    def call(self, api, args):
        bf16 = any(isinstance(v, Tensor) and v.dtype_name == "BFLOAT16" for v in args.values())
        if bf16 and self.valid(api, args):
            return CallResult(INVALID, PHASE_WORKSPACE)
        return super().call(api, args)


class RejectsMixedDtypes(_Mutant):
    """KL-DTYPE: rejects inputs of different dtypes (161002), which the documents allow."""

    name = "mutant-rejects-mixed-dtypes"

    def call(self, api, args):
        names = {v.dtype_name for v in args.values() if isinstance(v, Tensor)}
        if len(names) > 1 and self.valid(api, args):
            return CallResult(INVALID, PHASE_WORKSPACE)
        return super().call(api, args)


class RejectsBroadcastGradSkipsMean(_Mutant):
    """KL-PHASE and KL-VALUES: rejects every valid gradOutput smaller than B (161002), and with
    reduction 1 (mean) forgets the 1/numel(B) scaling: most valid cases are rejected, so few are
    left to judge the values on."""

    name = "mutant-rejects-broadcast-grad"

    def call(self, api, args):
        if api != KL or not self.valid(api, args):
            return super().call(api, args)
        b = np.broadcast_shapes(args["self"].array.shape, args["target"].array.shape)
        if args["gradOutput"].array.shape != b:
            return CallResult(INVALID, PHASE_WORKSPACE)
        if args["reduction"] == 1:
            return super().call(api, {**args, "reduction": 2})  # sum: no 1/numel(B)
        return super().call(api, args)
