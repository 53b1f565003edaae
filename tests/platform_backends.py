"""Backends of the toy operator aclnnToyMxScale (tests/fixtures/platform_pages), supported on
Ascend 950 alone, for tests/test_platform_clause.py: one right in its own way and two wrong.
They know the toy's product lines themselves rather than asking the spec, so the suite's reading of
the product_in clause is checked against an independent one."""
from __future__ import annotations

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

SUPPORTED = "ascend-950"
RUNTIME_ERROR, PARAM_INVALID = 361001, 161002


class ProductFirst(OracleBackend):
    """Right: looks at the product line before any argument (a null pointer or a bad shape too),
    so every call on another line gets the runtime error; where the oracle would report the first
    broken clause in spec order, this reports the platform."""

    name = "product-first"

    def call(self, api, args, product=None):
        if (product or self.product) != SUPPORTED:
            return CallResult(RUNTIME_ERROR, PHASE_WORKSPACE)
        return super().call(api, args, product)


class ProductBlind(OracleBackend):
    """Wrong: never looks at the product line, so it accepts and computes on every line."""

    name = "product-blind"

    def call(self, api, args, product=None):
        return super().call(api, args, SUPPORTED)


class PlatformAsParamInvalid(OracleBackend):
    """Wrong: rejects calls on other lines, but with the parameter code of the table's dtype row."""

    name = "platform-as-param-invalid"

    def call(self, api, args, product=None):
        if (product or self.product) != SUPPORTED:
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)
