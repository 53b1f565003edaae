"""Loads the conformance plugin for this directory's test items."""
from conformance.pytest_plugin import (  # noqa: F401 - pytest finds hooks and fixtures by name
    conformance_session,
    pytest_addoption,
    pytest_collection_finish,
    pytest_configure,
    pytest_generate_tests,
    pytest_runtest_logreport,
    pytest_sessionfinish,
)
