"""Byte-level checks around a call: inputs unchanged, output untouched on error, no write outside
the output view, and bit-identical outputs between two calls."""
from __future__ import annotations

import numpy as np

from conformance.cases.materialize import Materialized, written_mask
from conformance.spec.model import OperatorSpec


def changed_inputs(m: Materialized, spec: OperatorSpec) -> list[str]:
    """Input parameters whose storage buffer is not byte-identical after the call."""
    storages = m.storages()
    return [name for name in spec.params_of("tensor", "input")
            if name in storages and storages[name].tobytes() != m.before[name]]


def touched_outputs(m: Materialized, spec: OperatorSpec) -> list[str]:
    """Outputs whose storage changed at all (a rejected call must leave them byte-identical)."""
    storages = m.storages()
    return [name for name in spec.params_of("tensor", "output")
            if name in storages and storages[name].tobytes() != m.before[name]]


def out_of_bounds_writes(m: Materialized, spec: OperatorSpec) -> dict[str, int]:
    """Per output: how many storage elements outside the view changed."""
    found: dict[str, int] = {}
    storages = m.storages()
    for name in spec.params_of("tensor", "output"):
        if name not in storages:
            continue
        storage = storages[name]
        before = np.frombuffer(m.before[name], np.uint8).reshape(storage.size, storage.itemsize)
        after = storage.view(np.uint8).reshape(storage.size, storage.itemsize)
        changed = (before != after).any(axis=1) & ~written_mask(m.metas[name], storage.size)
        if changed.any():
            found[name] = int(changed.sum())
    return found


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit-identical arrays (NaN payloads and -0.0 included)."""
    return a.shape == b.shape and np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()
