"""A backend that segfaults, aborts or hangs on three chosen cases and is the reference otherwise.

The chosen cases are the KL spec's worked examples, which the boundary phase always runs:
self [2,2] with reduction none crashes the process (a null read), self [1,3] aborts, and the
strided out view of the third example hangs.
"""
from __future__ import annotations

import ctypes
import os
import time

from conformance.backends.reference import ReferenceBackend


def trigger(args) -> str | None:
    s, out, target = args.get("self"), args.get("out"), args.get("target")
    if s is None or out is None or target is None:
        return None
    plain = args["reduction"] == 0 and not args["logTarget"] and target.shape == s.shape
    if plain and s.shape == (2, 2) and out.array.flags.c_contiguous:
        return "segfault"
    if plain and s.shape == (2, 3) and out.element_strides == (6, 2):
        return "hang"
    if s.shape == (1, 3) and target.shape == (2, 3) and args["reduction"] == 3:
        return "abort"
    return None


class Misbehaving(ReferenceBackend):
    name = "misbehaving"

    def call(self, api, args, product=None):
        what = trigger(args) if api == "aclnnKlDivBackward" else None
        if what == "segfault":
            ctypes.string_at(0)
        elif what == "abort":
            os.abort()
        elif what == "hang":
            time.sleep(3600)
        return super().call(api, args, product)
