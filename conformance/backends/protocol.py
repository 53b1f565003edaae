"""The adapter protocol (DESIGN.md): ``name``, optional ``product``, ``call(api, args)``, and an
optional ``supports(api) -> bool`` (default: every operator; an operator it refuses is reported
"not run", never called).

``call`` runs both phases of the aclnn API and writes outputs in place into the output tensors'
arrays; it returns the status (an int) or a ``CallResult`` saying which phase returned it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.cases.tensor import Tensor
from conformance.spec.values import flat_arg, flat_tensors

PHASE_WORKSPACE = 1  # aclnnXxxGetWorkspaceSize: validates parameters
PHASE_EXECUTE = 2    # aclnnXxx: computes


@dataclass(frozen=True)
class CallResult:
    status: int
    phase: int | None = None  # None: the backend does not say


class AdapterError(Exception):
    """The backend broke the adapter protocol (judged as a ``crash`` finding naming what it did)."""

    kind = "crash"


def normalize_result(value: Any, backend_name: str) -> CallResult:
    """A ``CallResult`` from what ``call`` returned; ``AdapterError`` naming the backend otherwise."""
    if isinstance(value, CallResult):
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
        raise AdapterError(f"returned {shown} ({type(value).__name__}); call() must return an int "
                           "status or a CallResult")
    return CallResult(int(value))


def call_checked(backend: Any, api: str, args: dict[str, Any]) -> CallResult:
    """``backend.call`` held to the protocol: an int status back, and tensors written in place.

    An adapter that rebinds an output (``out.array = result``) instead of writing into the given
    view would leave the suite reading the untouched buffer; say so instead of judging garbage.
    """
    given = {n: (v, v.array) for n, _, v in flat_tensors(args) if isinstance(v, Tensor)}
    result = normalize_result(backend.call(api, args), str(getattr(backend, "name", "")))
    for name, (tensor, array) in given.items():
        now = flat_arg(args, name)
        if now is not tensor:
            raise AdapterError(f"replaced the argument {name!r} with {type(now).__name__} instead of "
                               "writing into the given tensor")
        if tensor.array is not array:
            got = tensor.array
            raise AdapterError(
                f"rebound {name}.array to a {getattr(got, 'dtype', type(got).__name__)} array of shape "
                f"{tuple(getattr(got, 'shape', ()))} instead of writing into the given {array.dtype} "
                f"view of shape {array.shape}")
    return result
