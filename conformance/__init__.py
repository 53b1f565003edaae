"""Conformance suite and spec checker for Huawei Ascend aclnn operators."""
from __future__ import annotations

from .case import Case, load_case
from .errors import CaseError, ConformanceError, SpecError, UsageError
from .oracle import Expectation, Violation, explain
from .spec_loader import load_specs, shipped_specs
from .tensor import Tensor, TensorMeta

__version__ = "0.1.0"
__all__ = ["Case", "CaseError", "ConformanceError", "Expectation", "SpecError", "Tensor",
           "TensorMeta", "UsageError", "Violation", "explain", "load_case", "load_specs",
           "shipped_specs", "__version__"]
