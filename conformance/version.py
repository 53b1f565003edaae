"""The tool's name and version; pyproject.toml is the one source of the version."""
from __future__ import annotations

from importlib import metadata

TOOL = "aclnn-conformance"


def tool_version() -> str:
    """The installed distribution's version ("0+unknown" when run from an uninstalled checkout)."""
    try:
        return metadata.version(TOOL)
    except metadata.PackageNotFoundError:
        return "0+unknown"
