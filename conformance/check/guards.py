"""Byte-level checks around a call: inputs unchanged, output untouched on error, no write outside
the output view, and bit-identical outputs between two calls."""
from __future__ import annotations

import numpy as np

from conformance.cases.materialize import Materialized, dense_span, written_mask
from conformance.spec.model import WRITTEN, OperatorSpec
from conformance.spec.values import parameter_of


def _storages(m: Materialized, spec: OperatorSpec, roles: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The storage of every tensor of parameters in ``role``, by flat name: each element of a
    tensor list is checked as a tensor of its own (``out[1]``)."""
    return {flat: s for flat, s in m.storages().items() if spec.params[parameter_of(flat)].role in roles}


def changed_inputs(m: Materialized, spec: OperatorSpec) -> list[str]:
    """Input tensors (list elements by ``x[i]``) whose storage is not byte-identical after the call."""
    return [name for name, s in _storages(m, spec, ("input",)).items() if s.tobytes() != m.before[name]]


def touched_outputs(m: Materialized, spec: OperatorSpec) -> list[str]:
    """Outputs whose storage changed at all (a rejected call must leave them byte-identical)."""
    return [name for name, s in _storages(m, spec, WRITTEN).items() if s.tobytes() != m.before[name]]


def out_of_bounds_writes(m: Materialized, spec: OperatorSpec) -> dict[str, int]:
    """Per output tensor: how many storage elements outside the view changed."""
    found: dict[str, int] = {}
    storages = _storages(m, spec, WRITTEN)
    for name in storages:
        storage = storages[name]
        before = np.frombuffer(m.before[name], np.uint8).reshape(storage.size, storage.itemsize)
        after = storage.view(np.uint8).reshape(storage.size, storage.itemsize)
        span = dense_span(m.metas[name])
        if span is not None:  # (the usual view: only the margins around it are compared)
            changed = sum(int((before[part] != after[part]).any(axis=1).sum())
                          for part in (slice(0, span[0]), slice(span[1], None)))
        else:
            changed = int(((before != after).any(axis=1) & ~written_mask(m.metas[name], storage.size)).sum())
        if changed:
            found[name] = changed
    return found


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit-identical arrays (NaN payloads and -0.0 included)."""
    return a.shape == b.shape and np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()
