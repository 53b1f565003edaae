"""Status-and-value backends for aclnnFrob and aclnnInplaceFrob (tests/fixtures/pages/layouts),
written from the page (a null tensor is 161001; aclnnFrob's self in FLOAT or FLOAT16, else 161002,
and out of self's shape): ``InPlace`` is correct and
computes what the oracle does not (twice the input, written back into selfRef); each ``Planted*``
plants one memory bug. Use as ``tests/inplace_backends.py:InPlace``."""
from __future__ import annotations

from typing import Any

from trust_backends import dtype

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult


class InPlace:
    name = "in-place"

    def call(self, api: str, args: dict[str, Any]) -> CallResult:
        tensor = args["selfRef"] if api == "aclnnInplaceFrob" else args["self"]
        if tensor is None or api == "aclnnFrob" and args["out"] is None:
            return CallResult(161001, PHASE_WORKSPACE)
        if api == "aclnnFrob" and (dtype(tensor) not in ("FLOAT", "FLOAT16")
                                   or args["out"].shape != tensor.shape):
            return CallResult(161002, PHASE_WORKSPACE)
        if api == "aclnnInplaceFrob":
            tensor.array[...] = tensor.array * 2  # the in-place result: selfRef is written
        else:
            args["out"].array[...] = tensor.array * 2
        self.planted(api, tensor)
        return CallResult(0, PHASE_EXECUTE)

    def planted(self, api: str, tensor: Any) -> None:
        """The bug a subclass plants after a correct call."""


class PlantedStray(InPlace):
    """Writes the element after selfRef's view too (into its guard margin)."""

    def planted(self, api: str, tensor: Any) -> None:
        if api == "aclnnInplaceFrob":
            tensor.storage[-1] = 7


class PlantedClobber(InPlace):
    """aclnnFrob writes its result into self as well: an input the call must leave unchanged."""

    def planted(self, api: str, tensor: Any) -> None:
        if api == "aclnnFrob" and tensor.array.size:
            tensor.array.flat[0] = 7
