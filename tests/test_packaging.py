"""What a non-editable ``pip install .`` ships: every Python package of the source tree."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_python_package_is_listed_for_setuptools():
    tomllib = pytest.importorskip("tomllib")  # (Python 3.11+)
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in ROOT.glob("conformance/**/__init__.py")}
    found |= {"reference"}
    assert found - listed == set(), "add them to [tool.setuptools] packages in pyproject.toml"
