"""Backends of the toy operators with a bit mask (tests/fixtures/mask_pages), for
tests/test_draft_bit_masks.py: one right in its own way (numpy's ``packbits`` of the elements'
bits padded to 128 decides the mask's size) and wrong ones.

- aclnnToyMaskedScale: mask holds that many bytes, in any shape ("元素个数需要为…");
- aclnnToyBitDrop: maskOut is one dimension of that many bytes ("shape需要为…").
"""
from __future__ import annotations

import numpy as np
from norm_backends import ignoring

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend

PARAM_INVALID = 161002
_MASKS = {"aclnnToyMaskedScale": ("self", "mask", False), "aclnnToyBitDrop": ("input", "maskOut", True)}


def _shape(value) -> tuple[int, ...]:
    return value.array.shape if hasattr(value, "array") else value.shape


def packed(elements: int) -> int:
    """The bytes numpy packs one bit per element into, the bits padded to a multiple of 128."""
    bits = np.zeros(-(-elements // 128) * 128, dtype=bool)
    return np.packbits(bits).size


def mask_refused(api: str, args) -> bool:
    """Whether the mask is not the packed bits of the data tensor's elements."""
    data, mask, one_dim = _MASKS[api]
    want, got = packed(int(np.prod(_shape(args[data])))), _shape(args[mask])
    return got != (want,) if one_dim else int(np.prod(got)) != want


class NumpyMasks(OracleBackend):
    """Right: refuses a mask of other than numpy's packed size (both tensors given), and defers to
    the oracle elsewhere."""

    name = "numpy-masks"

    def call(self, api, args, product=None):
        data, mask, _ = _MASKS[api]
        if args.get(data) is not None and args.get(mask) is not None and mask_refused(api, args):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


class MaskSizeUnchecked(ignoring(NumpyMasks)):
    """Wrong: a mask of any size is taken (bits past its end read as zeros)."""

    name = "mask-size-unchecked"
    row = ("mask的shape不满足要求 / 元素个数需要为(align(self的元素个数,128)/8)，即self每个元素占一位，"
           "总位数补齐到128的整数倍。")


class UnpaddedMask(NumpyMasks):
    """Wrong: wants one bit per element rounded up to whole bytes only (no 128-bit padding), so
    it refuses the documented mask and takes a shorter one."""

    name = "unpadded-mask"

    def call(self, api, args, product=None):
        data, mask, _ = _MASKS[api]
        if args.get(data) is not None and args.get(mask) is not None:
            want = -(-int(np.prod(_shape(args[data]))) // 8)
            if int(np.prod(_shape(args[mask]))) != want:
                return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return OracleBackend.call(self, api, args, product)
