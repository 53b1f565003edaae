"""Adapters that break the protocol in the ways real ones do (tests/test_bad_adapters.py)."""
from __future__ import annotations

import numpy as np

from conformance.backends.reference import ReferenceBackend


class ReturnsString(ReferenceBackend):
    name = "returns-string"

    def call(self, api, args):
        super().call(api, args)
        return "0"


class ReturnsNone(ReferenceBackend):
    name = "returns-none"

    def call(self, api, args):
        super().call(api, args)


class RebindsOutputDtype(ReferenceBackend):
    """Computes right, then hands back a float64 array instead of writing into ``out``."""

    name = "rebinds-dtype"

    def call(self, api, args):
        result = super().call(api, args)
        out = args.get("out")
        if out is not None:
            out.array = np.asarray(out.array, dtype=np.float64)
        return result


class RebindsOutputShape(ReferenceBackend):
    name = "rebinds-shape"

    def call(self, api, args):
        result = super().call(api, args)
        out = args.get("out")
        if out is not None:
            out.array = out.array.reshape(-1).copy()
        return result


class ReplacesOutput(ReferenceBackend):
    name = "replaces-output"

    def call(self, api, args):
        result = super().call(api, args)
        if args.get("out") is not None:
            args["out"] = np.zeros(3)
        return result


class Raises(ReferenceBackend):
    name = "raises"

    def call(self, api, args):
        raise RuntimeError("kernel not found for this dtype")


class NoName:
    def call(self, api, args):
        return 0


class NoCall:
    name = "no-call"


class FailsToConstruct:
    name = "fails"

    def __init__(self):
        raise OSError("libvendor.so: cannot open shared object file")
