"""Loads the conformance plugin (its hooks and fixtures) for this directory's test items."""
pytest_plugins = ["conformance.run.pytest_plugin"]
