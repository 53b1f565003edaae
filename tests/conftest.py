from __future__ import annotations

import pytest

from conformance.generate.dry_run import shipped_specs


@pytest.fixture(scope="session")
def specs():
    return shipped_specs()


@pytest.fixture(scope="session")
def vocab():
    """The shipped vocabulary (the drafting tests draft against it)."""
    from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, specs_dir

    return load_vocabulary(specs_dir() / VOCABULARY_FILE)


@pytest.fixture()
def no_packs_left(monkeypatch):
    """No spec pack active before or after the test (run_suite(specs=...) and main() put the packs
    in the process's environment, where later tests would read them)."""
    import os

    from conformance.spec.loader import SPECS_ENV

    monkeypatch.delenv(SPECS_ENV, raising=False)
    yield
    os.environ.pop(SPECS_ENV, None)
