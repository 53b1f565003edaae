from __future__ import annotations

import pytest

from conformance.spec.loader import shipped_specs


@pytest.fixture(scope="session")
def specs():
    return shipped_specs()
