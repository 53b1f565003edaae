"""Mutant backends whose one bug shows only on large tensors (the size axis): the reference
backend everywhere else. ``tests/test_size_axis.py`` runs the ci profile's size axis against them."""
from __future__ import annotations

import numpy as np
from mutants import KL, RP, _Mutant

from conformance.cases.tensor import Tensor

LARGE = 65536  # elements: past one 256 KiB tile of FLOAT


class DropsLastPartialTile(_Mutant):
    """RP-VALUES: reads gradOutput in tiles of 4096 elements and, past 64 Ki elements, loses the
    last, partial tile (a tiling bug no small case reaches)."""

    name = "mutant-drops-last-partial-tile"

    def call(self, api, args):
        grad = args.get("gradOutput")
        if api != RP or grad is None or grad.array.size <= LARGE or grad.array.size % 4096 == 0:
            return super().call(api, args)
        if not self.valid(api, args):
            return super().call(api, args)
        dense = np.ascontiguousarray(grad.array).copy()
        dense.reshape(-1)[-(dense.size % 4096):] = 0
        return super().call(api, {**args, "gradOutput": Tensor(dense, dtype_name=grad.dtype_name)})


class NondeterministicWhenLarge(_Mutant):
    """RP-DETERMINISTIC: past 64 Ki output elements, every other call rounds the middle element
    up by one ulp (a reduction split over cores in a racing order)."""

    name = "mutant-nondeterministic-when-large"
    calls = 0

    def call(self, api, args):
        result = super().call(api, args)
        out = args.get("gradInput")
        if api == RP and result.status == 0 and out is not None and out.array.size > LARGE:
            self.calls += 1
            if self.calls % 2 and out.array.dtype.kind == "f":
                flat = out.array.reshape(-1) if out.array.flags.c_contiguous else None
                if flat is not None:
                    middle = flat.size // 2
                    flat[middle] = np.nextafter(flat[middle], np.inf, dtype=flat.dtype)
        return result


class WritesPastLargeOutput(_Mutant):
    """KL-VALUES (out-of-bounds-write): past 64 Ki elements, writes one element after the end of
    a contiguous out (an off-by-one in the last tile's length)."""

    name = "mutant-writes-past-large-output"

    def call(self, api, args):
        result = super().call(api, args)
        out = args.get("out")
        if api == KL and result.status == 0 and out is not None and out.array.size > LARGE:
            start = (out.array.__array_interface__["data"][0] - out.storage.__array_interface__["data"][0])
            end = start // out.storage.itemsize + out.array.size
            if out.array.flags.c_contiguous and end < out.storage.size:
                out.storage[end] = out.storage.dtype.type(0)
        return result
