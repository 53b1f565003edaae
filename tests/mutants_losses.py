"""Mutant backends of the loss operators: the reference backend with one documented promise broken.

``tests/test_loss_operators.py`` runs the quick profile against each and checks the suite catches
it with the right check kind and clause. Each behaves like ``ReferenceBackend`` everywhere except
where its docstring says.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from conformance.backends.protocol import PHASE_EXECUTE, CallResult
from conformance.backends.reference import ReferenceBackend
from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.spec.reference_loader import reference_function

KL_DIV = "aclnnKlDiv"
MSE = "aclnnMseLossBackward"
SMOOTH_L1 = "aclnnSmoothL1LossBackward"


class _LossMutant(ReferenceBackend):
    name = "loss-mutant"

    def valid(self, api: str, args: dict[str, Any]) -> bool:
        spec = self.specs.operator(api)
        case = Case(spec.api, self.product or spec.products[-1], dict(args))
        return explain(case, self.specs).expected == "success"

    def store(self, api: str, args: dict[str, Any], scale: float) -> CallResult:
        """The reference's values times ``scale``, written into the outputs."""
        goldens = reference_function(self.specs.operator(api))(args, bounds=False)
        for name, golden in goldens.items():
            out = args[name].array
            out[...] = (golden.value * scale).astype(out.dtype)
        return CallResult(0, PHASE_EXECUTE)


class KlDivMeanBySelfNumel(_LossMutant):
    """KLF-VALUES: mean divides by self.numel() instead of numel(broadcast(self, target)), which
    differs when target broadcasts self larger."""

    name = "mutant-kl-div-mean-by-self-numel"

    def call(self, api, args):
        if api != KL_DIV or args["reduction"] != 1 or not self.valid(api, args):
            return super().call(api, args)
        s, t = args["self"].array, args["target"].array
        b = math.prod(np.broadcast_shapes(s.shape, t.shape))
        return self.store(api, args, b / max(s.size, 1))


class MseMeanByBroadcastNumel(_LossMutant):
    """MSE-VALUES: mean divides by numel(out) (the broadcast shape) instead of self.numel()."""

    name = "mutant-mse-mean-by-broadcast-numel"

    def call(self, api, args):
        if api != MSE or args["reduction"] != 1 or not self.valid(api, args):
            return super().call(api, args)
        return self.store(api, args, args["self"].array.size / max(args["out"].array.size, 1))


class SmoothL1IgnoresBeta(_LossMutant):
    """SL1-VALUES: always switches between L2 and L1 at |self - target| = 1, whatever beta says."""

    name = "mutant-smooth-l1-ignores-beta"

    def call(self, api, args):
        if api == SMOOTH_L1:
            args = {**args, "beta": 1.0}
        return super().call(api, args)
