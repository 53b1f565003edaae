"""Conformance suite and spec checker for Huawei Ascend aclnn operators."""
from __future__ import annotations

from conformance.version import tool_version

__version__ = tool_version()

from conformance.backends.loading import load_backend  # noqa: E402
from conformance.backends.protocol import CallResult  # noqa: E402
from conformance.cases.case import Case, load_case  # noqa: E402
from conformance.cases.oracle import Expectation, Violation, explain  # noqa: E402
from conformance.cases.tensor import Tensor, TensorMeta  # noqa: E402
from conformance.errors import CaseError, ConformanceError, SpecError, UsageError  # noqa: E402
from conformance.generate.dry_run import load_specs, shipped_specs  # noqa: E402

__all__ = ["CallResult", "Case", "CaseError", "ConformanceError", "Expectation", "SpecError", "Tensor",
           "TensorMeta", "UsageError", "Violation", "explain", "load_backend", "load_case", "load_specs",
           "run_suite", "shipped_specs", "__version__"]


def __getattr__(name: str):  # run_suite pulls in pytest: import it only when asked for
    if name == "run_suite":
        from conformance.run.api import run_suite
        return run_suite
    raise AttributeError(name)
