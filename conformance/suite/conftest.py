"""Loads the conformance plugin (its hooks and fixtures) for this directory's test items."""
pytest_plugins = ["conformance.pytest_plugin"]
