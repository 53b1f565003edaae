"""Memory layouts of a tensor argument: the views a case may use instead of a dense tensor.

``strided`` skips every other element of the last dim, ``transposed`` swaps the last two dims in
memory, ``offset`` starts the view a few elements into its storage, ``stride0`` repeats one dim
(inputs only: an output with a zero stride would alias itself).
"""
from __future__ import annotations

from dataclasses import replace

from conformance.cases.tensor import TensorMeta, contiguous_strides
from conformance.spec.draws import Chooser
from conformance.spec.program import VIEWS

LAYOUTS = ("contiguous", *VIEWS)
OFFSET = 3


def with_layout(meta: TensorMeta, layout: str) -> TensorMeta:
    """``meta`` laid out as ``layout`` (unchanged where the layout does not apply to its shape)."""
    shape = meta.shape
    if layout == "strided" and shape:
        wide = contiguous_strides(shape[:-1] + (2 * shape[-1],))
        return replace(meta, strides=wide[:-1] + (2,))
    if layout == "transposed" and len(shape) >= 2:
        swapped = contiguous_strides(shape[:-2] + (shape[-1], shape[-2]))
        return replace(meta, strides=swapped[:-2] + (swapped[-1], swapped[-2]))
    if layout == "offset":
        return replace(meta, offset=OFFSET)
    if layout == "stride0":
        strides = list(contiguous_strides(shape))
        for i, dim in enumerate(shape):
            if dim > 1:
                strides[i] = 0
                return replace(meta, strides=tuple(strides))
    return meta


def choose_layouts(metas: dict[str, TensorMeta], outputs: set[str], allowed: tuple[str, ...],
                   ch: Chooser) -> dict[str, TensorMeta]:
    """Dense tensors unless a drawn ``views`` flag is set; then a layout per tensor from ``allowed``."""
    if not allowed or not ch.boolean("views"):
        return dict(metas)
    out = {}
    for name, meta in metas.items():
        options = [k for k in ("contiguous", *allowed) if not (k == "stride0" and name in outputs)]
        out[name] = with_layout(meta, ch.choice(options, f"layout_{name}"))
    return out
