"""The reference with one conditional rule of a shipped spec planted unconditional: the rule's
body enforced whatever its condition says (tests/test_exemptions.py). RP2D-PAD-BF16 says a padding
above 7 is an error with BFLOAT16 only; ``PadLimitEverywhere`` rejects it in every dtype, the bug
only a valid case with the condition false and the body false (an exemption case) can show.

Use as ``tests/unconditional_backends.py:PadLimitEverywhere``.
"""
from __future__ import annotations

from typing import Any

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import ReferenceBackend

INVALID = 161002


class PadLimitEverywhere(ReferenceBackend):
    name = "pad-limit-everywhere"

    def call(self, api: str, args: dict[str, Any], product: str | None = None) -> CallResult:
        padding = args.get("padding")
        if api == "aclnnReplicationPad2dBackward" and padding is not None and max(padding, default=0) > 7:
            return CallResult(INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)
