"""One-line descriptions of calls and status codes, for every message the suite prints.

Messages follow one template: ``actual, but should be expected [api(args)]``.
"""
from __future__ import annotations

from typing import Any

from conformance.cases.tensor import TensorMeta
from conformance.spec.values import Scalar, TensorList
from conformance.spec.vocabulary import Vocabulary


def describe_meta(meta: TensorMeta) -> str:
    text = f"{meta.dtype}[{','.join(map(str, meta.shape))}]"
    if meta.strides is not None and not meta.contiguous:
        text += f"/strides({','.join(map(str, meta.strides))})"
    if meta.offset:
        text += f"+{meta.offset}"
    if meta.format != "ND":
        text += f"@{meta.format}"
    return text


def describe_call(api: str, metas: dict[str, Any]) -> str:
    """``api(name=value, ...)`` with tensors as ``DTYPE[shape]`` and null pointers as ``null``."""
    parts = []
    for name, value in metas.items():
        if isinstance(value, TensorMeta):
            shown = describe_meta(value)
        elif isinstance(value, TensorList):
            shown = f"[{','.join('null' if e is None else describe_meta(e) for e in value)}]"
        elif value is None:
            shown = "null"
        elif isinstance(value, tuple):
            shown = f"[{','.join(map(str, value))}]"
        else:
            shown = repr(value)
        parts.append(f"{name}={shown}")
    return f"{api}({', '.join(parts)})"


def describe_status(code: int | None, vocab: Vocabulary, phase: int | None = None) -> str:
    if code is None:
        return "no status"
    name = "success" if code == 0 else vocab.status_name(code)
    where = f" from phase {phase}" if phase is not None and code != 0 else ""
    return f"{code} ({name}){where}"


def shapes_of(metas: dict[str, Any]) -> dict[str, Any]:
    """The JSON-friendly structure of a case: tensor shapes/dtypes and attribute values."""
    out: dict[str, Any] = {}
    for name, value in metas.items():
        if isinstance(value, TensorList):
            out[name] = [describe_meta(e) if e is not None else None for e in value]
        elif isinstance(value, Scalar):
            out[name] = repr(value)
        else:
            out[name] = describe_meta(value) if isinstance(value, TensorMeta) else (
                list(value) if isinstance(value, tuple) else value)
    return out
