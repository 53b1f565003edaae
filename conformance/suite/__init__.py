"""The conformance suite as a pytest package: ``pytest --pyargs conformance.suite``."""
