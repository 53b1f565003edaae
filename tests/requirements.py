"""Tools some tests need (torch, Chromium, a C compiler): skipped where absent on a developer's
machine, a failure where ``CONFORMANCE_REQUIRE`` names them (CI installs them: a missing one there
is a broken install step, not a reason to skip)."""
from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest

REQUIRE_ENV = "CONFORMANCE_REQUIRE"  # comma-separated tool names, or "all"


def required(tool: str) -> bool:
    names = {n.strip() for n in os.environ.get(REQUIRE_ENV, "").split(",") if n.strip()}
    return tool in names or "all" in names


def missing(tool: str, reason: str) -> NoReturn:
    """Skip the test (or the whole module, at module level) unless ``tool`` is required."""
    if required(tool):
        pytest.fail(f"{reason}, but {REQUIRE_ENV} requires {tool}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def import_or_skip(module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError:
        missing(module, f"{module} is not installed")
