from __future__ import annotations

import pytest

from conformance.generate.dry_run import shipped_specs


@pytest.fixture(scope="session")
def specs():
    return shipped_specs()
