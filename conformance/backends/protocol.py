"""The adapter protocol (DESIGN.md): ``name``, optional ``product``, ``call(api, args)``.

``call`` runs both phases of the aclnn API and writes outputs in place into the output tensors'
arrays; it returns the status (an int) or a ``CallResult`` saying which phase returned it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

PHASE_WORKSPACE = 1  # aclnnXxxGetWorkspaceSize: validates parameters
PHASE_EXECUTE = 2    # aclnnXxx: computes


@dataclass(frozen=True)
class CallResult:
    status: int
    phase: int | None = None  # None: the backend does not say


@runtime_checkable
class Backend(Protocol):
    name: str

    def call(self, api: str, args: dict[str, Any]) -> int | CallResult: ...


def normalize_result(value: Any, backend_name: str) -> CallResult:
    """A ``CallResult`` from what ``call`` returned; ``TypeError`` naming the backend otherwise."""
    if isinstance(value, CallResult):
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"backend {backend_name!r} returned {value!r} ({type(value).__name__}); "
                        "call() must return an int status or a CallResult")
    return CallResult(int(value))
